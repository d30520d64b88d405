/* Reporting a diagnostic by its kind.
 *
 * Inside shaderlib every diagnostic names its row of the table in
 * base/diag_codes.def (SL_DIAG_HLSL_UNDECLARED, ...), which gives it its
 * stable code and its severity; the public sl_diagnostics_add() with a
 * free code string is for hosts.  The front ends' own helpers (hlsl_error,
 * fx_error, sl_pp_report, ...) take a kind and end here. */
#ifndef SL_DIAG_H
#define SL_DIAG_H

#include "shaderlib.h"

#include <stdarg.h>
#include <stdbool.h>

typedef enum
{
#define SL_DIAG(id, code, severity, description) SL_DIAG_##id,
#include "base/diag_codes.def"
#undef SL_DIAG
  SL_DIAG_N_KINDS
} SlDiagKind;

const char *sl_diag_code        (SlDiagKind kind);
SlSeverity  sl_diag_severity    (SlDiagKind kind);
const char *sl_diag_description (SlDiagKind kind);

/* Adds a diagnostic of @kind: its code and severity from the table. */
void        sl_diag             (SlDiagnostics *diags,
                                 SlDiagKind     kind,
                                 const char    *file,
                                 int            line,
                                 int            column,
                                 const char    *format,
                                 ...)
  __attribute__ ((format (printf, 6, 7)));
void        sl_diag_v           (SlDiagnostics *diags,
                                 SlDiagKind     kind,
                                 const char    *file,
                                 int            line,
                                 int            column,
                                 const char    *format,
                                 va_list        args)
  __attribute__ ((format (printf, 6, 0)));

/* True when the environment asks for test-run checks (SHADERLIB_VALIDATE
 * set to anything but "" or "0").  Read on each call, never cached:
 * hosts compile on several threads and tests switch it. */
bool        sl_validation_requested (void);

/* True when the environment switches off the span program's fused pairs
 * and reads (SHADERLIB_NO_FUSION set to anything but "" or "0"), for
 * tests that hold fusion to the plain program's bits.  Read on each
 * call, like sl_validation_requested(). */
bool        sl_fusion_disabled (void);

#endif
