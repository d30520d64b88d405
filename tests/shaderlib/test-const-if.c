/* Tests of the IR's resolution of IFs whose condition is a constant
 * (ir/passes.c, prune_empty_blocks and match_if): a uniform that a
 * binding specialises to a value turns `if (Mode > 0.5)` into an IF on
 * true or false, of which the optimiser keeps the side taken, in the
 * enclosing region, and drops the other.
 *
 * Each shader is rendered through the public API for every value of its
 * parameters, over a 4×2 viewport whose texture coordinates are exact
 * binary fractions (x + 0.5) / 4 and (y + 0.5) / 2, so the expected
 * pixels are computed exactly in C and compared with ==.  Discarded
 * pixels keep the target's sentinel.  Then the IR a prepared binding
 * would run is rebuilt the way sl_binding_prepare() builds it (the
 * program's optimised IR, specialised on the constant words, optimised
 * again) to check that the untaken side's instructions are gone: its
 * marker constants, its loops, samples and discards, and every
 * IF/ELSE/ENDIF that was resolved.  Where the taken side can be written
 * as a shader of its own, the specialised IR must hold exactly the ops
 * that shader compiles to.  The program's IR before specialisation must
 * still have the IFs, or none of this would test the resolution. */
#include "ir-test.h"

#include <string.h>

#define W 4
#define H 2
#define SENTINEL -7.0f

static SlProgram *
compile (const char *src)
{
  return compile_as (src, "const-if.hlsl");
}

static float
u_at (int x)
{
  return (x + 0.5f) / W;
}

static float
v_at (int y)
{
  return (y + 0.5f) / H;
}

/* Renders @p over the W×H viewport with @settings into @out (pre-filled
 * with SENTINEL), with @texture (may be NULL) at slot 0 through a point
 * sampler. */
static void
render (SlProgram *p, const Setting *settings, int n_settings, const SlTexture *texture,
        float out[H][W][4])
{
  SlDiagnostics *d = sl_diagnostics_new ();
  SlBinding *b = sl_binding_new (p);
  sl_binding_set_viewport (b, W, H);
  for (int i = 0; i < n_settings; i++)
    g_assert_true (sl_binding_set_param (b, settings[i].name, &settings[i].value, 1, d));
  if (texture)
    {
      SlSamplerState ss;
      sl_sampler_state_init_default (&ss);
      ss.min_filter = ss.mag_filter = SL_FILTER_POINT;
      sl_binding_set_texture (b, 0, texture);
      sl_binding_set_sampler (b, 0, &ss);
    }
  g_assert_true (sl_binding_prepare (b, d));
  for (int y = 0; y < H; y++)
    for (int x = 0; x < W; x++)
      for (int c = 0; c < 4; c++)
        out[y][x][c] = SENTINEL;
  SlScratch *s = sl_scratch_new ();
  SlTarget t = { .pixels = &out[0][0][0], .row_stride = W * 4 };
  g_assert_true (sl_binding_render (b, s, 0, 0, W, H, NULL, &t, 1, d));
  g_assert_cmpint (sl_diagnostics_count (d), ==, 0);
  sl_scratch_free (s);
  sl_binding_free (b);
  sl_diagnostics_free (d);
}

/* Whether an instruction reads the float constant @f. */
static bool
reads_float (const SlIr *ir, float f)
{
  uint32_t bits;
  memcpy (&bits, &f, sizeof bits);
  for (guint i = 0; i < ir->insns->len; i++)
    {
      const SlInsn *in = sl_ir_insn (ir, i);
      for (int s = 0; s < in->n_src; s++)
        {
          const SlValue *v = sl_ir_value (ir, in->src[s]);
          if (v->cls == SL_VALUE_CONST && v->kind == SL_KIND_FLOAT && v->bits == bits)
            return true;
        }
    }
  return false;
}

/* @ir holds the same instructions, op for op, as the optimised IR of
 * @reference (the taken side written out on its own). */
static void
assert_same_ops (const SlIr *ir, const char *reference)
{
  SlProgram *ref = compile (reference);
  for (int op = 0; op < SL_OP_COUNT; op++)
    if (count_op (ir, op) != count_op (ref->ir, op))
      {
        char *got = sl_ir_dump (ir), *want = sl_ir_dump (ref->ir);
        g_error ("%d %s in the specialised IR, %d in the reference\n"
                 ";; specialised\n%s;; reference\n%s", count_op (ir, op), sl_op_names[op],
                 count_op (ref->ir, op), got, want);
      }
  g_assert_cmpuint (ir->insns->len, ==, ref->ir->insns->len);
  sl_program_unref (ref);
}

