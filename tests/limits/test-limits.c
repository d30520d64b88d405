/* Limits and malformed input, one case per limit and front end.
 *
 * A shader from the internet runs inside GIMP, so every limit must end in
 * a diagnostic instead of a crash, a hang or an allocation the size of the
 * input's wildest number.  Each case builds the hostile input (often
 * programmatically: a 300-deep nest is no fun to write by hand), compiles
 * or runs it, and compares the complete formatted diagnostics, so the
 * wording, the file:line:col and the absence of follow-on errors are all
 * pinned.  Run-time cases check IEEE results bit for bit and that the
 * loop cap and the per-span instruction budget (straight-line code
 * counted too) stop a program with one warning while still writing every
 * pixel. */
#include "shaderlib.h"

#include <glib.h>
#include <glib/gstdio.h>
#include <math.h>
#include <stdint.h>
#include <string.h>

#include "flat-dir.h"

static char *tmpdir;

/* Compiles and returns the formatted diagnostics; *ok says whether a
 * program came back. */
static char *
diagnose (SlLanguage lang, const char *profile, const char *file,
          const char *src, size_t len, gboolean *ok)
{
  const char *dirs[] = { tmpdir, NULL };
  SlCompileOptions o = { 0 };
  o.source = src;
  o.length = len;
  o.filename = file;
  o.language = lang;
  o.profile = profile;
  o.include_dirs = dirs;
  SlDiagnostics *d = sl_diagnostics_new ();
  SlProgram *p = sl_compile (&o, d);
  char *text = sl_diagnostics_format (d);
  *ok = p != NULL;
  if (p)
    sl_program_unref (p);
  sl_diagnostics_free (d);
  return text;
}

/* Expects the compile to fail with exactly @expected. */
static void
expect_fail (SlLanguage lang, const char *file, const char *src, size_t len,
             const char *expected)
{
  gboolean ok;
  char *text = diagnose (lang, NULL, file, src, len, &ok);
  if (ok || g_strcmp0 (text, expected) != 0)
    g_test_message ("%s: got %s\n%s", file, ok ? "a program" : "no program", text);
  g_assert_false (ok);
  g_assert_cmpstr (text, ==, expected);
  g_free (text);
}

static void
hlsl_fail (const char *src, const char *expected)
{
  expect_fail (SL_LANGUAGE_HLSL, "t.hlsl", src, (size_t) -1, expected);
}

/* Included files are named by their path; tests see it as DIR/. */
static char *
relative (char *text)
{
  char *prefix = g_strconcat (tmpdir, "/", NULL);
  char **parts = g_strsplit (text, prefix, -1);
  char *out = g_strjoinv ("DIR/", parts);
  g_strfreev (parts);
  g_free (prefix);
  g_free (text);
  return out;
}

/* Expects failure with a first diagnostic of exactly @first (DIR/ for
 * the fixture folder) and at most @max_errors errors in all: for limits
 * whose follow-on errors depend on the parser's recovery. */
static void
expect_first (SlLanguage lang, const char *file, const char *src, const char *first,
              int max_lines)
{
  gboolean ok;
  char *text = relative (diagnose (lang, NULL, file, src, (size_t) -1, &ok));
  g_assert_false (ok);
  char **lines = g_strsplit (text, "\n", -1);
  g_assert_cmpstr (lines[0], ==, first);
  g_assert_cmpint (g_strv_length (lines) - 1, <=, max_lines);
  g_strfreev (lines);
  g_free (text);
}

static void
write_file (const char *name, const char *text)
{
  char *path = g_build_filename (tmpdir, name, NULL);
  g_assert_true (g_file_set_contents (path, text, -1, NULL));
  g_free (path);
}

/* ---- source and preprocessor -------------------------------------- */

/* The parser stops after 100 errors and says so once: 150 bad lines give
 * exactly the first 100 errors and the stop. */
static void
test_hlsl_error_count (void)
{
  GString *src = g_string_new (NULL), *want = g_string_new (NULL);
  for (int i = 0; i < 150; i++)
    g_string_append_printf (src, "float x%d = ;\n", i);
  for (int i = 0; i < 100; i++)
    g_string_append_printf (want, "t.hlsl:%d:%d: error: expected an expression before ';'\n",
                            i + 1, i < 10 ? 12 : 13);
  g_string_append (want, "t.hlsl:100:13: error: too many errors (100); the rest is not checked\n");
  hlsl_fail (src->str, want->str);
  g_string_free (src, TRUE);
  g_string_free (want, TRUE);
}

static void
test_source_size (void)
{
  size_t n = (4u << 20) + 1;
  char *src = g_malloc (n);
  memset (src, ' ', n);
  expect_fail (SL_LANGUAGE_HLSL, "big.hlsl", src, n,
               "big.hlsl: error: source is 4194305 bytes; the limit is 4194304\n");
  expect_fail (SL_LANGUAGE_D3D9_BYTECODE, "big.ps", src, n,
               "big.ps: error: source is 4194305 bytes; the limit is 4194304\n");
  g_free (src);

  /* Macros cannot build a bigger program than a source may be: five
   * levels of tenfold expansion of a 100-byte body make 10 MB. */
  GString *bomb = g_string_new ("#define A a = a + b + c + d + e + f + g + h + i + j + k + l + m + n + o + p + q + r + s + t + u + v + w;\n");
  const char *levels = "ABCDEF";
  for (int k = 1; k < 6; k++)
    {
      g_string_append_printf (bomb, "#define %c", levels[k]);
      for (int r = 0; r < 10; r++)
        g_string_append_printf (bomb, " %c", levels[k - 1]);
      g_string_append_c (bomb, '\n');
    }
  g_string_append (bomb, "F\n");
  expect_fail (SL_LANGUAGE_HLSL, "bomb.hlsl", bomb->str, bomb->len,
               "bomb.hlsl: error: preprocessed output is larger than 4194304 bytes\n");
  g_string_free (bomb, TRUE);
}

