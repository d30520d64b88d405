/* Mip chains built from a host's level 0, for shaders that read other
 * levels of a texture the host gave as one level (sl_binding_set_auto_mips).
 *
 * Each level is the 2×2 box average of the one above, at D3D's floor
 * sizes.  A cache keeps one chain per distinct level 0 (its texels and
 * layout) until flushed, so the chain is built once per image, not once
 * per render call; renders run concurrently, so the cache has its own
 * lock.  Only the public texture types are used: this is a service of the
 * runtime beside the VM, which samples the levels it is given. */
#include "vm/mips.h"

#include <string.h>

struct SlVmMipCache
{
  GMutex     lock;
  GPtrArray *chains;   /* MipChain */
};

typedef struct
{
  const void  *texels;     /* key: the host's level 0 (texels or tiles) */
  int          width, height;
  size_t       row_stride;
  SlTexture    texture;    /* level 0 the host's, the rest in storage */
  float       *storage;
} MipChain;

static void
mip_chain_free (gpointer p)
{
  MipChain *m = p;
  g_free (m->storage);
  g_free (m);
}

/* Copies row @y of a tiled level 0 (SlTexture.tiles) to @dst. */
static void
tiled_row (const SlTexture *tex, int y, float *dst)
{
  int gy = y + tex->tile_y;
  const float *const *tiles = tex->tiles + (size_t) (gy / tex->tile_height) * tex->tiles_across;
  size_t in_tile = (size_t) (gy % tex->tile_height) * tex->tile_width;
  for (int x = 0; x < tex->levels[0].width;)
    {
      int gx = x + tex->tile_x;
      int n = MIN (tex->tile_width - gx % tex->tile_width, tex->levels[0].width - x);
      memcpy (dst + (size_t) x * 4, tiles[gx / tex->tile_width] + (in_tile + gx % tex->tile_width) * 4,
              (size_t) n * 4 * sizeof (float));
      x += n;
    }
}

/* Each level is the box average of 2×2 texels of the one above; an odd
 * width or height drops the last column or row (floor sizes, as D3D). */
static MipChain *
mip_chain_build (const SlTexture *src)
{
  MipChain *m = g_new0 (MipChain, 1);
  const SlTextureLevel *l0 = &src->levels[0];
  m->texels = l0->texels ? (const void *) l0->texels : (const void *) src->tiles;
  m->width = l0->width;
  m->height = l0->height;
  m->row_stride = l0->row_stride;
  m->texture = *src;
  size_t total = 0;
  int n = 1;
  for (int w = l0->width, h = l0->height; (w > 1 || h > 1) && n < SL_MAX_MIP_LEVELS; n++)
    {
      w = MAX (w / 2, 1);
      h = MAX (h / 2, 1);
      total += (size_t) w * h * 4;
    }
  m->storage = g_new (float, MAX (total, 1));
  float *dst = m->storage;
  /* Two rows of a tiled level 0, gathered for the level below it. */
  float *rows = src->tiles ? g_new (float, (size_t) l0->width * 8) : NULL;
  for (int i = 1; i < n; i++)
    {
      const SlTextureLevel *up = &m->texture.levels[i - 1];
      int w = MAX (up->width / 2, 1), h = MAX (up->height / 2, 1);
      /* A dimension already at 1 is not halved: read the same row/column twice. */
      int dx = up->width > 1 ? 1 : 0, dy = up->height > 1 ? 1 : 0;
      for (int y = 0; y < h; y++)
        {
          const float *r0, *r1;
          if (i == 1 && rows)
            {
              r0 = rows;
              r1 = rows + (size_t) up->width * 4;
              tiled_row (src, y << dy, rows);
              if (dy)
                tiled_row (src, (y << dy) + 1, rows + (size_t) up->width * 4);
              else
                r1 = r0;
            }
          else
            {
              r0 = up->texels + (size_t) (y << dy) * up->row_stride;
              r1 = r0 + (size_t) dy * up->row_stride;
            }
          float *o = dst + (size_t) y * w * 4;
          for (int x = 0; x < w; x++)
            {
              size_t a = (size_t) (x << dx) * 4, b = a + (size_t) dx * 4;
              for (int c = 0; c < 4; c++)
                o[4 * x + c] = ((r0[a + c] + r0[b + c]) + (r1[a + c] + r1[b + c])) * 0.25f;
            }
        }
      m->texture.levels[i] = (SlTextureLevel) {
        .width = w, .height = h, .depth = 1,
        .row_stride = (size_t) w * 4, .slice_stride = (size_t) w * h * 4,
        .texels = dst,
      };
      dst += (size_t) w * h * 4;
    }
  g_free (rows);
  m->texture.n_levels = n;
  return m;
}

SlVmMipCache *
sl_vm_mip_cache_new (void)
{
  SlVmMipCache *cache = g_new0 (SlVmMipCache, 1);
  g_mutex_init (&cache->lock);
  cache->chains = g_ptr_array_new_with_free_func (mip_chain_free);
  return cache;
}

void
sl_vm_mip_cache_free (SlVmMipCache *cache)
{
  if (!cache)
    return;
  g_ptr_array_unref (cache->chains);
  g_mutex_clear (&cache->lock);
  g_free (cache);
}

void
sl_vm_mip_cache_flush (SlVmMipCache *cache)
{
  g_mutex_lock (&cache->lock);
  g_ptr_array_set_size (cache->chains, 0);
  g_mutex_unlock (&cache->lock);
}

const SlTexture *
sl_vm_mip_cache_get (SlVmMipCache *cache, const SlTexture *tex)
{
  /* A window is fine when it holds the whole image (hosts fetch the whole
   * input for shaders that read other levels: their reach is unknown). */
  bool partial = tex && tex->window_width > 0
                 && (tex->window_x != 0 || tex->window_y != 0
                     || tex->window_width < tex->levels[0].width
                     || tex->window_height < tex->levels[0].height);
  if (!tex || tex->n_levels != 1 || tex->kind != SL_TEXTURE_2D || partial
      || (!tex->levels[0].texels && !tex->tiles) || (tex->levels[0].width <= 1 && tex->levels[0].height <= 1))
    return tex;
  const SlTextureLevel *l0 = &tex->levels[0];
  const SlTexture *res = NULL;
  g_mutex_lock (&cache->lock);
  for (guint i = 0; i < cache->chains->len && !res; i++)
    {
      MipChain *m = g_ptr_array_index (cache->chains, i);
      const void *key = l0->texels ? (const void *) l0->texels : (const void *) tex->tiles;
      if (m->texels == key && m->width == l0->width && m->height == l0->height
          && m->row_stride == l0->row_stride)
        res = &m->texture;
    }
  if (!res)
    {
      MipChain *m = mip_chain_build (tex);
      g_ptr_array_add (cache->chains, m);
      res = &m->texture;
    }
  g_mutex_unlock (&cache->lock);
  return res;
}
