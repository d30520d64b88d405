/* Diagnostics: a growing list of located messages.
 *
 * Every stage reports into one SlDiagnostics list and goes on, so a single
 * compile can report several errors.  Strings are owned by the list.  The
 * list is not locked: each thread reports into its own list.  Each entry
 * carries a code from the table in diag_codes.def: the library names its
 * row (sl_diag), hosts pass the code string (sl_diagnostics_add), and a
 * test run checks that a host's string is a row of the table. */
#include "base/diag.h"

#include <glib.h>
#include <stdarg.h>
#include <string.h>

typedef struct
{
  const char *code;
  SlSeverity  severity;
  const char *description;
} Row;

static const Row rows[SL_DIAG_N_KINDS] = {
#define SL_DIAG(id, code, severity, description) \
  [SL_DIAG_##id] = { code, SL_SEVERITY_##severity, description },
#include "base/diag_codes.def"
#undef SL_DIAG
};

const char *
sl_diag_code (SlDiagKind kind)
{
  g_return_val_if_fail (kind >= 0 && kind < SL_DIAG_N_KINDS, "");
  return rows[kind].code;
}

SlSeverity
sl_diag_severity (SlDiagKind kind)
{
  g_return_val_if_fail (kind >= 0 && kind < SL_DIAG_N_KINDS,
                        SL_SEVERITY_ERROR);
  return rows[kind].severity;
}

const char *
sl_diag_description (SlDiagKind kind)
{
  g_return_val_if_fail (kind >= 0 && kind < SL_DIAG_N_KINDS, "");
  return rows[kind].description;
}

bool
sl_validation_requested (void)
{
  const char *v = g_getenv ("SHADERLIB_VALIDATE");
  return v && *v && strcmp (v, "0") != 0;
}

bool
sl_fusion_disabled (void)
{
  const char *v = g_getenv ("SHADERLIB_NO_FUSION");
  return v && *v && strcmp (v, "0") != 0;
}

struct SlDiagnostics
{
  GArray *items;   /* SlDiagnostic, strings owned */
  int     n_errors;
};

SlDiagnostics *
sl_diagnostics_new (void)
{
  SlDiagnostics *diags = g_new0 (SlDiagnostics, 1);
  diags->items = g_array_new (FALSE, TRUE, sizeof (SlDiagnostic));
  return diags;
}

static void
free_strings (SlDiagnostic *d)
{
  g_free ((char *) d->file);
  g_free ((char *) d->code);
  g_free ((char *) d->message);
}

void
sl_diagnostics_clear (SlDiagnostics *diags)
{
  if (!diags)
    return;
  for (guint i = 0; i < diags->items->len; i++)
    free_strings (&g_array_index (diags->items, SlDiagnostic, i));
  g_array_set_size (diags->items, 0);
  diags->n_errors = 0;
}

void
sl_diagnostics_free (SlDiagnostics *diags)
{
  if (!diags)
    return;
  sl_diagnostics_clear (diags);
  g_array_free (diags->items, TRUE);
  g_free (diags);
}

int
sl_diagnostics_count (const SlDiagnostics *diags)
{
  return diags ? (int) diags->items->len : 0;
}

int
sl_diagnostics_error_count (const SlDiagnostics *diags)
{
  return diags ? diags->n_errors : 0;
}

const SlDiagnostic *
sl_diagnostics_get (const SlDiagnostics *diags, int index)
{
  if (!diags || index < 0 || (guint) index >= diags->items->len)
    return NULL;
  return &g_array_index (diags->items, SlDiagnostic, index);
}

/* A compile of hostile input could report without end; past this many
 * entries further ones are dropped (the error count still grows). */
#define MAX_DIAGNOSTICS 1000

static void
add_entry (SlDiagnostics *diags,
           SlSeverity     severity,
           const char    *file,
           int            line,
           int            column,
           const char    *code,
           const char    *format,
           va_list        args)
{
  if (severity == SL_SEVERITY_ERROR)
    diags->n_errors++;
  if (diags->items->len >= MAX_DIAGNOSTICS)
    return;

  char *message = g_strdup_vprintf (format, args);
  /* Messages are single lines: fold any newline a caller let through. */
  for (char *p = message; *p; p++)
    if (*p == '\n' || *p == '\r')
      *p = ' ';

  SlDiagnostic d = {
    .severity = severity,
    .file = g_strdup (file && *file ? file : "<source>"),
    .line = line,
    .column = column,
    .code = g_strdup (code ? code : ""),
    .message = message,
  };
  g_array_append_val (diags->items, d);
}

void
sl_diag_v (SlDiagnostics *diags,
           SlDiagKind     kind,
           const char    *file,
           int            line,
           int            column,
           const char    *format,
           va_list        args)
{
  if (!diags)
    return;
  g_return_if_fail (kind >= 0 && kind < SL_DIAG_N_KINDS);
  add_entry (diags, rows[kind].severity, file, line, column, rows[kind].code,
             format, args);
}

void
sl_diag (SlDiagnostics *diags,
         SlDiagKind     kind,
         const char    *file,
         int            line,
         int            column,
         const char    *format,
         ...)
{
  va_list args;
  va_start (args, format);
  sl_diag_v (diags, kind, file, line, column, format, args);
  va_end (args);
}

static const char *
severity_name (SlSeverity severity)
{
  switch (severity)
    {
    case SL_SEVERITY_NOTE: return "note";
    case SL_SEVERITY_WARNING: return "warning";
    default: return "error";
    }
}

static const Row *
find_row (const char *code)
{
  for (int i = 0; i < SL_DIAG_N_KINDS; i++)
    if (!strcmp (rows[i].code, code))
      return &rows[i];
  return NULL;
}

/* A host's code must be a row of the table, with the row's severity: in a
 * test run a stray one is reported, so the suite fails where it was added. */
static void
check_host_code (SlDiagnostics *diags,
                 SlSeverity     severity,
                 const char    *file,
                 int            line,
                 int            column,
                 const char    *code)
{
  if (!code)
    code = "";
  const Row *row = find_row (code);
  if (row && row->severity == severity)
    return;
  char *why;
  if (row)
    why = g_strdup_printf ("diagnostic code '%s' is reported as a %s; "
                           "its row says %s", code, severity_name (severity),
                           severity_name (row->severity));
  else
    why = g_strdup_printf ("diagnostic code '%s' is not in the table", code);
  g_critical ("%s", why);
  sl_diag (diags, SL_DIAG_INTERNAL_DIAG_CODE, file, line, column,
           "internal error: %s", why);
  g_free (why);
}

void
sl_diagnostics_add (SlDiagnostics *diags,
                    SlSeverity     severity,
                    const char    *file,
                    int            line,
                    int            column,
                    const char    *code,
                    const char    *format,
                    ...)
{
  if (!diags)
    return;
  va_list args;
  va_start (args, format);
  add_entry (diags, severity, file, line, column, code, format, args);
  va_end (args);
  if (sl_validation_requested ())
    check_host_code (diags, severity, file, line, column, code);
}

char *
sl_diagnostics_format (const SlDiagnostics *diags)
{
  GString *out = g_string_new (NULL);
  for (int i = 0; i < sl_diagnostics_count (diags); i++)
    {
      const SlDiagnostic *d = sl_diagnostics_get (diags, i);
      g_string_append (out, d->file);
      if (d->line > 0)
        {
          g_string_append_printf (out, ":%d", d->line);
          if (d->column > 0)
            g_string_append_printf (out, ":%d", d->column);
        }
      g_string_append_printf (out, ": %s: %s\n", severity_name (d->severity),
                              d->message);
    }
  return g_string_free (out, FALSE);
}
