/* Running an effect (SlEffectRun): one technique's passes over the span VM.
 *
 * Every pass is bound with the ordinary SlBinding API.  A parameter the
 * caller sets goes to every pass that declares it; a uniform with a host
 * source (every one of ReShade's; see SlEffectHostValues) takes the host
 * values unless the caller set it.  The run owns the storage of the
 * effect's textures: targets are float buffers with their mip chain,
 * images are resampled to their declared size (an image the host did not
 * give reads as zero), COLOR is the input (or what earlier passes rendered
 * into the back buffer, clamped to [0, 1] in a ReShade effect as its
 * unorm back buffer would be) and DEPTH one flat texel.  A pass that
 * samples a texture it renders to reads a copy taken before the pass.
 *
 * Local rendering (render_local), where the technique allows it: every
 * render computes, for its own rectangle, the parts of the earlier
 * passes' targets that the rectangle reads, found by going back from the
 * last pass through each slot's sampling reach (plan_local), in buffers
 * of its own; nothing is cached, so threads render their rectangles at
 * once and no buffer grows with the image beyond what a rectangle reads.
 * Otherwise all passes before the last one render whole viewports, once,
 * into the cached float targets (quantised to the declared format, with
 * mips rebuilt when asked for); the last pass renders only the rectangle
 * the caller wants, so hosts can tile it over threads.  Either way
 * sl_effect_run_get_input_rect says how much input a rectangle reads.  Blending runs after the VM: a pass renders into a scratch buffer
 * filled with a sentinel NaN, and each pixel the shader wrote (not
 * discarded) is blended into the destination, in linear light when the
 * pass writes sRGB.  Vertex shaders are never run; a pass sees TEXCOORDn =
 * the pixel centre of its viewport, which is what full-screen-triangle
 * vertex shaders give.
 *
 * Memory: every buffer whose size the effect or the image decides is
 * counted against the run's budget before it is allocated (a local
 * render counts its own parts in render_local; otherwise check_memory:
 * the host's own images, the intermediate back buffers and scratch images
 * of the passes before the last, then the textures the technique uses in
 * the order they are declared, so the error lands on the declaration that
 * tips the sum over), and allocated with g_try_*: a texture the technique
 * never touches takes no memory, and an allocation that fails is an
 * error, never an abort. */
#include "base/diag.h"
#include "fx/effect.h"
#include "api/params.h"
#include "api/program.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* Marks target texels the shader did not write (discard, write mask). */
#define SENTINEL_BITS       0x7fa5e1f1u

typedef struct
{
  int       width, height, n_levels;
  float    *level[SL_MAX_MIP_LEVELS];
  bool      dirty;      /* level 0 holds more than the zeros it was made with */
  SlTexture tex;
} Store;

struct SlEffectRun
{
  SlEffect                *fx;
  const SlEffectTechnique *tech;
  SlBinding              **bindings;      /* per pass */
  unsigned                *color_slots;   /* per pass: slots reading the back buffer */
  SlTexture               *color_views;   /* per pass: the back buffer it reads */
  Store                   *stores;        /* per effect texture */
  Store                   *before;        /* per effect texture: a copy for
                                             passes that read their target */
  unsigned                *reads_target;  /* per pass: targets it samples,
                                             bit per render-target slot */
  bool                    *image_set;
  GHashTable              *user_set;      /* parameter names the caller set */
  SlEffectHostValues       host;
  SlTexture                input;
  bool                     have_input;
  float                    depth_texel[4];
  SlTexture                depth_tex;
  float                   *backbuffer;    /* when earlier passes wrote it */
  SlTexture                bb_tex;
  int                      n_exec;        /* passes rendered in advance */
  bool                     final_pass;    /* the last pass writes the back buffer */
  bool                     prepared, executed, exec_ok;
  GMutex                   lock;
  bool                    *used;          /* per effect texture: a pass reads or writes it */
  bool                    *needs_before;  /* per effect texture: a pass reads its own target */
  bool                    *live;          /* per pass: its output reaches the image */
  /* Per pass × slot: what the slot reads (SLOT_COLOR, SLOT_OWN or a
   * render-target texture index). */
  int                     *slot_texture;
  /* Every read of the back buffer and of the targets stays within a
   * reach known in texture coordinates: each render computes the parts
   * of the passes before the last that its rectangle needs (local
   * rendering, render_local) instead of whole targets. */
  bool                     local, allow_local;
  size_t                   budget, host_bytes;
};

#define SLOT_COLOR (-1)   /* the back buffer */
#define SLOT_OWN   (-2)   /* the binding's own view: images, DEPTH, nothing */

/* Byte counts saturate: a sum that does not fit is over any budget. */
static size_t
sat_add (size_t a, size_t b)
{
  return a > SIZE_MAX - b ? SIZE_MAX : a + b;
}

static size_t
image_bytes (int w, int h)
{
  size_t n;
  if (!g_size_checked_mul (&n, (size_t) MAX (w, 1), (size_t) MAX (h, 1))
      || !g_size_checked_mul (&n, n, 4 * sizeof (float)))
    return SIZE_MAX;
  return n;
}

static void
store_clear (Store *st)
{
  for (int i = 0; i < SL_MAX_MIP_LEVELS; i++)
    g_free (st->level[i]);
  memset (st, 0, sizeof *st);
}

/* The bytes store_alloc takes: level 0 and the mips below it. */
static size_t
store_bytes (int w, int h, int levels)
{
  size_t sum = 0;
  levels = CLAMP (levels, 1, SL_MAX_MIP_LEVELS);
  for (int l = 0; l < levels; l++)
    {
      int lw = MAX (w >> l, 1), lh = MAX (h >> l, 1);
      sum = sat_add (sum, image_bytes (lw, lh));
      if (lw == 1 && lh == 1)
        break;
    }
  return sum;
}

/* Gives @st its size and a level-0 view without pixels: what a binding
 * needs to know of a texture before a render allocates it (or, in local
 * rendering, never does). */
static void
store_describe (Store *st, int w, int h, int levels)
{
  store_clear (st);
  st->width = w;
  st->height = h;
  st->n_levels = CLAMP (levels, 1, SL_MAX_MIP_LEVELS);
  st->tex.kind = SL_TEXTURE_2D;
  st->tex.n_levels = 1;
  st->tex.levels[0] = (SlTextureLevel) {
    .width = w, .height = h, .depth = 1,
    .row_stride = (size_t) w * 4, .slice_stride = (size_t) w * h * 4,
  };
}

/* False when memory runs out (the store is then empty). */
static bool
store_alloc (Store *st, int w, int h, int levels)
{
  store_describe (st, w, h, levels);
  for (int l = 0; l < st->n_levels; l++)
    {
      int lw = MAX (w >> l, 1), lh = MAX (h >> l, 1);
      st->level[l] = g_try_malloc0_n ((size_t) lw * lh, 4 * sizeof (float));
      if (!st->level[l])
        {
          store_clear (st);
          return false;
        }
      st->tex.levels[l] = (SlTextureLevel) {
        .width = lw, .height = lh, .depth = 1,
        .row_stride = (size_t) lw * 4, .slice_stride = (size_t) lw * lh * 4,
        .texels = st->level[l],
      };
      if (lw == 1 && lh == 1)
        {
          st->n_levels = l + 1;
          break;
        }
    }
  st->tex.n_levels = st->n_levels;
  return true;
}

/* Each level is the 2×2 box average of the one above (edges clamp). */
static void
store_build_mips (Store *st)
{
  for (int l = 1; l < st->n_levels; l++)
    {
      const SlTextureLevel *a = &st->tex.levels[l - 1], *b = &st->tex.levels[l];
      for (int y = 0; y < b->height; y++)
        for (int x = 0; x < b->width; x++)
          for (int c = 0; c < 4; c++)
            {
              float sum = 0;
              for (int k = 0; k < 4; k++)
                {
                  int sx = MIN (2 * x + (k & 1), a->width - 1), sy = MIN (2 * y + (k >> 1), a->height - 1);
                  sum += a->texels[(size_t) sy * a->row_stride + (size_t) sx * 4 + c];
                }
              st->level[l][(size_t) y * b->row_stride + (size_t) x * 4 + c] = sum * 0.25f;
            }
    }
}

static const float *
texel_at (const SlTexture *t, int x, int y)
{
  const SlTextureLevel *l = &t->levels[0];
  if (t->window_width > 0)
    {
      x = CLAMP (x, t->window_x, t->window_x + t->window_width - 1) - t->window_x;
      y = CLAMP (y, t->window_y, t->window_y + MAX (t->window_height, 1) - 1) - t->window_y;
    }
  else
    {
      x = CLAMP (x, 0, l->width - 1);
      y = CLAMP (y, 0, l->height - 1);
    }
  return l->texels + (size_t) y * l->row_stride + (size_t) x * 4;
}

/* Copies the texels of @t over (@x, @y, @w, @h), edges clamped as
 * texel_at() does, into @dst (@stride floats a row); whole rows at once
 * where the rectangle lies inside the texture (or its window). */
static void
copy_texels (const SlTexture *t, int x, int y, int w, int h, float *dst, size_t stride)
{
  const SlTextureLevel *l = &t->levels[0];
  bool inside = t->window_width > 0
                ? x >= t->window_x && y >= t->window_y && x + w <= t->window_x + t->window_width
                  && y + h <= t->window_y + t->window_height
                : x >= 0 && y >= 0 && x + w <= l->width && y + h <= l->height;
  for (int j = 0; j < h; j++)
    if (inside)
      memcpy (dst + (size_t) j * stride, texel_at (t, x, y + j), (size_t) w * 4 * sizeof (float));
    else
      for (int i = 0; i < w; i++)
        memcpy (dst + (size_t) j * stride + (size_t) i * 4, texel_at (t, x + i, y + j), 4 * sizeof (float));
}