static void
test_include_depth (void)
{
  /* inc0 includes inc1 … each a different file, 40 deep. */
  for (int i = 0; i < 40; i++)
    {
      char name[32], text[64];
      g_snprintf (name, sizeof name, "inc%d.hlsl", i);
      g_snprintf (text, sizeof text, "#include \"inc%d.hlsl\"\n", i + 1);
      write_file (name, text);
    }
  write_file ("inc40.hlsl", "float4 main () : COLOR { return 1; }\n");
  GString *want = g_string_new ("DIR/inc31.hlsl:1:10: error: #include nested more than 32 levels deep: top.hlsl");
  for (int i = 0; i <= 32; i++)
    g_string_append_printf (want, " -> DIR/inc%d.hlsl", i);
  expect_first (SL_LANGUAGE_HLSL, "top.hlsl", "#include \"inc0.hlsl\"\n", want->str, 1);
  g_string_free (want, TRUE);
}

static void
test_include_cycle (void)
{
  write_file ("cyc-a.hlsl", "// a\n#include \"cyc-b.hlsl\"\n");
  write_file ("cyc-b.hlsl", "\n\n  #include \"cyc-a.hlsl\"\n");
  /* Reported where the cycle closes, naming just the cycle. */
  expect_first (SL_LANGUAGE_HLSL, "cyc.hlsl", "#include \"cyc-a.hlsl\"\n",
                "DIR/cyc-b.hlsl:3:12: error: #include cycle without include guards: "
                "DIR/cyc-a.hlsl -> DIR/cyc-b.hlsl -> DIR/cyc-a.hlsl", 1);
  /* With guards the same cycle is fine. */
  write_file ("grd-a.hlsl", "#ifndef A\n#define A\n#include \"grd-b.hlsl\"\nfloat4 main () : COLOR { return K; }\n#endif\n");
  write_file ("grd-b.hlsl", "#ifndef B\n#define B\n#include \"grd-a.hlsl\"\n#define K 1\n#endif\n");
  gboolean ok;
  char *text = diagnose (SL_LANGUAGE_HLSL, NULL, "grd.hlsl", "#include \"grd-a.hlsl\"\n", (size_t) -1, &ok);
  g_assert_cmpstr (text, ==, "");
  g_assert_true (ok);
  g_free (text);
}

static void
test_macro_depth (void)
{
  GString *s = g_string_new (NULL);
  for (int i = 0; i < 300; i++)
    g_string_append_printf (s, "#define M%d M%d\n", i, i + 1);
  g_string_append (s, "#define M300 1\nstatic const float k = M0;\n");
  /* Line 302 holds the use; column 24 is M0. */
  hlsl_fail (s->str, "t.hlsl:302:24: error: macro expansion nested too deeply (more than 256 levels) while expanding 'M256'\n");
  g_string_free (s, TRUE);
}

static void
test_macro_size (void)
{
  /* Each level doubles: M27 would be 2^27 tokens. */
  GString *s = g_string_new ("#define M0 x+\n");
  for (int i = 1; i < 28; i++)
    g_string_append_printf (s, "#define M%d M%d M%d\n", i, i - 1, i - 1);
  g_string_append (s, "float x = M27 1;\n");
  hlsl_fail (s->str, "t.hlsl: error: macro expansion of one line needs more than 256 MiB\n");
  g_string_free (s, TRUE);
}

/* ---- HLSL ----------------------------------------------------------- */

static void
test_hlsl_expression_depth (void)
{
  GString *s = g_string_new ("float4 main () : COLOR { return ");
  for (int i = 0; i < 300; i++)
    g_string_append_c (s, '(');
  g_string_append_c (s, '1');
  for (int i = 0; i < 300; i++)
    g_string_append_c (s, ')');
  g_string_append (s, "; }\n");
  /* Column 288: the 257th '(' (the first is at 33).  Only the operand
   * that is too deep is skipped, so the 256 open levels close on their
   * own ')' and nothing else is reported. */
  hlsl_fail (s->str, "t.hlsl:1:288: error: expression nested too deeply\n");
  g_string_free (s, TRUE);
}

static void
test_hlsl_statement_depth (void)
{
  GString *s = g_string_new ("float4 main () : COLOR {\n");
  for (int i = 0; i < 300; i++)
    g_string_append (s, "{");
  for (int i = 0; i < 300; i++)
    g_string_append (s, "}");
  g_string_append (s, "\nreturn 1; }\n");
  hlsl_fail (s->str, "t.hlsl:2:257: error: statements nested too deeply\n");
  g_string_free (s, TRUE);
}

