/* Benchmark: compile time of a ~300-line HLSL filter (bench-300.hlsl).
 *
 * Compiles the file repeatedly at ps_3_0 and prints the median and best
 * times; the budget is "well under 50 ms".  Run with
 * `meson test --benchmark`; nothing is asserted except that it compiles. */
#include "shaderlib.h"

#include <glib.h>
#include <stdio.h>
#include <stdlib.h>

#ifndef BENCH_SHADER
#error "BENCH_SHADER must name bench-300.hlsl"
#endif

static int
cmp_double (const void *a, const void *b)
{
  double x = *(const double *) a, y = *(const double *) b;
  return x < y ? -1 : x > y;
}

int
main (void)
{
  char *src = NULL;
  gsize len = 0;
  if (!g_file_get_contents (BENCH_SHADER, &src, &len, NULL))
    {
      fprintf (stderr, "cannot read %s\n", BENCH_SHADER);
      return 1;
    }
  enum { RUNS = 30 };
  double ms[RUNS];
  for (int i = 0; i < RUNS; i++)
    {
      SlCompileOptions o = { 0 };
      o.source = src;
      o.length = len;
      o.filename = "bench-300.hlsl";
      o.language = SL_LANGUAGE_HLSL;
      o.profile = "ps_3_0";
      SlDiagnostics *d = sl_diagnostics_new ();
      gint64 t0 = g_get_monotonic_time ();
      SlProgram *p = sl_compile (&o, d);
      gint64 t1 = g_get_monotonic_time ();
      if (!p)
        {
          char *text = sl_diagnostics_format (d);
          fprintf (stderr, "%s", text);
          g_free (text);
          return 1;
        }
      sl_program_unref (p);
      sl_diagnostics_free (d);
      ms[i] = (t1 - t0) / 1000.0;
    }
  qsort (ms, RUNS, sizeof ms[0], cmp_double);
  printf ("compile %s: median %.2f ms, best %.2f ms over %d runs\n", "bench-300.hlsl",
          ms[RUNS / 2], ms[0], RUNS);
  g_free (src);
  return 0;
}
