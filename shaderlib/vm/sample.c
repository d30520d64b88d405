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
#include "vm/simd.h"

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

static bool
power_of_two (int n)
{
  return n > 0 && (n & (n - 1)) == 0;
}

bool
sl_texture_init_tiled (SlTexture *t, int width, int height, int tile_width, int tile_height,
                       int tile_x, int tile_y, int tiles_across, const float *const *tiles)
{
  memset (t, 0, sizeof *t);
  if (!power_of_two (tile_width) || !power_of_two (tile_height) || tile_x < 0
      || tile_x >= tile_width || tile_y < 0 || tile_y >= tile_height || !tiles
      || tiles_across < 1)
    return false;
  t->kind = SL_TEXTURE_2D;
  t->n_levels = 1;
  t->levels[0] = (SlTextureLevel) { .width = width, .height = height, .depth = 1 };
  t->tiles = tiles;
  t->tile_width = tile_width;
  t->tile_height = tile_height;
  t->tile_x = tile_x;
  t->tile_y = tile_y;
  t->tiles_across = tiles_across;
  return true;
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
  /* One select at a time: GCC vectorises span loops over these, not over
   * an early return or nested conditionals. */
  t = t == t ? t : 0.0f;
  t = t < -8388608.0f ? -8388608.0f : t;
  return t > 8388608.0f ? 8388608.0f : t;
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
  /* level 0 in tiles (SlTexture.tiles): shifts and masks of the tile
   * size, and where texel (0, 0) lies in the tile grid */
  const float *const   *tiles;
  int                   tile_shift_x, tile_shift_y, tile_mask_x, tile_mask_y;
  int                   tile_x, tile_y, tiles_across;
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
  v->tiles = level == 0 ? tex->tiles : NULL;
  if (v->tiles)
    {
      /* Powers of two (sl_texture_init_tiled). */
      v->tile_shift_x = __builtin_ctz ((unsigned) tex->tile_width);
      v->tile_shift_y = __builtin_ctz ((unsigned) tex->tile_height);
      v->tile_mask_x = tex->tile_width - 1;
      v->tile_mask_y = tex->tile_height - 1;
      v->tile_x = tex->tile_x;
      v->tile_y = tex->tile_y;
      v->tiles_across = tex->tiles_across;
    }
}