static void
assert_pixel (float out[H][W][4], int x, int y, float r, float g, float b, float a)
{
  const float *px = out[y][x];
  if (px[0] != r || px[1] != g || px[2] != b || px[3] != a)
    g_error ("pixel (%d, %d) is (%.9g, %.9g, %.9g, %.9g), expected (%.9g, %.9g, %.9g, %.9g)",
             x, y, px[0], px[1], px[2], px[3], r, g, b, a);
}

static void
assert_discarded (float out[H][W][4], int x, int y)
{
  assert_pixel (out, x, y, SENTINEL, SENTINEL, SENTINEL, SENTINEL);
}

/* The IFs before specialisation: what the test relies on being there. */
static void
assert_unresolved (SlProgram *p, int ifs, int elses)
{
  g_assert_cmpint (count_op (p->ir, SL_OP_IF), ==, ifs);
  g_assert_cmpint (count_op (p->ir, SL_OP_ELSE), ==, elses);
  g_assert_cmpint (count_op (p->ir, SL_OP_ENDIF), ==, ifs);
}

static void
assert_ifs (const SlIr *ir, int ifs, int elses)
{
  g_assert_cmpint (count_op (ir, SL_OP_IF), ==, ifs);
  g_assert_cmpint (count_op (ir, SL_OP_ELSE), ==, elses);
  g_assert_cmpint (count_op (ir, SL_OP_ENDIF), ==, ifs);
}

/* ---- one IF/ELSE on a constant: each side alone stays ---- */

static const char if_else_src[] =
  "float Mode;\n"
  "float4 main(float2 uv : TEXCOORD0) : COLOR\n"
  "{\n"
  "  float4 c;\n"
  "  if (Mode > 0.5)\n"
  "    c = uv.xyxy * 3.0;\n"
  "  else\n"
  "    c = uv.yxyx * 0.5 + 0.25;\n"
  "  return c;\n"
  "}\n";

static void
test_if_else (void)
{
  SlProgram *p = compile (if_else_src);
  assert_unresolved (p, 1, 1);
  float out[H][W][4];

  Setting on = { "Mode", 1.0f };
  render (p, &on, 1, NULL, out);
  for (int y = 0; y < H; y++)
    for (int x = 0; x < W; x++)
      assert_pixel (out, x, y, u_at (x) * 3.0f, v_at (y) * 3.0f, u_at (x) * 3.0f, v_at (y) * 3.0f);
  SlIr *ir = specialised (p, &on, 1);
  assert_ifs (ir, 0, 0);
  g_assert_true (reads_float (ir, 3.0f));
  g_assert_false (reads_float (ir, 0.25f));
  g_assert_false (reads_float (ir, 0.5f));
  assert_same_ops (ir, "float4 main(float2 uv : TEXCOORD0) : COLOR { return uv.xyxy * 3.0; }\n");
  sl_ir_free (ir);

  Setting off = { "Mode", 0.0f };
  render (p, &off, 1, NULL, out);
  for (int y = 0; y < H; y++)
    for (int x = 0; x < W; x++)
      assert_pixel (out, x, y, v_at (y) * 0.5f + 0.25f, u_at (x) * 0.5f + 0.25f,
                    v_at (y) * 0.5f + 0.25f, u_at (x) * 0.5f + 0.25f);
  ir = specialised (p, &off, 1);
  assert_ifs (ir, 0, 0);
  g_assert_false (reads_float (ir, 3.0f));
  g_assert_true (reads_float (ir, 0.25f));
  assert_same_ops (ir, "float4 main(float2 uv : TEXCOORD0) : COLOR { return uv.yxyx * 0.5 + 0.25; }\n");
  sl_ir_free (ir);
  sl_program_unref (p);
}

/* ---- a constant IF whose sides hold IF/ELSE, a loop with a break and a
 * discard: the nested ELSE and ENDIF, the ENDLOOP and the loop's own IF
 * must not be taken for the constant IF's ---- */