static void
test_hlsl_array_size (void)
{
  hlsl_fail ("static float a[70000];\nfloat4 main () : COLOR { return a[0]; }\n",
             "t.hlsl:1:16: error: array size must be between 1 and 65536\n");
  /* 300 × 300 × 16 components: each size is fine, the total is not. */
  hlsl_fail ("static float4x4 a[300][300];\nfloat4 main () : COLOR { return 0; }\n",
             "t.hlsl:1:18: error: array is too large\n");
  hlsl_fail ("static float a[0];\nfloat4 main () : COLOR { return 0; }\n",
             "t.hlsl:1:16: error: array size must be between 1 and 65536\n");
  hlsl_fail ("float4 big[70000];\nfloat4 main () : COLOR { return big[0]; }\n",
             "t.hlsl:1:12: error: array size must be between 1 and 65536\n");
}

static void
test_hlsl_recursion (void)
{
  hlsl_fail ("float f (float x) { return f (x - 1); }\n"
             "float4 main () : COLOR { return f (1); }\n",
             "t.hlsl:1:28: error: recursive call to 'f': recursion is not allowed in shaders\n");
  hlsl_fail ("float g (float x);\n"
             "float f (float x) { return g (x); }\n"
             "float g (float x) { return f (x); }\n"
             "float4 main () : COLOR { return f (1); }\n",
             "t.hlsl:3:28: error: recursive call to 'f': recursion is not allowed in shaders\n");
}

static void
test_hlsl_registers (void)
{
  hlsl_fail ("sampler s : register(s16);\nfloat4 main (float2 uv : TEXCOORD0) : COLOR { return tex2D (s, uv); }\n",
             "t.hlsl:1:9: error: sampler 's' needs slot 16; at most 16 are supported\n");
  /* The constant file is sized by the highest register: without a range
   * check c100000000 allocated gigabytes. */
  hlsl_fail ("float4 c : register(c100000000);\nfloat4 main () : COLOR { return c; }\n",
             "t.hlsl:1:21: error: register index 100000000 is out of range (0 to 4095)\n");
  hlsl_fail ("float4 c : register(c4096);\nfloat4 main () : COLOR { return c; }\n",
             "t.hlsl:1:21: error: register index 4096 is out of range (0 to 4095)\n");
  hlsl_fail ("float4 c : register(c4000[200]);\nfloat4 main () : COLOR { return c; }\n",
             "t.hlsl:1:21: error: register index 4200 is out of range (0 to 4095)\n");
  hlsl_fail ("float4 c : register(c99999999999999999999999);\nfloat4 main () : COLOR { return c; }\n",
             "t.hlsl:1:21: error: register index 9223372036854775807 is out of range (0 to 4095)\n");
}

/* ---- D3D9 assembly and bytecode -------------------------------------- */

static void
d9_fail (const char *src, const char *expected)
{
  expect_fail (SL_LANGUAGE_D3D9_ASM, "t.asm", src, (size_t) -1, expected);
}

static void
test_d3d9_limits (void)
{
  d9_fail ("ps_3_0\nmov r4294967296, c0\n", "t.asm:2:5: error: register index is too large\n");
  d9_fail ("ps_3_0\nmov r32, c0\nmov oC0, r32\n",
           "t.asm:2:5: error: register r32 is out of range in ps_3_0 (32 available)\n"
           "t.asm:3:10: error: register r32 is out of range in ps_3_0 (32 available)\n");
  d9_fail ("ps_2_0\nmov oC0, c32\n", "t.asm:2:10: error: register c32 is out of range in ps_2_0 (32 available)\n");
  d9_fail ("ps_3_0\ndcl_2d s16\n", "t.asm:2:8: error: register s16 is out of range in ps_3_0 (16 available)\n");
  GString *s = g_string_new ("ps_3_0\ndefi i0, 2, 0, 1, 0\n");
  for (int i = 0; i < 6; i++)
    g_string_append (s, "rep i0\n");
  for (int i = 0; i < 6; i++)
    g_string_append (s, "endrep\n");
  g_string_append (s, "mov oC0, c0\n");
  /* The fifth and sixth rep (lines 7 and 8) are one too deep each. */
  d9_fail (s->str, "t.asm:7:1: error: rep and loop nest at most 4 deep in ps_3_0\n"
           "t.asm:8:1: error: rep and loop nest at most 4 deep in ps_3_0\n");
  g_string_free (s, TRUE);
  /* 100000 matrix products lower to more IR than SL_MAX_IR_INSNS in a
   * source under SL_MAX_SOURCE_BYTES.  ps_3_sw, because ps_3_0 refuses
   * more than 32768 instruction slots before lowering. */
  s = g_string_new ("ps_3_sw\n");
  for (int i = 0; i < 100000; i++)
    g_string_append (s, "m4x4 r0, r0, c0\n");
  g_string_append (s, "mov oC0, r0\n");
  d9_fail (s->str, "t.asm:100002:1: error: shader is too large\n");
  g_string_free (s, TRUE);
}

static void
test_d3d9_bytecode (void)
{
  static const uint32_t truncated[] = { 0xffff0300, 0x02000001 };
  expect_fail (SL_LANGUAGE_D3D9_BYTECODE, "t.ps", (const char *) truncated, sizeof truncated,
               "t.ps: error: truncated instruction (at byte 8)\n");
  static const uint32_t huge_comment[] = { 0xffff0300, 0x7fff0000 | 0xfffe, 0 };
  expect_fail (SL_LANGUAGE_D3D9_BYTECODE, "t.ps", (const char *) huge_comment, sizeof huge_comment,
               "t.ps: error: comment runs past the end (at byte 8)\n");
  static const uint32_t no_end[] = { 0xffff0300 };
  expect_fail (SL_LANGUAGE_D3D9_BYTECODE, "t.ps", (const char *) no_end, sizeof no_end,
               "t.ps: error: truncated token stream (no end token) (at byte 4)\n");
  static const uint32_t vertex[] = { 0xfffe0300, 0x0000ffff };
  expect_fail (SL_LANGUAGE_D3D9_BYTECODE, "t.ps", (const char *) vertex, sizeof vertex,
               "t.ps: error: not a D3D9 pixel shader (no ps version token) (at byte 0)\n");
  expect_fail (SL_LANGUAGE_D3D9_BYTECODE, "t.ps", "\0\3\xff", 3,
               "t.ps: error: not a D3D9 pixel shader (no ps version token) (at byte 0)\n");
}

