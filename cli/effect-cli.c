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
#include "render.h"
#include "shader-file.h"
#include "memory-budget.h"

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
    .flags = (a->any_path ? SL_COMPILE_ANY_PATH : 0) | a->compile_flags,
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

/* Numbers in the C locale, as everywhere on the command line. */
static int
parse_numbers (const char *text, double *v, int max)
{
  char **parts = g_strsplit (text, ",", -1);
  int n = 0;
  gboolean ok = parts[0] != NULL;

  for (; ok && parts[n]; n++)
    {
      char *end;
      char *item = g_strstrip (parts[n]);
      if (n >= max || !item[0])
        ok = FALSE;
      else
        {
          v[n] = g_ascii_strtod (item, &end);
          ok = *end == '\0' && isfinite (v[n]);
        }
    }
  g_strfreev (parts);
  return ok ? n : -1;
}

gboolean
gs_effect_apply_sources (char *const *sources, int width, int height, SlEffectHostValues *hv,
                         char **message)
{
  static const struct
  {
    const char *name;
    int n;             /* values it takes */
    const char *form;
  } known[] = {
    { "timer", 1, "timer=MS" },
    { "frametime", 1, "frametime=MS" },
    { "framecount", 1, "framecount=N" },
    { "random", 1, "random=SEED" },
    { "mousepoint", 2, "mousepoint=X,Y" },
    { "date", 4, "date=YEAR,MONTH,DAY,SECONDS" },
  };

  for (int i = 0; sources && sources[i]; i++)
    {
      const char *eq = strchr (sources[i], '=');
      double v[4];
      int k = 0;

      while (eq && k < (int) G_N_ELEMENTS (known)
             && (strlen (known[k].name) != (size_t) (eq - sources[i])
                 || strncmp (sources[i], known[k].name, eq - sources[i])))
        k++;
      if (!eq || k == (int) G_N_ELEMENTS (known))
        {
          *message = g_strdup_printf (_("--source expects timer, frametime, framecount, random, "
                                        "mousepoint or date, then '=' and values, got '%s'"),
                                      sources[i]);
          return FALSE;
        }
      if (parse_numbers (eq + 1, v, 4) != known[k].n
          || (known[k].n == 1 && k != 0 && k != 1 && (v[0] < 0 || v[0] > G_MAXINT32
                                                       || v[0] != floor (v[0]))))
        {
          *message = g_strdup_printf (_("--source expects %s, got '%s'"), known[k].form,
                                      sources[i]);
          return FALSE;
        }
      switch (k)
        {
        case 0: hv->timer_ms = v[0]; break;
        case 1: hv->frametime_ms = v[0]; break;
        case 2: hv->framecount = (int64_t) v[0]; break;
        case 3: hv->seed = (uint32_t) v[0]; break;
        case 4:
          /* Pixels from the top-left corner; the library takes fractions. */
          hv->mouse_x = v[0] / width;
          hv->mouse_y = v[1] / height;
          break;
        default:
          for (int c = 0; c < 4; c++)
            hv->date[c] = (int) CLAMP (v[c], G_MININT32, G_MAXINT32);
          break;
        }
    }
  return TRUE;
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

int
gs_effect_dump (const GsEffectArgs *a,
                void (*print_program) (SlProgram *program))
{
  SlEffect *fx = compile_effect (a, a->width > 0 ? a->width : 512, a->height > 0 ? a->height : 512);
  if (fx == NULL)
    return 1;
  int t = pick_technique (fx, a->technique);
  if (t >= 0)
    {
      const SlEffectTechnique *tech = sl_effect_get_technique (fx, t);
      for (int p = 0; p < tech->n_passes; p++)
        {
          const SlEffectPass *pass = &tech->passes[p];
          printf ("%s;;; technique %s, pass %d%s%s: pixel shader %s\n", p ? "\n" : "", tech->name,
                  p + 1, pass->name[0] ? " " : "", pass->name, pass->pixel_shader);
          print_program (pass->program);
        }
    }
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
gs_effect_load_textures_within (SlEffect           *fx,
                                const char         *effect_file,
                                const char *const  *include_dirs,
                                const char *const  *overrides,
                                gboolean            any_path,
                                gboolean            linear,
                                gsize               max_bytes,
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
      GsImage *img = gs_image_load_within (path, gs_image_working_format (linear), max_bytes, &local);
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
      max_bytes -= MIN (gs_image_bytes (img->width, img->height), max_bytes);
    }
  return images;
}

gboolean
gs_effect_bind_textures (SlEffectRun   *run,
                         GPtrArray     *images,
                         SlDiagnostics *diags)
{
  gboolean ok = TRUE;
  for (guint i = 0; ok && i < images->len; i++)
    {
      const GsImage *img = images->pdata[i];
      if (img != NULL)
        ok = sl_effect_run_set_image (run, (int) i, img->width, img->height, (size_t) img->width * 4,
                                      img->pixels, diags);
    }
  return ok;
}

gsize
gs_effect_images_bytes (GPtrArray *images)
{
  gsize sum = 0;
  for (guint i = 0; i < images->len; i++)
    {
      const GsImage *img = images->pdata[i];
      if (img != NULL)
        sum = sum_bytes (sum, gs_image_bytes (img->width, img->height));
    }
  return sum;
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
  gsize budget = budget_of (a), host_bytes = 0;

  gegl_init (NULL, NULL);
  if (a->input != NULL)
    {
      /* Tiled: bands read their parts of it (render.c). */
      input = gs_image_open (a->input, gs_image_working_format (a->linear), FALSE, &error);
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

  /* An input of another size than the viewport is held whole, with its
   * resampled copy. */
  if (input != NULL && (input->width != width || input->height != height))
    {
      host_bytes = sum_bytes (gs_image_bytes (input->width, input->height),
                              gs_image_bytes (width, height));
      if (!gs_check_image_budget (width, height, host_bytes, budget))
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
  if (input != NULL && (input->width != width || input->height != height))
    {
      /* The back buffer is the image at the viewport size: at another
       * size, what a bilinear read of the image at each pixel centre
       * gives (as a per-file shader's tex2D sees it). */
      GsImage *whole = gs_image_to_whole (input, gs_image_working_format (a->linear),
                                          G_MAXSIZE, &error);
      GsImage *scaled = whole ? resample (whole, width, height, &error) : NULL;

      gs_image_free (whole);
      if (scaled == NULL)
        {
          gs_print_error ("%s", error->message);
          g_error_free (error);
          goto out;
        }
      gs_image_free (input);
      input = scaled;
      sl_texture_init_2d (&in_tex, input->width, input->height, (size_t) input->width * 4, input->pixels);
    }
  else
    /* Until render.c gives the run its input (each band's part, or the
     * whole image when the effect does not render locally). */
    gs_texture_placeholder (&in_tex, blank, width, height);
  sl_effect_run_set_input (run, &in_tex);

  /* Image textures: --texture NAME=IMG first, then source = "…". */
  images = gs_effect_load_textures_within (fx, a->file, (const char *const *) a->include_dirs,
                                           (const char *const *) a->textures, a->any_path,
                                           a->linear, budget - MIN (host_bytes, budget), &error);
  if (images == NULL)
    {
      gs_print_error ("%s", error->message);
      g_clear_error (&error);
      goto out;
    }
  /* The library counts its own buffers on top of the CLI's. */
  sl_effect_run_set_memory_budget (run, budget, sum_bytes (host_bytes, gs_effect_images_bytes (images)));
  if (!gs_effect_bind_textures (run, images, diags))
    {
      print_diags (diags);
      goto out;
    }
  SlEffectHostValues hv;
  char *bad = NULL;
  sl_effect_host_values_init (&hv);
  /* main.c has checked the texts: this cannot fail. */
  if (!gs_effect_apply_sources (a->sources, width, height, &hv, &bad))
    {
      gs_print_error ("%s", bad);
      g_free (bad);
      goto out;
    }
  sl_effect_run_set_host_values (run, &hv);
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
  target = gs_image_new_tiled (width, height, gs_image_working_format (a->linear), &error);
  if (target == NULL)
    {
      gs_print_error ("%s", error->message);
      g_error_free (error);
      goto out;
    }
  /* A band that only hit a run-time limit still wrote its pixels. */
  GsRenderJob job = {
    .run = run, .input = input, .format = gs_image_working_format (a->linear),
    .budget = budget, .held = sum_bytes (host_bytes, gs_effect_images_bytes (images)),
    .n_threads = a->jobs > 0 ? a->jobs : (int) g_get_num_processors (), .name = a->file,
  };
  gboolean ok = gs_render (&job, target, diags) || sl_diagnostics_error_count (diags) == 0;
  print_diags (diags);
  if (!ok)
    goto out;
  for (int i = 0; i < a->n_probes; i++)
    {
      int x = a->probes[2 * i], y = a->probes[2 * i + 1];
      float px[4];
      char buf[G_ASCII_DTOSTR_BUF_SIZE];
      gs_image_read (target, x, y, 1, 1, gs_image_working_format (a->linear), px);
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
  gs_image_io_gegl_exit ();
  return status;
}
