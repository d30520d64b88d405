/* Texture sampling for the span VM.
 *
 * Follows the Direct3D conventions: texel centres at (i + 0.5) / size,
 * bilinear weights from the coordinate minus half a texel, address modes
 * applied to integer texel indices, LOD from the quad's derivatives.  A
 * NaN or enormous coordinate never indexes outside the texture: coordinates
 * are clamped to a safe range before conversion to integers.
 *
 * Bilinear fractions within 2^-13 of a texel centre (relative to the
 * texture size) snap to it, so that an identity shader reproduces its
 * input bit for bit despite the rounding of (x + 0.5) / w; real hardware
 * quantises these fractions far more coarsely (8 bits).
 *
 * A read is described by the VM's SlVmSample alone; textures and sampler
 * states are the public header's, so the baseline copy of this file also
 * holds their public initialisers. */
#include "vm/vm.h"

#include "vm/rgba.h"
#include "vm/scalar_ops.h"

#include <math.h>
#include <string.h>

#if SL_VM_LEVEL == 0
void
sl_sampler_state_init_default (SlSamplerState *s)
{
  *s = (SlSamplerState) {
    .min_filter = SL_FILTER_LINEAR,
    .mag_filter = SL_FILTER_LINEAR,
    .mip_filter = SL_FILTER_NONE,
    .address_u = SL_ADDRESS_CLAMP,
    .address_v = SL_ADDRESS_CLAMP,
    .address_w = SL_ADDRESS_CLAMP,
    .min_lod = -1000.0f,
    .max_lod = 1000.0f,
    .compare = SL_COMPARE_NEVER,
  };
}

void
sl_texture_init_2d (SlTexture *t, int width, int height, size_t row_stride,
                    const float *texels)
{
  memset (t, 0, sizeof *t);
  t->kind = SL_TEXTURE_2D;
  t->n_levels = 1;
  t->levels[0] = (SlTextureLevel) {
    .width = width, .height = height, .depth = 1,
    .row_stride = row_stride, .slice_stride = row_stride * (size_t) height,
    .texels = texels,
  };
}
#endif

/* Maps texel index i of a dimension of n texels by the address mode;
 * returns -1 for "border". */
static inline int
address (int i, int n, SlAddressMode mode)
{
  if (i >= 0 && i < n)
    return i;
  switch (mode)
    {
    case SL_ADDRESS_WRAP:
      {
        int m = i % n;
        return m < 0 ? m + n : m;
      }
    case SL_ADDRESS_MIRROR:
      {
        int period = 2 * n;
        int m = i % period;
        if (m < 0)
          m += period;
        return m >= n ? period - 1 - m : m;
      }
    case SL_ADDRESS_MIRROR_ONCE:
      {
        int j = i < 0 ? -1 - i : i;
        return j >= n ? n - 1 : j;
      }
    case SL_ADDRESS_BORDER:
      return -1;
    default:
      return i < 0 ? 0 : n - 1;
    }
}

/* Keeps float → int conversions defined for any input. */
static inline float
safe_coord (float t)
{
  if (!(t == t))
    return 0.0f;
  return t < -8388608.0f ? -8388608.0f : (t > 8388608.0f ? 8388608.0f : t);
}

static inline float
srgb_to_linear (float c)
{
  return c <= 0.04045f ? c / 12.92f : powf ((c + 0.055f) / 1.055f, 2.4f);
}

typedef struct
{
  const SlTexture      *tex;
  const SlSamplerState *ss;
  int                   level;
  const SlTextureLevel *lv;
  int                   w, h, d;
  /* window (level 0 only) */
  int                   wx0, wy0, wx1, wy1;
} LevelView;