/* ---- SM4 assembly and DXBC -------------------------------------------- */

static void
sm4_fail (const char *src, const char *expected)
{
  expect_fail (SL_LANGUAGE_SM4_ASM, "t.asm", src, (size_t) -1, expected);
}

static void
test_sm4_limits (void)
{
  sm4_fail ("ps_4_0\ndcl_temps 100000000\nret\n", "t.asm:2:1: error: dcl_temps: at most 4096 temporaries\n");
  sm4_fail ("ps_4_0\ndcl_indexableTemp x0[100000000], 4\nret\n",
            "t.asm:2:19: error: dcl_indexableTemp: size must be 1..4096 and components 1..4\n");
  sm4_fail ("ps_4_0\ndcl_resource_texture2d (float,float,float,float) t200\nret\n",
            "t.asm:2:1: error: t200: at most 16 texture slots\n");
  sm4_fail ("ps_4_0\ndcl_sampler s99, mode_default\nret\n", "t.asm:2:1: error: s99: at most 16 sampler slots\n");
  sm4_fail ("ps_4_0\ndcl_constantbuffer cb0[100000000], immediateIndexed\nret\n",
            "t.asm:2:1: error: cb0[100000000]: at most 15 buffers of 4096 registers\n");
  sm4_fail ("ps_4_0\ndcl_constantbuffer cb99[1], immediateIndexed\nret\n",
            "t.asm:2:1: error: cb99[1]: at most 15 buffers of 4096 registers\n");
  sm4_fail ("ps_4_0\ndcl_temps 1\nmov r0.x, l(99999999999999999999)\nret\n",
            "t.asm:3:13: error: '99999999999999999999' is not a number\n");
  GString *s = g_string_new ("ps_4_0\n");
  for (int i = 0; i < 300; i++)
    g_string_append (s, "loop\n");
  for (int i = 0; i < 300; i++)
    g_string_append (s, "endloop\n");
  g_string_append (s, "ret\n");
  /* Once, where the 65th level opens (line 66). */
  sm4_fail (s->str, "t.asm:66:1: error: flow control blocks nest more than 64 deep\n");
  g_string_free (s, TRUE);
  s = g_string_new ("ps_4_0\ndcl_output o0.xyzw\ndcl_temps 1\n");
  for (int i = 0; i < 140000; i++)
    g_string_append (s, "mad r0,r0,r0,r0\n");
  g_string_append (s, "mov o0, r0\nret\n");
  sm4_fail (s->str, "t.asm:131074:1: error: the program is too large\n");
  g_string_free (s, TRUE);
}

