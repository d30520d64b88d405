/* Results and probes: what a run counts and how it checks pixels.
 *
 * Every check ends in exactly one of pass, fail or skip.  Failures are
 * printed only with --verbose, but a malformed line is always shown, once
 * per line however many models run it, and counts as a failure at each.
 * Skips are gathered per line and reason with the models they hit, so
 * the summary says why without repeating itself.
 *
 * A probe renders the rows it reads first (the draw is lazy), then
 * compares each pixel in the rectangle: floats within vkd3d's ULP
 * distance (0 unless the line gives one), integer targets and integer
 * probes exactly, after the float32 conversion every target holds. */
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <string.h>

#include "runner.h"

void
st_skip_note_clear (gpointer data)
{
  SkipNote *n = data;

  g_free (n->reason);
  g_string_free (n->models, TRUE);
}

void
st_record_pass (Run *run)
{
  run->res->passed++;
}

void
st_record_fail (Run *run, int line, const char *format, ...)
{
  va_list ap;
  char   *msg;

  va_start (ap, format);
  msg = g_strdup_vprintf (format, ap);
  va_end (ap);
  run->res->failed++;
  if (run->res->verbose)
    g_string_append_printf (run->res->out, "%s:%d: sm %s: %s\n",
                            run->res->path, line, run->model->name, msg);
  g_free (msg);
}

/* A malformed line: always shown (once per line), counted per model. */
void
st_record_error (Run *run, int line, int column, const char *format, ...)
{
  va_list ap;
  char   *msg, *key;

  va_start (ap, format);
  msg = g_strdup_vprintf (format, ap);
  va_end (ap);
  run->res->failed++;
  key = g_strdup_printf ("%d:%s", line, msg);
  if (!g_hash_table_contains (run->res->printed, key))
    {
      g_string_append_printf (run->res->out, "%s:%d:%d: error: %s\n",
                              run->res->path, line, MAX (column, 1), msg);
      g_hash_table_add (run->res->printed, key);
    }
  else
    g_free (key);
  g_free (msg);
}

void
st_record_skip (Run *run, int line, const char *reason)
{
  GArray *skips = run->res->skips;

  run->res->skipped++;
  for (guint i = 0; i < skips->len; i++)
    {
      SkipNote *n = &g_array_index (skips, SkipNote, i);

      if (n->line == line && strcmp (n->reason, reason) == 0)
        {
          const char *last = strrchr (n->models->str, ' ');
          last = last ? last + 1 : n->models->str;
          if (strcmp (last, run->model->name) != 0)
            g_string_append_printf (n->models, ", %s", run->model->name);
          return;
        }
    }
  {
    SkipNote n = { line, g_strdup (reason), g_string_new (run->model->name) };
    g_array_append_val (skips, n);
  }
}

/* vkd3d's ULP distance: map the sign-magnitude bit patterns onto a
 * monotonic integer line so -0 and +0 coincide. */
static gboolean
floats_within_ulps (float got, float expected, unsigned ulps)
{
  union { float f; gint32 i; } a = { got }, b = { expected };
  gint64 x = a.i, y = b.i;

  if (isnan (got) && isnan (expected))
    return TRUE;
  if (x < 0)
    x = (gint64) INT32_MIN - x;
  if (y < 0)
    y = (gint64) INT32_MIN - y;
  return (x > y ? x - y : y - x) <= (gint64) ulps;
}

typedef enum { VAL_FLOAT, VAL_SINT, VAL_UINT } ValKind;

static void
format_value (GString *s, ValKind kind, double v)
{
  if (kind == VAL_FLOAT)
    g_string_append_printf (s, "%.9g", v);
  else if (kind == VAL_SINT)
    g_string_append_printf (s, "%lld", (long long) v);
  else
    g_string_append_printf (s, "%#llx", (unsigned long long) v);
}

