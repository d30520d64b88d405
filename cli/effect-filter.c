/* effect-filter — an effect file (.fx) as the FILTER of `apply`.
 *
 * An effect is compiled for the size of the image it runs on (texture
 * sizes and the BUFFER_* macros depend on it), so batch work compiles it
 * once per image size and keeps the last few sizes: a folder of photos
 * from one camera compiles it once or twice.  Its image textures are
 * loaded once, when the filter is opened, and shared by every run.  The
 * first technique is rendered, as the GEGL op shader:<name> does, with
 * the same include folder (the effect's own) and the same confinement of
 * textures (the effect's folder and the filter folders).
 */
#include "config.h"

#include "effect-filter.h"

#include <string.h>

#include "effect-cli.h"
#include "filter-path.h"
#include "render.h"
#include "shader-file.h"

/* Sizes kept compiled; a batch of mixed sizes recompiles past this. */
#define CACHED_SIZES 4

typedef struct
{
  int       width, height;
  SlEffect *effect;
} SizedEffect;

struct _GsEffectFilter
{
  char        *path;
  char        *source;
  gsize        length;
  char        *dir;          /* the include folder: the effect's own */
  gboolean     any_path;
  GPtrArray   *images;       /* texture index → GsImage*, or NULL */
  GMutex       lock;         /* guards sizes and next_slot */
  SizedEffect  sizes[CACHED_SIZES];
  int          next_slot;
};

static SlEffect *
compile_for (GsEffectFilter *filter,
             int             width,
             int             height,
             SlDiagnostics  *diags)
{
  const char     *dirs[2] = { filter->dir, NULL };
  SlEffectOptions options = {
    .source = filter->source,
    .length = filter->length,
    .filename = filter->path,
    .include_dirs = dirs,
    .buffer_width = width,
    .buffer_height = height,
    .flags = filter->any_path ? SL_COMPILE_ANY_PATH : 0,
  };

  return sl_effect_compile (&options, diags);
}

/* The effect compiled for @width×@height, with a reference for the
 * caller; NULL with the compiler's errors in @diags. */
static SlEffect *
effect_for_size (GsEffectFilter *filter,
                 int             width,
                 int             height,
                 SlDiagnostics  *diags)
{
  SlEffect *effect = NULL;

  g_mutex_lock (&filter->lock);
  for (int i = 0; i < CACHED_SIZES && effect == NULL; i++)
    if (filter->sizes[i].effect != NULL && filter->sizes[i].width == width
        && filter->sizes[i].height == height)
      effect = sl_effect_ref (filter->sizes[i].effect);
  g_mutex_unlock (&filter->lock);
  if (effect != NULL)
    return effect;

  /* Compiled outside the lock: images of other sizes need not wait.  Two
   * threads may compile the same size at once; one copy is kept.  The
   * warnings were told when the filter was opened: only a failure's
   * diagnostics go on, or every image would repeat them. */
  {
    SlDiagnostics *local = sl_diagnostics_new ();

    effect = compile_for (filter, width, height, local);
    if (effect == NULL)
      for (int i = 0; i < sl_diagnostics_count (local); i++)
        {
          const SlDiagnostic *d = sl_diagnostics_get (local, i);

          sl_diagnostics_add (diags, d->severity, d->file, d->line, d->column,
                              d->code, "%s", d->message);
        }
    sl_diagnostics_free (local);
  }
  if (effect == NULL)
    return NULL;
  g_mutex_lock (&filter->lock);
  {
    SizedEffect *slot = &filter->sizes[filter->next_slot];

    if (slot->effect != NULL)
      sl_effect_unref (slot->effect);
    slot->width = width;
    slot->height = height;
    slot->effect = sl_effect_ref (effect);
    filter->next_slot = (filter->next_slot + 1) % CACHED_SIZES;
  }
  g_mutex_unlock (&filter->lock);
  return effect;
}