static const char *const sm4_bad[][2] = {
  { "ps_4_0\ndcl_input_ps linear r0.x\nret\n",
    "t.asm:2:21: error: dcl_input_ps needs an input register vN\n" },
  { "ps_4_0\ndcl_temps 2\nmov -r0, r1\nret\n",
    "t.asm:3:6: error: a destination takes no modifier\n" },
  { "ps_4_0\ndcl_temps 2\nmov r0, x0[r1.xy + 0]\nret\n",
    "t.asm:3:12: error: a relative index must select one component\n" },
  { "ps_4_0\ndcl_temps 2\nmov r0, x0[r1 + 0]\nret\n",
    "t.asm:3:12: error: a relative index must select one component\n" },
  { "ps_4_0\ndcl_temps 2\nmov r0, l(1, 2)\nret\n",
    "t.asm:3:9: error: an immediate has 1 or 4 components, not 2\n" },
  { "ps_4_0\ndcl_temps 2\nmov r0, r1.xyzq\nret\n",
    "t.asm:3:12: error: bad component selection '.xyzq'\n" },
  { "ps_4_0\ndcl_constantbuffer cb0, immediateIndexed\nret\n",
    "t.asm:2:23: error: expected '['\n" },
  { "ps_4_0\ndcl_indexableTemp x0, 4\nret\n",
    "t.asm:2:21: error: expected '['\n" },
  { "ps_4_0\ndcl_output r0.xyzw\nret\n",
    "t.asm:2:12: error: dcl_output needs oN or oDepth\n" },
  { "ps_4_0\ndcl_resource_texture2d (float,float,float,float) s0\nret\n",
    "t.asm:2:50: error: dcl_resource needs a resource register tN\n" },
  { "ps_4_0\ndcl_sampler t0, mode_default\nret\n",
    "t.asm:2:13: error: dcl_sampler needs a sampler register sN\n" },
  { "ps_4_0\ndcl_temps 2\nmov r0, l(a)\nret\n",
    "t.asm:3:11: error: 'a' is not a number\n" },
  { "ps_9_0\nret\n",
    "t.asm:1:1: error: unsupported version ps_9_0 (expected ps_4_0, ps_4_1 or ps_5_0)\n" },
  { "hello\nret\n",
    "t.asm:1:1: error: expected a version line such as ps_4_0\n" },
  { "ps_4_0 junk\nret\n",
    "t.asm:1:8: error: unexpected text after the version\n" },
  { "ps_4_0\n123\nret\n",
    "t.asm:2:1: error: unknown instruction '123'\n" },
  { "ps_4_0\ndcl_temps 2\nmov r0,\nret\n",
    "t.asm:3:8: error: expected an operand\n" },
  { "ps_4_0\ndcl_temps 2\nmov r0., r1\nret\n",
    "t.asm:3:8: error: expected components after '.'\n" },
  { "ps_4_0\ndcl_resource_buffer (float,float,float,float) t0\nret\n",
    "t.asm:2:1: error: t0: only texture1d, texture2d, texture3d and texturecube resources are supported\n" },
  { "ps_4_0\ndcl_constantbuffer cb0[1], sometimes\nret\n",
    "t.asm:2:28: error: expected immediateIndexed or dynamicIndexed\n" },
  { "ps_4_0\ndcl_temps 2\nmov r0 r1\nret\n",
    "t.asm:3:8: error: expected ','\n" },
  { "ps_4_0\ndcl_globalFlags fastest\nret\n",
    "t.asm:2:17: error: unknown global flag 'fastest'\n" },
  { "ps_4_0\ndcl_temps 2\nmov q0, r1\nret\n",
    "t.asm:3:5: error: unknown register 'q0'\n" },
  { "ps_4_0\ndcl_resource_texture2d (foo,float,float,float) t0\nret\n",
    "t.asm:2:25: error: unknown return type 'foo'\n" },
  { "ps_4_0\ndcl_sampler s0, mode_fast\nret\n",
    "t.asm:2:22: error: unknown sampler mode 'fast' (expected mode_default, mode_comparison or mode_mono)\n" },
  { "ps_4_0\ndcl_input_ps_siv linear noperspective v0.xy, colour\nret\n",
    "t.asm:2:46: error: unknown system value 'colour'\n" },
  { "ps_4_0\ndcl_temps 2\nmov r0.yx, r1\nret\n",
    "t.asm:3:8: error: write mask components must be in xyzw order\n" },
  { "ps_4_0\ndcl_temps 2\nsample_aoffimmi(9,0,0) r0, r1, t0, s0\nret\n",
    "t.asm:3:17: error: texel offsets range from -8 to 7\n" },
};
static const char *const hlsl_bad[][2] = {
  { "static float x = 1.0q;\n",
    "t.hlsl:1:18: error: invalid suffix on number\n" },
  { "static float x = 1 $ 2;\n",
    "t.hlsl:1:20: error: unexpected character '$'\n" },
  { "static float x = 1 \xc3\xa9;\n",
    "t.hlsl:1:20: error: unexpected non-ASCII character\n" },
  { "static float x = \"abc;\n",
    "t.hlsl:1:18: error: missing terminating \" character\n" },
};

/* Parser error paths of the SM4 assembler and the HLSL lexer that no other
 * test reaches, each with its text and position. */
static void
test_sm4_errors (void)
{
  for (gsize i = 0; i < G_N_ELEMENTS (sm4_bad); i++)
    sm4_fail (sm4_bad[i][0], sm4_bad[i][1]);
}

static void
test_hlsl_lexer_errors (void)
{
  for (gsize i = 0; i < G_N_ELEMENTS (hlsl_bad); i++)
    hlsl_fail (hlsl_bad[i][0], hlsl_bad[i][1]);
}

static void
test_dxbc (void)
{
  expect_fail (SL_LANGUAGE_DXBC, "t.dxbc", "DXBC", 4, "t.dxbc: error: not a DXBC container\n");
  static const uint32_t outside[] = {
    0x43425844, 0, 0, 0, 0, 1, 36, 1, 0x7fffffff };
  expect_fail (SL_LANGUAGE_DXBC, "t.dxbc", (const char *) outside, sizeof outside,
               "t.dxbc: error: chunk 0 lies outside the file\n");
  static const uint32_t many[] = {
    0x43425844, 0, 0, 0, 0, 1, 32, 0x7fffffff };
  expect_fail (SL_LANGUAGE_DXBC, "t.dxbc", (const char *) many, sizeof many,
               "t.dxbc: error: the header lists 2147483647 chunks; the limit is 64\n");
  static const uint32_t table[] = {
    0x43425844, 0, 0, 0, 0, 1, 32, 3 };
  expect_fail (SL_LANGUAGE_DXBC, "t.dxbc", (const char *) table, sizeof table,
               "t.dxbc: error: the chunk table (3 entries) runs past the end of the file\n");
  static const uint32_t none[] = {
    0x43425844, 0, 0, 0, 0, 1, 32, 0 };
  expect_fail (SL_LANGUAGE_DXBC, "t.dxbc", (const char *) none, sizeof none,
               "t.dxbc: error: the container has no SHDR or SHEX chunk\n");
}

/* ---- run time --------------------------------------------------------- */

typedef struct
{
  float *pixels;      /* w × h RGBA */
  char  *diags;       /* of the render calls */
  gboolean ok;        /* every render call returned true */
} Rendered;

/* The texture of slot 0 for render(), when set: an unbound sampler reads
 * a constant zero, whose reads the optimiser removes. */