static const char nested_src[] =
  "float Mode;\n"
  "float4 main(float2 uv : TEXCOORD0) : COLOR\n"
  "{\n"
  "  float4 c = 0;\n"
  "  if (Mode > 0.5)\n"
  "  {\n"
  "    if (uv.x > 0.5)\n"
  "      c = float4(0.8125, uv.y, 0, 1);\n"
  "    else\n"
  "      c = float4(0.6875, 0, uv.y, 1);\n"
  "    float acc = 0;\n"
  "    for (int i = 0; i < 8; i++)\n"
  "    {\n"
  "      acc += 0.25;\n"
  "      if (acc >= uv.x)\n"
  "        break;\n"
  "    }\n"
  "    c.w = acc;\n"
  "  }\n"
  "  else\n"
  "  {\n"
  "    if (uv.y > 0.5)\n"
  "      c = float4(uv.x, 0.4375, 0, 0.5);\n"
  "    else\n"
  "      c = float4(0, uv.x, 0.5625, 0.5);\n"
  "    if (uv.x < 0.2)\n"
  "      discard;\n"
  "  }\n"
  "  return c;\n"
  "}\n";

static const char nested_taken_src[] =
  "float4 main(float2 uv : TEXCOORD0) : COLOR\n"
  "{\n"
  "  float4 c = 0;\n"
  "  if (uv.x > 0.5)\n"
  "    c = float4(0.8125, uv.y, 0, 1);\n"
  "  else\n"
  "    c = float4(0.6875, 0, uv.y, 1);\n"
  "  float acc = 0;\n"
  "  for (int i = 0; i < 8; i++)\n"
  "  {\n"
  "    acc += 0.25;\n"
  "    if (acc >= uv.x)\n"
  "      break;\n"
  "  }\n"
  "  c.w = acc;\n"
  "  return c;\n"
  "}\n";

static const char nested_untaken_src[] =
  "float4 main(float2 uv : TEXCOORD0) : COLOR\n"
  "{\n"
  "  float4 c = 0;\n"
  "  if (uv.y > 0.5)\n"
  "    c = float4(uv.x, 0.4375, 0, 0.5);\n"
  "  else\n"
  "    c = float4(0, uv.x, 0.5625, 0.5);\n"
  "  if (uv.x < 0.2)\n"
  "    discard;\n"
  "  return c;\n"
  "}\n";

static void
test_nested (void)
{
  SlProgram *p = compile (nested_src);
  /* The constant IF, the two inner IF/ELSEs, the break's and the
   * discard's IF. */
  assert_unresolved (p, 5, 3);
  g_assert_cmpint (count_op (p->ir, SL_OP_LOOP), ==, 1);
  g_assert_cmpint (count_op (p->ir, SL_OP_DISCARD), ==, 1);
  float out[H][W][4];

  Setting on = { "Mode", 1.0f };
  render (p, &on, 1, NULL, out);
  for (int y = 0; y < H; y++)
    for (int x = 0; x < W; x++)
      {
        float u = u_at (x), v = v_at (y), acc = 0;
        for (int i = 0; i < 8; i++)
          {
            acc += 0.25f;
            if (acc >= u)
              break;
          }
        if (u > 0.5f)
          assert_pixel (out, x, y, 0.8125f, v, 0, acc);
        else
          assert_pixel (out, x, y, 0.6875f, 0, v, acc);
      }
  /* The loop stopped where the break says, not after 8 rounds. */
  g_assert_cmpfloat (out[0][0][3], ==, 0.25f);
  g_assert_cmpfloat (out[0][3][3], ==, 1.0f);
  SlIr *ir = specialised (p, &on, 1);
  assert_ifs (ir, 2, 1);
  g_assert_cmpint (count_op (ir, SL_OP_LOOP), ==, 1);
  g_assert_cmpint (count_op (ir, SL_OP_ENDLOOP), ==, 1);
  g_assert_cmpint (count_op (ir, SL_OP_DISCARD), ==, 0);
  g_assert_true (reads_float (ir, 0.8125f) && reads_float (ir, 0.6875f));
  g_assert_false (reads_float (ir, 0.4375f) || reads_float (ir, 0.5625f));
  assert_same_ops (ir, nested_taken_src);
  sl_ir_free (ir);

  Setting off = { "Mode", 0.0f };
  render (p, &off, 1, NULL, out);
  for (int y = 0; y < H; y++)
    for (int x = 0; x < W; x++)
      {
        float u = u_at (x), v = v_at (y);
        if (u < 0.2f)
          assert_discarded (out, x, y);
        else if (v > 0.5f)
          assert_pixel (out, x, y, u, 0.4375f, 0, 0.5f);
        else
          assert_pixel (out, x, y, 0, u, 0.5625f, 0.5f);
      }
  ir = specialised (p, &off, 1);
  assert_ifs (ir, 2, 1);
  g_assert_cmpint (count_op (ir, SL_OP_LOOP), ==, 0);
  g_assert_cmpint (count_op (ir, SL_OP_BREAK), ==, 0);
  g_assert_cmpint (count_op (ir, SL_OP_DISCARD), ==, 1);
  g_assert_false (reads_float (ir, 0.8125f) || reads_float (ir, 0.6875f));
  g_assert_true (reads_float (ir, 0.4375f) && reads_float (ir, 0.5625f));
  assert_same_ops (ir, nested_untaken_src);
  sl_ir_free (ir);
  sl_program_unref (p);
}

