/* float-ref — prints "%.9g" of (float)K / (float)D for each K given, so the
 * shell tests can compare probe output against what single-precision
 * division yields without depending on awk's double arithmetic. */
#include <stdio.h>
#include <stdlib.h>

int
main (int argc, char **argv)
{
  float divisor;

  if (argc < 3)
    {
      fprintf (stderr, "usage: float-ref DIVISOR K...\n");
      return 2;
    }
  divisor = (float) atof (argv[1]);
  for (int i = 2; i < argc; i++)
    printf ("%s%.9g", i > 2 ? " " : "", (double) ((float) atof (argv[i]) / divisor));
  putchar ('\n');
  return 0;
}