static const SlTexture *render_slot0;

/* Compiles @src and renders a w×h viewport in bands of @band rows (one
 * render call each, as hosts do), pre-filled with -7 so unwritten pixels
 * show. */
static Rendered
render_profile (SlLanguage lang, const char *profile, const char *src, int w, int h, int band)
{
  gboolean ok;
  char *text = diagnose (lang, profile, "t", src, (size_t) -1, &ok);
  g_assert_cmpstr (text, ==, "");
  g_free (text);
  SlCompileOptions o = { .source = src, .length = (size_t) -1, .filename = "t", .language = lang,
                         .profile = profile };
  SlProgram *p = sl_compile (&o, NULL);
  g_assert_nonnull (p);
  SlBinding *b = sl_binding_new (p);
  sl_binding_set_viewport (b, w, h);
  if (render_slot0)
    sl_binding_set_texture (b, 0, render_slot0);
  SlDiagnostics *d = sl_diagnostics_new ();
  g_assert_true (sl_binding_prepare (b, d));
  Rendered r = { g_new (float, (size_t) w * h * 4), NULL, TRUE };
  for (int i = 0; i < w * h * 4; i++)
    r.pixels[i] = -7;
  SlScratch *scratch = sl_scratch_new ();
  for (int y = 0; y < h; y += band)
    {
      SlTarget t = { .pixels = r.pixels + (size_t) y * w * 4, .row_stride = (size_t) w * 4 };
      if (!sl_binding_render (b, scratch, 0, y, w, MIN (band, h - y), NULL, &t, 1, d))
        r.ok = FALSE;
    }
  sl_scratch_free (scratch);
  r.diags = sl_diagnostics_format (d);
  sl_diagnostics_free (d);
  sl_binding_free (b);
  sl_program_unref (p);
  return r;
}

static Rendered
render (SlLanguage lang, const char *src, int w, int h, int band)
{
  return render_profile (lang, NULL, src, w, h, band);
}

static void
rendered_clear (Rendered *r)
{
  g_free (r->pixels);
  g_free (r->diags);
}

static uint32_t
bits (float f)
{
  uint32_t u;
  memcpy (&u, &f, 4);
  return u;
}

/* One loop over its cap: stopped at 65536 iterations in the first span
 * (rows 0-1); that marks the binding as running away, so the second span
 * (rows 2-3) runs the loop once.  One warning per render call, every pixel
 * written. */
static void
test_loop_cap (void)
{
  Rendered r = render (SL_LANGUAGE_HLSL,
                       "float4 main (float2 uv : TEXCOORD0) : COLOR\n{\n"
                       "  float s = 0;\n"
                       "  for (int i = 0; i < 100000; i++)\n    s += 1;\n"
                       "  return float4 (s, uv, 1);\n}\n", 8, 4, 4);
  g_assert_false (r.ok);
  g_assert_cmpstr (r.diags, ==, "<render>: warning: a loop reached the iteration cap of 65536 and was stopped\n");
  for (int i = 0; i < 8 * 4; i++)
    g_assert_cmpfloat (r.pixels[4 * i], ==, i < 8 * 2 ? 65536 : 1);
  rendered_clear (&r);
}

/* Three nested loops of 60000 (each under the cap) would run 2×10^14
 * iterations; the per-span budget stops them.  The meson timeout bounds
 * how long this may take; the pixels prove the program went on after the
 * loops (w = 1), that the first span (rows 0-1, columns 0 to
 * SPAN_COLS - 1) ran its loops until the budget was spent and that every
 * later span then ran each loop once. */
#define SPAN_COLS 64   /* the VM's span width, SL_SPAN_COLS in vm/vm.h */
static void
test_budget (void)
{
  Rendered r = render (SL_LANGUAGE_HLSL,
                       "float4 main (float2 uv : TEXCOORD0) : COLOR\n{\n"
                       "  float n = 0;\n"
                       "  for (int i = 0; i < 60000; i++)\n"
                       "    for (int j = 0; j < 60000; j++)\n"
                       "      for (int k = 0; k < 60000; k++)\n"
                       "        n += 1;\n"
                       "  return float4 (n, uv, 1);\n}\n", 64, 64, 64);
  g_assert_false (r.ok);
  g_assert_cmpstr (r.diags, ==, "<render>: warning: the shader ran more than 4194304 "
                   "instructions per pixel; its loops were stopped\n");
  for (int i = 0; i < 64 * 64; i++)
    {
      if (i / 64 < 2 && i % 64 < SPAN_COLS)
        {
          /* Far more than one inner loop's worth, far less than all. */
          g_assert_cmpfloat (r.pixels[4 * i], >, 60000);
          g_assert_cmpfloat (r.pixels[4 * i], <, 4194304);
        }
      else
        g_assert_cmpfloat (r.pixels[4 * i], ==, 1);
      g_assert_cmpfloat (r.pixels[4 * i + 3], ==, 1);
    }
  rendered_clear (&r);

  /* The same in SM4 assembly: loops without any exit at all. */
  r = render (SL_LANGUAGE_SM4_ASM,
              "ps_4_0\ndcl_output o0.xyzw\ndcl_temps 1\n"
              "mov r0, l(0.0, 0.0, 0.0, 1.0)\n"
              "loop\n loop\n  loop\n   add r0.x, r0.x, l(1.0)\n  endloop\n endloop\nendloop\n"
              "mov o0, r0\nret\n", 64, 2, 2);
  g_assert_false (r.ok);
  g_assert_true (g_str_has_prefix (r.diags, "<render>: warning: a loop reached the iteration cap of 65536 and was stopped\n"
                                   "<render>: warning: the shader ran more than 4194304"));
  g_assert_cmpfloat (r.pixels[3], ==, 1);
  g_assert_cmpfloat (r.pixels[0], >, 65536);
  rendered_clear (&r);
}