/* Texel (x, y) of a tiled level 0, 0 <= x < w, 0 <= y < h. */
static inline const float *
tiled_texel (const LevelView *v, int x, int y)
{
  int gx = x + v->tile_x, gy = y + v->tile_y;
  const float *tile = v->tiles[(size_t) (gy >> v->tile_shift_y) * (size_t) v->tiles_across
                               + (size_t) (gx >> v->tile_shift_x)];
  return tile + (((size_t) (gy & v->tile_mask_y) << v->tile_shift_x)
                 + (size_t) (gx & v->tile_mask_x)) * 4;
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
  const float *p = v->tiles ? tiled_texel (v, x, y)
                   : v->lv->texels + (size_t) z * v->lv->slice_stride
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

/* The texels at one corner of every lane's footprint (xi, yi after
 * addressing; -1 for border) in structure-of-arrays form. */
static void
gather_corner (const LevelView *v, const int32_t *xi, const int32_t *yi, Offsets off,
               Quad4 t)
{
  if (!v->tiles)
    {
      corner_offsets (off, xi, yi, v);
      gather (v->lv->texels, off, v->ss->border_color, t);
      return;
    }
  for (int i = 0; i < SL_SPAN; i++)
    {
      const float *p = (xi[i] | yi[i]) < 0 ? v->ss->border_color
                                           : tiled_texel (v, xi[i], yi[i]);
      for (int k = 0; k < 4; k++)
        t[k][i] = p[k];
    }
}

/* floorf for |t| <= 2^23 (what safe_coord leaves), in operations every
 * x86-64 CPU vectorises: baseline SSE2 has no rounding instruction, and
 * GCC leaves loops that call floorf scalar there.  It differs from floorf
 * only for -0, giving +0, which no caller can tell apart (both truncate
 * to the same index and leave the same zero fraction). */
static inline float
floor_coord (float t)
{
  float tr = (float) (int32_t) t;
  return tr > t ? tr - 1.0f : tr;
}

/* Point reads of level 0 for the whole span (fetch_level's arithmetic). */
static void
point_2d_span (const LevelView *v, const SlSamplerState *ss, float du, float dv,
               const SlReg *cu, const SlReg *cv, SlReg *out[4])
{
  float fw = (float) v->w, fh = (float) v->h;
  alignas (64) int32_t x0[SL_SPAN], y0[SL_SPAN];
  for (int i = 0; i < SL_SPAN; i++)
    {
      x0[i] = (int32_t) floor_coord (safe_coord ((cu->f[i] + du) * fw));
      y0[i] = (int32_t) floor_coord (safe_coord ((cv->f[i] + dv) * fh));
    }
  address_span (x0, v->w, v->wx0, v->wx1, ss->address_u);
  address_span (y0, v->h, v->wy0, v->wy1, ss->address_v);
  alignas (64) Offsets off;
  alignas (64) Quad4 t;
  gather_corner (v, x0, y0, off, t);
  for (int k = 0; k < 4; k++)
    memcpy (out[k]->f, t[k], sizeof t[k]);
}

/* Where each lane's bilinear footprint starts and its fractions, with the
 * texel-centre snapping of split(). */
typedef struct
{
  alignas (64) int32_t x0[SL_SPAN];
  alignas (64) int32_t y0[SL_SPAN];
  alignas (64) float fx[SL_SPAN];
  alignas (64) float fy[SL_SPAN];
  alignas (64) float gx[SL_SPAN];   /* 1 - fx */
  alignas (64) float gy[SL_SPAN];   /* 1 - fy */
} Footprint;

/* The texel-centre snapping of a footprint's fraction (see the file
 * comment): @t the coordinate in texels minus 1/2, @fl its floor. */
static inline void
snap_lane (float t, float fl, float eps, int32_t *i0, float *f, float *g)
{
  float a = t - fl;
  int32_t k = (int32_t) fl;
  k += a > 1.0f - eps ? 1 : 0;
  a = (a < eps) | (a > 1.0f - eps) ? 0.0f : a;
  *i0 = k;
  *f = a;
  *g = 1.0f - a;
}

static inline float
snap_eps (float size)
{
  return MAX (1.0f / 8192.0f, size * (1.0f / 2097152.0f));
}

/* One axis of footprint(): texel index and snapped fraction of (c + d)
 * · size - 1/2.  Three loops, because GCC 12 vectorises each of them but
 * not their fusion; not inlined, because inlined with a constant count
 * GCC 12 stores their results lane by lane. */
static __attribute__ ((noinline)) void
footprint_axis (const float *c, int n, float d, float size, int32_t *restrict i0,
                float *restrict f, float *restrict g)
{
  float eps = snap_eps (size);
  alignas (64) float t[SL_SPAN], fl[SL_SPAN];
  for (int i = 0; i < n; i++)
    t[i] = safe_coord ((c[i] + d) * size - 0.5f);
  for (int i = 0; i < n; i++)
    fl[i] = floor_coord (t[i]);
  for (int i = 0; i < n; i++)
    snap_lane (t[i], fl[i], eps, &i0[i], &f[i], &g[i]);
}

/* footprint_axis() of one coordinate. */
static inline void
footprint_one (float c, float d, float size, int32_t *i0, float *f, float *g)
{
  float t = safe_coord ((c + d) * size - 0.5f);
  snap_lane (t, floor_coord (t), snap_eps (size), i0, f, g);
}

/* How the columns of a read at the pixel lie, kept in
 * SlVmSampleAux.column_ready once they are placed: placed at all; each
 * column's footprint one texel right of its left neighbour's; some column
 * with a fraction. */
enum
{
  COLUMNS_PLACED = 1,
  COLUMNS_CONSECUTIVE = 2,
  COLUMNS_FRACTION = 4
};

/* The footprints of a read at the pixel (SlVmSample.at_pixel) along x,
 * the same in every row of a render call: placed from the first span at
 * these columns, then kept in @aux.  Returns their COLUMNS_ flags. */
static uint8_t
place_columns (const LevelView *v, float du, const SlReg *cu, SlVmSampleAux *aux)
{
  uint8_t shape = *aux->column_ready;
  if (shape)
    return shape;
  const int32_t *x0 = aux->column_x0;
  footprint_axis (cu->f, SL_SPAN_COLS, du, (float) v->w, aux->column_x0, aux->column_fx,
                  aux->column_gx);
  int32_t gaps = 0;
  uint32_t any_x = 0;
  for (int i = 0; i < SL_SPAN_COLS; i++)
    {
      gaps |= x0[i] - i - x0[0];
      any_x |= aux->column_fx[i] != 0.0f;
    }
  shape = COLUMNS_PLACED | (gaps ? 0 : COLUMNS_CONSECUTIVE) | (any_x ? COLUMNS_FRACTION : 0);
  *aux->column_ready = shape;
  return shape;
}

/* Returns whether any lane has a fraction.  @at_pixel: the coordinates
 * are a read's at the pixel (SlVmSample.at_pixel), whose u is the same
 * in both rows of the span and v the same along each row, so one row of
 * u and one lane of each row of v are enough. */
static bool
footprint (Footprint *fp, const LevelView *v, float du, float dv, const SlReg *cu,
           const SlReg *cv, bool at_pixel, SlVmSampleAux *aux)
{
  uint32_t varies = 0;
  if (at_pixel)
    {
      place_columns (v, du, cu, aux);
      for (int r = 0; r < 2; r++)
        {
          memcpy (fp->x0 + r * SL_SPAN_COLS, aux->column_x0, SL_SPAN_COLS * sizeof (int32_t));
          memcpy (fp->fx + r * SL_SPAN_COLS, aux->column_fx, SL_SPAN_COLS * sizeof (float));
          memcpy (fp->gx + r * SL_SPAN_COLS, aux->column_gx, SL_SPAN_COLS * sizeof (float));
        }
    }
  else
    {
      footprint_axis (cu->f, SL_SPAN, du, (float) v->w, fp->x0, fp->fx, fp->gx);
      /* The vertical coordinate is usually the same along each row of
       * the span (v depends on y alone): then one lane of each row will
       * do. */
      for (int r = 0; r < 2; r++)
        {
          const uint32_t *row = cv->u + r * SL_SPAN_COLS;
          for (int i = 0; i < SL_SPAN_COLS; i++)
            varies |= row[i] ^ row[0];
        }
    }
  if (varies)
    footprint_axis (cv->f, SL_SPAN, dv, (float) v->h, fp->y0, fp->fy, fp->gy);
  else
    {
      for (int r = 0; r < 2; r++)
        {
          int32_t y0;
          float fy, gy;
          footprint_one (cv->f[r * SL_SPAN_COLS], dv, (float) v->h, &y0, &fy, &gy);
          for (int i = 0; i < SL_SPAN_COLS; i++)
            {
              fp->y0[r * SL_SPAN_COLS + i] = y0;
              fp->fy[r * SL_SPAN_COLS + i] = fy;
              fp->gy[r * SL_SPAN_COLS + i] = gy;
            }
        }
    }
  uint32_t any_frac = 0;
  for (int i = 0; i < SL_SPAN; i++)
    any_frac |= (fp->fx[i] != 0.0f) | (fp->fy[i] != 0.0f);
  return any_frac != 0;
}

/* One row of the span whose footprints are the texels (x, y) .. (x + n,
 * y + 1) of the window, consecutive along the row: the usual case when
 * the texture is about the viewport's size.  Then every corner of the
 * bilinear filter is a run of texels of one of two texture rows, split
 * into components once each, and the four corners of a lane are lanes i
 * and i + 1 of those runs.  needs_x1/needs_y1: some lane of the row
 * weighs the right/lower texels.  A row that reaches past the window
 * through a clamping sampler is regular too, clamped: its runs repeat
 * the edge texels, which is what addressing each corner would read (the
 * first and last spans of every row of a blur). */
typedef struct
{
  bool regular, clamped, needs_x1, needs_y1;
} RowShape;

/* The shape of a row whose first lane's footprint starts at texel (xl,
 * yl); @consecutive: lane i's starts at (xl + i, yl), else the row is not
 * regular. */
static RowShape
shape_of_row (const LevelView *v, int32_t xl, int32_t yl, bool consecutive, bool needs_x1,
              bool needs_y1)
{
  RowShape rs = { false, false, needs_x1, needs_y1 };
  bool inside = xl >= v->wx0 && yl >= v->wy0
                && xl + SL_SPAN_COLS - 1 + (needs_x1 ? 1 : 0) <= v->wx1
                && yl + (needs_y1 ? 1 : 0) <= v->wy1;
  /* The window lies inside the texture, so clamping to it is clamping
   * to both (address_span). */
  rs.clamped = !inside && v->ss->address_u == SL_ADDRESS_CLAMP
               && v->ss->address_v == SL_ADDRESS_CLAMP;
  /* Runs of texels are read from one array: not from tiles. */
  rs.regular = consecutive && (inside || rs.clamped) && !v->tiles;
  return rs;
}

static RowShape
row_shape (const Footprint *fp, int r, const LevelView *v)
{
  const int32_t *x0 = fp->x0 + r * SL_SPAN_COLS, *y0 = fp->y0 + r * SL_SPAN_COLS;
  const float *fx = fp->fx + r * SL_SPAN_COLS, *fy = fp->fy + r * SL_SPAN_COLS;
  int32_t bad = 0;
  uint32_t any_x = 0, any_y = 0;
  for (int i = 0; i < SL_SPAN_COLS; i++)
    {
      bad |= (x0[i] - i - x0[0]) | (y0[i] - y0[0]);
      any_x |= fx[i] != 0.0f;
      any_y |= fy[i] != 0.0f;
    }
  return shape_of_row (v, x0[0], y0[0], !bad, any_x != 0, any_y != 0);
}

/* One row of a span's footprints, for bilinear_row(): the first lane's
 * texel and each lane's fractions. */
typedef struct
{
  int32_t      x, y;
  const float *fx, *fy, *gx, *gy;
} RowFootprint;

static RowFootprint
row_footprint (const Footprint *fp, int r)
{
  const int o = r * SL_SPAN_COLS;
  return (RowFootprint) { fp->x0[o], fp->y0[o], fp->fx + o, fp->fy + o, fp->gx + o, fp->gy + o };
}

/* A run of n texels of one texture row, one array per component (n + 1
 * entries are read, one beyond for the right-hand corners): the clamped
 * runs of a row past the window's edge (load_run_clamped()). */
typedef float TexelRun[4][SL_SPAN_COLS + 8];

/* Texels x .. x + n - 1 of row y inside the window, one pointer per
 * component, from the run of this span that holds them (split there if
 * none does). */
static void
find_run (const LevelView *v, SlVmRunCache *runs, int x, int y, int n, const float *run[4])
{
  const float *row = v->lv->texels + (size_t) (y - v->wy0) * v->lv->row_stride;
  int i = 0;
  for (; i < SL_VM_RUN_SLOTS; i++)
    {
      const SlVmRun *r = &runs->runs[i];
      if (r->row == row && r->span == runs->span && x >= r->x && x + n <= r->x + r->n)
        break;
    }
  if (i == SL_VM_RUN_SLOTS)
    {
      i = runs->next;
      runs->next = (i + 1) % SL_VM_RUN_SLOTS;
      SlVmRun *r = &runs->runs[i];
      int x0 = MAX (x - SL_VM_RUN_MARGIN, v->wx0);
      int x1 = MIN (x + n - 1 + SL_VM_RUN_MARGIN, v->wx1);
      r->row = row;
      r->span = runs->span;
      r->x = x0;
      r->n = x1 - x0 + 1;
      sl_rgba_split (row + (size_t) (x0 - v->wx0) * 4, (size_t) r->n, r->c[0], r->c[1],
                     r->c[2], r->c[3]);
      /* The next span splits the row's next texels: ask for them now.  A
       * filter's lowest rows are new to the cache in every span, and the
       * processor's own prefetching does not see far enough ahead while
       * the span does its arithmetic. */
      const float *next = row + (size_t) (x1 + 1 - v->wx0) * 4;
      int ahead = MIN (SL_SPAN_COLS, v->wx1 - x1);   /* texels left in the row */
      for (int c = 0; c < ahead; c += 4)   /* four texels a cache line */
        __builtin_prefetch (next + 4 * c);
    }
  const SlVmRun *r = &runs->runs[i];
  for (int k = 0; k < 4; k++)
    run[k] = r->c[k] + (x - r->x);
}

/* Texels x .. x + n - 1 of row y as a TexelRun, each index clamped to
 * the window. */
static void
load_run_clamped (const LevelView *v, int x, int y, int n, TexelRun run)
{
  y = y < v->wy0 ? v->wy0 : (y > v->wy1 ? v->wy1 : y);
  const float *row = v->lv->texels + (size_t) (y - v->wy0) * v->lv->row_stride;
  const float *right = row + (size_t) (v->wx1 - v->wx0) * 4;
  int j = 0;
  for (; j < n && x + j < v->wx0; j++)
    for (int k = 0; k < 4; k++)
      run[k][j] = row[k];
  int last = MIN (x + n - 1, v->wx1);
  if (x + j <= last)
    {
      int m = last - (x + j) + 1;
      sl_rgba_split (row + (size_t) (x + j - v->wx0) * 4, m, run[0] + j, run[1] + j,
                     run[2] + j, run[3] + j);
      j += m;
    }
  for (; j < n; j++)
    for (int k = 0; k < 4; k++)
      run[k][j] = right[k];
}

/* acc = the sum of its shape (SlVmSumsShape) with the texel components t,
 * as vm.c's accumulate() adds them. */
static inline void
sum_step (uint8_t shape, const SlVec t[4], SlVec w, SlVec acc[4])
{
  switch (shape)
    {
    case SL_VM_SUMS_ADD4:
      for (int k = 0; k < 4; k++)
        acc[k] = sl_vec_add (acc[k], t[k]);
      break;
    case SL_VM_SUMS_WEIGHTED4:
      for (int k = 0; k < 4; k++)
        acc[k] = sl_vec_add (sl_vec_mul (t[k], w), acc[k]);
      break;
    default:   /* SL_VM_SUMS_PREMULTIPLIED */
      for (int k = 0; k < 3; k++)
        acc[k] = sl_vec_add (sl_vec_mul (t[k], t[3]), acc[k]);
      acc[3] = sl_vec_add (acc[3], t[3]);
      break;
    }
}

static bool
sums_shape_direct (uint8_t shape)
{
  return shape == SL_VM_SUMS_ADD4 || shape == SL_VM_SUMS_WEIGHTED4
         || shape == SL_VM_SUMS_PREMULTIPLIED;
}

/* The bilinear value of each component of SL_VEC_LANES lanes from their
 * corner texels, summed as the general path sums them: weights w00 =
 * gx gy, w10 = fx gy, w01 = gx fy, w11 = fx fy, ((w00 t00 + w10 t10) +
 * w01 t01) + w11 t11, with the corners no lane of the row weighs (nx, ny
 * false) left out.  @selects: a corner is skipped in the lanes that weigh
 * it zero (so that an infinite or NaN texel it does not weigh cannot
 * reach the sum). */
static inline __attribute__ ((always_inline)) void
blend_lanes (SlVec t[4], const float *const top[4], const float *const bottom[4], int i,
             SlVec w00, SlVec w10, SlVec w01, SlVec w11, SlVecMask m10, SlVecMask m01,
             SlVecMask m11, bool nx, bool ny, bool selects)
{
  for (int k = 0; k < 4; k++)
    {
      SlVec a = sl_vec_mul (w00, sl_vec_load (top[k] + i)), more;
      if (nx)
        {
          more = sl_vec_add (a, sl_vec_mul (w10, sl_vec_load (top[k] + i + 1)));
          a = selects ? sl_vec_select (m10, more, a) : more;
        }
      if (ny)
        {
          more = sl_vec_add (a, sl_vec_mul (w01, sl_vec_load (bottom[k] + i)));
          a = selects ? sl_vec_select (m01, more, a) : more;
        }
      if (nx && ny)
        {
          more = sl_vec_add (a, sl_vec_mul (w11, sl_vec_load (bottom[k] + i + 1)));
          a = selects ? sl_vec_select (m11, more, a) : more;
        }
      t[k] = a;
    }
}

/* The bilinear reads of one row from its runs of corner texels
 * (blend_lanes()), into @acc or, for a fused read, summed into @sums in
 * registers.  Each machine vector of weights is made once for the four
 * components; the selects run only where some lane weighs a corner
 * zero. */
static inline __attribute__ ((always_inline)) void
blend_row (float *const acc[4], const float *const top[4], const float *const bottom[4],
           const float *fx, const float *fy, const float *gx, const float *gy, bool nx, bool ny,
           const SlVmSums *sums, int o)
{
  const SlVec weight = sl_vec_set1 (sums ? sums->weight[0] : 0.0f);
  for (int i = 0; i < SL_SPAN_COLS; i += SL_VEC_LANES)
    {
      SlVec vfx = sl_vec_load (fx + i), vfy = sl_vec_load (fy + i);
      SlVec vgx = sl_vec_load (gx + i), vgy = sl_vec_load (gy + i);
      SlVec w00 = sl_vec_mul (vgx, vgy);
      SlVec w10 = nx ? sl_vec_mul (vfx, vgy) : w00;
      SlVec w01 = ny ? sl_vec_mul (vgx, vfy) : w00;
      SlVec w11 = nx && ny ? sl_vec_mul (vfx, vfy) : w00;
      SlVecMask m10 = sl_vec_nonzero (w10), m01 = sl_vec_nonzero (w01);
      SlVecMask m11 = sl_vec_nonzero (w11);
      bool plain = (!nx || sl_vec_mask_all (m10)) && (!ny || sl_vec_mask_all (m01))
                   && (!(nx && ny) || sl_vec_mask_all (m11));
      SlVec t[4];
      if (plain)
        blend_lanes (t, top, bottom, i, w00, w10, w01, w11, m10, m01, m11, nx, ny, false);
      else
        blend_lanes (t, top, bottom, i, w00, w10, w01, w11, m10, m01, m11, nx, ny, true);
      if (sums)
        {
          /* A fused read (sl_sample_span): summed here, in registers. */
          SlVec s4[4];
          for (int k = 0; k < 4; k++)
            s4[k] = sl_vec_load (sums->acc[k] + o + i);
          sum_step (sums->shape, t, weight, s4);
          for (int k = 0; k < 4; k++)
            sl_vec_store (sums->dst[k] + o + i, s4[k]);
        }
      else
        for (int k = 0; k < 4; k++)
          sl_vec_store (acc[k] + i, t[k]);
    }
}

/* blend_row() for the corners bilinear_row() has, as a constant of
 * each call so that each case compiles to its own loop. */
#define BLEND_ROWS(sums)                                                         \
  do                                                                             \
    {                                                                            \
      if (nx && ny)                                                              \
        blend_row (acc, top, bottom, fx, fy, gx, gy, true, true, sums, o);       \
      else if (nx)                                                               \
        blend_row (acc, top, bottom, fx, fy, gx, gy, true, false, sums, o);      \
      else if (ny)                                                               \
        blend_row (acc, top, bottom, fx, fy, gx, gy, false, true, sums, o);      \
      else                                                                       \
        blend_row (acc, top, bottom, fx, fy, gx, gy, false, false, sums, o);     \
    }                                                                            \
  while (0)

/* Bilinear reads of one regular row (row_shape()), with the arithmetic
 * of the general path below: the same weights, the same order, a corner
 * skipped in the lanes that weigh it zero.  The right-hand corners of a
 * lane are lane i + 1 of the runs; a corner no lane of the row weighs is
 * neither loaded nor added. */
static void
bilinear_row (const LevelView *v, const RowFootprint *fp, int r, RowShape rs, bool any_frac,
              SlReg *out[4], SlVmRunCache *runs, const SlVmSums *sums, unsigned *summed_rows)
{
  const int o = r * SL_SPAN_COLS;
  const int32_t x = fp->x, y = fp->y;
  const bool nx = rs.needs_x1, ny = rs.needs_y1;
  TexelRun top_buf, bottom_buf;
  const float *top[4], *bottom[4];
  if (!any_frac && !rs.clamped)
    {
      /* Every lane on its texel: split the run straight into the
       * outputs. */
      const float *p = v->lv->texels + (size_t) (y - v->wy0) * v->lv->row_stride
                       + (size_t) (x - v->wx0) * 4;
      sl_rgba_split (p, SL_SPAN_COLS, out[0]->f + o, out[1]->f + o, out[2]->f + o,
                     out[3]->f + o);
      return;
    }
  if (rs.clamped)
    {
      load_run_clamped (v, x, y, SL_SPAN_COLS + nx, top_buf);
      for (int k = 0; k < 4; k++)
        top[k] = top_buf[k];
    }
  else
    find_run (v, runs, x, y, SL_SPAN_COLS + nx, top);
  if (!any_frac)
    {
      for (int k = 0; k < 4; k++)
        memcpy (out[k]->f + o, top[k], SL_SPAN_COLS * sizeof (float));
      return;
    }
  if (ny && rs.clamped)
    {
      load_run_clamped (v, x, y + 1, SL_SPAN_COLS + nx, bottom_buf);
      for (int k = 0; k < 4; k++)
        bottom[k] = bottom_buf[k];
    }
  else if (ny)
    find_run (v, runs, x, y + 1, SL_SPAN_COLS + nx, bottom);
  else
    for (int k = 0; k < 4; k++)
      bottom[k] = top[k];     /* unread: no lane weighs a lower texel */
  const float *fx = fp->fx, *fy = fp->fy, *gx = fp->gx, *gy = fp->gy;
  float *acc[4] = { out[0]->f + o, out[1]->f + o, out[2]->f + o, out[3]->f + o };
  if (sums && sums_shape_direct (sums->shape))
    {
      *summed_rows |= 1u << r;
      BLEND_ROWS (sums);
    }
  else
    BLEND_ROWS (NULL);
}

/* Bilinear reads at the pixel (SlVmSample.at_pixel) whose rows are both
 * regular: the footprint() and row_shape() of such a read, without
 * copying out the columns' footprints, which every row shares, or the
 * row's vertical one, which every lane of the row shares.  Returns false,
 * having read nothing, when a row is not regular. */
static bool
bilinear_at_pixel (const LevelView *v, float du, float dv, const SlReg *cu, const SlReg *cv,
                   SlReg *out[4], SlVmSampleAux *aux)
{
  uint8_t columns = place_columns (v, du, cu, aux);
  if (!(columns & COLUMNS_CONSECUTIVE))
    return false;
  bool any_frac = (columns & COLUMNS_FRACTION) != 0;
  alignas (64) float fy[2][SL_SPAN_COLS], gy[2][SL_SPAN_COLS];
  RowFootprint rows[2];
  RowShape shapes[2];
  for (int r = 0; r < 2; r++)
    {
      int32_t y0;
      float f, g;
      footprint_one (cv->f[r * SL_SPAN_COLS], dv, (float) v->h, &y0, &f, &g);
      shapes[r] = shape_of_row (v, aux->column_x0[0], y0, true, columns & COLUMNS_FRACTION,
                                f != 0.0f);
      if (!shapes[r].regular)
        return false;
      any_frac |= f != 0.0f;
      for (int i = 0; i < SL_SPAN_COLS; i++)
        {
          fy[r][i] = f;
          gy[r][i] = g;
        }
      rows[r] = (RowFootprint) { aux->column_x0[0], y0, aux->column_fx, fy[r], aux->column_gx,
                                 gy[r] };
    }
  for (int r = 0; r < 2; r++)
    bilinear_row (v, &rows[r], r, shapes[r], any_frac, out, aux->runs, aux->sums,
                  &aux->summed_rows);
  return true;
}

/* Point or bilinear reads of level 0 of a 2D texture for the whole span,
 * with the same arithmetic as fetch_level() (texel-centre snapping,
 * weights (1-fx)(1-fy), fx(1-fy), (1-fx)fy, fx fy accumulated in that
 * order, zero weights skipped so that an exact hit copies the texel). */
static void
sample_2d_span (const SlTexture *tex, const SlSamplerState *ss, const SlVmSample *s,
                const SlReg *cu, const SlReg *cv, SlReg *out[4], SlVmSampleAux *aux)
{
  LevelView v;
  level_view (&v, tex, ss, 0);
  float fw = (float) v.w, fh = (float) v.h;
  float du = (float) s->offset[0] / fw, dv = (float) s->offset[1] / fh;

  if (ss->mag_filter == SL_FILTER_POINT)
    {
      point_2d_span (&v, ss, du, dv, cu, cv, out);
      return;
    }

  if (s->at_pixel && bilinear_at_pixel (&v, du, dv, cu, cv, out, aux))
    return;
  Footprint fp;
  bool any_frac = footprint (&fp, &v, du, dv, cu, cv, s->at_pixel, aux);
  RowShape rows[2] = { row_shape (&fp, 0, &v), row_shape (&fp, 1, &v) };
  if (rows[0].regular && rows[1].regular)
    {
      for (int r = 0; r < 2; r++)
        {
          RowFootprint row = row_footprint (&fp, r);
          bilinear_row (&v, &row, r, rows[r], any_frac, out, aux->runs, aux->sums,
                        &aux->summed_rows);
        }
      return;
    }

  /* The general case: every corner of every lane addressed and gathered
   * on its own. */
  alignas (64) int32_t x0[SL_SPAN], y0[SL_SPAN], x1[SL_SPAN], y1[SL_SPAN];
  for (int i = 0; i < SL_SPAN; i++)
    {
      x0[i] = fp.x0[i];
      y0[i] = fp.y0[i];
      x1[i] = fp.x0[i] + 1;
      y1[i] = fp.y0[i] + 1;
    }
  address_span (x0, v.w, v.wx0, v.wx1, ss->address_u);
  address_span (y0, v.h, v.wy0, v.wy1, ss->address_v);

  alignas (64) Offsets off;
  alignas (64) Quad4 acc;
  gather_corner (&v, x0, y0, off, acc);
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
  alignas (64) float wgt[SL_SPAN];
  for (int i = 0; i < SL_SPAN; i++)
    wgt[i] = fp.gx[i] * fp.gy[i];
  for (int k = 0; k < 4; k++)
    for (int i = 0; i < SL_SPAN; i++)
      acc[k][i] = wgt[i] * acc[k][i];
  /* Corners (x1,y0), (x0,y1), (x1,y1) with weights fx·gy, gx·fy, fx·fy. */
  const int32_t *cx[3] = { x1, x0, x1 }, *cy[3] = { y0, y1, y1 };
  const float *wxs[3] = { fp.fx, fp.gx, fp.fx }, *wys[3] = { fp.gy, fp.fy, fp.fy };
  for (int n = 0; n < 3; n++)
    {
      gather_corner (&v, cx[n], cy[n], off, t);
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

/* The whole number of texels n that a constant @add added to a
 * normalised coordinate over @size texels moves by, when @add is n / size
 * to within 2^-24 and no more than 1 (sl_vm_whole_texels then returns
 * true).
 *
 * Why the general path then reads texel i + n at every pixel i, exactly:
 * with W = size and u = fl((i + 0.5) / W) the pixel's TEXCOORD, the
 * coordinate fl(u + add) · W - 1/2 differs from i + n by at most
 * W 2^-24 (u's rounding) + W 2^-24 (add against n / W) + W 2^-24 (the
 * sum's rounding, |sum| < 2) + 2 W 2^-24 (the product's) = 5 W 2^-24,
 * and subtracting 1/2 is exact.  The bilinear snapping tolerance is at
 * least 8 W 2^-24 (W / 2^21), so the fraction snaps to 0 on texel i + n;
 * point filtering floors i + n + 1/2 ± 5 W 2^-24 to i + n.  W <= 2^16
 * keeps the bound far below half a texel. */
#if SL_VM_LEVEL == 0
bool
sl_vm_whole_texels (float add, int size, int32_t *n)
{
  *n = 0;
  if (add == 0.0f)
    return true;
  *n = SL_VM_NOT_WHOLE;
  if (!(fabsf (add) <= 1.0f) || size > 65536)
    return false;
  double t = (double) add * size;        /* exact: 24 × 17 bits */
  double k = nearbyint (t);
  if (fabs (t - k) > size * 0x1p-24)
    return false;
  *n = (int32_t) k;
  return true;
}
#endif

/* A sample whose coordinates are the pixel's own TEXCOORD.xy plus whole
 * texels (nx, ny) reads texel (x + nx, y + ny) exactly when the texture
 * has the viewport's size: the texel-centre snapping (file comment and
 * sl_vm_whole_texels) lands every filter on that texel, and with one
 * level (or no mip filter) no LOD can pick another.  Texels past the texture's edge
 * are addressed as the general path addresses them.  The span must lie
 * inside the viewport.  Returns false, having done nothing, when any
 * condition fails. */
/* One row of a fused read at the pixel (SlVmSums), straight from its
 * run of SL_SPAN_COLS texels: each machine vector of texels is split
 * into components in registers and summed into the destinations there,
 * never stored as texels (sum_step()).  The vector moves of rgba.h
 * that split SL_VEC_LANES pixels: */
#if defined(__AVX512F__)
#define SUM_SPLIT sl_rgba_split16
#elif defined(__AVX__)
#define SUM_SPLIT sl_rgba_split8
#elif defined(__SSE2__)
#define SUM_SPLIT sl_rgba_split4
#endif

#ifdef SUM_SPLIT
/* The shapes of SlVmSumsShape; others return false. */
static bool
sum_run (const float *p, const SlVmSums *sums, int o)
{
  if (!sums_shape_direct (sums->shape))
    return false;
  const SlVec w = sl_vec_set1 (sums->weight[0]);
  for (int c = 0; c < SL_SPAN_COLS; c += SL_VEC_LANES)
    {
      SlVec acc[4], t[4];
      for (int k = 0; k < 4; k++)
        acc[k] = sl_vec_load (sums->acc[k] + o + c);
      SUM_SPLIT (p + 4 * c, t);
      sum_step (sums->shape, t, w, acc);
      for (int k = 0; k < 4; k++)
        sl_vec_store (sums->dst[k] + o + c, acc[k]);
    }
  return true;
}
#else
static bool
sum_run (const float *p, const SlVmSums *sums, int o)
{
  (void) p;
  (void) sums;
  (void) o;
  return false;
}
#endif

/* Whether reads at whole texels from the pixels of the span at (x0, y0)
 * may be copies of texels (see sl_sample_at_pixel). */
static bool
direct_reads (const SlTexture *tex, const SlSamplerState *ss, int x0, int y0,
              int viewport_width, int viewport_height)
{
  return tex && tex->levels[0].texels && tex->kind == SL_TEXTURE_2D && !ss->srgb
         && (tex->n_levels <= 1 || ss->mip_filter == SL_FILTER_NONE)
         && tex->levels[0].width == viewport_width && tex->levels[0].height == viewport_height
         && x0 >= 0 && y0 >= 0 && x0 + SL_SPAN_COLS <= viewport_width
         && y0 + 2 <= viewport_height;
}

/* A chain of @n fused reads at the pixel (SlVmSample.chain) with the
 * sums shape of @sums, tap j at whole texels offsets[j] weighing
 * weights[j] (SL_VM_SUMS_WEIGHTED4): @sums holds the first tap's
 * addends and the last tap's destinations.  Each machine vector of the
 * sums stays in registers from the first tap to the last, so a blur's
 * taps cost their splits and adds, not a load and a store each; every
 * lane adds the taps in their order, as the reads one by one would.
 * Only spans whose taps all lie inside the texture's window (the rows
 * sum_run would sum) are done; returns false, having done nothing,
 * otherwise. */
bool
SL_LEVEL (sl_sample_chain_at_pixel) (const SlTexture *tex, const SlSamplerState *ss, int n,
                                     const int32_t (*offsets)[2], const float *weights, int x0,
                                     int y0, int viewport_width, int viewport_height,
                                     const SlVmSums *sums)
{
#ifdef SUM_SPLIT
  uint8_t shape = sums->shape;
  if (n < 2 || n > SL_VM_MAX_CHAIN || !sums_shape_direct (shape)
      || !direct_reads (tex, ss, x0, y0, viewport_width, viewport_height))
    return false;
  LevelView v;
  level_view (&v, tex, ss, 0);
  const float *runs[2][SL_VM_MAX_CHAIN];
  for (int j = 0; j < n; j++)
    {
      int nx = offsets[j][0], ny = offsets[j][1];
      int xs = x0 + nx;
      if (nx == SL_VM_NOT_WHOLE || ny == SL_VM_NOT_WHOLE || xs < v.wx0
          || xs + SL_SPAN_COLS - 1 > v.wx1)
        return false;
      for (int r = 0; r < 2; r++)
        {
          int y = y0 + r + ny;
          if (y < v.wy0 || y > v.wy1)
            return false;
          runs[r][j] = v.lv->texels + (size_t) (y - v.wy0) * v.lv->row_stride
                       + (size_t) (xs - v.wx0) * 4;
        }
    }
  for (int r = 0; r < 2; r++)
    {
      int o = r * SL_SPAN_COLS;
      for (int c = 0; c < SL_SPAN_COLS; c += SL_VEC_LANES)
        {
          SlVec acc[4], t[4];
          for (int k = 0; k < 4; k++)
            acc[k] = sl_vec_load (sums->acc[k] + o + c);
          for (int j = 0; j < n; j++)
            {
              SUM_SPLIT (runs[r][j] + 4 * c, t);
              sum_step (shape, t, sl_vec_set1 (weights[j]), acc);
            }
          for (int k = 0; k < 4; k++)
            sl_vec_store (sums->dst[k] + o + c, acc[k]);
        }
    }
  return true;
#else
  (void) tex, (void) ss, (void) n, (void) offsets, (void) weights, (void) x0, (void) y0;
  (void) viewport_width, (void) viewport_height, (void) sums;
  return false;
#endif
}

/* ... and @sums (may be NULL): a fused read's sums, which it does itself
 * in the rows it reads as one run (bit r of *summed_rows); the other rows'
 * texels land in @out for the caller to sum. */
bool
SL_LEVEL (sl_sample_at_pixel) (const SlTexture *tex, const SlSamplerState *ss,
                               const int32_t offset[2], int x0, int y0,
                               int viewport_width, int viewport_height, SlReg *out[4],
                               const SlVmSums *sums, unsigned *summed_rows)
{
  int nx = offset[0], ny = offset[1];
  *summed_rows = 0;
  if (!direct_reads (tex, ss, x0, y0, viewport_width, viewport_height)
      || nx == SL_VM_NOT_WHOLE || ny == SL_VM_NOT_WHOLE)
    return false;
  LevelView v;
  level_view (&v, tex, ss, 0);
  int xs = x0 + nx, ys = y0 + ny;
  /* The span's columns read texels of the window only. */
  bool columns_inside = xs >= v.wx0 && xs + SL_SPAN_COLS - 1 <= v.wx1;
  if (!sums && columns_inside && ys >= v.wy0 && ys + 1 <= v.wy1)
    {
      /* The usual span, all its texels inside the window: what the loop
       * below does then, with the run's length known to the compiler. */
      for (int r = 0; r < 2; r++)
        {
          const float *p = v.lv->texels + (size_t) (ys + r - v.wy0) * v.lv->row_stride
                           + (size_t) (xs - v.wx0) * 4;
          int o = r * SL_SPAN_COLS;
          sl_rgba_split (p, SL_SPAN_COLS, out[0]->f + o, out[1]->f + o, out[2]->f + o,
                         out[3]->f + o);
        }
      return true;
    }
  for (int r = 0; r < 2; r++)
    {
      int o = r * SL_SPAN_COLS;
      int y = y0 + r + ny;
      if (y < 0 || y >= v.h)
        y = address (y, v.h, ss->address_v);
      if (y < 0)
        {
          for (int k = 0; k < 4; k++)
            for (int c = 0; c < SL_SPAN_COLS; c++)
              out[k]->f[o + c] = ss->border_color[k];
          continue;
        }
      y = y < v.wy0 ? v.wy0 : (y > v.wy1 ? v.wy1 : y);
      const float *row = v.lv->texels + (size_t) (y - v.wy0) * v.lv->row_stride;
      float *restrict ch[4] = { out[0]->f + o, out[1]->f + o, out[2]->f + o, out[3]->f + o };
      if (sums && columns_inside && sum_run (row + (size_t) (xs - v.wx0) * 4, sums, o))
        {
          *summed_rows |= 1u << r;
          continue;
        }
      if (ss->address_u == SL_ADDRESS_CLAMP || columns_inside)
        {
          /* Columns left of the window repeat its first texel, those
           * right of it its last (clamping: the window lies inside the
           * texture, so that is clamping to both); the rest, usually all,
           * is one run. */
          int left = CLAMP (v.wx0 - xs, 0, SL_SPAN_COLS);
          int right = CLAMP (v.wx1 - xs + 1, left, SL_SPAN_COLS);
          const float *first = row, *last = row + (size_t) (v.wx1 - v.wx0) * 4;
          for (int k = 0; k < 4; k++)
            {
              for (int c = 0; c < left; c++)
                ch[k][c] = first[k];
              for (int c = right; c < SL_SPAN_COLS; c++)
                ch[k][c] = last[k];
            }
          if (right > left)
            sl_rgba_split (row + (size_t) (xs + left - v.wx0) * 4, right - left,
                           ch[0] + left, ch[1] + left, ch[2] + left, ch[3] + left);
          continue;
        }
      for (int c = 0; c < SL_SPAN_COLS; c++)
        {
          int x = xs + c;
          if (x < 0 || x >= v.w)
            x = address (x, v.w, ss->address_u);
          const float *t = ss->border_color;
          if (x >= 0)
            {
              x = x < v.wx0 ? v.wx0 : (x > v.wx1 ? v.wx1 : x);
              t = row + (size_t) (x - v.wx0) * 4;
            }
          for (int k = 0; k < 4; k++)
            ch[k][c] = t[k];
        }
    }
  return true;
}

void
SL_LEVEL (sl_sample_span) (const SlTexture *tex, const SlSamplerState *ss,
                           const SlVmSample *s, const SlReg *const *src, SlReg *out[4],
                           SlVmSampleAux *aux)
{
  aux->summed_rows = 0;
  if (!tex || tex->n_levels < 1 || (!tex->levels[0].texels && !tex->tiles))
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
      sample_2d_span (tex, ss, s, cu, cv, out, aux);
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
