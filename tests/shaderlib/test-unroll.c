/* Tests of loop unrolling (ir/passes.c, unroll_loops): a loop whose
 * iterations the compiler can count from constants becomes that many
 * copies of its body, at compile time when its bounds are literals and
 * when a binding is prepared when they are parameters.
 *
 * Each shader renders an 8×2 viewport through the public API; the
 * expected pixels are computed in C with the same float operations in
 * the same order and compared with ==, so an unrolled loop must give
 * the bits the loop gave.  The IR is inspected to see that the loop is
 * gone where it should be and kept where it must be (a loop that breaks
 * on data, one too long to unroll), and the sampling reach of a blur
 * written as a loop is bounded once its loop is unrolled, which it could
 * not be while a counter changed on every iteration. */
#include "ir-test.h"

#define W 8
#define H 2

static SlProgram *
compile (const char *src)
{
  return compile_as (src, "unroll.hlsl");
}

/* The texture the blurs read: texel (x, y) holds distinct small binary
 * fractions, so sums of a few of them are exact. */
static float texels[H][W][4];

static void
fill_texture (SlTexture *t)
{
  for (int y = 0; y < H; y++)
    for (int x = 0; x < W; x++)
      for (int c = 0; c < 4; c++)
        texels[y][x][c] = (float) (x + 1 + 16 * y + 64 * c) / 256.0f;
  sl_texture_init_2d (t, W, H, W * 4, &texels[0][0][0]);
}

/* A prepared binding of @p over the viewport, with @name set to @value
 * when @name is not NULL and the texture at slot 0 (point sampled,
 * clamped). */
static SlBinding *
prepare (SlProgram *p, const char *name, float value, const SlTexture *texture)
{
  SlDiagnostics *d = sl_diagnostics_new ();
  SlBinding *b = sl_binding_new (p);
  sl_binding_set_viewport (b, W, H);
  if (name)
    g_assert_true (sl_binding_set_param (b, name, &value, 1, d));
  SlSamplerState ss;
  sl_sampler_state_init_default (&ss);
  ss.min_filter = ss.mag_filter = SL_FILTER_POINT;
  sl_binding_set_texture (b, 0, texture);
  sl_binding_set_sampler (b, 0, &ss);
  g_assert_true (sl_binding_prepare (b, d));
  g_assert_cmpint (sl_diagnostics_count (d), ==, 0);
  sl_diagnostics_free (d);
  return b;
}

static void
render (SlBinding *b, float out[H][W][4])
{
  SlDiagnostics *d = sl_diagnostics_new ();
  SlScratch *s = sl_scratch_new ();
  SlTarget t = { .pixels = &out[0][0][0], .row_stride = W * 4 };
  g_assert_true (sl_binding_render (b, s, 0, 0, W, H, NULL, &t, 1, d));
  g_assert_cmpint (sl_diagnostics_count (d), ==, 0);
  sl_scratch_free (s);
  sl_diagnostics_free (d);
}

static int
clamp_x (int x)
{
  return x < 0 ? 0 : x >= W ? W - 1 : x;
}

/* ---- a horizontal box blur written as a loop with literal bounds ---- */

static const char box_src[] =
  "sampler2D s : register(s0);\n"
  "float4 main (float2 uv : TEXCOORD0) : COLOR\n"
  "{\n"
  "  float2 px = float2 (ddx (uv.x), 0);\n"
  "  float4 sum = 0;\n"
  "  for (int i = -2; i <= 2; i++)\n"
  "    sum += tex2D (s, uv + i * px);\n"
  "  return sum;\n"
  "}\n";

static void
test_box (void)
{
  SlTexture tex;
  fill_texture (&tex);
  SlProgram *p = compile (box_src);
  /* Unrolled when compiled: the bounds are literals. */
  g_assert_cmpint (count_op (p->ir, SL_OP_LOOP), ==, 0);
  g_assert_cmpint (count_op (p->ir, SL_OP_SAMPLE), ==, 5);
  SlBinding *b = prepare (p, NULL, 0, &tex);
  float out[H][W][4];
  render (b, out);
  for (int y = 0; y < H; y++)
    for (int x = 0; x < W; x++)
      for (int c = 0; c < 4; c++)
        {
          float sum = 0;
          for (int i = -2; i <= 2; i++)
            sum += texels[y][clamp_x (x + i)][c];
          g_assert_cmpfloat (out[y][x][c], ==, sum);
        }
  /* Two texels each way, one more for a bilinear footprint. */
  int l, t, r, bo;
  g_assert_true (sl_binding_get_sample_reach (b, &l, &t, &r, &bo));
  g_assert_cmpint (l, ==, 3);
  g_assert_cmpint (r, ==, 3);
  g_assert_cmpint (t, ==, 1);
  g_assert_cmpint (bo, ==, 1);
  sl_binding_free (b);
  sl_program_unref (p);
}

/* ---- the count a parameter: unrolled when the binding is prepared ---- */