/* The budget counts straight-line work too: one pass over the program is
 * charged when a span starts.  @reads 2D texture reads (64 each) after two
 * nested loops of 200 × 1000 iterations, or @cube_reads cube reads (96
 * each) and no loop. */
static char *
straight_source (int reads, gboolean loops, int cube_reads)
{
  GString *s = g_string_new (cube_reads ? "samplerCUBE C;\n" : "sampler2D S;\n");

  g_string_append (s, "float4 main (float2 uv : TEXCOORD0) : COLOR\n{\n"
                      "  float x = 0, n = 0;\n");
  if (loops)
    g_string_append (s, "  for (int i = 0; i < 200; i++)\n"
                        "    for (int j = 0; j < 1000; j++)\n"
                        "      n += 1;\n");
  for (int k = 1; k <= reads; k++)
    g_string_append_printf (s, "  x += tex2D (S, uv.xx + %d.0).x;\n", k);
  for (int k = 1; k <= cube_reads; k++)
    g_string_append_printf (s, "  x += texCUBE (C, float3 (uv, %d.0)).x;\n", k);
  /* x keeps the reads alive; it is 0.25 at most pixels' reads. */
  g_string_append (s, "  return float4 (n, uv.x, x > 0, 1);\n}\n");
  return g_string_free (s, FALSE);
}

static void
test_budget_straight (void)
{
  static const float texels[6 * 4] = { 0.25f, 0.25f, 0.25f, 1, 0.25f, 0.25f, 0.25f, 1,
                                       0.25f, 0.25f, 0.25f, 1, 0.25f, 0.25f, 0.25f, 1,
                                       0.25f, 0.25f, 0.25f, 1, 0.25f, 0.25f, 0.25f, 1 };
  SlTexture flat = { .kind = SL_TEXTURE_2D, .n_levels = 1,
                     .levels = { { 1, 1, 1, 4, 4, texels } } };
  SlTexture cube = { .kind = SL_TEXTURE_CUBE, .n_levels = 1,
                     .levels = { { 1, 1, 6, 4, 4, texels } } };

  render_slot0 = &flat;
  /* The loops alone (about 2.4M) and the 40000 reads alone (about 2.7M)
   * each stay within the 4194304 budget; together they do not, so the
   * loops stop early in the first span and run once in the others. */
  char *src = straight_source (0, TRUE, 0);
  Rendered r = render (SL_LANGUAGE_HLSL, src, 64, 4, 4);
  g_assert_true (r.ok);
  g_assert_cmpstr (r.diags, ==, "");
  for (int i = 0; i < 64 * 4; i++)
    g_assert_cmpfloat (r.pixels[4 * i], ==, 200000);
  rendered_clear (&r);
  g_free (src);

  src = straight_source (40000, FALSE, 0);
  r = render (SL_LANGUAGE_HLSL, src, 64, 4, 4);
  g_assert_true (r.ok);
  g_assert_cmpstr (r.diags, ==, "");
  rendered_clear (&r);
  g_free (src);

  src = straight_source (40000, TRUE, 0);
  r = render (SL_LANGUAGE_HLSL, src, 64, 4, 4);
  g_assert_false (r.ok);
  g_assert_cmpstr (r.diags, ==, "<render>: warning: the shader ran more than 4194304 "
                   "instructions per pixel; its loops were stopped\n");
  for (int i = 0; i < 64 * 4; i++)
    {
      if (i / 64 < 2 && i % 64 < SPAN_COLS)
        {
          g_assert_cmpfloat (r.pixels[4 * i], >, 1000);
          g_assert_cmpfloat (r.pixels[4 * i], <, 200000);
        }
      else
        g_assert_cmpfloat (r.pixels[4 * i], ==, 1);
      g_assert_cmpfloat (r.pixels[4 * i + 3], ==, 1);
    }
  rendered_clear (&r);
  g_free (src);

  /* 43700 cube reads cost more than the budget in one pass: reported
   * once per render call, and every pixel still written. */
  render_slot0 = &cube;
  src = straight_source (0, FALSE, 43700);
  r = render (SL_LANGUAGE_HLSL, src, 64, 4, 4);
  g_assert_false (r.ok);
  g_assert_cmpstr (r.diags, ==, "<render>: warning: one pass over the shader costs more than "
                   "4194304 instructions per pixel; it ran once, each loop at most once\n");
  for (int i = 0; i < 64 * 4; i++)
    {
      g_assert_cmpfloat (r.pixels[4 * i + 1], ==, ((i % 64) + 0.5f) / 64);
      g_assert_cmpfloat (r.pixels[4 * i + 2], ==, 1);
      g_assert_cmpfloat (r.pixels[4 * i + 3], ==, 1);
    }
  rendered_clear (&r);
  g_free (src);
  render_slot0 = NULL;
}

/* Division by zero, NaN and infinities follow IEEE at run time and when
 * folded (z is 0 only at run time in the first shader; in the second it
 * is known, which D3D9 compilers reject and SM4 folds), and integer
 * division by zero gives the Direct3D 10 results instead of trapping. */
