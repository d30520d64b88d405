/* effect-cli — runs effect files from the command line.
 *
 * The effect is compiled for the image size (its texture sizes and the
 * BUFFER_* macros depend on it), image textures named by `source = "…"`
 * are loaded from the file the library found for them (next to the
 * effect, then in the include folders; or replaced with --texture
 * NAME=IMG), and the technique is rendered in
 * bands on several threads: the first band's call renders the
 * intermediate passes once, the others wait for it and reuse them. */
#include "config.h"

#include <stdio.h>
#include <string.h>

#include <glib/gi18n.h>
#include <gegl.h>

#include "shaderlib.h"
#include "messages.h"
#include "image-save.h"
#include "effect-cli.h"
#include "shader-file.h"

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
  sl_effect_unref (fx);
  return t < 0 ? 1 : 0;
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
  SlEffect *fx = NULL;
  SlEffectRun *run = NULL;
  SlDiagnostics *diags = sl_diagnostics_new ();
  float blank[4] = { 0, 0, 0, 0 };
  int status = 1, width = a->width, height = a->height;

  gegl_init (NULL, NULL);
  if (a->input != NULL)
    {
      input = gs_image_load (a->input, gs_image_working_format (a->linear), &error);
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
      /* The back buffer is the image at the viewport size. */
      sl_texture_init_2d (&in_tex, input->width, input->height, (size_t) input->width * 4, input->pixels);
      if (input->width != width || input->height != height)
        {
          in_tex.window_x = 0;
          in_tex.window_y = 0;
          in_tex.window_width = input->width;
          in_tex.window_height = input->height;
          in_tex.levels[0].width = width;
          in_tex.levels[0].height = height;
        }
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
      /* A missing image was reported when the effect compiled; one that
       * does not load is reported here.  Either way the texture reads as
       * zero and the effect still renders, as in ReShade. */
      if (path == NULL && t->source_path == NULL)
        continue;
      if (path == NULL)
        path = g_strdup (t->source_path);
      GsImage *img = gs_image_load (path, gs_image_working_format (a->linear), &error);
      g_free (path);
      if (img == NULL)
        {
          gs_print_warning (_("texture '%s': %s; the texture reads as zero"), t->name, error->message);
          g_clear_error (&error);
          continue;
        }
      g_ptr_array_add (images, img);
      sl_effect_run_set_image (run, i, img->width, img->height, (size_t) img->width * 4, img->pixels, diags);
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
  gboolean ok = render_threads (run, target, a->jobs, diags);
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
  sl_diagnostics_free (diags);
  gegl_exit ();
  return status;
}