/* ---- constant IFs inside a loop (with the loop's break), inside a
 * non-constant IF/ELSE, and around an early return ---- */

static const char enclosed_src[] =
  "float Flag;\n"
  "float Inner;\n"
  "float4 main(float2 uv : TEXCOORD0) : COLOR\n"
  "{\n"
  "  float acc = 0;\n"
  "  for (int i = 0; i < 4; i++)\n"
  "  {\n"
  "    acc += 0.125;\n"
  "    if (Flag > 0.5)\n"
  "    {\n"
  "      acc += 0.5;\n"
  "      break;\n"
  "    }\n"
  "  }\n"
  "  if (uv.y > 0.5)\n"
  "  {\n"
  "    if (Inner > 0.5)\n"
  "      acc += uv.x;\n"
  "    else\n"
  "      acc -= uv.x;\n"
  "  }\n"
  "  else\n"
  "    acc *= 2;\n"
  "  if (Flag > 0.5)\n"
  "    return float4(acc, uv, 1);\n"
  "  return float4(uv, acc, 0.5);\n"
  "}\n";

static void
test_enclosed (void)
{
  SlProgram *p = compile (enclosed_src);
  /* The loop's constant IF, the IF/ELSE on uv.y with the constant
   * IF/ELSE inside, the return's constant IF. */
  assert_unresolved (p, 4, 2);
  for (int flag = 0; flag <= 1; flag++)
    for (int inner = 0; inner <= 1; inner++)
      {
        Setting s[] = { { "Flag", (float) flag }, { "Inner", (float) inner } };
        float out[H][W][4];
        render (p, s, 2, NULL, out);
        for (int y = 0; y < H; y++)
          for (int x = 0; x < W; x++)
            {
              float u = u_at (x), v = v_at (y);
              float acc = flag ? 0.125f + 0.5f : 4 * 0.125f;
              if (v > 0.5f)
                acc = inner ? acc + u : acc - u;
              else
                acc *= 2;
              if (flag)
                assert_pixel (out, x, y, acc, u, v, 1);
              else
                assert_pixel (out, x, y, u, v, acc, 0.5f);
            }
        SlIr *ir = specialised (p, s, 2);
        /* Only the IF/ELSE on uv.y is left.  With the flag the loop
         * keeps its own exit (a conditional BREAK) and an unconditional
         * one; without it, nothing but its count ends the loop, so it is
         * unrolled (four copies of its body, no loop left). */
        assert_ifs (ir, 1, 1);
        g_assert_cmpint (count_op (ir, SL_OP_LOOP), ==, flag);
        g_assert_cmpint (count_op (ir, SL_OP_BREAK), ==, 2 * flag);
        g_assert_cmpint (count_op (ir, SL_OP_SUB), ==, !inner);
        /* Without the flag the first return is gone with its IF. */
        if (!flag)
          g_assert_cmpint (count_op (ir, SL_OP_RETURN), ==, 1);
        sl_ir_free (ir);
      }
  sl_program_unref (p);
}

/* ---- a constant IF inside a constant IF: four combinations ---- */