static void
test_ieee (void)
{
  const char *srcs[] = {
    "float4 main (float2 uv : TEXCOORD0) : COLOR\n{\n"
    "  float z = floor (uv.x);\n"
    "  return float4 (1 / z, -1 / z, z / z, sqrt (z - 1));\n}\n",
    "float4 main () : COLOR\n{\n"
    "  float z = 0;\n"
    "  return float4 (1 / z, -1 / z, z / z, sqrt (z - 1));\n}\n",
  };
  gboolean ok;
  char *text = diagnose (SL_LANGUAGE_HLSL, "ps_3_0", "t.hlsl", srcs[1], (size_t) -1, &ok);
  g_assert_false (ok);
  g_assert_cmpstr (text, ==, "t.hlsl:4:20: error: division by zero\n");
  g_free (text);
  for (int k = 0; k < 2; k++)
    {
      Rendered r = render_profile (SL_LANGUAGE_HLSL, "ps_4_0", srcs[k], 4, 2, 2);
      g_assert_true (r.ok);
      g_assert_cmpstr (r.diags, ==, "");
      for (int i = 0; i < 8; i++)
        {
          g_assert_true (isinf (r.pixels[4 * i]) && r.pixels[4 * i] > 0);
          g_assert_true (isinf (r.pixels[4 * i + 1]) && r.pixels[4 * i + 1] < 0);
          g_assert_true (isnan (r.pixels[4 * i + 2]));
          g_assert_true (isnan (r.pixels[4 * i + 3]));
        }
      rendered_clear (&r);
    }
  /* inf - inf, 0 * inf, NaN compares false; min/max prefer the number. */
  Rendered r = render (SL_LANGUAGE_HLSL,
                       "float4 main (float2 uv : TEXCOORD0) : COLOR\n{\n"
                       "  float inf = 1 / floor (uv.x);\n"
                       "  float nan = inf - inf;\n"
                       "  return float4 (0 * inf, nan == nan ? 1 : 2, nan < 1 ? 1 : 2, isnan (nan) ? 3 : 4);\n}\n",
                       2, 2, 2);
  g_assert_true (r.ok);
  for (int i = 0; i < 4; i++)
    {
      g_assert_true (isnan (r.pixels[4 * i]));
      g_assert_cmpfloat (r.pixels[4 * i + 1], ==, 2);
      g_assert_cmpfloat (r.pixels[4 * i + 2], ==, 2);
      g_assert_cmpfloat (r.pixels[4 * i + 3], ==, 3);
    }
  rendered_clear (&r);
  /* SM4 integer division by zero: udiv gives 0xffffffff for both the
   * quotient and the remainder. */
  r = render (SL_LANGUAGE_SM4_ASM,
              "ps_4_0\ndcl_input_ps linear v0.xy\ndcl_output o0.xyzw\ndcl_temps 2\n"
              "round_ni r0.x, v0.x\nftou r0.x, r0.x\n"
              "udiv r1.x, r1.y, l(7), r0.x\n"
              "mov o0.xy, r1.xyxx\nmov o0.zw, l(0, 0, 0, 1.0)\nret\n", 2, 2, 2);
  g_assert_true (r.ok);
  for (int i = 0; i < 4; i++)
    {
      g_assert_cmphex (bits (r.pixels[4 * i]), ==, 0xffffffffu);
      g_assert_cmphex (bits (r.pixels[4 * i + 1]), ==, 0xffffffffu);
    }
  rendered_clear (&r);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  tmpdir = g_dir_make_tmp ("sl-limits-XXXXXX", NULL);
  g_test_add_func ("/limits/source-size", test_source_size);
  g_test_add_func ("/limits/include-depth", test_include_depth);
  g_test_add_func ("/limits/include-cycle", test_include_cycle);
  g_test_add_func ("/limits/macro-depth", test_macro_depth);
  g_test_add_func ("/limits/macro-size", test_macro_size);
  g_test_add_func ("/limits/hlsl/error-count", test_hlsl_error_count);
  g_test_add_func ("/limits/hlsl/expression-depth", test_hlsl_expression_depth);
  g_test_add_func ("/limits/hlsl/statement-depth", test_hlsl_statement_depth);
  g_test_add_func ("/limits/hlsl/array-size", test_hlsl_array_size);
  g_test_add_func ("/limits/hlsl/recursion", test_hlsl_recursion);
  g_test_add_func ("/limits/hlsl/registers", test_hlsl_registers);
  g_test_add_func ("/limits/d3d9/asm", test_d3d9_limits);
  g_test_add_func ("/limits/d3d9/bytecode", test_d3d9_bytecode);
  g_test_add_func ("/limits/sm4/asm", test_sm4_limits);
  g_test_add_func ("/limits/sm4/dxbc", test_dxbc);
  g_test_add_func ("/limits/sm4/errors", test_sm4_errors);
  g_test_add_func ("/limits/hlsl/lexer-errors", test_hlsl_lexer_errors);
  g_test_add_func ("/limits/run/loop-cap", test_loop_cap);
  g_test_add_func ("/limits/run/budget", test_budget);
  g_test_add_func ("/limits/run/budget-straight", test_budget_straight);
  g_test_add_func ("/limits/run/ieee", test_ieee);
  int status = g_test_run ();
  /* Fixtures are throwaway; remove what we wrote. */
  gs_test_remove_flat_dir (tmpdir);
  return status;
}