static float
to_half (float v)
{
  if (!isfinite (v))
    return v;
  float a = fabsf (v);
  if (a >= 65520.0f)
    return copysignf (INFINITY, v);
  if (a < 6.103515625e-05f)   /* subnormal halves: steps of 2^-24 */
    return copysignf (nearbyintf (a * 16777216.0f) / 16777216.0f, v);
  int e;
  float m = frexpf (a, &e);   /* a = m · 2^e, m in [0.5, 1) */
  return copysignf (ldexpf (nearbyintf (m * 2048.0f) / 2048.0f, e), v);
}

static float
unorm (float v, float max)
{
  if (isnan (v))
    return 0.0f;
  return nearbyintf (CLAMP (v, 0.0f, 1.0f) * max) / max;
}

/* Stores a texel the way the declared format would hold it. */
static void
quantize (const char *format, float *px)
{
  int n = g_str_has_prefix (format, "RGB") ? 4 : g_str_has_prefix (format, "RG") ? 2 : 1;
  const char *bits = format + (n == 4 ? 4 : n == 2 ? 2 : 1);
  if (!strcmp (format, "RGB10A2"))
    {
      for (int c = 0; c < 3; c++)
        px[c] = unorm (px[c], 1023.0f);
      px[3] = unorm (px[3], 3.0f);
      return;
    }
  for (int c = 0; c < n; c++)
    {
      if (!strcmp (bits, "8"))
        px[c] = unorm (px[c], 255.0f);
      else if (!strcmp (bits, "16"))
        px[c] = unorm (px[c], 65535.0f);
      else if (!strcmp (bits, "16F"))
        px[c] = to_half (px[c]);
      else if (strchr (bits, 'I') || strchr (bits, 'U'))
        px[c] = truncf (px[c]);
    }
  for (int c = n; c < 3; c++)
    px[c] = 0.0f;
  if (n < 4)
    px[3] = 1.0f;
}

static float
srgb_encode (float v)
{
  if (!(v > 0.0f))
    return 0.0f;
  return v <= 0.0031308f ? v * 12.92f : 1.055f * powf (v, 1.0f / 2.4f) - 0.055f;
}

static float
srgb_decode (float v)
{
  return v <= 0.04045f ? v / 12.92f : powf ((v + 0.055f) / 1.055f, 2.4f);
}

static float
factor (SlBlendFactor f, const float *s, const float *d, int c)
{
  switch (f)
    {
    case SL_BLEND_ZERO: return 0.0f;
    case SL_BLEND_ONE: return 1.0f;
    case SL_BLEND_SRC_COLOR: return s[c];
    case SL_BLEND_INV_SRC_COLOR: return 1.0f - s[c];
    case SL_BLEND_SRC_ALPHA: return s[3];
    case SL_BLEND_INV_SRC_ALPHA: return 1.0f - s[3];
    case SL_BLEND_DEST_COLOR: return d[c];
    case SL_BLEND_INV_DEST_COLOR: return 1.0f - d[c];
    case SL_BLEND_DEST_ALPHA: return d[3];
    case SL_BLEND_INV_DEST_ALPHA: return 1.0f - d[3];
    }
  return 1.0f;
}

static float
apply_op (SlBlendOp op, float s, float fs, float d, float fd)
{
  switch (op)
    {
    case SL_BLEND_OP_ADD: return s * fs + d * fd;
    case SL_BLEND_OP_SUBTRACT: return s * fs - d * fd;
    case SL_BLEND_OP_REV_SUBTRACT: return d * fd - s * fs;
    case SL_BLEND_OP_MIN: return MIN (s, d);
    case SL_BLEND_OP_MAX: return MAX (s, d);
    }
  return s;
}

static bool
is_sentinel (float v)
{
  uint32_t u;
  memcpy (&u, &v, 4);
  return u == SENTINEL_BITS;
}

/* Combines what the shader wrote (@src, sentinels where it did not) into
 * @dst per the pass's write mask, blending and sRGB states. */
static void
combine (const SlEffectPass *p, const float *src, float *dst, const char *format)
{
  if (is_sentinel (src[0]) && is_sentinel (src[1]) && is_sentinel (src[2]) && is_sentinel (src[3]))
    return;   /* discarded */
  float s[4], d[4], r[4];
  for (int c = 0; c < 4; c++)
    {
      d[c] = dst[c];
      s[c] = is_sentinel (src[c]) ? dst[c] : src[c];
      if (p->srgb_write && c < 3)
        d[c] = srgb_decode (d[c]);
    }
  for (int c = 0; c < 4; c++)
    {
      if (!p->blend)
        r[c] = s[c];
      else if (c < 3)
        r[c] = apply_op (p->blend_op, s[c], factor (p->src_blend, s, d, c), d[c], factor (p->dest_blend, s, d, c));
      else
        r[c] = apply_op (p->blend_op_alpha, s[c], factor (p->src_blend_alpha, s, d, c), d[c],
                         factor (p->dest_blend_alpha, s, d, c));
    }
  for (int c = 0; c < 4; c++)
    if ((p->write_mask & (1u << c)) && !is_sentinel (src[c]))
      dst[c] = p->srgb_write && c < 3 ? srgb_encode (r[c]) : r[c];
  if (format && strcmp (format, "CLAMP"))
    quantize (format, dst);
  else if (format)
    /* The image as the last pass leaves it: what an 8-bit back buffer can
     * hold, without its steps. */
    for (int c = 0; c < 4; c++)
      dst[c] = isnan (dst[c]) ? 0.0f : CLAMP (dst[c], 0.0f, 1.0f);
}

/* What the back buffer holds: in a ReShade effect a unorm target
 * (BUFFER_COLOR_BIT_DEPTH 8), so later passes read values it could hold
 * — no NaN from pow() of a negative colour, nothing above 1 — and so does
 * the image the last pass leaves.  The values are clamped to [0, 1] but
 * not rounded to 8 bits ("CLAMP"): a GIMP image keeps its precision.
 * Other effects render into float, as before. */
static const char *
backbuffer_format (const SlEffectRun *run)
{
  return run->fx->reshade ? "CLAMP" : NULL;
}

/* Without blending, write mask or sRGB writes, into float targets, the
 * combine step copies what the shader wrote and keeps what it discarded,
 * which is what rendering straight into the destination does: such a
 * pass skips the scratch copy (a whole image for the passes before the
 * last).  So does a pass into the clamped back buffer whose program
 * clamps its own output (sl_binding_set_saturate_outputs) and writes all
 * four components: the combine step would clamp exactly those values and
 * keep a discarded pixel as it is, as the render leaves it.  (A
 * component the program never writes keeps the image's value, which the
 * combine step would clamp.) */
static bool
pass_is_direct (const SlEffectRun *run, const SlEffectPass *p, const char *bb_format)
{
  int n = MAX (p->n_render_targets, 1);
  bool direct = !p->blend && !p->srgb_write && (p->write_mask & 0xfu) == 0xfu;
  for (int t = 0; direct && t < n; t++)
    {
      int ti = p->n_render_targets ? p->render_targets[t] : -1;
      const char *format = ti >= 0 ? g_array_index (run->fx->textures, SlEffectTexture, ti).format : bb_format;
      direct = (!p->n_render_targets || ti >= 0) && (!format || !strcmp (format, "RGBA32F"));
      if (!direct && !p->n_render_targets && format && !strcmp (format, "CLAMP"))
        direct = sl_binding_writes_all_components (run->bindings[p - run->tech->passes]);
    }
  return direct;
}

/* Passes that write the back buffer with nothing to blend or mask clamp
 * their output themselves (pass_is_direct). */
static bool
pass_saturates (const SlEffectRun *run, const SlEffectPass *p)
{
  return backbuffer_format (run) && !p->n_render_targets && !p->blend && !p->srgb_write
         && (p->write_mask & 0xfu) == 0xfu;
}

/* combine() for a row of @w pixels of a pass that writes the ReShade
 * back buffer without blending, sRGB or write mask (every ReShade
 * filter's last pass), with the same result: a discarded pixel keeps
 * @dst as it is, any other takes the components the shader wrote and is
 * clamped to [0, 1].  combine() compared the format string per pixel and
 * went through the blend's general case, a tenth of a blur's time. */
static void
combine_clamp_row (const float *src, float *dst, int w)
{
  for (int i = 0; i < w; i++, src += 4, dst += 4)
    {
      bool s0 = is_sentinel (src[0]), s1 = is_sentinel (src[1]);
      bool s2 = is_sentinel (src[2]), s3 = is_sentinel (src[3]);
      if (s0 && s1 && s2 && s3)
        continue;
      float v[4] = { s0 ? dst[0] : src[0], s1 ? dst[1] : src[1], s2 ? dst[2] : src[2],
                     s3 ? dst[3] : src[3] };
      for (int c = 0; c < 4; c++)
        dst[c] = isnan (v[c]) ? 0.0f : CLAMP (v[c], 0.0f, 1.0f);
    }
}

/* Renders pass @pi over a rectangle into @dst (one per render target,
 * rectangle-relative), blending with what they hold.  @bb_format is what
 * the back buffer holds when the pass writes it (backbuffer_format). */