static const char two_levels_src[] =
  "float A;\n"
  "float B;\n"
  "float4 main(float2 uv : TEXCOORD0) : COLOR\n"
  "{\n"
  "  float4 c = float4(uv, 0, 1);\n"
  "  if (A > 0.5)\n"
  "  {\n"
  "    if (B > 0.5)\n"
  "      c.z = 0.8125;\n"
  "    else\n"
  "      c.z = 0.6875;\n"
  "    c.w = 0.5625;\n"
  "  }\n"
  "  else\n"
  "  {\n"
  "    if (B > 0.5)\n"
  "      c.z = 0.4375;\n"
  "    else\n"
  "    {\n"
  "      c.z = 0.3125;\n"
  "      c.x = uv.y;\n"
  "    }\n"
  "  }\n"
  "  return c;\n"
  "}\n";

static void
test_two_levels (void)
{
  SlProgram *p = compile (two_levels_src);
  assert_unresolved (p, 3, 3);
  const float markers[2][2] = { { 0.3125f, 0.4375f }, { 0.6875f, 0.8125f } };
  for (int a = 0; a <= 1; a++)
    for (int b = 0; b <= 1; b++)
      {
        Setting s[] = { { "A", (float) a }, { "B", (float) b } };
        float out[H][W][4];
        render (p, s, 2, NULL, out);
        for (int y = 0; y < H; y++)
          for (int x = 0; x < W; x++)
            assert_pixel (out, x, y, !a && !b ? v_at (y) : u_at (x), v_at (y), markers[a][b],
                          a ? 0.5625f : 1.0f);
        SlIr *ir = specialised (p, s, 2);
        assert_ifs (ir, 0, 0);
        for (int i = 0; i < 2; i++)
          for (int j = 0; j < 2; j++)
            g_assert_cmpint (reads_float (ir, markers[i][j]), ==, i == a && j == b);
        g_assert_cmpint (reads_float (ir, 0.5625f), ==, a);
        /* Straight code: the inputs read (uv.x goes when A and B are
         * both off) and four outputs, nothing else. */
        int inputs = !a && !b ? 1 : 2;
        g_assert_cmpint (count_op (ir, SL_OP_INPUT), ==, inputs);
        g_assert_cmpint (count_op (ir, SL_OP_OUTPUT), ==, 4);
        g_assert_cmpuint (ir->insns->len, ==, inputs + 4);
        sl_ir_free (ir);
      }
  sl_program_unref (p);
}

/* ---- discard on the taken and on the untaken side ---- */

static const char discard_src[] =
  "float Kill;\n"
  "float4 main(float2 uv : TEXCOORD0) : COLOR\n"
  "{\n"
  "  float4 c = float4(uv, 0.8125, 1);\n"
  "  if (Kill > 0.5)\n"
  "  {\n"
  "    c.z = 0.6875;\n"
  "    discard;\n"
  "  }\n"
  "  else\n"
  "  {\n"
  "    c.w = 0.5625;\n"
  "    if (uv.y > 0.5)\n"
  "      discard;\n"
  "  }\n"
  "  return c;\n"
  "}\n";

static void
test_discard (void)
{
  SlProgram *p = compile (discard_src);
  assert_unresolved (p, 2, 1);
  g_assert_cmpint (count_op (p->ir, SL_OP_DISCARD), ==, 2);
  float out[H][W][4];

  /* Taken: every pixel is discarded. */
  Setting kill = { "Kill", 1.0f };
  render (p, &kill, 1, NULL, out);
  for (int y = 0; y < H; y++)
    for (int x = 0; x < W; x++)
      assert_discarded (out, x, y);
  SlIr *ir = specialised (p, &kill, 1);
  assert_ifs (ir, 0, 0);
  g_assert_cmpint (count_op (ir, SL_OP_DISCARD), ==, 1);
  g_assert_false (reads_float (ir, 0.5625f));
  sl_ir_free (ir);

  /* Untaken: the other side discards the bottom row only. */
  Setting keep = { "Kill", 0.0f };
  render (p, &keep, 1, NULL, out);
  for (int x = 0; x < W; x++)
    {
      assert_pixel (out, x, 0, u_at (x), v_at (0), 0.8125f, 0.5625f);
      assert_discarded (out, x, 1);
    }
  ir = specialised (p, &keep, 1);
  assert_ifs (ir, 1, 0);
  g_assert_cmpint (count_op (ir, SL_OP_DISCARD), ==, 1);
  g_assert_false (reads_float (ir, 0.6875f));
  assert_same_ops (ir, "float4 main(float2 uv : TEXCOORD0) : COLOR\n"
                       "{ if (uv.y > 0.5) discard; return float4(uv, 0.8125, 0.5625); }\n");
  sl_ir_free (ir);
  sl_program_unref (p);
}

