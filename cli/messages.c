/* The command-line tool's own messages (not the compiler's diagnostics,
 * which keep their file:line:col form). */
#include "config.h"

#include "messages.h"

#include <stdarg.h>
#include <stdio.h>

#include <glib/gi18n.h>

void
gs_print_error (const char *format,
                ...)
{
  va_list args;
  char   *text;

  va_start (args, format);
  text = g_strdup_vprintf (format, args);
  va_end (args);
  /* TRANSLATORS: prefix of the CLI's own error messages */
  fprintf (stderr, _("%s: error: %s\n"), GS_PROGRAM, text);
  g_free (text);
}

void
gs_print_warning (const char *format,
                  ...)
{
  va_list args;
  char   *text;

  va_start (args, format);
  text = g_strdup_vprintf (format, args);
  va_end (args);
  /* TRANSLATORS: prefix of the CLI's own warnings */
  fprintf (stderr, _("%s: warning: %s\n"), GS_PROGRAM, text);
  g_free (text);
}