static void
level_view (LevelView *v, const SlTexture *tex, const SlSamplerState *ss, int level)
{
  if (level < 0)
    level = 0;
  if (level >= MIN (tex->n_levels, SL_MAX_MIP_LEVELS))
    level = MIN (tex->n_levels, SL_MAX_MIP_LEVELS) - 1;
  while (level > 0 && !tex->levels[level].texels)
    level--;                    /* a level the host did not provide */
  v->tex = tex;
  v->ss = ss;
  v->level = level;
  v->lv = &tex->levels[level];
  v->w = MAX (v->lv->width, 1);
  v->h = MAX (v->lv->height, 1);
  v->d = MAX (v->lv->depth, 1);
  if (level == 0 && tex->window_width > 0)
    {
      v->wx0 = tex->window_x;
      v->wy0 = tex->window_y;
      v->wx1 = tex->window_x + tex->window_width - 1;
      v->wy1 = tex->window_y + MAX (tex->window_height, 1) - 1;
    }
  else
    {
      v->wx0 = v->wy0 = 0;
      v->wx1 = v->w - 1;
      v->wy1 = v->h - 1;
    }
}

/* Reads texel (x, y, z) after addressing; x/y/z < 0 mean border. */
static inline void
texel (const LevelView *v, int x, int y, int z, float out[4])
{
  if (x < 0 || y < 0 || z < 0)
    {
      for (int k = 0; k < 4; k++)
        out[k] = v->ss->border_color[k];
      return;
    }
  x = x < v->wx0 ? v->wx0 : (x > v->wx1 ? v->wx1 : x);
  y = y < v->wy0 ? v->wy0 : (y > v->wy1 ? v->wy1 : y);
  /* The shader's declared dimension, not the bound texture's, picks the
   * slice: a cube face or array slice of a texture with fewer slices reads
   * the last one present. */
  if (z >= v->d)
    z = v->d - 1;
  const float *p = v->lv->texels + (size_t) z * v->lv->slice_stride
                   + (size_t) (y - v->wy0) * v->lv->row_stride
                   + (size_t) (x - v->wx0) * 4;
  for (int k = 0; k < 4; k++)
    out[k] = p[k];
  if (v->ss->srgb)
    for (int k = 0; k < 3; k++)
      out[k] = srgb_to_linear (out[k]);
}

static inline float
compare (SlCompareFunc f, float ref, float t)
{
  bool r;
  switch (f)
    {
    case SL_COMPARE_LESS: r = ref < t; break;
    case SL_COMPARE_EQUAL: r = ref == t; break;
    case SL_COMPARE_LESS_EQUAL: r = ref <= t; break;
    case SL_COMPARE_GREATER: r = ref > t; break;
    case SL_COMPARE_NOT_EQUAL: r = ref != t; break;
    case SL_COMPARE_GREATER_EQUAL: r = ref >= t; break;
    case SL_COMPARE_ALWAYS: r = true; break;
    default: r = false; break;
    }
  return r ? 1.0f : 0.0f;
}

/* Snaps a bilinear fraction next to a texel centre onto it. */
static inline void
split (float t, int n, int *i0, float *frac)
{
  float fl = floorf (t);
  float f = t - fl;
  float eps = MAX (1.0f / 8192.0f, (float) n * (1.0f / 2097152.0f));
  int i = (int) fl;
  if (f < eps)
    f = 0.0f;
  else if (f > 1.0f - eps)
    {
      f = 0.0f;
      i++;
    }
  *i0 = i;
  *frac = f;
}

