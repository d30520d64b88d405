/* Private pieces of the effect layer (effect.c) shared with its embedded
 * headers table (generated from data/reshade/ at build time). */
#ifndef SL_EFFECT_H
#define SL_EFFECT_H

#include <stddef.h>

/* Include files the effect layer provides itself (ReShade.fxh, …): they
 * are found under this pseudo directory, searched after the user's. */
#define SL_EFFECT_BUILTIN_DIR "<gegl-shaders>"

typedef struct
{
  const char *name;
  const char *text;
} SlEffectBuiltinFile;

/* NULL-name terminated. */
extern const SlEffectBuiltinFile sl_effect_builtin_files[];

#endif