static bool
render_pass (SlEffectRun *run, int pi, SlScratch *scratch, int x, int y, int w, int h,
             const SlTexture *const *textures, const SlTarget *dst, const char *bb_format,
             SlDiagnostics *diags)
{
  const SlEffectPass *p = &run->tech->passes[pi];
  int n = MAX (p->n_render_targets, 1);
  SlTarget tmp[SL_EFFECT_MAX_TARGETS];
  if (pass_is_direct (run, p, bb_format))
    return sl_binding_render (run->bindings[pi], scratch, x, y, w, h, textures, dst, n, diags);
  float sentinel;
  uint32_t bits = SENTINEL_BITS;
  memcpy (&sentinel, &bits, 4);
  for (int t = 0; t < n; t++)
    {
      tmp[t].row_stride = (size_t) w * 4;
      tmp[t].pixels = g_try_malloc_n ((size_t) w * h, 4 * sizeof (float));
      if (!tmp[t].pixels)
        {
          for (int k = 0; k < t; k++)
            g_free (tmp[k].pixels);
          sl_diag (diags, SL_DIAG_API_EFFECT_OUT_OF_MEMORY, run->fx->filename, 0, 0,
                   "out of memory for a %d×%d scratch image of pass %d", w, h, pi + 1);
          return false;
        }
      for (size_t k = 0; k < (size_t) w * h * 4; k++)
        tmp[t].pixels[k] = sentinel;
    }
  bool ok = sl_binding_render (run->bindings[pi], scratch, x, y, w, h, textures, tmp, n, diags);
  for (int t = 0; t < n; t++)
    {
      int ti = p->n_render_targets ? p->render_targets[t] : -1;
      const char *format = ti >= 0 ? g_array_index (run->fx->textures, SlEffectTexture, ti).format : bb_format;
      if (p->n_render_targets && ti < 0)
        {
          g_free (tmp[t].pixels);
          continue;
        }
      if (!p->blend && !p->srgb_write && (p->write_mask & 0xfu) == 0xfu && format
          && !strcmp (format, "CLAMP"))
        for (int j = 0; j < h; j++)
          combine_clamp_row (tmp[t].pixels + (size_t) j * tmp[t].row_stride,
                             dst[t].pixels + (size_t) j * dst[t].row_stride, w);
      else
        for (int j = 0; j < h; j++)
          for (int i = 0; i < w; i++)
            combine (p, tmp[t].pixels + (size_t) j * tmp[t].row_stride + (size_t) i * 4,
                     dst[t].pixels + (size_t) j * dst[t].row_stride + (size_t) i * 4, format);
      g_free (tmp[t].pixels);
    }
  return ok;
}

/* The passes before the last render whole viewports while the callers'
 * other threads wait for them, so they split their rows over threads of
 * their own: every pixel is computed on its own (bands of even height
 * keep 2×2 quads whole), so the result does not depend on the split. */
#define PARALLEL_MIN_PIXELS (256 * 1024)

typedef struct
{
  SlEffectRun *run;
  int pi, x, w, y0, y1, n;
  const SlTarget *dst;
  const char *bb_format;
  SlDiagnostics *diags;
  bool ok;
} Band;

static gpointer
band_worker (gpointer data)
{
  Band *b = data;
  SlScratch *scratch = sl_scratch_new ();
  SlTarget dst[SL_EFFECT_MAX_TARGETS];
  for (int t = 0; t < b->n; t++)
    {
      dst[t].row_stride = b->dst[t].row_stride;
      dst[t].pixels = b->dst[t].pixels ? b->dst[t].pixels + (size_t) b->y0 * b->dst[t].row_stride : NULL;
    }
  b->ok = render_pass (b->run, b->pi, scratch, b->x, b->y0, b->w, b->y1 - b->y0, NULL, dst, b->bb_format, b->diags);
  sl_scratch_free (scratch);
  return NULL;
}

static bool
render_pass_threads (SlEffectRun *run, int pi, SlScratch *scratch, int w, int h, const SlTarget *dst,
                     const char *bb_format, SlDiagnostics *diags)
{
  const SlEffectPass *p = &run->tech->passes[pi];
  int n_threads = CLAMP ((int) g_get_num_processors (), 1, 16);
  if (n_threads == 1 || (size_t) w * h < PARALLEL_MIN_PIXELS)
    return render_pass (run, pi, scratch, 0, 0, w, h, NULL, dst, bb_format, diags);
  Band bands[16];
  GThread *threads[16];
  int rows = (h + n_threads - 1) / n_threads;
  rows += rows & 1;
  int n = 0;
  for (int y = 0; y < h; y += rows, n++)
    {
      bands[n] = (Band) { .run = run, .pi = pi, .x = 0, .w = w, .y0 = y, .y1 = MIN (y + rows, h),
                          .n = MAX (p->n_render_targets, 1), .dst = dst, .bb_format = bb_format, .diags = sl_diagnostics_new () };
      threads[n] = n > 0 ? g_thread_try_new ("sl-effect", band_worker, &bands[n], NULL) : NULL;
      if (n > 0 && !threads[n])
        band_worker (&bands[n]);
    }
  band_worker (&bands[0]);
  bool ok = true;
  for (int i = 0; i < n; i++)
    {
      if (i > 0 && threads[i])
        g_thread_join (threads[i]);
      ok &= bands[i].ok;
      for (int d = 0; d < sl_diagnostics_count (bands[i].diags); d++)
        {
          const SlDiagnostic *dg = sl_diagnostics_get (bands[i].diags, d);
          sl_diagnostics_add (diags, dg->severity, dg->file, dg->line, dg->column, dg->code, "%s", dg->message);
        }
      sl_diagnostics_free (bands[i].diags);
    }
  return ok;
}

SlEffectRun *
sl_effect_run_new (SlEffect *fx, int technique)
{
  /* An effect without techniques (a ReShade file of shared code) runs
   * as its technique 0 and leaves the image as it is. */
  static const SlEffectTechnique none = { .name = "" };
  const SlEffectTechnique *tech = sl_effect_get_technique (fx, technique);
  if (!tech && technique == 0 && sl_effect_get_n_techniques (fx) == 0)
    tech = &none;
  if (!tech)
    return NULL;
  SlEffectRun *run = g_new0 (SlEffectRun, 1);
  run->fx = sl_effect_ref (fx);
  run->tech = tech;
  int np = tech->n_passes;
  run->bindings = g_new0 (SlBinding *, np);
  run->color_slots = g_new0 (unsigned, np);
  run->color_views = g_new0 (SlTexture, np);
  run->stores = g_new0 (Store, MAX (fx->textures->len, 1));
  run->before = g_new0 (Store, MAX (fx->textures->len, 1));
  run->reads_target = g_new0 (unsigned, MAX (np, 1));
  run->live = g_new0 (bool, MAX (np, 1));
  run->image_set = g_new0 (bool, MAX (fx->textures->len, 1));
  run->used = g_new0 (bool, MAX (fx->textures->len, 1));
  run->needs_before = g_new0 (bool, MAX (fx->textures->len, 1));
  run->slot_texture = g_new (int, (size_t) MAX (np, 1) * SL_MAX_SLOTS);
  for (int i = 0; i < MAX (np, 1) * SL_MAX_SLOTS; i++)
    run->slot_texture[i] = SLOT_OWN;
  run->budget = SL_EFFECT_DEFAULT_MEMORY_BUDGET;
  run->allow_local = true;
  run->user_set = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  g_mutex_init (&run->lock);
  sl_effect_host_values_init (&run->host);
  /* The flat depth: 0 in a reversed depth buffer is the far plane, which
   * ReShade.fxh's linearised depth (1.0) agrees with. */
  run->depth_texel[3] = 1.0f;
  sl_texture_init_2d (&run->depth_tex, 1, 1, 4, run->depth_texel);
  for (int i = 0; i < np; i++)
    {
      run->bindings[i] = sl_binding_new (tech->passes[i].program);
      sl_binding_set_viewport (run->bindings[i], tech->passes[i].width, tech->passes[i].height);
      sl_binding_set_saturate_outputs (run->bindings[i], pass_saturates (run, &tech->passes[i]));
    }
  run->final_pass = np > 0 && tech->passes[np - 1].n_render_targets == 0;
  run->n_exec = run->final_pass ? np - 1 : np;
  /* The textures the technique touches; only they take memory. */
  for (int i = 0; i < np; i++)
    {
      const SlEffectPass *p = &tech->passes[i];
      for (int r = 0; r < p->n_render_targets; r++)
        if (p->render_targets[r] >= 0 && (guint) p->render_targets[r] < fx->textures->len)
          run->used[p->render_targets[r]] = true;
      for (int k = 0; k < sl_program_get_n_samplers (p->program); k++)
        {
          const SlSamplerInfo *si = sl_program_get_sampler (p->program, k);
          const ESampler *es = fx_find_sampler (fx, si->name);
          if (si->slot < 0 || si->slot >= SL_MAX_SLOTS || (es && es->state_object))
            continue;
          int ti = fx_slot_texture (fx, si);
          if (ti < 0 || (guint) ti >= fx->textures->len)
            continue;
          run->used[ti] = true;
          for (int r = 0; r < p->n_render_targets; r++)
            if (p->render_targets[r] == ti)
              run->needs_before[ti] = true;
        }
    }
  return run;
}

void
sl_effect_run_free (SlEffectRun *run)
{
  if (!run)
    return;
  for (int i = 0; i < run->tech->n_passes; i++)
    sl_binding_free (run->bindings[i]);
  for (guint i = 0; i < run->fx->textures->len; i++)
    {
      store_clear (&run->stores[i]);
      store_clear (&run->before[i]);
    }
  g_free (run->before);
  g_free (run->reads_target);
  g_free (run->bindings);
  g_free (run->color_slots);
  g_free (run->color_views);
  g_free (run->stores);
  g_free (run->image_set);
  g_free (run->used);
  g_free (run->needs_before);
  g_free (run->live);
  g_free (run->slot_texture);
  g_free (run->backbuffer);
  g_hash_table_destroy (run->user_set);
  g_mutex_clear (&run->lock);
  sl_effect_unref (run->fx);
  g_free (run);
}

/* @n bytes as a user reads them: MiB rounded up (KiB below one). */
static const char *
format_bytes (size_t n, char *buf, size_t size)
{
  if (n == SIZE_MAX)
    g_snprintf (buf, size, "more than %" G_GSIZE_FORMAT " MiB", SIZE_MAX >> 20);
  else if (n < ((size_t) 1 << 20))
    g_snprintf (buf, size, "%" G_GSIZE_FORMAT " KiB", (n + 1023) >> 10);
  else
    g_snprintf (buf, size, "%" G_GSIZE_FORMAT " MiB", (n >> 20) + ((n & 0xfffff) != 0));
  return buf;
}

/* What the passes before the last allocate besides the textures: a new
 * back buffer per pass that writes it (two at once while one replaces
 * the other) and, for a pass that blends or converts its output, a
 * scratch image per render target. */