/* One filtered read of one level: u, v, w normalised (w ignored for 2D). */
static void
fetch_level (const LevelView *v, SlFilter filter, SlTextureKind kind,
             float u, float vv, float ww, int z_face, bool cmp, float ref,
             float out[4])
{
  const SlSamplerState *ss = v->ss;
  bool is3d = kind == SL_TEXTURE_3D;
  SlAddressMode au = ss->address_u, av = ss->address_v, aw = ss->address_w;
  if (kind == SL_TEXTURE_CUBE)
    au = av = SL_ADDRESS_CLAMP;

  if (filter == SL_FILTER_POINT)
    {
      int x = (int) floorf (safe_coord (u * (float) v->w));
      int y = (int) floorf (safe_coord (vv * (float) v->h));
      int z = is3d ? (int) floorf (safe_coord (ww * (float) v->d)) : z_face;
      x = address (x, v->w, au);
      y = kind == SL_TEXTURE_1D ? 0 : address (y, v->h, av);
      if (is3d)
        z = address (z, v->d, aw);
      texel (v, x, y, z, out);
      if (cmp)
        {
          float c = compare (ss->compare, ref, out[0]);
          out[0] = out[1] = out[2] = out[3] = c;
        }
      return;
    }

  int x0, y0, z0 = z_face;
  float fx, fy, fz = 0.0f;
  split (safe_coord (u * (float) v->w - 0.5f), v->w, &x0, &fx);
  if (kind == SL_TEXTURE_1D)
    {
      y0 = 0;
      fy = 0.0f;
    }
  else
    split (safe_coord (vv * (float) v->h - 0.5f), v->h, &y0, &fy);
  if (is3d)
    split (safe_coord (ww * (float) v->d - 0.5f), v->d, &z0, &fz);

  int xs[2] = { address (x0, v->w, au), address (x0 + 1, v->w, au) };
  int ys[2] = { kind == SL_TEXTURE_1D ? 0 : address (y0, v->h, av),
                kind == SL_TEXTURE_1D ? 0 : address (y0 + 1, v->h, av) };
  int zs[2] = { is3d ? address (z0, v->d, aw) : z_face,
                is3d ? address (z0 + 1, v->d, aw) : z_face };
  float acc[4] = { 0, 0, 0, 0 };
  int nz = is3d && fz != 0.0f ? 2 : 1;
  for (int kz = 0; kz < nz; kz++)
    for (int ky = 0; ky < (fy != 0.0f ? 2 : 1); ky++)
      for (int kx = 0; kx < (fx != 0.0f ? 2 : 1); kx++)
        {
          float wgt = (kx ? fx : (fx != 0.0f ? 1.0f - fx : 1.0f))
                      * (ky ? fy : (fy != 0.0f ? 1.0f - fy : 1.0f))
                      * (kz ? fz : (nz == 2 ? 1.0f - fz : 1.0f));
          float t[4];
          texel (v, xs[kx], ys[ky], zs[kz], t);
          if (cmp)
            t[0] = t[1] = t[2] = t[3] = compare (ss->compare, ref, t[0]);
          if (wgt == 1.0f)
            {
              /* A single texel: copy, so identity reads stay exact. */
              for (int k = 0; k < 4; k++)
                acc[k] = t[k];
            }
          else
            for (int k = 0; k < 4; k++)
              acc[k] += wgt * t[k];
        }
  for (int k = 0; k < 4; k++)
    out[k] = acc[k];
}

/* Picks the cube face and the 2D coordinates on it. */
static int
cube_face (float x, float y, float z, float *u, float *v)
{
  float ax = fabsf (x), ay = fabsf (y), az = fabsf (z);
  float sc, tc, ma;
  int face;
  if (ax >= ay && ax >= az)
    {
      face = x >= 0 ? 0 : 1;
      ma = ax;
      sc = x >= 0 ? -z : z;
      tc = -y;
    }
  else if (ay >= az)
    {
      face = y >= 0 ? 2 : 3;
      ma = ay;
      sc = x;
      tc = y >= 0 ? z : -z;
    }
  else
    {
      face = z >= 0 ? 4 : 5;
      ma = az;
      sc = z >= 0 ? x : -x;
      tc = -y;
    }
  if (!(ma > 0.0f))
    ma = 1.0f;
  *u = 0.5f * (sc / ma + 1.0f);
  *v = 0.5f * (tc / ma + 1.0f);
  return face;
}

/* ---- the vectorised 2D path ----------------------------------------- */

/* Texel offsets (in floats from the level's texel pointer) of one corner of
 * every lane's footprint; -1 marks a border texel. */
typedef ptrdiff_t Offsets[SL_SPAN];
typedef float Quad4[4][SL_SPAN];

/* Maps the texel indices of one axis through the address mode and the
 * window; out-of-range indices become -1 for a border sampler. */
static void
address_span (int32_t *idx, int n, int lo, int hi, SlAddressMode mode)
{
  if (mode == SL_ADDRESS_CLAMP)
    {
      /* The window lies inside [0, n), so one clamp does both. */
      for (int i = 0; i < SL_SPAN; i++)
        idx[i] = idx[i] < lo ? lo : (idx[i] > hi ? hi : idx[i]);
      return;
    }
  for (int i = 0; i < SL_SPAN; i++)
    {
      int a = address (idx[i], n, mode);
      idx[i] = a < 0 ? -1 : (a < lo ? lo : (a > hi ? hi : a));
    }
}

