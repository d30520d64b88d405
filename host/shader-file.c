/* shader-file — the rules a shader file follows in every host.
 *
 * These are small, but each was once written separately in the CLI and
 * in the GEGL ops, and the copies drifted: the CLI read sources of up to
 * 64 MiB that the library then refused at 4 MiB, one op looked
 * annotations up by case and another not, and "every extra sampler reads
 * the input" was spelt four times.  Keeping them here makes the hosts
 * agree by construction.
 */
#include "config.h"

#include "shader-file.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <glib/gi18n-lib.h>
#include <glib/gstdio.h>

gboolean
gs_shader_file_read (const gchar  *path,
                     gchar       **contents,
                     gsize        *length,
                     GError      **error)
{
  FILE    *file;
  GString *text;
  gchar    chunk[65536];
  gsize    n;
  gboolean ok = TRUE;

  if (g_file_test (path, G_FILE_TEST_IS_DIR))
    {
      g_set_error (error, G_FILE_ERROR, G_FILE_ERROR_ISDIR,
                   _("cannot read '%s': %s"), path, g_strerror (EISDIR));
      return FALSE;
    }
  file = g_fopen (path, "rb");
  if (! file)
    {
      gint saved = errno;

      g_set_error (error, G_FILE_ERROR, g_file_error_from_errno (saved),
                   _("cannot read '%s': %s"), path, g_strerror (saved));
      return FALSE;
    }
  text = g_string_new (NULL);
  while (ok && (n = fread (chunk, 1, sizeof chunk, file)) > 0)
    {
      if (text->len + n > GS_MAX_SOURCE_BYTES)
        {
          g_set_error (error, G_FILE_ERROR, G_FILE_ERROR_FAILED,
                       _("cannot read '%s': file is larger than %u MiB"),
                       path, GS_MAX_SOURCE_BYTES >> 20);
          ok = FALSE;
        }
      else
        g_string_append_len (text, chunk, n);
    }
  if (ok && ferror (file))
    {
      gint saved = errno;

      g_set_error (error, G_FILE_ERROR, g_file_error_from_errno (saved),
                   _("cannot read '%s': %s"), path, g_strerror (saved));
      ok = FALSE;
    }
  fclose (file);
  if (! ok)
    {
      g_string_free (text, TRUE);
      return FALSE;
    }
  *length   = text->len;
  *contents = g_string_free (text, FALSE);
  return TRUE;
}

const SlAnnotation *
gs_annotation_find (const SlParam *param,
                    const gchar   *name)
{
  for (gint i = 0; param && i < param->n_annotations; i++)
    if (g_ascii_strcasecmp (param->annotations[i].name, name) == 0)
      return &param->annotations[i];
  return NULL;
}

const gchar *
gs_annotation_string (const SlParam *param,
                      const gchar   *name)
{
  const SlAnnotation *a = gs_annotation_find (param, name);

  return (a && a->type == SL_ANNOTATION_STRING) ? a->string_value : NULL;
}

gboolean
gs_annotation_number (const SlParam *param,
                      const gchar   *name,
                      gdouble       *value)
{
  const SlAnnotation *a = gs_annotation_find (param, name);

  if (! a || a->type == SL_ANNOTATION_STRING || a->n_values < 1)
    return FALSE;
  *value = a->values[0];
  return TRUE;
}

void
gs_texture_placeholder (SlTexture *texture,
                        gfloat     texel[4],
                        gint       width,
                        gint       height)
{
  memset (texel, 0, 4 * sizeof (gfloat));
  sl_texture_init_2d (texture, MAX (width, 1), MAX (height, 1), 4, texel);
  texture->window_width  = 1;
  texture->window_height = 1;
}

void
gs_bind_samplers (SlBinding              *binding,
                  const SlProgram        *program,
                  const SlTexture        *input,
                  const SlTexture *const *overrides)
{
  gint n = sl_program_get_n_samplers (program);

  /* Slot 0 always holds the input, sampled or not: the sampling reach is
   * measured in its texels. */
  sl_binding_set_texture (binding, 0,
                          overrides && overrides[0] ? overrides[0] : input);
  for (gint i = 0; i < n; i++)
    {
      const SlSamplerInfo *info = sl_program_get_sampler (program, i);

      if (! info || info->slot <= 0 || info->slot >= SL_MAX_SLOTS)
        continue;
      sl_binding_set_texture (binding, info->slot,
                              overrides && overrides[info->slot]
                              ? overrides[info->slot] : input);
    }
}

static gboolean
path_under (const gchar *real,
            const gchar *folder)
{
  gchar    *root = realpath (folder, NULL);
  gsize     n;
  gboolean  ok;

  if (! root)
    return FALSE;
  n = strlen (root);
  while (n > 1 && root[n - 1] == G_DIR_SEPARATOR)
    n--;
  ok = strncmp (real, root, n) == 0
       && (real[n] == '\0' || real[n] == G_DIR_SEPARATOR || n == 1);
  free (root);
  return ok;
}

gboolean
gs_path_confined (const gchar         *path,
                  const gchar         *file,
                  const gchar * const *folders)
{
  gchar    *real = realpath (path, NULL);
  gchar    *own;
  gboolean  ok;

  if (! real)
    return FALSE;
  own = g_path_get_dirname (file);
  ok  = path_under (real, own);
  g_free (own);
  for (gint i = 0; ! ok && folders && folders[i]; i++)
    ok = path_under (real, folders[i]);
  free (real);
  return ok;
}
