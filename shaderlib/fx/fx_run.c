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
 * All passes before the last one render whole viewports, once, into the
 * cached float targets (quantised to the declared format, with mips
 * rebuilt when asked for); the last pass renders only the rectangle the
 * caller wants, so hosts can tile it over threads, and
 * sl_effect_run_get_input_rect says how much input such a rectangle
 * reads.  Blending runs after the VM: a pass renders into a scratch buffer
 * filled with a sentinel NaN, and each pixel the shader wrote (not
 * discarded) is blended into the destination, in linear light when the
 * pass writes sRGB.  Vertex shaders are never run; a pass sees TEXCOORDn =
 * the pixel centre of its viewport, which is what full-screen-triangle
 * vertex shaders give.
 *
 * Memory: every buffer whose size the effect or the image decides is
 * counted against the run's budget before it is allocated (check_memory:
 * the host's own images, the intermediate back buffers and scratch images
 * of the passes before the last, then the textures the technique uses in
 * the order they are declared, so the error lands on the declaration that
 * tips the sum over), and allocated with g_try_*: a texture the technique
 * never touches takes no memory, and an allocation that fails is an
 * error, never an abort. */
#include "base/diag.h"
#include "fx/effect.h"
#include "api/params.h"

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
  size_t                   budget, host_bytes;
};

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

/* False when memory runs out (the store is then empty). */
static bool
store_alloc (Store *st, int w, int h, int levels)
{
  store_clear (st);
  st->width = w;
  st->height = h;
  st->n_levels = CLAMP (levels, 1, SL_MAX_MIP_LEVELS);
  st->tex.kind = SL_TEXTURE_2D;
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
 * last). */
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
    }
  return direct;
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
  run->budget = SL_EFFECT_DEFAULT_MEMORY_BUDGET;
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
  if (!run->used[i] || (t->kind != SL_EFFECT_TEXTURE_TARGET && t->kind != SL_EFFECT_TEXTURE_IMAGE))
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

bool
sl_effect_run_prepare (SlEffectRun *run, SlDiagnostics *diags)
{
  SlEffect *fx = run->fx;
  if (!run->have_input)
    {
      sl_diag (diags, SL_DIAG_API_EFFECT_NO_INPUT, "<effect>", 0, 0, "the effect has no input image");
      return false;
    }
  if (!check_memory (run, -1, 0, 0, diags))
    return false;
  for (guint i = 0; i < fx->textures->len; i++)
    {
      const SlEffectTexture *t = &g_array_index (fx->textures, SlEffectTexture, i);
      bool ok = true;
      if (!run->used[i])
        continue;
      /* An image the host did not give (not found, not decoded) reads as
       * zero, as in ReShade, where the effect still renders. */
      if (t->kind == SL_EFFECT_TEXTURE_IMAGE && !run->image_set[i] && !run->stores[i].level[0])
        ok = store_alloc (&run->stores[i], MAX (t->width, 1), MAX (t->height, 1), t->mip_levels);
      if (t->kind == SL_EFFECT_TEXTURE_TARGET && !run->stores[i].level[0])
        ok = store_alloc (&run->stores[i], t->width, t->height, t->mip_levels);
      if (!ok)
        {
          out_of_memory (run, i, diags);
          return false;
        }
    }
  for (int pi = 0; pi < run->tech->n_passes; pi++)
    {
      SlProgram *prog = run->tech->passes[pi].program;
      SlBinding *b = run->bindings[pi];
      run->color_views[pi] = run->input;
      run->color_slots[pi] = 0;
      run->reads_target[pi] = 0;
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
              if (own && !run->before[ti].level[0]
                  && !store_alloc (&run->before[ti], t->width, t->height, t->mip_levels))
                {
                  out_of_memory (run, (guint) ti, diags);
                  return false;
                }
              sl_binding_set_texture (b, si->slot, own ? &run->before[ti].tex : &run->stores[ti].tex);
            }
        }
      set_host_params (run, pi);
      if (!sl_binding_prepare (b, diags))
        return false;
    }
  find_live_passes (run);
  run->prepared = true;
  run->executed = false;
  return true;
}

static bool
reads_color (const SlEffectRun *run, int pi)
{
  return run->color_slots[pi] != 0;
}

bool
sl_effect_run_get_input_rect (const SlEffectRun *run, int x, int y, int width, int height, int *in_x,
                              int *in_y, int *in_width, int *in_height)
{
  if (!run->prepared)
    return false;
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
          for (int y = 0; y < H; y++)
            for (int x = 0; x < W; x++)
              memcpy (nb + ((size_t) y * W + x) * 4, texel_at (current, x, y), 4 * sizeof (float));
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
  const SlTextureLevel *bl = &bb->levels[0];
  /* Rows at once when they lie inside a texture without a window. */
  bool rows = bb->window_width <= 0 && x >= 0 && y >= 0 && x + width <= bl->width && y + height <= bl->height;
  for (int j = 0; j < height; j++)
    if (rows)
      memcpy (target->pixels + (size_t) j * target->row_stride, texel_at (bb, x, y + j),
              (size_t) width * 4 * sizeof (float));
    else
      for (int i = 0; i < width; i++)
        memcpy (target->pixels + (size_t) j * target->row_stride + (size_t) i * 4, texel_at (bb, x + i, y + j),
                4 * sizeof (float));
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