GsEffectFilter *
gs_effect_filter_new (const char    *path,
                      gboolean       linear,
                      gsize          memory_budget,
                      SlDiagnostics *diags,
                      GError       **error)
{
  GsEffectFilter *filter = g_new0 (GsEffectFilter, 1);
  SlEffect       *probe;
  GPtrArray      *filter_dirs;

  g_mutex_init (&filter->lock);
  filter->path = g_strdup (path);
  filter->dir = g_path_get_dirname (path);
  filter->any_path = g_getenv ("GEGL_SHADERS_ALLOW_ANY_PATH") != NULL;
  if (!gs_shader_file_read (path, &filter->source, &filter->length, error))
    {
      gs_effect_filter_free (filter);
      return NULL;
    }
  /* Compiled once up front, at the CLI's default canvas size, so that a
   * broken effect stops the batch before the first image and its
   * warnings are told once rather than once per size. */
  probe = compile_for (filter, 512, 512, diags);
  if (probe == NULL)
    {
      gs_effect_filter_free (filter);
      return NULL;
    }
  filter_dirs = gs_filter_dirs (NULL);
  g_ptr_array_add (filter_dirs, NULL);
  /* Refused from their headers when they alone exceed the budget. */
  filter->images = gs_effect_load_textures_within (probe, path,
                                                   (const char *const *) filter_dirs->pdata,
                                                   NULL, filter->any_path, linear,
                                                   memory_budget, error);
  g_ptr_array_unref (filter_dirs);
  sl_effect_unref (probe);
  if (filter->images == NULL)
    {
      gs_effect_filter_free (filter);
      return NULL;
    }
  return filter;
}

void
gs_effect_filter_free (GsEffectFilter *filter)
{
  if (filter == NULL)
    return;
  for (int i = 0; i < CACHED_SIZES; i++)
    if (filter->sizes[i].effect != NULL)
      sl_effect_unref (filter->sizes[i].effect);
  if (filter->images != NULL)
    g_ptr_array_free (filter->images, TRUE);
  g_mutex_clear (&filter->lock);
  g_free (filter->path);
  g_free (filter->source);
  g_free (filter->dir);
  g_free (filter);
}

/* A run of the first technique on @width×@height with @params set; NULL
 * with the errors in @diags. */
static SlEffectRun *
new_run (GsEffectFilter *filter,
         int             width,
         int             height,
         const char     *params,
         SlDiagnostics  *diags)
{
  SlEffect    *effect = effect_for_size (filter, width, height, diags);
  SlEffectRun *run;

  if (effect == NULL)
    return NULL;
  run = sl_effect_run_new (effect, 0);
  sl_effect_unref (effect);   /* the run holds its own reference */
  if (run == NULL)
    return NULL;
  if (params != NULL && (!sl_effect_run_set_params_string (run, params, diags)
                         || sl_diagnostics_error_count (diags) > 0))
    {
      sl_effect_run_free (run);
      return NULL;
    }
  return run;
}

gboolean
gs_effect_filter_check_params (GsEffectFilter *filter,
                               const char     *params,
                               SlDiagnostics  *diags)
{
  SlEffectRun *run = new_run (filter, 512, 512, params, diags);

  sl_effect_run_free (run);
  return run != NULL;
}

GsImage *
gs_effect_filter_render (GsEffectFilter *filter,
                         const GsImage  *input,
                         const char     *params,
                         int             n_threads,
                         gsize           memory_budget,
                         gsize           host_bytes,
                         SlDiagnostics  *diags,
                         GError        **error)
{
  SlEffectRun *run = new_run (filter, input->width, input->height, params, diags);
  GsImage     *target = NULL;
  SlTexture    texture;
  float        texel[4];
  const Babl  *format = input->buffer ? input->format : gs_image_working_format (FALSE);

  if (run == NULL)
    return NULL;
  /* render.c gives the run its input: each band's part, or the whole
   * image when the effect does not render locally. */
  gs_texture_placeholder (&texture, texel, input->width, input->height);
  sl_effect_run_set_input (run, &texture);
  /* The textures are the filter's, shared by every run, but each run
   * counts them as its own, as `run` counts its images. */
  {
    gsize textures = gs_effect_images_bytes (filter->images);

    host_bytes = host_bytes > G_MAXSIZE - textures ? G_MAXSIZE : host_bytes + textures;
  }
  sl_effect_run_set_memory_budget (run, memory_budget, host_bytes);
  if (gs_effect_bind_textures (run, filter->images, diags)
      && sl_effect_run_prepare (run, diags))
    target = gs_image_new_tiled (input->width, input->height, format, error);
  if (target != NULL)
    {
      GsRenderJob job = {
        .run = run, .input = input, .format = format,
        .budget = memory_budget, .held = host_bytes,
        .n_threads = n_threads, .name = filter->path,
      };

      /* A band that only hit a run-time limit still wrote its pixels:
       * the image counts, with the warning. */
      if (!gs_render (&job, target, diags) && sl_diagnostics_error_count (diags) > 0)
        g_clear_pointer (&target, gs_image_free);
    }
  sl_effect_run_free (run);
  return target;
}