/* Copies the texels at @off into structure-of-arrays form.  Rows whose
 * texels are consecutive in memory (the usual case: neighbouring pixels
 * read neighbouring texels) are deinterleaved with plain loads. */
static void
gather (const float *base, const ptrdiff_t *off, const float border[4], Quad4 t)
{
  for (int r = 0; r < 2; r++)
    {
      const ptrdiff_t *o = off + r * SL_SPAN_COLS;
      ptrdiff_t miss = 0;
      for (int c = 0; c < SL_SPAN_COLS; c++)
        miss |= o[c] - (o[0] + 4 * c);
      if (!miss && o[0] >= 0)
        {
          const float *p = base + o[0];
          for (int c = 0; c < SL_SPAN_COLS; c++)
            {
              t[0][r * SL_SPAN_COLS + c] = p[4 * c + 0];
              t[1][r * SL_SPAN_COLS + c] = p[4 * c + 1];
              t[2][r * SL_SPAN_COLS + c] = p[4 * c + 2];
              t[3][r * SL_SPAN_COLS + c] = p[4 * c + 3];
            }
          continue;
        }
      for (int c = 0; c < SL_SPAN_COLS; c++)
        {
          int i = r * SL_SPAN_COLS + c;
          const float *p = o[c] >= 0 ? base + o[c] : border;
          for (int k = 0; k < 4; k++)
            t[k][i] = p[k];
        }
    }
}

static inline void
corner_offsets (Offsets off, const int32_t *xi, const int32_t *yi, const LevelView *v)
{
  /* Loaded once, outside the conditional: GCC would not vectorise masked
   * loads of them. */
  const ptrdiff_t stride = (ptrdiff_t) v->lv->row_stride;
  const int32_t wx0 = v->wx0, wy0 = v->wy0;
  for (int i = 0; i < SL_SPAN; i++)
    off[i] = (xi[i] | yi[i]) < 0 ? -1   /* either is -1: no short circuit */
             : (ptrdiff_t) (yi[i] - wy0) * stride + (ptrdiff_t) (xi[i] - wx0) * 4;
}

/* Point or bilinear reads of level 0 of a 2D texture for the whole span,
 * with the same arithmetic as fetch_level() (texel-centre snapping,
 * weights (1-fx)(1-fy), fx(1-fy), (1-fx)fy, fx fy accumulated in that
 * order, zero weights skipped so that an exact hit copies the texel). */