static size_t
intermediate_bytes (const SlEffectRun *run)
{
  int W = run->fx->buffer_width, H = run->fx->buffer_height, bb_passes = 0;
  size_t scratch = 0;
  if (run->local)
    return 0;   /* each render counts its own (local_bytes) */
  for (int pi = 0; pi < run->n_exec; pi++)
    {
      const SlEffectPass *p = &run->tech->passes[pi];
      bool to_bb = p->n_render_targets == 0;
      bb_passes += to_bb;
      if (!pass_is_direct (run, p, to_bb ? backbuffer_format (run) : NULL))
        {
          size_t one = to_bb ? image_bytes (W, H) : image_bytes (p->width, p->height), all = 0;
          for (int t = 0; t < MAX (p->n_render_targets, 1); t++)
            all = sat_add (all, one);
          scratch = MAX (scratch, all);
        }
    }
  size_t bb = 0;
  for (int k = 0; k < MIN (bb_passes, 2); k++)
    bb = sat_add (bb, image_bytes (W, H));
  return sat_add (bb, scratch);
}

/* The bytes texture @i takes, at @w×@h (with the copy a pass reading its
 * own target needs); 0 for one the technique does not touch. */
static size_t
texture_bytes (const SlEffectRun *run, guint i, int w, int h)
{
  const SlEffectTexture *t = &g_array_index (run->fx->textures, SlEffectTexture, i);
  if (!run->used[i] || (t->kind != SL_EFFECT_TEXTURE_TARGET && t->kind != SL_EFFECT_TEXTURE_IMAGE)
      || (run->local && t->kind == SL_EFFECT_TEXTURE_TARGET))
    return 0;
  size_t n = store_bytes (w, h, t->mip_levels);
  return run->needs_before[i] ? sat_add (n, n) : n;
}

/* Texture @i's size as its store has it or will: an image texture
 * without a declared size takes the image's once given. */
static void
texture_size (const SlEffectRun *run, guint i, int *w, int *h)
{
  const SlEffectTexture *t = &g_array_index (run->fx->textures, SlEffectTexture, i);
  if (run->stores[i].level[0])
    {
      *w = run->stores[i].width;
      *h = run->stores[i].height;
      return;
    }
  *w = MAX (t->width, 1);
  *h = MAX (t->height, 1);
}

/* The sum against the budget, with texture @tex at @tex_w×@tex_h (-1:
 * every texture at its current size). */
static bool
check_memory (const SlEffectRun *run, int tex, int tex_w, int tex_h, SlDiagnostics *diags)
{
  const SlEffect *fx = run->fx;
  char a[48], b[48], c[48];
  size_t sum = sat_add (run->host_bytes, intermediate_bytes (run));
  if (sum > run->budget)
    {
      sl_diag (diags, SL_DIAG_API_EFFECT_MEMORY_BUDGET, fx->filename, 0, 0,
               "the render's copies of the %d×%d image need %s, over its memory budget of %s",
               fx->buffer_width, fx->buffer_height, format_bytes (sum, a, sizeof a),
               format_bytes (run->budget, b, sizeof b));
      return false;
    }
  for (guint i = 0; i < fx->textures->len; i++)
    {
      int w, h;
      if ((int) i == tex)
        w = tex_w, h = tex_h;
      else
        texture_size (run, i, &w, &h);
      size_t bytes = texture_bytes (run, i, w, h);
      sum = sat_add (sum, bytes);
      if (bytes && sum > run->budget)
        {
          const SlLoc *loc = &g_array_index (fx->texture_locs, SlLoc, i);
          const char *name = g_array_index (fx->textures, SlEffectTexture, i).name;
          if (sum == bytes)
            sl_diag (diags, SL_DIAG_API_EFFECT_MEMORY_BUDGET, loc->file, loc->line, loc->column,
                     "texture '%s' (%d×%d) needs %s, over the render's memory budget of %s", name,
                     w, h, format_bytes (bytes, a, sizeof a), format_bytes (run->budget, c, sizeof c));
          else
            sl_diag (diags, SL_DIAG_API_EFFECT_MEMORY_BUDGET, loc->file, loc->line, loc->column,
                     "texture '%s' (%d×%d) needs %s, which brings the render to %s, over its "
                     "memory budget of %s", name, w, h, format_bytes (bytes, a, sizeof a),
                     format_bytes (sum, b, sizeof b), format_bytes (run->budget, c, sizeof c));
          return false;
        }
    }
  return true;
}

static void
out_of_memory (const SlEffectRun *run, guint i, SlDiagnostics *diags)
{
  const SlLoc *loc = &g_array_index (run->fx->texture_locs, SlLoc, i);
  const SlEffectTexture *t = &g_array_index (run->fx->textures, SlEffectTexture, i);
  int w, h;
  texture_size (run, i, &w, &h);
  sl_diag (diags, SL_DIAG_API_EFFECT_OUT_OF_MEMORY, loc->file, loc->line, loc->column,
           "out of memory for texture '%s' (%d×%d)", t->name, w, h);
}

void
sl_effect_run_set_memory_budget (SlEffectRun *run, size_t budget, size_t host_bytes)
{
  run->budget = budget;
  run->host_bytes = host_bytes;
}

size_t
sl_effect_run_get_memory_budget (const SlEffectRun *run, size_t *host_bytes)
{
  if (host_bytes)
    *host_bytes = run->host_bytes;
  return run->budget;
}

bool
sl_effect_run_check_memory (const SlEffectRun *run, SlDiagnostics *diags)
{
  return check_memory (run, -1, 0, 0, diags);
}

size_t
sl_effect_run_get_memory (const SlEffectRun *run)
{
  size_t sum = intermediate_bytes (run);
  for (guint i = 0; i < run->fx->textures->len; i++)
    {
      int w, h;
      texture_size (run, i, &w, &h);
      sum = sat_add (sum, texture_bytes (run, i, w, h));
    }
  return sum;
}

bool
sl_effect_run_set_param (SlEffectRun *run, const char *name, const float *values, int n_values,
                         SlDiagnostics *diags)
{
  bool found = false, ok = true;
  for (int i = 0; i < run->tech->n_passes; i++)
    if (sl_program_find_param (run->tech->passes[i].program, name))
      {
        found = true;
        ok &= sl_binding_set_param (run->bindings[i], name, values, n_values, diags);
      }
  if (!found)
    {
      GString *known = g_string_new (NULL);
      for (guint k = 0; k < run->fx->params->len; k++)
        g_string_append_printf (known, "%s%s", k ? ", " : "", g_array_index (run->fx->params, SlParam, k).name);
      sl_diag (diags, SL_DIAG_API_UNKNOWN_PARAMETER, "<params>", 0, 0,
               "unknown parameter '%s' (known: %s)", name, known->len ? known->str : "none");
      g_string_free (known, TRUE);
      return false;
    }
  g_hash_table_add (run->user_set, g_strdup (name));
  run->prepared = run->executed = false;
  return ok;
}

static bool
set_run_param (void *target, const char *name, const float *values, int n_values,
               SlDiagnostics *diags)
{
  return sl_effect_run_set_param (target, name, values, n_values, diags);
}

bool
sl_effect_run_set_params_string (SlEffectRun *run, const char *params, SlDiagnostics *diags)
{
  return sl_parse_params_string (params, diags, set_run_param, run);
}

void
sl_effect_run_set_host_values (SlEffectRun *run, const SlEffectHostValues *values)
{
  run->host = *values;
  run->prepared = run->executed = false;
}

void
sl_effect_run_set_input (SlEffectRun *run, const SlTexture *input)
{
  /* The passes copy windows of their input: it must be one array. */
  g_return_if_fail (input->tiles == NULL);
  run->input = *input;
  run->have_input = true;
  run->executed = false;
}

bool
sl_effect_run_set_image (SlEffectRun *run, int texture, int width, int height, size_t row_stride,
                         const float *texels, SlDiagnostics *diags)
{
  const SlEffectTexture *t = sl_effect_get_texture (run->fx, texture);
  if (!t || t->kind != SL_EFFECT_TEXTURE_IMAGE || width < 1 || height < 1)
    {
      sl_diag (diags, SL_DIAG_API_TEXTURE_NOT_IMAGE, "<effect>", 0, 0,
               "texture %d does not take an image", texture);
      return false;
    }
  int w = t->width ? t->width : width, h = t->height ? t->height : height;
  Store *st = &run->stores[texture];
  /* An image no pass reads takes no memory. */
  if (!run->used[texture])
    {
      run->image_set[texture] = true;
      return true;
    }
  store_clear (st);
  if (!check_memory (run, texture, w, h, diags))
    return false;
  if (!store_alloc (st, w, h, t->mip_levels))
    {
      st->width = w;
      st->height = h;
      out_of_memory (run, (guint) texture, diags);
      store_clear (st);
      return false;
    }
  /* Resample bilinearly (texel centres) when the declared size differs. */
  for (int y = 0; y < h; y++)
    for (int x = 0; x < w; x++)
      {
        float u = ((float) x + 0.5f) * width / w - 0.5f, v = ((float) y + 0.5f) * height / h - 0.5f;
        int x0 = (int) floorf (u), y0 = (int) floorf (v);
        float fx = u - x0, fy = v - y0;
        for (int c = 0; c < 4; c++)
          {
            float acc = 0;
            for (int k = 0; k < 4; k++)
              {
                int sx = CLAMP (x0 + (k & 1), 0, width - 1), sy = CLAMP (y0 + (k >> 1), 0, height - 1);
                float wgt = ((k & 1) ? fx : 1 - fx) * ((k >> 1) ? fy : 1 - fy);
                acc += wgt * texels[(size_t) sy * row_stride + (size_t) sx * 4 + c];
              }
            st->level[0][((size_t) y * w + x) * 4 + c] = acc;
          }
        quantize (t->format, st->level[0] + ((size_t) y * w + x) * 4);
      }
  store_build_mips (st);
  run->image_set[texture] = true;
  run->executed = false;
  return true;
}

const char *
sl_param_get_host_source (const SlParam *param)
{
  for (int i = 0; param && i < param->n_annotations; i++)
    if (!strcmp (param->annotations[i].name, "source")
        && param->annotations[i].type == SL_ANNOTATION_STRING)
      return param->annotations[i].string_value;
  return NULL;
}

