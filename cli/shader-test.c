/* shader-test.c — conformance runner for vkd3d `.shader_test` files.
 *
 * First cut: the entry point exists so the CLI links; the runner proper
 * follows. */
#include <stdio.h>

#include "shader-test.h"

int
gs_shader_test_main (int argc, char **argv)
{
  fprintf (stderr, "gegl-shaders test: not implemented yet\n");
  return 2;
}
