/* shader-test.h — the `gegl-shaders test` sub-command.
 *
 * Runs vkd3d-style `.shader_test` conformance files through the public
 * shaderlib API (compile, bind, render, probe) and prints a pass/fail
 * summary.  The CLI's main() dispatches here; everything the runner needs
 * lives in shader-test/ so the command can be built and tested on its own.
 */
#ifndef GS_SHADER_TEST_H
#define GS_SHADER_TEST_H

/* argv[0] is "test"; the rest are options and .shader_test files.
 * Returns the process exit status: 0 when nothing failed (or the pass rate
 * reached --min-pass-rate), 1 when checks failed, 2 on bad usage. */
int gs_shader_test_main (int argc, char **argv);

#endif /* GS_SHADER_TEST_H */