void
sl_effect_host_values_init (SlEffectHostValues *v)
{
  /* ReShade never renders its first effect frame at time 0: the runtime
   * has presented frames before effects load.  Effects test for that
   * (AstrayFX's DLAA+ shows its help screen while its timer is 0). */
  v->timer_ms = 1000.0;
  v->frametime_ms = 1000.0 / 60.0;
  v->framecount = 1;
  v->seed = 0;
  GDateTime *now = g_date_time_new_now_local ();
  v->date[0] = g_date_time_get_year (now);
  v->date[1] = g_date_time_get_month (now);
  v->date[2] = g_date_time_get_day_of_month (now);
  v->date[3] = g_date_time_get_hour (now) * 3600 + g_date_time_get_minute (now) * 60
               + g_date_time_get_second (now);
  g_date_time_unref (now);
  /* ReShade without an input device leaves the pointer at (0, 0); a
   * pixel position that depended on the image size could not be the
   * default of an op's property either. */
  v->mouse_x = v->mouse_y = 0.0;
}

static bool
annotation (const SlParam *prm, const char *name, int k, double *value)
{
  for (int i = 0; i < prm->n_annotations; i++)
    if (!strcmp (prm->annotations[i].name, name) && prm->annotations[i].n_values > k)
      {
        *value = prm->annotations[i].values[k];
        return true;
      }
  return false;
}

static double
annotation_or (const SlParam *prm, const char *name, double fallback)
{
  double v;
  return annotation (prm, name, 0, &v) ? v : fallback;
}

/* The value of a uniform with a host source, in up to four components;
 * 0 components for a source that leaves the uniform at its initial value
 * (an unknown one). */
static int
host_value (SlEffectRun *run, const SlParam *prm, const char *src, float *v)
{
  const SlEffectHostValues *h = &run->host;
  memset (v, 0, 4 * sizeof *v);
  if (!strcmp (src, "timer"))
    v[0] = (float) h->timer_ms;
  else if (!strcmp (src, "frametime"))
    v[0] = (float) h->frametime_ms;
  else if (!strcmp (src, "framecount"))
    v[0] = prm->type == SL_SCALAR_BOOL ? (float) (h->framecount % 2 == 0) : (float) h->framecount;
  else if (!strcmp (src, "date"))
    {
      for (int k = 0; k < 4; k++)
        v[k] = (float) h->date[k];
      return 4;
    }
  else if (!strcmp (src, "random"))
    {
      double lo = annotation_or (prm, "min", 0), hi = annotation_or (prm, "max", 32767);
      /* The same seed gives the same values, so renders repeat. */
      guint32 x = g_str_hash (prm->name) ^ (h->seed * 2654435761u);
      x ^= x >> 16;
      x *= 0x7feb352du;
      x ^= x >> 15;
      double span = fabs (hi - lo) + 1;
      v[0] = (float) (lo + fmod ((double) x, MAX (span, 1)));
    }
  else if (!strcmp (src, "pingpong"))
    {
      /* One frame after start: rising from min by one frame's step. */
      double lo = annotation_or (prm, "min", 0), hi = annotation_or (prm, "max", 1);
      double step = annotation_or (prm, "step", 1), smoothing = annotation_or (prm, "smoothing", 0);
      double inc = MAX (step - MAX (0.0, smoothing - (hi - lo)), 0.05) * h->frametime_ms / 1000.0;
      double x = lo + inc;
      v[0] = (float) MIN (x, hi);
      v[1] = x >= hi ? -1.0f : 1.0f;
      return 2;
    }
  else if (!strcmp (src, "mousepoint"))
    {
      v[0] = (float) (h->mouse_x * run->fx->screen_width);
      v[1] = (float) (h->mouse_y * run->fx->screen_height);
      return 2;
    }
  else if (!strcmp (src, "mousewheel"))
    {
      /* The wheel has not moved: the initial value, within min..max. */
      double lo = annotation_or (prm, "min", 0), hi = annotation_or (prm, "max", 0);
      double x = prm->default_value ? prm->default_value[0] : 0;
      v[0] = (float) (lo != hi ? CLAMP (x, MIN (lo, hi), MAX (lo, hi)) : x);
      return 2;
    }
  else if (strcmp (src, "mousedelta") && strcmp (src, "key") && strcmp (src, "mousebutton")
           && strcmp (src, "overlay_open") && strcmp (src, "overlay_active")
           && strcmp (src, "overlay_hovered") && strcmp (src, "ui_open") && strcmp (src, "ui_active")
           && strcmp (src, "ui_hovered") && strcmp (src, "screenshot") && strcmp (src, "bufready_depth"))
    return 0;
  return 4;
}

static void
set_host_params (SlEffectRun *run, int pi)
{
  SlProgram *prog = run->tech->passes[pi].program;
  for (int i = 0; i < sl_program_get_n_params (prog); i++)
    {
      const SlParam *prm = sl_program_get_param (prog, i);
      const char *src = sl_param_get_host_source (prm);
      if (!src || g_hash_table_contains (run->user_set, prm->name))
        continue;
      float v[4];
      int n = host_value (run, prm, src, v);
      int have = prm->rows * prm->columns;
      if (n > 0 && prm->array_size == 0)
        sl_binding_set_param (run->bindings[pi], prm->name, v, MIN (MAX (n, 1), have), NULL);
    }
}

/* Which passes execute() needs to run, from the prepared bindings: the
 * last pass, every pass that writes the back buffer, and, going back from
 * the end, every pass that writes a target a needed pass samples or
 * renders into (rendering into it keeps what it does not overwrite).  A
 * read that the parameters' values took out of a pass (a branch on a
 * uniform that is never taken, such as a blur's path for other sizes)
 * does not count, so the passes that only it needed are skipped, and
 * their targets stay untouched zeros that take no pages. */
static void
find_live_passes (SlEffectRun *run)
{
  SlEffect *fx = run->fx;
  int np = run->tech->n_passes;
  bool *needed = g_new0 (bool, MAX (fx->textures->len, 1));
  for (int pi = np - 1; pi >= 0; pi--)
    {
      const SlEffectPass *p = &run->tech->passes[pi];
      bool live = pi == np - 1 || p->n_render_targets == 0;
      for (int r = 0; r < p->n_render_targets; r++)
        {
          int ti = p->render_targets[r];
          if (ti < 0 || (guint) ti >= fx->textures->len || needed[ti])
            live = true;
        }
      run->live[pi] = live;
      if (!live)
        continue;
      for (int r = 0; r < p->n_render_targets; r++)
        if (p->render_targets[r] >= 0 && (guint) p->render_targets[r] < fx->textures->len)
          needed[p->render_targets[r]] = true;
      uint32_t sampled = sl_binding_get_sampled_slots (run->bindings[pi]);
      for (int k = 0; k < sl_program_get_n_samplers (p->program); k++)
        {
          const SlSamplerInfo *si = sl_program_get_sampler (p->program, k);
          const ESampler *es = fx_find_sampler (fx, si->name);
          if (si->slot < 0 || si->slot >= SL_MAX_SLOTS || (es && es->state_object)
              || !(sampled & (1u << si->slot)))
            continue;
          int ti = fx_slot_texture (fx, si);
          if (ti >= 0 && (guint) ti < fx->textures->len)
            needed[ti] = true;
        }
    }
  g_free (needed);
}


static bool
clamps_to_edge (SlAddressMode mode)
{
  /* Within the window a clamped or bordered read lands where it would in
   * the whole texture; a wrapped or mirrored one may land outside it. */
  return mode == SL_ADDRESS_CLAMP || mode == SL_ADDRESS_BORDER;
}

/* Whether the technique can render locally (SlEffectRun.local): the last
 * pass writes the image; no target has mips or is read by the pass that
 * renders into it; every live pass reads the back buffer and the targets
 * at its TEXCOORD plus constants, through samplers that clamp or border. */
static bool
decide_local (const SlEffectRun *run)
{
  const SlEffect *fx = run->fx;
  if (!run->final_pass || !run->allow_local)
    return false;
  for (guint i = 0; i < fx->textures->len; i++)
    {
      const SlEffectTexture *t = &g_array_index (fx->textures, SlEffectTexture, i);
      if (run->used[i] && t->kind == SL_EFFECT_TEXTURE_TARGET && (t->mip_levels > 1 || run->needs_before[i]))
        return false;
    }
  for (int pi = 0; pi < run->tech->n_passes; pi++)
    {
      const SlEffectPass *p = &run->tech->passes[pi];
      if (!run->live[pi])
        continue;
      for (int r = 0; r < p->n_render_targets; r++)
        if (p->render_targets[r] < 0 || (guint) p->render_targets[r] >= fx->textures->len)
          return false;
      for (int k = 0; k < sl_program_get_n_samplers (p->program); k++)
        {
          const SlSamplerInfo *si = sl_program_get_sampler (p->program, k);
          if (si->slot < 0 || si->slot >= SL_MAX_SLOTS
              || run->slot_texture[pi * SL_MAX_SLOTS + si->slot] == SLOT_OWN)
            continue;
          SlSlotReach reach;
          if (!sl_binding_get_slot_reach (run->bindings[pi], si->slot, &reach))
            return false;
          const ESampler *es = fx_find_sampler (fx, si->name);
          SlSamplerState state;
          if (es)
            state = es->state;
          else
            sl_sampler_state_init_default (&state);
          if (!clamps_to_edge (state.address_u) || !clamps_to_edge (state.address_v))
            return false;
        }
    }
  return true;
}