static void
sample_2d_span (const SlTexture *tex, const SlSamplerState *ss, const SlVmSample *s,
                const SlReg *cu, const SlReg *cv, SlReg *out[4])
{
  LevelView v;
  level_view (&v, tex, ss, 0);
  float fw = (float) v.w, fh = (float) v.h;
  float du = (float) s->offset[0] / fw, dv = (float) s->offset[1] / fh;
  alignas (64) int32_t x0[SL_SPAN], y0[SL_SPAN], x1[SL_SPAN], y1[SL_SPAN];
  alignas (64) float fx[SL_SPAN], fy[SL_SPAN];
  const float *base = v.lv->texels;
  const float *border = ss->border_color;

  if (ss->mag_filter == SL_FILTER_POINT)
    {
      for (int i = 0; i < SL_SPAN; i++)
        {
          x0[i] = (int32_t) floorf (safe_coord ((cu->f[i] + du) * fw));
          y0[i] = (int32_t) floorf (safe_coord ((cv->f[i] + dv) * fh));
        }
      address_span (x0, v.w, v.wx0, v.wx1, ss->address_u);
      address_span (y0, v.h, v.wy0, v.wy1, ss->address_v);
      alignas (64) Offsets off;
      alignas (64) Quad4 t;
      corner_offsets (off, x0, y0, &v);
      gather (base, off, border, t);
      for (int k = 0; k < 4; k++)
        memcpy (out[k]->f, t[k], sizeof t[k]);
      return;
    }

  float ex = MAX (1.0f / 8192.0f, fw * (1.0f / 2097152.0f));
  float ey = MAX (1.0f / 8192.0f, fh * (1.0f / 2097152.0f));
  uint32_t any_frac = 0;
  for (int i = 0; i < SL_SPAN; i++)
    {
      float tx = safe_coord ((cu->f[i] + du) * fw - 0.5f);
      float ty = safe_coord ((cv->f[i] + dv) * fh - 0.5f);
      float flx = floorf (tx), fly = floorf (ty);
      float ax = tx - flx, ay = ty - fly;
      int32_t ix = (int32_t) flx, iy = (int32_t) fly;
      /* Snap fractions next to a texel centre (see the file comment). */
      ix += ax > 1.0f - ex ? 1 : 0;
      iy += ay > 1.0f - ey ? 1 : 0;
      ax = (ax < ex || ax > 1.0f - ex) ? 0.0f : ax;
      ay = (ay < ey || ay > 1.0f - ey) ? 0.0f : ay;
      x0[i] = ix;
      y0[i] = iy;
      x1[i] = ix + 1;
      y1[i] = iy + 1;
      fx[i] = ax;
      fy[i] = ay;
    }
  /* A loop of its own: GCC 12 does not vectorise the loop above with this
   * reduction inside. */
  for (int i = 0; i < SL_SPAN; i++)
    any_frac |= (fx[i] != 0.0f) | (fy[i] != 0.0f);
  address_span (x0, v.w, v.wx0, v.wx1, ss->address_u);
  address_span (y0, v.h, v.wy0, v.wy1, ss->address_v);

  alignas (64) Offsets off;
  alignas (64) Quad4 acc;
  corner_offsets (off, x0, y0, &v);
  gather (base, off, border, acc);
  if (!any_frac)
    {
      /* Every lane sits on a texel centre (identity reads). */
      for (int k = 0; k < 4; k++)
        memcpy (out[k]->f, acc[k], sizeof acc[k]);
      return;
    }
  address_span (x1, v.w, v.wx0, v.wx1, ss->address_u);
  address_span (y1, v.h, v.wy0, v.wy1, ss->address_v);

  alignas (64) Quad4 t;
  alignas (64) float wgt[SL_SPAN], gx[SL_SPAN], gy[SL_SPAN];
  for (int i = 0; i < SL_SPAN; i++)
    {
      gx[i] = 1.0f - fx[i];
      gy[i] = 1.0f - fy[i];
    }
  for (int i = 0; i < SL_SPAN; i++)
    wgt[i] = gx[i] * gy[i];
  for (int k = 0; k < 4; k++)
    for (int i = 0; i < SL_SPAN; i++)
      acc[k][i] = wgt[i] * acc[k][i];
  /* Corners (x1,y0), (x0,y1), (x1,y1) with weights fx·gy, gx·fy, fx·fy. */
  const int32_t *cx[3] = { x1, x0, x1 }, *cy[3] = { y0, y1, y1 };
  const float *wxs[3] = { fx, gx, fx }, *wys[3] = { gy, fy, fy };
  for (int n = 0; n < 3; n++)
    {
      corner_offsets (off, cx[n], cy[n], &v);
      gather (base, off, border, t);
      const float *wx = wxs[n], *wy = wys[n];
      for (int i = 0; i < SL_SPAN; i++)
        wgt[i] = wx[i] * wy[i];
      for (int k = 0; k < 4; k++)
        for (int i = 0; i < SL_SPAN; i++)
          acc[k][i] = wgt[i] != 0.0f ? acc[k][i] + wgt[i] * t[k][i] : acc[k][i];
    }
  for (int k = 0; k < 4; k++)
    memcpy (out[k]->f, acc[k], sizeof acc[k]);
}

/* A sample whose coordinates are the pixel's own TEXCOORD.xy reads texel
 * (x, y) exactly when the texture has the viewport's size: the texel
 * centre snapping (file comment) lands every filter on that texel, and
 * with one level (or no mip filter) no LOD can pick another.  The span
 * must lie inside the viewport, where no address mode applies.  Returns
 * false, having done nothing, when any condition fails. */
