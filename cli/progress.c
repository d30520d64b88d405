/* progress — what `apply` shows on a terminal while it works: how far it
 * is, how fast it goes and when it will be done.
 *
 * The rate counts only the images that were rendered: outputs skipped as
 * up to date take no time, and counting them would make a resumed run
 * promise an ETA it cannot keep.  The ETA assumes the remaining inputs
 * all need rendering, which is the cautious guess.  On anything but a
 * terminal apply prints one line per file instead, and nothing at all
 * with --quiet; this file only formats.
 */
#include "config.h"

#include "progress.h"

#include <math.h>

#include <glib/gi18n.h>

char *
gs_progress_duration (double seconds)
{
  gint64 s = (gint64) llround (seconds < 0 ? 0 : seconds);

  if (s < 60)
    return g_strdup_printf ("%" G_GINT64_FORMAT "s", s);
  if (s < 3600)
    return g_strdup_printf ("%" G_GINT64_FORMAT "m%02" G_GINT64_FORMAT "s",
                            s / 60, s % 60);
  if (s < 86400)
    return g_strdup_printf ("%" G_GINT64_FORMAT "h%02" G_GINT64_FORMAT "m",
                            s / 3600, s % 3600 / 60);
  return g_strdup_printf ("%" G_GINT64_FORMAT "d%02" G_GINT64_FORMAT "h",
                          s / 86400, s % 86400 / 3600);
}

char *
gs_progress_line (const GsProgress *p)
{
  const int width = 24;
  int       filled = p->total > 0 ? (int) ((gint64) p->finished * width
                                           / p->total)
                                  : width;
  GString  *line = g_string_new ("[");

  for (int i = 0; i < width; i++)
    g_string_append_c (line, i < filled ? '#' : '.');
  g_string_append_printf (line, "] %d/%d", p->finished, p->total);
  if (p->processed > 0 && p->elapsed > 0.0)
    {
      double rate = p->processed / p->elapsed;
      char  *eta = gs_progress_duration ((p->total - p->finished) / rate);

      g_string_append_printf (line, _("  %.1f images/s  ETA %s"), rate, eta);
      g_free (eta);
    }
  if (p->failed > 0)
    g_string_append_printf (line, _("  %d failed"), p->failed);
  return g_string_free (line, FALSE);
}