bool
sl_effect_run_prepare (SlEffectRun *run, SlDiagnostics *diags)
{
  SlEffect *fx = run->fx;
  if (!run->have_input)
    {
      sl_diag (diags, SL_DIAG_API_EFFECT_NO_INPUT, "<effect>", 0, 0, "the effect has no input image");
      return false;
    }
  /* Sizes first: the bindings measure their reach in texels. */
  for (guint i = 0; i < fx->textures->len; i++)
    {
      const SlEffectTexture *t = &g_array_index (fx->textures, SlEffectTexture, i);
      if (!run->used[i] || run->stores[i].level[0])
        continue;
      if (t->kind == SL_EFFECT_TEXTURE_IMAGE && !run->image_set[i])
        store_describe (&run->stores[i], MAX (t->width, 1), MAX (t->height, 1), t->mip_levels);
      if (t->kind == SL_EFFECT_TEXTURE_TARGET)
        store_describe (&run->stores[i], t->width, t->height, t->mip_levels);
    }
  for (int pi = 0; pi < run->tech->n_passes; pi++)
    {
      SlProgram *prog = run->tech->passes[pi].program;
      SlBinding *b = run->bindings[pi];
      int *slots = run->slot_texture + pi * SL_MAX_SLOTS;
      run->color_views[pi] = run->input;
      run->color_slots[pi] = 0;
      run->reads_target[pi] = 0;
      for (int k = 0; k < SL_MAX_SLOTS; k++)
        slots[k] = SLOT_OWN;
      for (int k = 0; k < sl_program_get_n_samplers (prog); k++)
        {
          const SlSamplerInfo *si = sl_program_get_sampler (prog, k);
          if (si->slot < 0 || si->slot >= SL_MAX_SLOTS)
            continue;
          const ESampler *es = fx_find_sampler (fx, si->name);
          if (es)
            sl_binding_set_sampler (b, si->slot, &es->state);
          if (es && es->state_object)
            continue;
          int ti = fx_slot_texture (fx, si);
          const SlEffectTexture *t = ti >= 0 ? &g_array_index (fx->textures, SlEffectTexture, ti) : NULL;
          if (!t || t->kind == SL_EFFECT_TEXTURE_COLOR)
            {
              sl_binding_set_texture (b, si->slot, &run->color_views[pi]);
              run->color_slots[pi] |= 1u << si->slot;
              slots[si->slot] = SLOT_COLOR;
            }
          else if (t->kind == SL_EFFECT_TEXTURE_DEPTH)
            sl_binding_set_texture (b, si->slot, &run->depth_tex);
          else
            {
              /* A target of this very pass: its contents before the pass
               * (execute() copies them). */
              const SlEffectPass *p = &run->tech->passes[pi];
              bool own = false;
              for (int r = 0; r < p->n_render_targets; r++)
                if (p->render_targets[r] == ti)
                  {
                    own = true;
                    run->reads_target[pi] |= 1u << r;
                  }
              if (own && !run->before[ti].level[0])
                store_describe (&run->before[ti], t->width, t->height, t->mip_levels);
              sl_binding_set_texture (b, si->slot, own ? &run->before[ti].tex : &run->stores[ti].tex);
              if (t->kind == SL_EFFECT_TEXTURE_TARGET)
                slots[si->slot] = ti;
            }
        }
      set_host_params (run, pi);
      if (!sl_binding_prepare (b, diags))
        return false;
    }
  find_live_passes (run);
  run->local = decide_local (run);
  if (!check_memory (run, -1, 0, 0, diags))
    return false;
  for (guint i = 0; i < fx->textures->len; i++)
    {
      const SlEffectTexture *t = &g_array_index (fx->textures, SlEffectTexture, i);
      Store *st = &run->stores[i], *copy = &run->before[i];
      bool ok = true;
      if (!run->used[i])
        continue;
      /* An image the host did not give (not found, not decoded) reads as
       * zero, as in ReShade, where the effect still renders. */
      if (t->kind == SL_EFFECT_TEXTURE_IMAGE && !st->level[0])
        ok = store_alloc (st, MAX (t->width, 1), MAX (t->height, 1), t->mip_levels);
      if (t->kind == SL_EFFECT_TEXTURE_TARGET && run->local)
        {
          /* Renders hold their own parts of the targets. */
          if (st->level[0])
            store_describe (st, t->width, t->height, t->mip_levels);
        }
      else if (t->kind == SL_EFFECT_TEXTURE_TARGET)
        {
          if (!st->level[0])
            ok = store_alloc (st, t->width, t->height, t->mip_levels);
          if (ok && run->needs_before[i] && !copy->level[0])
            ok = store_alloc (copy, t->width, t->height, t->mip_levels);
        }
      if (!ok)
        {
          out_of_memory (run, i, diags);
          return false;
        }
    }
  run->prepared = true;
  run->executed = false;
  return true;
}

static bool
reads_color (const SlEffectRun *run, int pi)
{
  return run->color_slots[pi] != 0;
}

/* ---- local rendering ------------------------------------------------ */

void
sl_effect_run_set_local (SlEffectRun *run, bool allow)
{
  run->allow_local = allow;
  run->prepared = run->executed = false;
}

bool
sl_effect_run_is_local (const SlEffectRun *run)
{
  return run->prepared && run->local;
}

/* A rectangle of texels or pixels, half-open; empty when x0 >= x1 or
 * y0 >= y1. */
typedef struct
{
  int x0, y0, x1, y1;
} Box;

static bool
box_empty (Box b)
{
  return b.x0 >= b.x1 || b.y0 >= b.y1;
}

static Box
box_union (Box a, Box b)
{
  if (box_empty (a))
    return b;
  if (box_empty (b))
    return a;
  return (Box) { MIN (a.x0, b.x0), MIN (a.y0, b.y0), MAX (a.x1, b.x1), MAX (a.y1, b.y1) };
}

static Box
box_clamp (Box b, int w, int h)
{
  return (Box) { MAX (b.x0, 0), MAX (b.y0, 0), MIN (b.x1, w), MIN (b.y1, h) };
}

/* The texels of a @w×@h texture that reads over @b land on: those
 * inside it, or the nearest edge texels when all of @b lies beyond an
 * edge (a clamping sampler reads them there). */
static Box
box_clamp_reads (Box b, int w, int h)
{
  if (box_empty (b))
    return b;
  int x0 = CLAMP (b.x0, 0, w - 1), y0 = CLAMP (b.y0, 0, h - 1);
  return (Box) { x0, y0, CLAMP (b.x1, x0 + 1, w), CLAMP (b.y1, y0 + 1, h) };
}

static size_t
box_bytes (Box b)
{
  return box_empty (b) ? 0 : image_bytes (b.x1 - b.x0, b.y1 - b.y0);
}

/* One edge of a footprint in texture coordinates; reads beyond the
 * texture land on its edge, so a coordinate further out adds nothing
 * (and a huge or NaN reach stays a number of texels an int holds). */
static double
clip_uv (double u, double fallback)
{
  return isnan (u) ? fallback : CLAMP (u, -1.5, 2.5);
}

/* The texels of a @sw×@sh texture that the pixels @n of a @vw×@vh
 * viewport read as @reach says: the bilinear footprints of the extreme
 * coordinates of each group, with a texel more on each side for the
 * rounding of float arithmetic. */
static Box
reach_box (Box n, int vw, int vh, const SlSlotReach *reach, int sw, int sh)
{
  Box box = { 0, 0, 0, 0 };
  double c0[2] = { (n.x0 + 0.5) / vw, (n.y0 + 0.5) / vh }, c1[2] = { (n.x1 - 0.5) / vw, (n.y1 - 0.5) / vh };
  int size[2] = { sw, sh };
  for (int g = 0; g < reach->n_groups; g++)
    {
      const SlReachGroup *gr = &reach->group[g];
      int first[2], end[2];
      for (int axis = 0; axis < 2; axis++)
        {
          double a = gr->scale[axis] * c0[axis], b = gr->scale[axis] * c1[axis];
          double lo = clip_uv (MIN (a, b) + gr->lo[axis], -1.5), hi = clip_uv (MAX (a, b) + gr->hi[axis], 2.5);
          first[axis] = (int) floor (lo * size[axis] - 0.5) - 1;
          end[axis] = (int) floor (hi * size[axis] - 0.5) + 3;
        }
      box = box_union (box, (Box) { first[0], first[1], end[0], end[1] });
    }
  return box;
}

/* What rendering the image's rectangle @out needs, for local rendering.
 * Going back from the last pass: a pass renders the union of what later
 * passes read of its render targets (of the back buffer when it writes
 * that), rounded out to 2×2 quads so derivatives pair the pixels they
 * pair in a whole render; what it reads is added to what the passes
 * before it render.  @pass_box[pi] is what pass pi renders, @need[i]
 * every texel of texture i that is read or written, @need_bb the back
 * buffer's (the input's part among them).  What a pass renders is then
 * exactly what a whole render gives there: every texel it reads was
 * rendered by the passes before it, since their boxes grew by it.  With
 * @clamp false the boxes are not cut to the textures' extents: the
 * result does not shrink at the image's edges. */
static void
plan_local (const SlEffectRun *run, Box out, bool clamp, Box *pass_box, Box *need, Box *need_bb)
{
  const SlEffect *fx = run->fx;
  int W = fx->buffer_width, H = fx->buffer_height, np = run->tech->n_passes;
  for (guint i = 0; i < fx->textures->len; i++)
    need[i] = (Box) { 0, 0, 0, 0 };
  *need_bb = clamp ? box_clamp (out, W, H) : out;
  for (int pi = np - 1; pi >= 0; pi--)
    {
      const SlEffectPass *p = &run->tech->passes[pi];
      Box n = { 0, 0, 0, 0 };
      pass_box[pi] = n;
      if (!run->live[pi])
        continue;
      if (pi == np - 1)
        n = *need_bb;
      else
        {
          if (p->n_render_targets == 0)
            n = *need_bb;
          for (int r = 0; r < p->n_render_targets; r++)
            n = box_union (n, need[p->render_targets[r]]);
          if (box_empty (n))
            continue;
          n = (Box) { n.x0 & ~1, n.y0 & ~1, n.x1 + (n.x1 & 1), n.y1 + (n.y1 & 1) };
          if (clamp)
            n = box_clamp (n, p->width, p->height);
          if (p->n_render_targets == 0)
            *need_bb = box_union (*need_bb, n);
          for (int r = 0; r < p->n_render_targets; r++)
            need[p->render_targets[r]] = box_union (need[p->render_targets[r]], n);
        }
      pass_box[pi] = n;
      if (box_empty (n))
        continue;
      uint32_t sampled = sl_binding_get_sampled_slots (run->bindings[pi]);
      for (int slot = 0; slot < SL_MAX_SLOTS; slot++)
        {
          int what = run->slot_texture[pi * SL_MAX_SLOTS + slot];
          SlSlotReach reach;
          if (what == SLOT_OWN || !(sampled & (1u << slot))
              || !sl_binding_get_slot_reach (run->bindings[pi], slot, &reach))
            continue;
          const SlEffectTexture *t = what >= 0 ? &g_array_index (fx->textures, SlEffectTexture, what) : NULL;
          int sw = t ? t->width : W, sh = t ? t->height : H;
          Box m = reach_box (n, p->width, p->height, &reach, sw, sh);
          if (clamp)
            m = box_clamp_reads (m, sw, sh);
          if (t)
            need[what] = box_union (need[what], m);
          else
            *need_bb = box_union (*need_bb, m);
        }
    }
}

