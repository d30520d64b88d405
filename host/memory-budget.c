/* memory-budget — one memory budget per render, read the same way by the
 * CLI and the GEGL module.
 *
 * The library counts what an effect allocates (render targets, image
 * textures, intermediate images) against a budget the host gives it,
 * together with the host's own whole-image buffers; the hosts refuse an
 * image that alone goes over.  The number comes from the user:
 * GEGL_SHADERS_MEMORY_BUDGET for every host, --memory-budget on the
 * command line; unset, the library's default of 2 GiB (README, "Hostile
 * input", says why that number).  A fixed default rather than a share of
 * the machine's memory keeps a file's fate the same on every machine:
 * what renders on one renders on another, and a test pins it. */
#include "config.h"

#include "memory-budget.h"

#include <string.h>

#include "shaderlib.h"

gboolean
gs_memory_budget_parse (const gchar *text,
                        gsize       *bytes)
{
  guint64  value = 0;
  guint    shift = 0;
  const gchar *p = text;

  if (text == NULL || ! g_ascii_isdigit (*p))
    return FALSE;
  while (g_ascii_isdigit (*p))
    {
      if (value > (G_MAXUINT64 - 9) / 10)
        return FALSE;
      value = value * 10 + (guint64) (*p++ - '0');
    }
  switch (g_ascii_toupper (*p))
    {
    case 'K': shift = 10; p++; break;
    case 'M': shift = 20; p++; break;
    case 'G': shift = 30; p++; break;
    case 'T': shift = 40; p++; break;
    default: break;
    }
  if (shift && (g_ascii_strcasecmp (p, "iB") == 0 || g_ascii_strcasecmp (p, "B") == 0))
    p += strlen (p);
  else if (! shift && g_ascii_strcasecmp (p, "B") == 0)
    p++;
  if (*p != '\0' || value == 0 || value > (G_MAXSIZE >> shift))
    return FALSE;
  *bytes = (gsize) (value << shift);
  return TRUE;
}

gboolean
gs_memory_budget_from_env (gsize *bytes)
{
  const gchar *text = g_getenv (GS_MEMORY_BUDGET_ENV);

  *bytes = SL_EFFECT_DEFAULT_MEMORY_BUDGET;
  if (text == NULL || *text == '\0')
    return TRUE;
  return gs_memory_budget_parse (text, bytes);
}

gsize
gs_image_bytes (gint64 width,
                gint64 height)
{
  gsize n;

  if (width < 1 || height < 1 ||
      ! g_size_checked_mul (&n, (gsize) width, (gsize) height) ||
      ! g_size_checked_mul (&n, n, 4 * sizeof (gfloat)))
    return G_MAXSIZE;
  return n;
}

gchar *
gs_format_bytes (gsize bytes)
{
  if (bytes == G_MAXSIZE)
    return g_strdup_printf ("more than %" G_GSIZE_FORMAT " MiB", G_MAXSIZE >> 20);
  if (bytes < ((gsize) 1 << 20))
    return g_strdup_printf ("%" G_GSIZE_FORMAT " KiB", (bytes + 1023) >> 10);
  return g_strdup_printf ("%" G_GSIZE_FORMAT " MiB",
                          (bytes >> 20) + ((bytes & 0xfffff) != 0));
}

gboolean
gs_effect_run_hold (SlEffectRun   *run,
                    gsize          bytes,
                    SlDiagnostics *diags)
{
  gsize host   = 0;
  gsize budget = sl_effect_run_get_memory_budget (run, &host);

  sl_effect_run_set_memory_budget (run, budget,
                                   host > G_MAXSIZE - bytes ? G_MAXSIZE : host + bytes);
  return sl_effect_run_check_memory (run, diags);
}
