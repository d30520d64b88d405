/* effect-cli — runs effect files from the command line.
 *
 * The effect is compiled for the image size (its texture sizes and the
 * BUFFER_* macros depend on it), image textures named by `source = "…"`
 * are loaded from the file the library found for them (next to the
 * effect, then in the include folders; or replaced with --texture
 * NAME=IMG), and the technique is rendered in
 * bands on several threads: the first band's call renders the
 * intermediate passes once, the others wait for it and reuse them.
 * Run-time limits (loop cap, instruction budget) are reported as for a
 * single shader: each warning once however many bands hit it, and the
 * pixels are probed and written (exit 0).
 *
 * Memory: the input, the result and the texture images are whole images
 * the CLI holds; they count against the render's memory budget
 * (--memory-budget, GEGL_SHADERS_MEMORY_BUDGET) before they are
 * allocated, and the library counts the effect's own targets and images
 * on top of them, so `check` and `run` refuse an effect that would not
 * fit with the error at the texture that tips it over. */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include <glib/gi18n.h>
#include <gegl.h>

#include "shaderlib.h"
#include "messages.h"
#include "image-save.h"
#include "effect-cli.h"
#include "shader-file.h"
#include "memory-budget.h"

#define PROGRAM   "gegl-shaders"
#define BAND_ROWS 16

static void
print_diags (const SlDiagnostics *diags)
{
  if (sl_diagnostics_count (diags) == 0)
    return;
  char *text = sl_diagnostics_format (diags);
  fputs (text, stderr);
  g_free (text);
}

/* @src read bilinearly (edges clamped) at the pixel centres of a
 * @width×@height grid over the same image. */
static GsImage *
resample (const GsImage *src, int width, int height, GError **error)
{
  GsImage *dst = gs_image_new (width, height, error);
  if (dst == NULL)
    return NULL;
  for (int y = 0; y < height; y++)
    {
      double fy = (y + 0.5) * src->height / height - 0.5;
      int y0 = (int) floor (fy);
      float ty = (float) (fy - y0);
      int ya = CLAMP (y0, 0, src->height - 1), yb = CLAMP (y0 + 1, 0, src->height - 1);
      for (int x = 0; x < width; x++)
        {
          double fx = (x + 0.5) * src->width / width - 0.5;
          int x0 = (int) floor (fx);
          float tx = (float) (fx - x0);
          int xa = CLAMP (x0, 0, src->width - 1), xb = CLAMP (x0 + 1, 0, src->width - 1);
          const float *p00 = src->pixels + ((size_t) ya * src->width + xa) * 4;
          const float *p10 = src->pixels + ((size_t) ya * src->width + xb) * 4;
          const float *p01 = src->pixels + ((size_t) yb * src->width + xa) * 4;
          const float *p11 = src->pixels + ((size_t) yb * src->width + xb) * 4;
          float *d = dst->pixels + ((size_t) y * width + x) * 4;
          for (int c = 0; c < 4; c++)
            {
              float top = p00[c] + (p10[c] - p00[c]) * tx;
              float bottom = p01[c] + (p11[c] - p01[c]) * tx;
              d[c] = top + (bottom - top) * ty;
            }
        }
    }
  return dst;
}

gboolean
gs_check_image_budget (int width, int height, gsize need, gsize budget)
{
  if (need <= budget)
    return TRUE;
  char *a = gs_format_bytes (need), *b = gs_format_bytes (budget);
  gs_print_error (_("a %d×%d render needs %s for the images it holds whole (input, result, "
                    "texture images), over the memory budget of %s (--memory-budget, %s)"),
                  width, height, a, b, GS_MEMORY_BUDGET_ENV);
  g_free (a);
  g_free (b);
  return FALSE;
}

static gsize
sum_bytes (gsize a, gsize b)
{
  return a > G_MAXSIZE - b ? G_MAXSIZE : a + b;
}

static gsize
budget_of (const GsEffectArgs *a)
{
  return a->memory_budget ? a->memory_budget : SL_EFFECT_DEFAULT_MEMORY_BUDGET;
}

gboolean
gs_effect_file_p (const char *path)
{
  char *data = NULL;
  gsize len = 0;
  gboolean yes;

  if (!gs_shader_file_read (path, &data, &len, NULL))
    return FALSE;
  yes = sl_effect_detect (data, len);
  g_free (data);
  return yes;
}