/* A windowed view of @box of a @w×@h texture whose texels are @pixels. */
static void
window_view (SlTexture *view, int w, int h, Box box, float *pixels)
{
  sl_texture_init_2d (view, w, h, (size_t) (box.x1 - box.x0) * 4, pixels);
  view->window_x = box.x0;
  view->window_y = box.y0;
  view->window_width = box.x1 - box.x0;
  view->window_height = box.y1 - box.y0;
}

/* Copies @src's texels over @box into @dst, rows of box width. */
static void
copy_box (const SlTexture *src, Box box, float *dst)
{
  copy_texels (src, box.x0, box.y0, box.x1 - box.x0, box.y1 - box.y0, dst, (size_t) (box.x1 - box.x0) * 4);
}

/* The pixels of @n inside a window @box held at @pixels. */
static SlTarget
box_target (float *pixels, Box box, Box n)
{
  size_t stride = (size_t) (box.x1 - box.x0) * 4;
  return (SlTarget) { .pixels = pixels + (size_t) (n.y0 - box.y0) * stride + (size_t) (n.x0 - box.x0) * 4,
                      .row_stride = stride };
}

/* Says which texture tips a local render of a @width×@height rectangle
 * over the budget, at its declaration, as check_memory does for whole
 * textures (at the effect file when the images and the back buffer's
 * parts alone do); @bytes is what the render would hold besides the
 * host's. */
static void
local_over_budget (const SlEffectRun *run, const Box *need, size_t bytes, int width, int height,
                   SlDiagnostics *diags)
{
  const SlEffect *fx = run->fx;
  char a[48], b[48], c[48];
  size_t targets = 0, sum;
  for (guint i = 0; i < fx->textures->len; i++)
    targets = sat_add (targets, box_bytes (need[i]));
  /* The host's images, the back buffer's parts and scratch first. */
  sum = sat_add (run->host_bytes, bytes - MIN (bytes, targets));
  for (guint i = 0; i < fx->textures->len && sum <= run->budget; i++)
    {
      size_t part = box_bytes (need[i]);
      sum = sat_add (sum, part);
      if (part && sum > run->budget)
        {
          const SlLoc *loc = &g_array_index (fx->texture_locs, SlLoc, i);
          const SlEffectTexture *t = &g_array_index (fx->textures, SlEffectTexture, i);
          sl_diag (diags, SL_DIAG_API_EFFECT_MEMORY_BUDGET, loc->file, loc->line, loc->column,
                   "texture '%s' (%d×%d): a %d×%d part of the image needs %s of it, which brings the "
                   "render to %s, over its memory budget of %s", t->name, t->width, t->height, width,
                   height, format_bytes (part, a, sizeof a), format_bytes (sum, b, sizeof b),
                   format_bytes (run->budget, c, sizeof c));
          return;
        }
    }
  sl_diag (diags, SL_DIAG_API_EFFECT_MEMORY_BUDGET, fx->filename, 0, 0,
           "a %d×%d part of the %d×%d image needs %s, over the render's memory budget of %s", width,
           height, fx->buffer_width, fx->buffer_height,
           format_bytes (sat_add (run->host_bytes, bytes), a, sizeof a), format_bytes (run->budget, b, sizeof b));
}

/* Whether pass @pi, rendering @rendered, leaves no pixel of @held as it
 * was: it covers @held, writes one target straight (pass_is_direct: no
 * blend, mask or sentinel to keep a value), and its program writes all
 * four components and never discards.  Then what @held held before does
 * not matter. */
static bool
pass_replaces_box (const SlEffectRun *run, int pi, Box rendered, Box held)
{
  const SlEffectPass *p = &run->tech->passes[pi];
  return rendered.x0 <= held.x0 && rendered.y0 <= held.y0 && rendered.x1 >= held.x1
         && rendered.y1 >= held.y1 && p->n_render_targets <= 1
         && pass_is_direct (run, p, p->n_render_targets ? NULL : backbuffer_format (run))
         && sl_binding_writes_every_pixel (run->bindings[pi]);
}

/* Renders the rectangle (@x, @y, @width, @height) of the result with the
 * parts of the earlier passes it needs (plan_local), held by this call
 * alone, so threads render their own rectangles at once. */
static bool
render_local (SlEffectRun *run, SlScratch *scratch, int x, int y, int width, int height,
              const SlTexture *input, const SlTarget *target, SlDiagnostics *diags)
{
  SlEffect *fx = run->fx;
  int np = run->tech->n_passes, nt = (int) fx->textures->len, last = np - 1;
  int W = fx->buffer_width, H = fx->buffer_height;
  Box *pass_box = g_new (Box, np), *need = g_new0 (Box, MAX (nt, 1)), need_bb;
  float **win = g_new0 (float *, MAX (nt, 1));
  SlTexture *views = g_new0 (SlTexture, MAX (nt, 1));
  bool *dirty = g_new0 (bool, MAX (nt, 1)), *replaced = NULL, *seen = NULL;
  float *bb[2] = { NULL, NULL };
  SlTexture bb_view[2];
  const SlTexture *current = input ? input : &run->input;
  bool ok = true, rendered = false;

  plan_local (run, (Box) { x, y, x + width, y + height }, true, pass_box, need, &need_bb);
  /* What this call holds, against the render's budget. */
  size_t bytes = run->host_bytes, scratch_bytes = 0;
  bool bb_passes = false;
  for (int i = 0; i < nt; i++)
    bytes = sat_add (bytes, box_bytes (need[i]));
  for (int pi = 0; pi < last; pi++)
    {
      const SlEffectPass *p = &run->tech->passes[pi];
      if (box_empty (pass_box[pi]))
        continue;
      bb_passes |= p->n_render_targets == 0;
      if (!pass_is_direct (run, p, p->n_render_targets ? NULL : backbuffer_format (run)))
        {
          size_t all = 0;
          for (int t = 0; t < MAX (p->n_render_targets, 1); t++)
            all = sat_add (all, box_bytes (pass_box[pi]));
          scratch_bytes = MAX (scratch_bytes, all);
        }
    }
  if (bb_passes)
    bytes = sat_add (bytes, sat_add (box_bytes (need_bb), box_bytes (need_bb)));
  bytes = sat_add (bytes, scratch_bytes);
  if (bytes > run->budget)
    {
      local_over_budget (run, need, bytes - run->host_bytes, width, height, diags);
      ok = false;
      goto done;
    }
  /* A target part starts as zeros unless the first pass to touch it
   * writes all of it whole (pass_replaces_box). */
  replaced = g_new0 (bool, MAX (nt, 1));
  seen = g_new0 (bool, MAX (nt, 1));
  for (int pi = 0; pi < last; pi++)
    {
      const SlEffectPass *p = &run->tech->passes[pi];
      if (box_empty (pass_box[pi]))
        continue;
      for (int slot = 0; slot < SL_MAX_SLOTS; slot++)
        {
          int what = run->slot_texture[pi * SL_MAX_SLOTS + slot];
          if (what >= 0)
            seen[what] = true;
        }
      for (int r = 0; r < p->n_render_targets; r++)
        {
          int ti = p->render_targets[r];
          if (ti >= 0 && ti < nt && !seen[ti])
            replaced[ti] = pass_replaces_box (run, pi, pass_box[pi], need[ti]);
          if (ti >= 0 && ti < nt)
            seen[ti] = true;
        }
    }
  for (int i = 0; i < nt; i++)
    if (!box_empty (need[i]))
      {
        const SlEffectTexture *t = &g_array_index (fx->textures, SlEffectTexture, i);
        size_t n_texels = (size_t) (need[i].x1 - need[i].x0) * (need[i].y1 - need[i].y0);
        win[i] = replaced[i] ? g_try_malloc_n (n_texels, 4 * sizeof (float))
                             : g_try_malloc0_n (n_texels, 4 * sizeof (float));
        if (!win[i])
          {
            out_of_memory (run, (guint) i, diags);
            ok = false;
            goto done;
          }
        window_view (&views[i], t->width, t->height, need[i], win[i]);
      }
  for (int k = 0; bb_passes && k < 2; k++)
    {
      bb[k] = g_try_malloc_n ((size_t) (need_bb.x1 - need_bb.x0) * (need_bb.y1 - need_bb.y0),
                              4 * sizeof (float));
      if (!bb[k])
        {
          sl_diag (diags, SL_DIAG_API_EFFECT_OUT_OF_MEMORY, fx->filename, 0, 0,
                   "out of memory for a %d×%d part of the back buffer", need_bb.x1 - need_bb.x0,
                   need_bb.y1 - need_bb.y0);
          ok = false;
          goto done;
        }
      window_view (&bb_view[k], W, H, need_bb, bb[k]);
    }

  rendered = true;
  int next_bb = 0;
  for (int pi = 0; pi <= last; pi++)
    {
      const SlEffectPass *p = &run->tech->passes[pi];
      Box n = pass_box[pi];
      if (box_empty (n))
        continue;
      const SlTexture *over[SL_MAX_SLOTS] = { NULL };
      for (int slot = 0; slot < SL_MAX_SLOTS; slot++)
        {
          int what = run->slot_texture[pi * SL_MAX_SLOTS + slot];
          if (what == SLOT_COLOR)
            over[slot] = current;
          else if (what >= 0)
            over[slot] = &views[what];   /* read, so planned and held */
        }
      if (pi == last)
        {
          /* The back buffer as the last pass finds it, unless that pass
           * replaces every pixel. */
          if (!pass_replaces_box (run, pi, n, (Box) { x, y, x + width, y + height }))
            copy_texels (current, x, y, width, height, target->pixels, target->row_stride);
          ok &= render_pass (run, pi, scratch, x, y, width, height, over, target, backbuffer_format (run),
                             diags);
        }
      else if (p->n_render_targets == 0)
        {
          copy_box (current, need_bb, bb[next_bb]);
          SlTarget dst = box_target (bb[next_bb], need_bb, n);
          ok &= render_pass (run, pi, scratch, n.x0, n.y0, n.x1 - n.x0, n.y1 - n.y0, over, &dst,
                             backbuffer_format (run), diags);
          current = &bb_view[next_bb];
          next_bb ^= 1;
        }
      else
        {
          SlTarget dst[SL_EFFECT_MAX_TARGETS];
          for (int r = 0; r < p->n_render_targets; r++)
            {
              int ti = p->render_targets[r];
              if (p->clear && dirty[ti])
                memset (win[ti], 0, box_bytes (need[ti]));
              dirty[ti] = true;
              dst[r] = box_target (win[ti], need[ti], n);
            }
          ok &= render_pass (run, pi, scratch, n.x0, n.y0, n.x1 - n.x0, n.y1 - n.y0, over, dst, NULL, diags);
        }
    }

done:
  /* Nothing rendered (over the budget, out of memory): the rectangle
   * keeps the input, as a host that cannot render passes it through. */
  if (!rendered)
    copy_texels (input ? input : &run->input, x, y, width, height, target->pixels, target->row_stride);
  for (int i = 0; i < nt; i++)
    g_free (win[i]);
  g_free (bb[0]);
  g_free (bb[1]);
  g_free (win);
  g_free (views);
  g_free (dirty);
  g_free (replaced);
  g_free (seen);
  g_free (pass_box);
  g_free (need);
  return ok;
}