void
st_run_probe (Run *run, int line, const char *line_start, const char *p)
{
  static const struct
  {
    const char *name;
    ValKind     kind;
    int         min_n, max_n;
  } kinds[] = {
    { "rgbaui", VAL_UINT, 4, 4 }, { "rgbai", VAL_SINT, 4, 4 },
    { "rgba", VAL_FLOAT, 4, 4 },  { "rgb", VAL_FLOAT, 3, 3 },
    { "rg", VAL_FLOAT, 2, 2 },    { "rui", VAL_UINT, 1, 1 },
    { "ri", VAL_SINT, 1, 1 },     { "r", VAL_FLOAT, 1, 1 },
    { "f32", VAL_FLOAT, 1, 4 },   { "i32", VAL_SINT, 1, 4 },
    { "u32", VAL_UINT, 1, 4 },
  };
  static const char *const unsupported_kinds[] = {
    "rd", "rui64", "ri64", "f64", "i64", "u64"
  };
  int         slot = 0;
  int         x0 = 0, y0 = 0, x1 = 0, y1 = 0;
  gboolean    all = FALSE;
  ValKind     kind = VAL_FLOAT;
  int         n = 0, min_n = 0, max_n = 0;
  double      expected[4] = { 0 };
  unsigned long long ulps = 0;
  gboolean    found = FALSE;

  if (st_match_word (&p, "uav") || st_match_word (&p, "dsv"))
    {
      st_record_skip (run, line, "UAV and depth probes are not supported");
      return;
    }
  if (st_match_word (&p, "rtv") && (!st_parse_int (&p, &slot) || slot < 0
                                    || slot >= MAX_RTVS))
    {
      st_record_error (run, line, 1, "malformed render target index");
      return;
    }
  if (st_match_word (&p, "all"))
    all = TRUE;
  else
    {
      int v[4], count = 0;

      if (!st_expect_char (&p, '('))
        goto malformed;
      do
        {
          if (count == 4 || !st_parse_int (&p, &v[count]))
            goto malformed;
          count++;
        }
      while (st_expect_char (&p, ','));
      if (!st_expect_char (&p, ')') || count == 3)
        goto malformed;
      x0 = v[0];
      y0 = count > 1 ? v[1] : 0;
      /* vkd3d's four-number form is (left, top, right, bottom). */
      x1 = count == 4 ? v[2] : x0 + 1;
      y1 = count == 4 ? v[3] : y0 + 1;
    }

  for (size_t i = 0; i < G_N_ELEMENTS (unsupported_kinds); i++)
    {
      const char *q = p;
      if (st_match_word (&q, unsupported_kinds[i]))
        {
          st_record_skip (run, line, "64-bit probes are not supported");
          return;
        }
    }
  for (size_t i = 0; i < G_N_ELEMENTS (kinds) && !found; i++)
    if (st_match_word (&p, kinds[i].name))
      {
        kind = kinds[i].kind;
        min_n = kinds[i].min_n;
        max_n = kinds[i].max_n;
        found = TRUE;
      }
  if (!found || !st_expect_char (&p, '('))
    goto malformed;
  do
    {
      if (n == max_n)
        goto malformed;
      if (kind == VAL_FLOAT)
        {
          if (!st_parse_double (&p, &expected[n]))
            goto malformed;
          expected[n] = (float) expected[n];
        }
      else if (kind == VAL_SINT)
        {
          long long v;
          if (!st_parse_long (&p, &v) || v < INT32_MIN || v > INT32_MAX)
            goto malformed;
          expected[n] = (double) v;
        }
      else
        {
          unsigned long long v;
          if (!st_parse_ulong (&p, &v) || (v > UINT32_MAX
                                           && (long long) v < INT32_MIN))
            goto malformed;
          expected[n] = (double) (guint32) v;
        }
      n++;
    }
  while (st_expect_char (&p, ','));
  if (n < min_n || !st_expect_char (&p, ')'))
    goto malformed;
  if (!st_at_end (p) && (!st_parse_ulong (&p, &ulps) || !st_at_end (p)))
    goto malformed;

  /* The check itself. */
  switch (run->draw)
    {
    case DRAW_NONE:
      st_record_error (run, line, 1, "probe before any draw");
      return;
    case DRAW_SKIPPED:
      st_record_skip (run, run->draw_line, run->draw_msg);
      return;
    case DRAW_FAILED:
      st_record_fail (run, line, "probe after a failed draw (line %d): %s",
                      run->draw_line, run->draw_msg);
      return;
    case DRAW_OK:
      break;
    }
  if (slot >= run->n_targets || (slot > 0 && !run->rtv[slot].present))
    {
      st_record_error (run, line, 1, "render target %d is not bound", slot);
      return;
    }
  if (all)
    {
      x0 = 0;
      y0 = 0;
      x1 = run->target_w;
      y1 = run->target_h;
    }
  if (x0 < 0 || y0 < 0 || x1 > run->target_w || y1 > run->target_h
      || x0 >= x1 || y0 >= y1)
    {
      st_record_error (run, line, 1, "probe rectangle (%d, %d, %d, %d) is "
                       "outside the %dx%d render target", x0, y0, x1, y1,
                       run->target_w, run->target_h);
      return;
    }
  if (!st_ensure_rows (run, y0, y1))
    {
      st_record_fail (run, line, "probe after a failed draw (line %d): %s",
                      run->draw_line, run->draw_msg);
      return;
    }

  {
    gboolean exact = kind != VAL_FLOAT || run->rtv[slot].integer;
    const float *px = run->targets[slot];

    for (int y = y0; y < y1; y++)
      for (int x = x0; x < x1; x++)
        {
          const float *got = px + ((gsize) y * run->target_w + x) * 4;
          gboolean     ok = TRUE;

          for (int c = 0; c < n && ok; c++)
            {
              if (kind != VAL_FLOAT)
                /* Targets are float32 by contract: an integer output
                 * arrives converted, so compare against the expected
                 * integer rounded to float the same way. */
                ok = got[c] == (float) expected[c];
              else if (exact)
                ok = got[c] == (float) expected[c]
                     || (isnan (got[c]) && isnan (expected[c]));
              else
                ok = floats_within_ulps (got[c], (float) expected[c],
                                         (unsigned) MIN (ulps, G_MAXUINT));
            }
          if (!ok)
            {
              GString *s = g_string_new (NULL);

              g_string_append_printf (s, "probe (%d, %d) expected (", x, y);
              for (int c = 0; c < n; c++)
                {
                  if (c)
                    g_string_append (s, ", ");
                  format_value (s, kind, expected[c]);
                }
              g_string_append (s, "), got (");
              for (int c = 0; c < n; c++)
                g_string_append_printf (s, "%s%.9g", c ? ", " : "",
                                        (double) got[c]);
              g_string_append_printf (s, ")");
              if (ulps)
                g_string_append_printf (s, " within %llu ulps", ulps);
              if (run->ps_diags && *run->ps_diags)
                g_string_append_printf (s, "\n%s", run->ps_diags);
              st_record_fail (run, line, "%s", s->str);
              g_string_free (s, TRUE);
              return;
            }
        }
    st_record_pass (run);
  }
  return;

malformed:
  st_record_error (run, line, (int) (st_skip_ws (p) - line_start) + 1,
                   "malformed probe near '%s'", st_skip_ws (p));
}