static const char param_src[] =
  "int Count;\n"
  "float4 main (float2 uv : TEXCOORD0) : COLOR\n"
  "{\n"
  "  float acc = uv.x;\n"
  "  int i;\n"
  "  for (i = 0; i < Count; i++)\n"
  "    acc = acc * 1.5 + 0.25;\n"
  "  return float4 (acc, i, uv.y, 1);\n"
  "}\n";

static void
test_param (void)
{
  SlTexture tex;
  fill_texture (&tex);
  SlProgram *p = compile (param_src);
  g_assert_cmpint (count_op (p->ir, SL_OP_LOOP), ==, 1);
  for (int count = 0; count <= 7; count += 7)
    {
      Setting s = { "Count", (float) count };
      SlIr *ir = specialised (p, &s, 1);
      g_assert_cmpint (count_op (ir, SL_OP_LOOP), ==, 0);
      sl_ir_free (ir);
      SlBinding *b = prepare (p, "Count", (float) count, &tex);
      float out[H][W][4];
      render (b, out);
      for (int y = 0; y < H; y++)
        for (int x = 0; x < W; x++)
          {
            float acc = (x + 0.5f) / W;
            for (int i = 0; i < count; i++)
              acc = acc * 1.5f + 0.25f;
            g_assert_cmpfloat (out[y][x][0], ==, acc);
            /* The counter keeps the value that ended the loop. */
            g_assert_cmpfloat (out[y][x][1], ==, (float) count);
            g_assert_cmpfloat (out[y][x][2], ==, (y + 0.5f) / H);
          }
      sl_binding_free (b);
    }
  sl_program_unref (p);
}

/* ---- a float counter and nested loops: a 3×3 sum ---- */

static const char nested_src[] =
  "sampler2D s : register(s0);\n"
  "float4 main (float2 uv : TEXCOORD0) : COLOR\n"
  "{\n"
  "  float2 px = float2 (ddx (uv.x), ddy (uv.y));\n"
  "  float4 sum = 0;\n"
  "  for (float dy = -1; dy < 1.5; dy += 1)\n"
  "    for (int dx = -1; dx <= 1; dx++)\n"
  "      sum += tex2D (s, uv + float2 (dx, dy) * px);\n"
  "  return sum;\n"
  "}\n";

static void
test_nested (void)
{
  SlTexture tex;
  fill_texture (&tex);
  SlProgram *p = compile (nested_src);
  g_assert_cmpint (count_op (p->ir, SL_OP_LOOP), ==, 0);
  g_assert_cmpint (count_op (p->ir, SL_OP_SAMPLE), ==, 9);
  SlBinding *b = prepare (p, NULL, 0, &tex);
  float out[H][W][4];
  render (b, out);
  for (int y = 0; y < H; y++)
    for (int x = 0; x < W; x++)
      for (int c = 0; c < 4; c++)
        {
          float sum = 0;
          for (int dy = -1; dy <= 1; dy++)
            for (int dx = -1; dx <= 1; dx++)
              sum += texels[CLAMP (y + dy, 0, H - 1)][clamp_x (x + dx)][c];
          g_assert_cmpfloat (out[y][x][c], ==, sum);
        }
  sl_binding_free (b);
  sl_program_unref (p);
}

/* ---- loops that stay loops ---- */

static const char kept_src[] =
  "float4 main (float2 uv : TEXCOORD0) : COLOR\n"
  "{\n"
  "  float acc = 0;\n"
  "  for (int i = 0; i < 8; i++)\n"
  "  {\n"
  "    acc += 0.125;\n"
  "    if (acc >= uv.x)\n"
  "      break;\n"
  "  }\n"
  "  float slow = 0;\n"
  "  for (int k = 0; k < 1000; k++)\n"
  "    slow += 0.0625;\n"
  "  return float4 (acc, slow, 0, 1);\n"
  "}\n";

static void
test_kept (void)
{
  SlTexture tex;
  fill_texture (&tex);
  SlProgram *p = compile (kept_src);
  /* One leaves on data, the other has more iterations than unrolling
   * takes. */
  g_assert_cmpint (count_op (p->ir, SL_OP_LOOP), ==, 2);
  SlBinding *b = prepare (p, NULL, 0, &tex);
  float out[H][W][4];
  render (b, out);
  for (int y = 0; y < H; y++)
    for (int x = 0; x < W; x++)
      {
        float acc = 0, slow = 0;
        for (int i = 0; i < 8; i++)
          {
            acc += 0.125f;
            if (acc >= (x + 0.5f) / W)
              break;
          }
        for (int k = 0; k < 1000; k++)
          slow += 0.0625f;
        g_assert_cmpfloat (out[y][x][0], ==, acc);
        g_assert_cmpfloat (out[y][x][1], ==, slow);
      }
  sl_binding_free (b);
  sl_program_unref (p);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/unroll/box", test_box);
  g_test_add_func ("/unroll/param", test_param);
  g_test_add_func ("/unroll/nested", test_nested);
  g_test_add_func ("/unroll/kept", test_kept);
  return g_test_run ();
}