static SlEffect *
compile_effect (const GsEffectArgs *a, int width, int height)
{
  char *source = NULL;
  gsize length = 0;
  GError *error = NULL;

  if (!gs_shader_file_read (a->file, &source, &length, &error))
    {
      gs_print_error ("%s", error->message);
      g_error_free (error);
      return NULL;
    }
  SlEffectOptions options = {
    .source = source,
    .length = length,
    .filename = a->file,
    .include_dirs = (const char *const *) a->include_dirs,
    .defines = (const char *const *) a->defines,
    .buffer_width = width,
    .buffer_height = height,
    .flags = a->any_path ? SL_COMPILE_ANY_PATH : 0,
  };
  SlDiagnostics *diags = sl_diagnostics_new ();
  SlEffect *fx = sl_effect_compile (&options, diags);
  print_diags (diags);
  sl_diagnostics_free (diags);
  g_free (source);
  return fx;
}

static int
pick_technique (SlEffect *fx, const char *name)
{
  if (name == NULL)
    return 0;
  int t = sl_effect_find_technique (fx, name);
  if (t < 0)
    {
      GString *known = g_string_new (NULL);
      for (int i = 0; i < sl_effect_get_n_techniques (fx); i++)
        g_string_append_printf (known, "%s%s", i ? ", " : "", sl_effect_get_technique (fx, i)->name);
      gs_print_error (_("unknown technique '%s' (techniques: %s)"), name, known->str);
      g_string_free (known, TRUE);
    }
  return t;
}

int
gs_effect_check (const GsEffectArgs *a)
{
  SlEffect *fx = compile_effect (a, a->width > 0 ? a->width : 512, a->height > 0 ? a->height : 512);
  if (fx == NULL)
    return 1;
  int t = pick_technique (fx, a->technique);
  /* What a render at this size would allocate, counted as `run` does
   * (without the image itself, which `check` does not have). */
  gboolean fits = TRUE;
  if (t >= 0)
    {
      SlEffectRun *run = sl_effect_run_new (fx, t);
      SlDiagnostics *diags = sl_diagnostics_new ();
      sl_effect_run_set_memory_budget (run, budget_of (a), 0);
      fits = sl_effect_run_check_memory (run, diags);
      print_diags (diags);
      sl_diagnostics_free (diags);
      sl_effect_run_free (run);
    }
  sl_effect_unref (fx);
  return t < 0 || !fits ? 1 : 0;
}

typedef struct
{
  SlEffectRun *run;
  GsImage     *target;
  gint         next_band;
  int          n_bands;
  GMutex       diags_lock;
  SlDiagnostics *diags;
  gboolean     ok;
} Job;

/* Every band that runs away says so; the user is told once. */
static gboolean
has_diagnostic (const SlDiagnostics *diags, const SlDiagnostic *d)
{
  for (int i = 0; i < sl_diagnostics_count (diags); i++)
    {
      const SlDiagnostic *e = sl_diagnostics_get (diags, i);
      if (e->severity == d->severity && e->line == d->line && e->column == d->column
          && g_strcmp0 (e->code, d->code) == 0 && g_strcmp0 (e->file, d->file) == 0
          && g_strcmp0 (e->message, d->message) == 0)
        return TRUE;
    }
  return FALSE;
}

static gpointer
worker (gpointer data)
{
  Job *job = data;
  SlScratch *scratch = sl_scratch_new ();
  SlDiagnostics *diags = sl_diagnostics_new ();
  gboolean ok = TRUE;

  for (;;)
    {
      int band = g_atomic_int_add (&job->next_band, 1);
      if (band >= job->n_bands)
        break;
      int y = band * BAND_ROWS, rows = MIN (BAND_ROWS, job->target->height - y);
      SlTarget t = {
        .pixels = job->target->pixels + (size_t) y * job->target->width * 4,
        .row_stride = (size_t) job->target->width * 4,
      };
      if (!sl_effect_render (job->run, scratch, 0, y, job->target->width, rows, NULL, &t, diags))
        ok = FALSE;
    }
  g_mutex_lock (&job->diags_lock);
  for (int i = 0; i < sl_diagnostics_count (diags); i++)
    {
      const SlDiagnostic *d = sl_diagnostics_get (diags, i);
      if (!has_diagnostic (job->diags, d))
        sl_diagnostics_add (job->diags, d->severity, d->file, d->line, d->column, d->code, "%s", d->message);
    }
  if (!ok)
    job->ok = FALSE;
  g_mutex_unlock (&job->diags_lock);
  sl_diagnostics_free (diags);
  sl_scratch_free (scratch);
  return NULL;
}