bool
SL_LEVEL (sl_sample_at_pixel) (const SlTexture *tex, const SlSamplerState *ss,
                               int x0, int y0,
                               int viewport_width, int viewport_height, SlReg *out[4])
{
  if (!tex || !tex->levels[0].texels || tex->kind != SL_TEXTURE_2D || ss->srgb
      || (tex->n_levels > 1 && ss->mip_filter != SL_FILTER_NONE)
      || tex->levels[0].width != viewport_width || tex->levels[0].height != viewport_height
      || x0 < 0 || y0 < 0 || x0 + SL_SPAN_COLS > viewport_width || y0 + 2 > viewport_height)
    return false;
  LevelView v;
  level_view (&v, tex, ss, 0);
  for (int r = 0; r < 2; r++)
    {
      int y = y0 + r;
      y = y < v.wy0 ? v.wy0 : (y > v.wy1 ? v.wy1 : y);
      const float *row = v.lv->texels + (size_t) (y - v.wy0) * v.lv->row_stride;
      if (x0 >= v.wx0 && x0 + SL_SPAN_COLS - 1 <= v.wx1)
        {
          const float *p = row + (size_t) (x0 - v.wx0) * 4;
          int o = r * SL_SPAN_COLS;
          sl_rgba_split (p, SL_SPAN_COLS, out[0]->f + o, out[1]->f + o, out[2]->f + o,
                         out[3]->f + o);
          continue;
        }
      for (int c = 0; c < SL_SPAN_COLS; c++)
        {
          int x = x0 + c;
          x = x < v.wx0 ? v.wx0 : (x > v.wx1 ? v.wx1 : x);
          for (int k = 0; k < 4; k++)
            out[k]->f[r * SL_SPAN_COLS + c] = row[(size_t) (x - v.wx0) * 4 + k];
        }
    }
  return true;
}

