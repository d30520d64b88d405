/* See host-values.h. */
#include "config.h"

#include "host-values.h"

#include <string.h>

/* ReShade's size macros, over the hidden uniform gs_host_source()
 * declares (a GS_HOST_SIZE by its name). */
static const gchar *const buffer_defines[] =
{
  "BUFFER_WIDTH=(gs_host_size.x)",
  "BUFFER_HEIGHT=(gs_host_size.y)",
  "BUFFER_RCP_WIDTH=(1.0/gs_host_size.x)",
  "BUFFER_RCP_HEIGHT=(1.0/gs_host_size.y)",
  NULL
};

GsHostKind
gs_host_kind (const SlParam *param)
{
  const gchar *sem = param->semantic;
  gint         n   = param->rows * param->columns;

  if (sem)
    {
      if (! g_ascii_strcasecmp (sem, "VIEWPORTPIXELSIZE") ||
          ! g_ascii_strcasecmp (sem, "IMAGESIZE"))
        return GS_HOST_SIZE;
      if (! g_ascii_strcasecmp (sem, "PIXELSIZE") ||
          ! g_ascii_strcasecmp (sem, "INVVIEWPORTSIZE"))
        return GS_HOST_PIXEL_SIZE;
      if (! g_ascii_strcasecmp (sem, "SEED") ||
          ! g_ascii_strcasecmp (sem, "RANDOM"))
        return GS_HOST_SEED;
    }
  if (n == 2 && (! g_ascii_strcasecmp (param->name, "ImageSize") ||
                 ! strcmp (param->name, "BUFFER_SIZE") ||
                 ! strcmp (param->name, "gs_host_size")))
    return GS_HOST_SIZE;
  if (n == 2 && ! g_ascii_strcasecmp (param->name, "PixelSize"))
    return GS_HOST_PIXEL_SIZE;
  if (n == 1 && ! g_ascii_strcasecmp (param->name, "seed"))
    return GS_HOST_SEED;
  return GS_HOST_NONE;
}

gchar *
gs_host_source (const gchar          *path,
                const gchar          *contents,
                gsize                 length,
                gsize                *new_length,
                const gchar *const  **defines)
{
  gchar *quoted;
  gchar *text;

  *defines = NULL;
  if (sl_detect_language (contents, length) != SL_LANGUAGE_HLSL ||
      g_strstr_len (contents, length, "BUFFER_") == NULL)
    return NULL;
  quoted = g_strescape (path, NULL);
  text = g_strdup_printf ("float2 gs_host_size;\n#line 1 \"%s\"\n%.*s",
                          quoted, (int) length, contents);
  g_free (quoted);
  *new_length = strlen (text);
  *defines = buffer_defines;
  return text;
}

gboolean
gs_host_values_set (SlBinding     *binding,
                    gint           width,
                    gint           height,
                    const guint   *seed,
                    SlDiagnostics *diags)
{
  SlProgram *program = sl_binding_get_program (binding);

  for (gint i = 0; i < sl_program_get_n_params (program); i++)
    {
      const SlParam *param = sl_program_get_param (program, i);
      gfloat         v[2];

      switch (gs_host_kind (param))
        {
        case GS_HOST_SIZE:
          v[0] = (gfloat) width;
          v[1] = (gfloat) height;
          break;
        case GS_HOST_PIXEL_SIZE:
          v[0] = 1.0f / (gfloat) MAX (width, 1);
          v[1] = 1.0f / (gfloat) MAX (height, 1);
          break;
        case GS_HOST_SEED:
          if (seed == NULL)
            continue;
          v[0] = v[1] = (gfloat) *seed;
          break;
        default:
          continue;
        }
      if (! sl_binding_set_param (binding, param->name, v, 2, diags))
        return FALSE;
    }
  return TRUE;
}