static gboolean
render_threads (SlEffectRun *run, GsImage *target, int jobs, SlDiagnostics *diags)
{
  Job job = { .run = run, .target = target, .diags = diags, .ok = TRUE };
  job.n_bands = (target->height + BAND_ROWS - 1) / BAND_ROWS;
  g_mutex_init (&job.diags_lock);
  int n = jobs > 0 ? jobs : (int) g_get_num_processors ();
  n = CLAMP (n, 1, MAX (job.n_bands, 1));
  GThread **threads = g_new0 (GThread *, n);
  for (int i = 1; i < n; i++)
    threads[i] = g_thread_try_new ("gs-effect", worker, &job, NULL);
  worker (&job);
  for (int i = 1; i < n; i++)
    if (threads[i])
      g_thread_join (threads[i]);
  g_free (threads);
  g_mutex_clear (&job.diags_lock);
  return job.ok;
}

int
gs_effect_run (const GsEffectArgs *a)
{
  GError *error = NULL;
  GsImage *input = NULL, *target = NULL;
  GPtrArray *images = g_ptr_array_new_with_free_func ((GDestroyNotify) gs_image_free);
  GPtrArray *image_of = g_ptr_array_new ();   /* the texture index of each image */
  SlEffect *fx = NULL;
  SlEffectRun *run = NULL;
  SlDiagnostics *diags = sl_diagnostics_new ();
  float blank[4] = { 0, 0, 0, 0 };
  int status = 1, width = a->width, height = a->height;
  gsize budget = budget_of (a), host_bytes = 0;

  gegl_init (NULL, NULL);
  if (a->input != NULL)
    {
      input = gs_image_load_within (a->input, gs_image_working_format (a->linear), budget, &error);
      if (input == NULL)
        {
          gs_print_error ("%s", error->message);
          g_error_free (error);
          goto out;
        }
      if (width == 0)
        {
          width = input->width;
          height = input->height;
        }
    }
  if (width == 0)
    width = height = 512;
  for (int i = 0; i < a->n_probes; i++)
    if (a->probes[2 * i] < 0 || a->probes[2 * i] >= width || a->probes[2 * i + 1] < 0
        || a->probes[2 * i + 1] >= height)
      {
        gs_print_error (_("probe %d,%d is outside the %d×%d image"), a->probes[2 * i], a->probes[2 * i + 1], width, height);
        goto out;
      }

  host_bytes = sum_bytes (input ? gs_image_bytes (input->width, input->height) : 0,
                         gs_image_bytes (width, height));
  if (input != NULL && (input->width != width || input->height != height))
    host_bytes = sum_bytes (host_bytes, gs_image_bytes (width, height));
  if (!gs_check_image_budget (width, height, host_bytes, budget))
    goto out;

  fx = compile_effect (a, width, height);
  if (fx == NULL)
    goto out;
  int tech = pick_technique (fx, a->technique);
  if (tech < 0)
    goto out;
  run = sl_effect_run_new (fx, tech);

  SlTexture in_tex;
  if (input != NULL)
    {
      /* The back buffer is the image at the viewport size: at another
       * size, what a bilinear read of the image at each pixel centre
       * gives (as a per-file shader's tex2D sees it). */
      if (input->width != width || input->height != height)
        {
          GsImage *scaled = resample (input, width, height, &error);
          if (scaled == NULL)
            {
              gs_print_error ("%s", error->message);
              g_error_free (error);
              goto out;
            }
          gs_image_free (input);
          input = scaled;
        }
      sl_texture_init_2d (&in_tex, input->width, input->height, (size_t) input->width * 4, input->pixels);
    }
  else
    {
      sl_texture_init_2d (&in_tex, width, height, 0, blank);
      in_tex.window_width = 1;
      in_tex.window_height = 1;
    }
  sl_effect_run_set_input (run, &in_tex);

  /* Image textures: --texture NAME=IMG first, then source = "…". */
  for (int i = 0; i < sl_effect_get_n_textures (fx); i++)
    {
      const SlEffectTexture *t = sl_effect_get_texture (fx, i);
      if (t->kind != SL_EFFECT_TEXTURE_IMAGE)
        continue;
      char *path = NULL;
      for (int k = 0; a->textures && a->textures[k]; k++)
        {
          const char *eq = strchr (a->textures[k], '=');
          if (eq && (size_t) (eq - a->textures[k]) == strlen (t->name)
              && !strncmp (a->textures[k], t->name, eq - a->textures[k]))
            path = g_strdup (eq + 1);
        }
      /* A missing image was reported when the effect compiled: the
       * texture reads as zero and the effect still renders, as in
       * ReShade.  One that is there but does not load is reported below. */
      if (path == NULL && t->source_path == NULL)
        continue;
      if (path == NULL)
        {
          path = g_strdup (t->source_path);
          /* What the file names is confined; what the user names with
           * --texture is theirs to choose. */
          if (!a->any_path
              && !gs_path_confined (path, a->file, (const char *const *) a->include_dirs))
            {
              gs_print_error (_("texture '%s': '%s' is outside the effect's folder and the include "
                                "folders (--allow-any-path allows it)"), t->name, t->source_file);
              g_free (path);
              goto out;
            }
        }
      GsImage *img = gs_image_load_within (path, gs_image_working_format (a->linear),
                                           budget - MIN (host_bytes, budget), &error);
      g_free (path);
      /* A file that is there but is no image of a sane size is an error
       * naming it (README, "Hostile input"); only a missing one reads as
       * zero. */
      if (img == NULL)
        {
          gs_print_error (_("texture '%s': %s"), t->name, error->message);
          g_clear_error (&error);
          goto out;
        }
      g_ptr_array_add (images, img);
      g_ptr_array_add (image_of, GINT_TO_POINTER (i));
      host_bytes = sum_bytes (host_bytes, gs_image_bytes (img->width, img->height));
    }
  /* The library counts its own buffers on top of the CLI's. */
  sl_effect_run_set_memory_budget (run, budget, host_bytes);
  for (guint k = 0; k < images->len; k++)
    {
      GsImage *img = g_ptr_array_index (images, k);
      if (!sl_effect_run_set_image (run, GPOINTER_TO_INT (g_ptr_array_index (image_of, k)), img->width,
                                    img->height, (size_t) img->width * 4, img->pixels, diags))
        {
          print_diags (diags);
          goto out;
        }
    }
  for (int k = 0; a->textures && a->textures[k]; k++)
    {
      const char *eq = strchr (a->textures[k], '=');
      gboolean known = FALSE;
      for (int i = 0; eq && i < sl_effect_get_n_textures (fx); i++)
        {
          const SlEffectTexture *t = sl_effect_get_texture (fx, i);
          known |= t->kind == SL_EFFECT_TEXTURE_IMAGE && strlen (t->name) == (size_t) (eq - a->textures[k])
                   && !strncmp (a->textures[k], t->name, eq - a->textures[k]);
        }
      if (!known)
        {
          gs_print_error (_("--texture %s: the effect has no image texture of that name"), a->textures[k]);
          goto out;
        }
    }
  for (int i = 0; a->sets && a->sets[i]; i++)
    if (!sl_effect_run_set_params_string (run, a->sets[i], diags))
      {
        print_diags (diags);
        goto out;
      }
  if (!sl_effect_run_prepare (run, diags))
    {
      print_diags (diags);
      goto out;
    }
  target = gs_image_new (width, height, &error);
  if (target == NULL)
    {
      gs_print_error ("%s", error->message);
      g_error_free (error);
      goto out;
    }
  /* A band that only hit a run-time limit still wrote its pixels. */
  gboolean ok = render_threads (run, target, a->jobs, diags)
                || sl_diagnostics_error_count (diags) == 0;
  print_diags (diags);
  if (!ok)
    goto out;
  for (int i = 0; i < a->n_probes; i++)
    {
      int x = a->probes[2 * i], y = a->probes[2 * i + 1];
      const float *px = target->pixels + ((size_t) y * width + x) * 4;
      char buf[G_ASCII_DTOSTR_BUF_SIZE];
      printf ("%d %d", x, y);
      for (int c = 0; c < 4; c++)
        printf (" %s", g_ascii_formatd (buf, sizeof buf, "%.9g", px[c]));
      putchar ('\n');
    }
  fflush (stdout);
  status = 0;
  if (a->output != NULL && !gs_image_save (target, a->output, a->linear, a->depth, &error))
    {
      gs_print_error ("%s", error->message);
      g_error_free (error);
      status = 1;
    }
out:
  sl_effect_run_free (run);
  if (fx)
    sl_effect_unref (fx);
  gs_image_free (input);
  gs_image_free (target);
  g_ptr_array_free (images, TRUE);
  g_ptr_array_free (image_of, TRUE);
  sl_diagnostics_free (diags);
  gegl_exit ();
  return status;
}