/* ---- the untaken side's sample is gone from the binding's reach (the
 * public trace of the resolution: a host that asks how far a prepared
 * binding samples gets the taken side's answer) ---- */

static const char reach_src[] =
  "float Far;\n"
  "sampler2D s;\n"
  "float4 main(float2 uv : TEXCOORD0) : COLOR\n"
  "{\n"
  "  float4 c;\n"
  "  if (Far > 0.5)\n"
  "    c = tex2D(s, uv + float2(0.75, 0));\n"
  "  else\n"
  "    c = tex2D(s, uv);\n"
  "  return c;\n"
  "}\n";

static void
prepared_reach (SlProgram *p, float far, const SlTexture *tex, int reach[4])
{
  SlDiagnostics *d = sl_diagnostics_new ();
  SlBinding *b = sl_binding_new (p);
  sl_binding_set_viewport (b, W, H);
  g_assert_true (sl_binding_set_param (b, "Far", &far, 1, d));
  sl_binding_set_texture (b, 0, tex);
  g_assert_true (sl_binding_prepare (b, d));
  g_assert_true (sl_binding_get_sample_reach (b, &reach[0], &reach[1], &reach[2], &reach[3]));
  sl_binding_free (b);
  sl_diagnostics_free (d);
}

static void
test_sample_reach (void)
{
  /* A W×H texture whose texel (x, y) is (x, y, x + y, 1) / 8. */
  float texels[H][W][4];
  for (int y = 0; y < H; y++)
    for (int x = 0; x < W; x++)
      {
        texels[y][x][0] = x / 8.0f;
        texels[y][x][1] = y / 8.0f;
        texels[y][x][2] = (x + y) / 8.0f;
        texels[y][x][3] = 1.0f / 8.0f;
      }
  SlTexture tex;
  sl_texture_init_2d (&tex, W, H, W * 4, &texels[0][0][0]);
  SlProgram *p = compile (reach_src);
  assert_unresolved (p, 1, 1);
  g_assert_cmpint (count_op (p->ir, SL_OP_SAMPLE), ==, 2);

  float out[H][W][4];
  for (int far = 0; far <= 1; far++)
    {
      Setting s = { "Far", (float) far };
      render (p, &s, 1, &tex, out);
      for (int y = 0; y < H; y++)
        for (int x = 0; x < W; x++)
          {
            /* 0.75 is three texels to the right, clamped at the edge. */
            const float *t = texels[y][far ? MIN (x + 3, W - 1) : x];
            assert_pixel (out, x, y, t[0], t[1], t[2], t[3]);
          }
      SlIr *ir = specialised (p, &s, 1);
      assert_ifs (ir, 0, 0);
      g_assert_cmpint (count_op (ir, SL_OP_SAMPLE), ==, 1);
      g_assert_cmpint (reads_float (ir, 0.75f), ==, far);
      sl_ir_free (ir);
    }

  int near_reach[4], far_reach[4];
  prepared_reach (p, 0.0f, &tex, near_reach);
  prepared_reach (p, 1.0f, &tex, far_reach);
  /* Three texels to the right only when the offset read is taken; the
   * other directions are the same either way. */
  g_assert_cmpint (far_reach[2], >=, 3);
  g_assert_cmpint (near_reach[2], <, 3);
  g_assert_cmpint (near_reach[0], ==, far_reach[0]);
  g_assert_cmpint (near_reach[1], ==, far_reach[1]);
  g_assert_cmpint (near_reach[3], ==, far_reach[3]);
  sl_program_unref (p);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/const-if/if-else", test_if_else);
  g_test_add_func ("/const-if/nested", test_nested);
  g_test_add_func ("/const-if/enclosed", test_enclosed);
  g_test_add_func ("/const-if/two-levels", test_two_levels);
  g_test_add_func ("/const-if/discard", test_discard);
  g_test_add_func ("/const-if/sample-reach", test_sample_reach);
  return g_test_run ();
}