void
SL_LEVEL (sl_sample_span) (const SlTexture *tex, const SlSamplerState *ss,
                           const SlVmSample *s, const SlReg *const *src, SlReg *out[4])
{
  if (!tex || tex->n_levels < 1 || !tex->levels[0].texels)
    {
      for (int k = 0; k < 4; k++)
        for (int i = 0; i < SL_SPAN; i++)
          out[k]->f[i] = 0.0f;
      return;
    }
  SlTextureKind kind = (SlTextureKind) s->dim;
  int n_coord = kind == SL_TEXTURE_1D ? 1 : kind == SL_TEXTURE_2D ? 2 : 3;
  const SlReg *cu = src[0];
  const SlReg *cv = n_coord > 1 ? src[1] : NULL;
  const SlReg *cw = n_coord > 2 ? src[2] : NULL;
  const SlReg *extra = s->n_src > n_coord ? src[n_coord] : NULL;
  SlVmSampleMode mode = (SlVmSampleMode) s->mode;

  if (mode == SL_VM_SAMPLE_LOAD)
    {
      for (int i = 0; i < SL_SPAN; i++)
        {
          int level = extra ? extra->i[i] : 0;
          float t[4] = { 0, 0, 0, 0 };
          if (level >= 0 && level < tex->n_levels)
            {
              LevelView v;
              level_view (&v, tex, ss, level);
              int x = cu->i[i] + s->offset[0];
              int y = cv ? cv->i[i] + s->offset[1] : 0;
              int z = cw ? cw->i[i] + s->offset[2] : 0;
              if (x >= 0 && x < v.w && y >= 0 && y < v.h && z >= 0 && z < v.d)
                {
                  SlSamplerState plain = *ss;
                  plain.srgb = false;
                  v.ss = &plain;
                  texel (&v, x, y, z, t);
                }
            }
          for (int k = 0; k < 4; k++)
            out[k]->f[i] = t[k];
        }
      return;
    }

  bool has_mips = tex->n_levels > 1 && ss->mip_filter != SL_FILTER_NONE;
  bool need_lod = has_mips || ss->min_filter != ss->mag_filter;
  if (kind == SL_TEXTURE_2D && !need_lod && !ss->srgb && mode != SL_VM_SAMPLE_COMPARE)
    {
      sample_2d_span (tex, ss, s, cu, cv, out);
      return;
    }
  LevelView base;
  level_view (&base, tex, ss, 0);

  for (int i = 0; i < SL_SPAN; i++)
    {
      float u = cu->f[i], v = cv ? cv->f[i] : 0.5f, w = cw ? cw->f[i] : 0.5f;
      int face = 0;
      if (kind == SL_TEXTURE_CUBE)
        face = cube_face (u, v, w, &u, &v);
      if (s->offset[0] || s->offset[1] || s->offset[2])
        {
          u += (float) s->offset[0] / (float) base.w;
          v += (float) s->offset[1] / (float) base.h;
          w += (float) s->offset[2] / (float) base.d;
        }

      float lod = 0.0f;
      if (need_lod)
        {
          if (mode == SL_VM_SAMPLE_LOD)
            lod = extra ? extra->f[i] : 0.0f;
          else if (mode != SL_VM_SAMPLE_COMPARE)
            {
              float dux, dvx, duy, dvy;
              if (mode == SL_VM_SAMPLE_GRAD)
                {
                  dux = src[n_coord]->f[i];
                  dvx = n_coord > 1 ? src[n_coord + 1]->f[i] : 0.0f;
                  duy = src[2 * n_coord]->f[i];
                  dvy = n_coord > 1 ? src[2 * n_coord + 1]->f[i] : 0.0f;
                }
              else
                {
                  int col = i % SL_SPAN_COLS;
                  dux = cu->f[i | 1] - cu->f[i & ~1];
                  duy = cu->f[col + SL_SPAN_COLS] - cu->f[col];
                  dvx = cv ? cv->f[i | 1] - cv->f[i & ~1] : 0.0f;
                  dvy = cv ? cv->f[col + SL_SPAN_COLS] - cv->f[col] : 0.0f;
                }
              dux *= base.w; duy *= base.w; dvx *= base.h; dvy *= base.h;
              float lx = dux * dux + dvx * dvx, ly = duy * duy + dvy * dvy;
              float rho2 = lx > ly ? lx : ly;
              lod = rho2 > 0.0f ? 0.5f * log2f (rho2) : -1000.0f;
              if (mode == SL_VM_SAMPLE_BIAS && extra)
                lod += extra->f[i];
            }
          lod += ss->lod_bias;
          lod = lod < ss->min_lod ? ss->min_lod : (lod > ss->max_lod ? ss->max_lod : lod);
          if (!(lod == lod))
            lod = 0.0f;
        }

      bool cmp = mode == SL_VM_SAMPLE_COMPARE;
      float ref = cmp && extra ? extra->f[i] : 0.0f;
      float t[4];
      if (!need_lod || lod <= 0.0f || !has_mips)
        {
          SlFilter f = (need_lod && lod > 0.0f) ? ss->min_filter : ss->mag_filter;
          fetch_level (&base, f, kind, u, v, w, face, cmp, ref, t);
        }
      else
        {
          float maxl = (float) (tex->n_levels - 1);
          float l = lod > maxl ? maxl : lod;
          LevelView lv;
          if (ss->mip_filter == SL_FILTER_POINT)
            {
              level_view (&lv, tex, ss, (int) floorf (l + 0.5f));
              fetch_level (&lv, ss->min_filter, kind, u, v, w, face, cmp, ref, t);
            }
          else
            {
              int l0 = (int) floorf (l);
              float fl = l - (float) l0;
              level_view (&lv, tex, ss, l0);
              fetch_level (&lv, ss->min_filter, kind, u, v, w, face, cmp, ref, t);
              if (fl > 0.0f && l0 + 1 < tex->n_levels)
                {
                  float t2[4];
                  LevelView lv2;
                  level_view (&lv2, tex, ss, l0 + 1);
                  fetch_level (&lv2, ss->min_filter, kind, u, v, w, face, cmp, ref, t2);
                  for (int k = 0; k < 4; k++)
                    t[k] = t[k] + fl * (t2[k] - t[k]);
                }
            }
        }
      for (int k = 0; k < 4; k++)
        out[k]->f[i] = t[k];
    }
}
