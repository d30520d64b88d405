/* fuzz-exec — compile any accepted program and run it on a small image.
 *
 * The input is "SOURCE\0CONSTANTS": bytes up to the first NUL are the
 * shader (its language detected as the CLI does), the rest are raw 32-bit
 * words for the constant buffer, so the fuzzer controls both the code and
 * the values it meets (NaN, infinities, zero divisors, huge loop counts).
 * The texture holds the awkward values too, and a second slot uses point
 * sampling with wrapping.  The image is 7×5 so spans are partly filled and
 * quads straddle the edge; the rectangle is rendered twice, whole and in
 * two halves with the same scratch, and must come out identical
 * bit for bit (NaN payloads included) — rendering may not depend on how a
 * host tiles the work or on what a scratch held before.  The IR is
 * validated after every pass, the binding's too (SL_COMPILE_VALIDATE), and
 * an internal error aborts.
 */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <stdbool.h>
#include <string.h>

#include <glib.h>

#include "shaderlib.h"

#define W 7
#define H 5

int LLVMFuzzerTestOneInput (const uint8_t *data, size_t size);

/* A failed validation (or any other internal error) is a bug, not an
 * answer to bad input. */
static void
abort_on_internal_error (const SlDiagnostics *diags)
{
  for (int i = 0; i < sl_diagnostics_count (diags); i++)
    if (g_str_has_prefix (sl_diagnostics_get (diags, i)->code, SL_CODE_INTERNAL_PREFIX))
      abort ();
}

/* Returns false when a run-time limit stopped the program: the pixels
 * then depend on how the image was split into renders (vm.c). */
static bool
render (const SlBinding *binding, SlScratch *scratch, float *pixels, int split,
        int n_targets, SlDiagnostics *diags)
{
  SlTarget targets[8];

  for (int t = 0; t < n_targets; t++)
    {
      targets[t].pixels = pixels + (size_t) t * W * H * 4;
      targets[t].row_stride = W * 4;
    }
  if (!split)
    return sl_binding_render (binding, scratch, 0, 0, W, H, NULL, targets,
                              n_targets, diags);
  bool ok = sl_binding_render (binding, scratch, 0, 0, W, 3, NULL, targets,
                               n_targets, diags);
  for (int t = 0; t < n_targets; t++)
    targets[t].pixels += 3 * W * 4;
  return sl_binding_render (binding, scratch, 0, 3, W, H - 3, NULL, targets,
                            n_targets, diags) && ok;
}

int
LLVMFuzzerTestOneInput (const uint8_t *data, size_t size)
{
  const uint8_t *nul = memchr (data, 0, size);
  size_t         source_len = nul ? (size_t) (nul - data) : size;
  SlCompileOptions options = {
    .source = (const char *) data,
    .length = source_len,
    .filename = "fuzz",
    .language = SL_LANGUAGE_AUTO,
    .flags = SL_COMPILE_VALIDATE,
  };
  SlDiagnostics *diags = sl_diagnostics_new ();
  SlProgram     *program = sl_compile (&options, diags);

  abort_on_internal_error (diags);
  if (program == NULL)
    {
      sl_diagnostics_free (diags);
      return 0;
    }

  static const float specials[] = {
    0.0f, -0.0f, 1.0f, -1.0f, 0.5f, INFINITY, -INFINITY, NAN, 1e30f, -1e-30f,
    3.0f, 255.0f,
  };
  float texels[3 * 4 * 4];
  for (size_t i = 0; i < G_N_ELEMENTS (texels); i++)
    texels[i] = specials[i % G_N_ELEMENTS (specials)];
  SlTexture texture, small;
  sl_texture_init_2d (&texture, 4, 3, 16, texels);
  sl_texture_init_2d (&small, 1, 1, 4, texels + 4);

  SlBinding *binding = sl_binding_new (program);
  sl_binding_set_viewport (binding, W, H);
  if (nul != NULL)
    {
      size_t n_words = (size - source_len - 1) / 4;
      size_t limit = sl_program_get_constants_size (program);
      if (n_words > limit)
        n_words = limit;
      if (n_words > 0)
        sl_binding_set_constants (binding, 0, nul + 1, n_words);
    }
  SlSamplerState point;
  sl_sampler_state_init_default (&point);
  point.min_filter = point.mag_filter = SL_FILTER_POINT;
  point.address_u = point.address_v = SL_ADDRESS_WRAP;
  for (int slot = 0; slot < SL_MAX_SLOTS; slot++)
    sl_binding_set_texture (binding, slot, slot % 3 == 2 ? &small : &texture);
  sl_binding_set_sampler (binding, 1, &point);

  if (sl_binding_prepare (binding, diags))
    {
      int n_targets = sl_program_get_n_outputs (program);
      if (n_targets < 1)
        n_targets = 1;
      if (n_targets > 8)
        n_targets = 8;
      size_t     n = (size_t) n_targets * W * H * 4;
      float     *whole = g_new0 (float, n), *halves = g_new0 (float, n);
      SlScratch *scratch = sl_scratch_new ();

      bool whole_ok = render (binding, scratch, whole, 0, n_targets, diags);
      bool halves_ok = render (binding, scratch, halves, 1, n_targets, diags);
      if (whole_ok && halves_ok && memcmp (whole, halves, n * sizeof (float)) != 0)
        abort ();
      sl_scratch_free (scratch);
      g_free (whole);
      g_free (halves);
    }
  abort_on_internal_error (diags);
  sl_binding_free (binding);
  sl_program_unref (program);
  sl_diagnostics_free (diags);
  return 0;
}