bool
sl_effect_run_get_input_rect (const SlEffectRun *run, int x, int y, int width, int height, int *in_x,
                              int *in_y, int *in_width, int *in_height)
{
  if (!run->prepared)
    return false;
  if (run->local)
    {
      int np = run->tech->n_passes;
      Box *pass_box = g_new (Box, np), *need = g_new0 (Box, MAX (run->fx->textures->len, 1)), need_bb;
      Box clamped_bb;
      /* Without cutting at the edges (so that margins do not shrink
       * there), and what a render reads in fact: all of that lies
       * inside the union's part within the image. */
      plan_local (run, (Box) { x, y, x + width, y + height }, true, pass_box, need, &clamped_bb);
      plan_local (run, (Box) { x, y, x + width, y + height }, false, pass_box, need, &need_bb);
      need_bb = box_union (need_bb, clamped_bb);
      g_free (pass_box);
      g_free (need);
      *in_x = need_bb.x0;
      *in_y = need_bb.y0;
      *in_width = MAX (need_bb.x1 - need_bb.x0, 0);
      *in_height = MAX (need_bb.y1 - need_bb.y0, 0);
      return true;
    }
  for (int pi = 0; pi < run->n_exec; pi++)
    if (reads_color (run, pi))
      return false;
  int l = 0, t = 0, r = 0, b = 0;
  if (run->final_pass && reads_color (run, run->tech->n_passes - 1))
    {
      int last = run->tech->n_passes - 1;
      if (!sl_binding_get_sample_reach (run->bindings[last], &l, &t, &r, &b))
        return false;
      /* The reach is in texels of slot 0; scale it to back-buffer pixels. */
      const SlEffectPass *p = &run->tech->passes[last];
      int w0 = run->fx->buffer_width, h0 = run->fx->buffer_height;
      SlProgram *prog = p->program;
      for (int k = 0; k < sl_program_get_n_samplers (prog); k++)
        {
          const SlSamplerInfo *si = sl_program_get_sampler (prog, k);
          if (si->slot == 0 && !(run->color_slots[last] & 1u))
            {
              int ti = fx_slot_texture (run->fx, si);
              const SlEffectTexture *tx = ti >= 0 ? &g_array_index (run->fx->textures, SlEffectTexture, ti) : NULL;
              if (tx && tx->width > 0)
                {
                  w0 = tx->width;
                  h0 = tx->height;
                }
            }
        }
      double sx = (double) run->fx->buffer_width / w0, sy = (double) run->fx->buffer_height / h0;
      l = (int) ceil (l * sx) + 1;
      r = (int) ceil (r * sx) + 1;
      t = (int) ceil (t * sy) + 1;
      b = (int) ceil (b * sy) + 1;
    }
  *in_x = x - l;
  *in_y = y - t;
  *in_width = width + l + r;
  *in_height = height + t + b;
  return true;
}

/* Renders the passes before the last (all of them when the last one
 * writes a texture) over whole viewports. */
static bool
execute (SlEffectRun *run, SlScratch *scratch, SlDiagnostics *diags)
{
  int W = run->fx->buffer_width, H = run->fx->buffer_height;
  const SlTexture *current = &run->input;
  bool ok = true;
  g_free (run->backbuffer);
  run->backbuffer = NULL;
  for (guint i = 0; i < run->fx->textures->len; i++)
    {
      const SlEffectTexture *t = &g_array_index (run->fx->textures, SlEffectTexture, i);
      Store *st = &run->stores[i];
      /* A fresh target is zeros already (and untouched pages). */
      if (t->kind == SL_EFFECT_TEXTURE_TARGET && st->level[0] && st->dirty)
        memset (st->level[0], 0, (size_t) st->width * st->height * 4 * sizeof (float));
      st->dirty = false;
    }
  for (int pi = 0; pi < run->n_exec; pi++)
    {
      const SlEffectPass *p = &run->tech->passes[pi];
      run->color_views[pi] = *current;
      if (!run->live[pi])
        continue;
      if (p->n_render_targets == 0)
        {
          float *nb = g_try_malloc_n ((size_t) W * H, 4 * sizeof (float));
          if (!nb)
            {
              sl_diag (diags, SL_DIAG_API_EFFECT_OUT_OF_MEMORY, run->fx->filename, 0, 0,
                       "out of memory for a %d×%d back buffer of pass %d", W, H, pi + 1);
              ok = false;
              break;
            }
          copy_texels (current, 0, 0, W, H, nb, (size_t) W * 4);
          SlTarget dst = { .pixels = nb, .row_stride = (size_t) W * 4 };
          ok &= render_pass_threads (run, pi, scratch, W, H, &dst, backbuffer_format (run), diags);
          g_free (run->backbuffer);
          run->backbuffer = nb;
          sl_texture_init_2d (&run->bb_tex, W, H, (size_t) W * 4, nb);
          current = &run->bb_tex;
        }
      else
        {
          SlTarget dst[SL_EFFECT_MAX_TARGETS];
          for (int r = 0; r < p->n_render_targets; r++)
            {
              int ti = p->render_targets[r];
              Store *st = ti >= 0 ? &run->stores[ti] : NULL;
              if (st && p->clear && st->dirty)
                memset (st->level[0], 0, (size_t) st->width * st->height * 4 * sizeof (float));
              if (st)
                st->dirty = true;
              dst[r].pixels = st ? st->level[0] : NULL;
              dst[r].row_stride = st ? (size_t) st->width * 4 : 0;
              if (st && (run->reads_target[pi] & (1u << r)))
                {
                  Store *copy = &run->before[ti];
                  for (int l = 0; l < copy->n_levels && l < st->n_levels; l++)
                    memcpy (copy->level[l], st->level[l],
                            (size_t) copy->tex.levels[l].width * copy->tex.levels[l].height * 4 * sizeof (float));
                }
            }
          ok &= render_pass_threads (run, pi, scratch, p->width, p->height, dst, NULL, diags);
          for (int r = 0; r < p->n_render_targets; r++)
            if (p->render_targets[r] >= 0)
              store_build_mips (&run->stores[p->render_targets[r]]);
        }
    }
  if (run->final_pass)
    run->color_views[run->tech->n_passes - 1] = *current;
  return ok;
}

bool
sl_effect_render (SlEffectRun *run, SlScratch *scratch, int x, int y, int width, int height,
                  const SlTexture *input, const SlTarget *target, SlDiagnostics *diags)
{
  if (!run->prepared)
    {
      sl_diag (diags, SL_DIAG_API_EFFECT_NOT_PREPARED, "<render>", 0, 0,
               "effect rendered before sl_effect_run_prepare()");
      return false;
    }
  if (run->local)
    return width <= 0 || height <= 0 || render_local (run, scratch, x, y, width, height, input, target, diags);
  g_mutex_lock (&run->lock);
  if (!run->executed)
    {
      run->exec_ok = execute (run, scratch, diags);
      run->executed = true;
    }
  bool ok = run->exec_ok;
  g_mutex_unlock (&run->lock);
  if (width <= 0 || height <= 0)
    return ok;

  /* What the back buffer holds before the last pass. */
  const SlTexture *bb = run->backbuffer ? &run->bb_tex : input ? input : &run->input;
  copy_texels (bb, x, y, width, height, target->pixels, target->row_stride);
  if (!run->final_pass)
    return ok;
  int last = run->tech->n_passes - 1;
  const SlTexture *over[SL_MAX_SLOTS] = { NULL };
  if (!run->backbuffer && input)
    for (int k = 0; k < SL_MAX_SLOTS; k++)
      if (run->color_slots[last] & (1u << k))
        over[k] = input;
  ok &= render_pass (run, last, scratch, x, y, width, height, over, target, backbuffer_format (run),
                     diags);
  return ok;
}
