/* Parameter values: the params-string parser and the store into
 * constant-buffer words; see params.c. */
#ifndef SL_PARAMS_H
#define SL_PARAMS_H

#include "shaderlib.h"

/* Parses a "name=value; name=v,v,v" string, calling @set per parameter. */
bool sl_parse_params_string (const char *params, SlDiagnostics *diags,
                             bool (*set) (void *target, const char *name,
                                          const float *values, int n_values,
                                          SlDiagnostics *diags),
                             void *target);

/* Writes @p's components from @values (the last value repeats when there
 * are fewer) into @constants at @p's layout, converted to @p's type as a
 * program of shader model 4 (@sm4) or 1–3 reads them.  Words past
 * @n_constants are dropped. */
void sl_param_store (const SlParam *p, bool sm4, const float *values, int n_values,
                     uint32_t *constants, size_t n_constants);

#endif
