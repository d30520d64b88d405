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
 * pixels are probed and written (exit 0). */
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
#include "render.h"
#include "shader-file.h"

#define PROGRAM   "gegl-shaders"

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
  sl_effect_unref (fx);
  return t < 0 ? 1 : 0;
}


static gboolean
texture_name_is (const char *assignment, const char *eq, const char *name)
{
  return (size_t) (eq - assignment) == strlen (name)
         && !strncmp (assignment, name, eq - assignment);
}

GPtrArray *
gs_effect_load_textures (SlEffect           *fx,
                         const char         *effect_file,
                         const char *const  *include_dirs,
                         const char *const  *overrides,
                         gboolean            any_path,
                         gboolean            linear,
                         GError            **error)
{
  int n = sl_effect_get_n_textures (fx);
  GPtrArray *images = g_ptr_array_new_full (n, (GDestroyNotify) gs_image_free);

  g_ptr_array_set_size (images, n);
  for (int k = 0; overrides && overrides[k]; k++)
    {
      const char *eq = strchr (overrides[k], '=');
      gboolean known = FALSE;
      for (int i = 0; eq && i < n; i++)
        {
          const SlEffectTexture *t = sl_effect_get_texture (fx, i);
          known |= t->kind == SL_EFFECT_TEXTURE_IMAGE && texture_name_is (overrides[k], eq, t->name);
        }
      if (!known)
        {
          g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
                       _("--texture %s: the effect has no image texture of that name"), overrides[k]);
          g_ptr_array_free (images, TRUE);
          return NULL;
        }
    }
  for (int i = 0; i < n; i++)
    {
      const SlEffectTexture *t = sl_effect_get_texture (fx, i);
      if (t->kind != SL_EFFECT_TEXTURE_IMAGE)
        continue;
      char *path = NULL;
      for (int k = 0; overrides && overrides[k]; k++)
        {
          const char *eq = strchr (overrides[k], '=');
          if (eq && texture_name_is (overrides[k], eq, t->name))
            {
              g_free (path);
              path = g_strdup (eq + 1);
            }
        }
      /* A missing image was reported when the effect compiled: the
       * texture reads as zero and the effect still renders, as in
       * ReShade.  One that is there but does not load is an error. */
      if (path == NULL && t->source_path == NULL)
        continue;
      if (path == NULL)
        {
          path = g_strdup (t->source_path);
          /* What the file names is confined; what the user names with
           * --texture is theirs to choose. */
          if (!any_path && !gs_path_confined (path, effect_file, include_dirs))
            {
              g_set_error (error, G_FILE_ERROR, G_FILE_ERROR_PERM,
                           _("texture '%s': '%s' is outside the effect's folder and the include "
                             "folders (--allow-any-path allows it)"), t->name, t->source_file);
              g_free (path);
              g_ptr_array_free (images, TRUE);
              return NULL;
            }
        }
      GError *local = NULL;
      GsImage *img = gs_image_load (path, gs_image_working_format (linear), &local);
      g_free (path);
      /* A file that is there but is no image of a sane size is an error
       * naming it (README, "Hostile input"). */
      if (img == NULL)
        {
          g_set_error (error, local->domain, local->code, _("texture '%s': %s"), t->name, local->message);
          g_error_free (local);
          g_ptr_array_free (images, TRUE);
          return NULL;
        }
      images->pdata[i] = img;
    }
  return images;
}

void
gs_effect_bind_textures (SlEffectRun   *run,
                         GPtrArray     *images,
                         SlDiagnostics *diags)
{
  for (guint i = 0; i < images->len; i++)
    {
      const GsImage *img = images->pdata[i];
      if (img != NULL)
        sl_effect_run_set_image (run, (int) i, img->width, img->height, (size_t) img->width * 4,
                                 img->pixels, diags);
    }
}

int
gs_effect_run (const GsEffectArgs *a)
{
  GError *error = NULL;
  GsImage *input = NULL, *target = NULL;
  GPtrArray *images = NULL;
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
  images = gs_effect_load_textures (fx, a->file, (const char *const *) a->include_dirs,
                                    (const char *const *) a->textures, a->any_path, a->linear,
                                    &error);
  if (images == NULL)
    {
      gs_print_error ("%s", error->message);
      g_clear_error (&error);
      goto out;
    }
  gs_effect_bind_textures (run, images, diags);
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
  gboolean ok = gs_render_effect (run, target, a->jobs > 0 ? a->jobs : (int) g_get_num_processors (),
                                 diags)
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
  if (images)
    g_ptr_array_free (images, TRUE);
  sl_diagnostics_free (diags);
  gegl_exit ();
  return status;
}
