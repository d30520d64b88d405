/* The draw: everything one render of a shader op needs, shared by
 * shader:run, the per-file ops and the effect ops.  See draw.c. */
#ifndef GS_DRAW_H
#define GS_DRAW_H

#include <gegl.h>
#include <gegl-plugin.h>

#include "shaderlib.h"

#define GS_MAX_PADS 3   /* image inputs: input, aux, aux2 */
#define GS_N_LEVELS 8   /* mip levels with their own draw */

typedef struct
{
  /* What runs: a prepared binding, or for an effect op a prepared run.
   * NULL when preparing failed; the op then passes its input through. */
  SlProgram       *program;    /* owned reference */
  SlBinding       *binding;
  SlEffect        *effect;     /* owned reference */
  SlEffectRun     *run;
  GeglRectangle    viewport;   /* the input's bounding box at @level */
  gint             level;
  GeglRectangle    pad_rect[GS_MAX_PADS];  /* each pad's box at @level */
  gboolean         bounded;    /* sampling reach known */
  gint             reach_left, reach_top, reach_right, reach_bottom;
  /* Stand in for the pads until process() supplies the real pixels, so
   * that the binding never holds a dangling texture view. */
  gfloat           placeholder_texel[4];
  SlTexture        placeholder[GS_MAX_PADS];
  /* The draw's own images by slot (image-file textures); NULL slots read
   * the pads. */
  const SlTexture *textures[SL_MAX_SLOTS];
  GPtrArray       *owned;      /* freed with the draw */
  /* An effect that reads its whole input reads it once per draw: its
   * passes before the last are rendered once, from this. */
  GMutex           input_lock;
  gfloat          *whole;
  SlTexture        whole_texture;
} GsDraw;

/* A level-0 rectangle as the pixels of mip level @level cover it. */
GeglRectangle gs_scale_rect         (const GeglRectangle *rect,
                                     gint                 level);

/* The diagnostics as one text without a trailing newline; "" for none.
 * Free with g_free(). */
gchar        *gs_format_diagnostics (SlDiagnostics *diags);

/* A draw of the input box @bbox (level 0) at @level, with pad 0's
 * placeholder; the other pads read the input until gs_draw_set_pad(). */
GsDraw       *gs_draw_new           (const GeglRectangle *bbox,
                                     gint                 level);
void          gs_draw_set_pad       (GsDraw              *draw,
                                     gint                 pad,
                                     const GeglRectangle *bbox);
GsDraw       *gs_draw_ref           (GsDraw              *draw);
void          gs_draw_unref         (GsDraw              *draw);
/* Frees @data with the draw. */
void          gs_draw_own           (GsDraw              *draw,
                                     gpointer             data,
                                     GDestroyNotify       destroy);

/* Starts the draw's binding for @program at the draw's viewport: the
 * caller binds textures and sets parameters, then gs_draw_prepare(). */
SlBinding    *gs_draw_bind          (GsDraw              *draw,
                                     SlProgram           *program);
/* Prepares the binding (when @ok: every setting took) and measures the
 * sampling reach; a draw whose reach the op cannot use (@may_bound FALSE)
 * reads its whole input.  On failure the binding is dropped.  Returns
 * whether the draw can render. */
gboolean      gs_draw_prepare       (GsDraw              *draw,
                                     gboolean             ok,
                                     gboolean             may_bound,
                                     SlDiagnostics       *diags);
/* The memory budget of one render: GEGL_SHADERS_MEMORY_BUDGET, else the
 * library's default (warned about once when it does not parse). */
gsize         gs_draw_memory_budget (void);
/* The same for an effect: takes @run (prepared or not) and @effect; a
 * run that needs the whole input is checked against its memory budget
 * (sl_effect_run_set_memory_budget) with that image added. */
gboolean      gs_draw_prepare_effect (GsDraw             *draw,
                                      SlEffect           *effect,
                                      SlEffectRun        *run,
                                      gboolean            ok,
                                      SlDiagnostics      *diags);

/* What the op's GEGL region callbacks answer for a level-0 draw. */
GeglRectangle gs_draw_required      (const GsDraw        *draw,
                                     const GeglRectangle *roi);
GeglRectangle gs_draw_invalidated   (const GsDraw        *draw,
                                     const GeglRectangle *region,
                                     const GeglRectangle *bbox);
GeglRectangle gs_draw_cached        (const GsDraw        *draw,
                                     const GeglRectangle *roi);

/* Copies @input to @output over @result (level-0 coordinates) at @level. */
void          gs_pass_through       (GeglBuffer          *input,
                                     GeglBuffer          *output,
                                     const GeglRectangle *result,
                                     gint                 level,
                                     const Babl          *format);

/* The body of every op's process(): renders @draw over @result at
 * @level from @input (the primary pad) and @textures (SL_MAX_SLOTS
 * images read this call, e.g. aux pads; may be NULL) and writes
 * transparent black outside the viewport.  A NULL draw, or one that cannot render, passes the input
 * through.  Returns FALSE when memory ran out before anything was
 * rendered: the input was passed through and *failure (to free) says
 * why, for the op's "error" property.  Returns TRUE with *failure set
 * when a band hit a run-time limit (a runaway loop): everything was
 * written, and the op shows the diagnostic as it shows a compile
 * error. */
gboolean      gs_draw_render        (GeglOperation          *operation,
                                     GsDraw                 *draw,
                                     GeglBuffer             *input,
                                     const SlTexture *const *textures,
                                     GeglBuffer             *output,
                                     const GeglRectangle    *result,
                                     gint                    level,
                                     gchar                 **failure);

/* Lets GEGL cache the node's output only when @whole_input (the shader
 * may read anywhere, so it renders in one go); see draw.c. */
void          gs_operation_set_caching (GeglOperation    *operation,
                                        gboolean          whole_input);

#endif
