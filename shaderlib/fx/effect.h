/* The effect layer's private interface, shared by its files and by the
 * table of embedded headers (generated from data/reshade/ at build time):
 * fx_compile.c compiles an effect into the SlEffect below, with the scan
 * of fx_scan.c and fx_decl.c (see fx/fx_scan.h); fx_run.c runs one of its
 * techniques. */
#ifndef SL_EFFECT_H
#define SL_EFFECT_H

#include "api/program.h"
#include "base/loc.h"

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

typedef struct
{
  const char     *name;          /* mangled, as the HLSL text spells it */
  int             texture;       /* index, -1 = none (the back buffer) */
  SlSamplerState  state;
  bool            state_object;  /* SM4 SamplerState: no texture */
} ESampler;

struct SlEffect
{
  gint       ref_count;
  SlArena   *arena;
  int        buffer_width, buffer_height;
  /* BUFFER_WIDTH and BUFFER_HEIGHT as the effect's text sees them (a host
   * may define them, e.g. at a coarser mip level): mouse positions are in
   * these pixels. */
  int        screen_width, screen_height;
  /* ReShade constructs were seen: its back buffer is an 8-bit target. */
  bool       reshade;
  GArray    *textures;      /* SlEffectTexture */
  GArray    *texture_locs;  /* SlLoc of each texture's declaration */
  const char *filename;     /* the effect file, for diagnostics */
  GPtrArray *texture_hlsl;  /* mangled name of each texture */
  GArray    *samplers;      /* ESampler */
  GArray    *techniques;    /* SlEffectTechnique */
  GArray    *params;        /* SlParam (union; strings owned by programs) */
  GPtrArray *programs;      /* SlProgram*, owned */
};

/* What the samplers of a compiled pass read (fx_compile.c). */
const ESampler *fx_find_sampler (const SlEffect *fx, const char *name);
int             fx_slot_texture (const SlEffect *fx, const SlSamplerInfo *si);

#endif
