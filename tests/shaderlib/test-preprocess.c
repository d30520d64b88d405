/* Tests of the HLSL preprocessor (shaderlib/preprocess/).
 *
 * Each case runs sl_preprocess() on a small source and compares the whole
 * output text and the formatted diagnostics with exact expectations, so a
 * change of layout, #line placement or message wording shows up here.
 * Include files come from an in-memory table through the read_file hook,
 * except in the test that reads the fixtures under tests/shaderlib/pp/
 * from disk. */
#include "preprocess/preprocess.h"

#include <glib.h>
#include <string.h>

#ifndef PP_FIXTURES
#error "PP_FIXTURES must name the tests/shaderlib/pp folder"
#endif

/* In-memory include files: NULL-terminated pairs of path and content. */
static char *
read_from_table (void *user, const char *path, size_t *length)
{
  const char *const *table = user;
  for (; table && table[0]; table += 2)
    if (strcmp (table[0], path) == 0)
      {
        *length = strlen (table[1]);
        return g_strdup (table[1]);
      }
  return NULL;
}

typedef struct
{
  char *out;     /* NULL after a fatal error */
  char *diags;   /* formatted diagnostics, "" when none */
  int   errors;
} Result;

static Result
run_opts (const char *src, size_t len, SlPreprocessOptions *opts)
{
  SlDiagnostics *d = sl_diagnostics_new ();
  Result r;
  r.out = sl_preprocess (src, len, opts, d);
  r.diags = sl_diagnostics_format (d);
  r.errors = sl_diagnostics_error_count (d);
  sl_diagnostics_free (d);
  return r;
}

static Result
run_files (const char *src, const char *const *files)
{
  SlPreprocessOptions o = { 0 };
  o.filename = "main.hlsl";
  o.read_file = read_from_table;
  o.read_file_user = (void *) files;
  return run_opts (src, strlen (src), &o);
}

static Result
run (const char *src)
{
  return run_opts (src, strlen (src), NULL);
}

static void
result_clear (Result *r)
{
  g_free (r->out);
  g_free (r->diags);
}

#define check_ok(src, expected) \
  G_STMT_START { \
    Result r_ = run (src); \
    g_assert_cmpstr (r_.diags, ==, ""); \
    g_assert_cmpstr (r_.out, ==, expected); \
    result_clear (&r_); \
  } G_STMT_END

#define check_diag(src, expected_out, expected_diags) \
  G_STMT_START { \
    Result r_ = run (src); \
    g_assert_cmpstr (r_.diags, ==, expected_diags); \
    g_assert_cmpstr (r_.out, ==, expected_out); \
    result_clear (&r_); \
  } G_STMT_END

static void
test_object_macros (void)
{
  check_ok ("#define PI 3.14\nfloat x = PI;\n", "\nfloat x = 3.14;\n");
  check_ok ("#define E\nint E a;\n", "\nint   a;\n");
  /* rescanning through a chain */
  check_ok ("#define A B\n#define B C\n#define C 7\nA\n", "\n\n\n7\n");
  /* a macro is not expanded inside its own expansion */
  check_ok ("#define A A B\n#define B A\nA\n", "\n\nA A\n");
  check_ok ("#define x (4 + x)\nx;\n", "\n(4 + x);\n");
  /* #undef */
  check_ok ("#define N 1\nN\n#undef N\nN\n", "\n1\n\nN\n");
  /* no accidental token pasting */
  check_ok ("#define M -\n-M\n", "\n- -\n");
}

static void
test_function_macros (void)
{
  check_ok ("#define SQ(x) ((x)*(x))\nfloat a = SQ(b + 1);\n",
            "\nfloat a = ((b + 1)*(b + 1));\n");
  /* parenthesised arguments keep their commas */
  check_ok ("#define F(a,b) a+b\nF((1,2),f(3,4))\n", "\n(1,2)+f(3,4)\n");
  /* a function-like name without '(' is left alone */
  check_ok ("#define F(x) x\nint F;\n", "\nint F;\n");
  /* empty argument list and empty arguments */
  check_ok ("#define Z() 0\n#define P(a,b) [a|b]\nZ() P(,) P(1,)\n", "\n\n0   [|]  [1|]\n");
  /* arguments are expanded before substitution */
  check_ok ("#define ONE 1\n#define ID(x) x\nID(ONE) ID(ID(ONE))\n", "\n\n1       1\n");
  /* the classic rescan example from the C standard */
  check_ok ("#define f(a) a*g\n#define g(a) f(a)\nf(2)(9)\n", "\n\n2*9*g\n");
  /* an invocation spread over lines keeps the following text in place */
  check_ok ("#define F(a,b) a+b\nF(1,\n  2) x\ny\n", "\n1+2\n     x\ny\n");
  /* the name on one line, the arguments on the next */
  check_ok ("#define G(a) <a>\nG\n(5)\n", "\n<5>\n");
  /* variadic */
  check_ok ("#define V(a, ...) a: __VA_ARGS__\nV(1, 2, 3) V(4)\n", "\n1: 2, 3    4:\n");
}

static void
test_stringize_paste (void)
{
  check_ok ("#define S(x) #x\nS( a  +  \"q\\n\" ) S()\n",
            "\n\"a + \\\"q\\\\n\\\"\"   \"\"\n");
  /* # and ## see the argument before expansion */
  check_ok ("#define ONE 1\n#define S(x) #x\n#define XS(x) S(x)\nS(ONE) XS(ONE)\n",
            "\n\n\n\"ONE\"  \"1\"\n");
  check_ok ("#define CAT(a,b) a##b\nCAT(flo, at) CAT(x, 1) CAT(,y) CAT(,)\n",
            "\nfloat        x1        y\n");
  /* a pasted name is rescanned */
  check_ok ("#define CAT(a,b) a ## b\n#define AB done\nCAT(A, B)\n", "\n\ndone\n");
  /* ## in an object-like macro */
  check_ok ("#define T int ## 2\nT\n", "\nint2\n");
  check_diag ("#define CAT(a,b) a##b\nCAT(+, /)\n", "\n+ /\n",
              "<source>:2:1: error: pasting \"+\" and \"/\" does not give a valid preprocessing token\n");
}

static void
test_macro_errors (void)
{
  check_diag ("#define F(a,b) a\nF(1,2,3) F(1)\n", "",
              "<source>:2:1: error: macro 'F' expects 2 arguments, got 3\n"
              "<source>:2:10: error: macro 'F' expects 2 arguments, got 1\n");
  check_diag ("#define V(a, ...) a\nV()x\n", "\n   x\n", "");
  check_diag ("#define F(x) x\nF(1,\n", "",
              "<source>:2:1: error: unterminated argument list invoking macro 'F'\n");
  check_diag ("#define A 1\n#define A 2\n#define A 2\nA\n", "\n\n\n2\n",
              "<source>:2:9: warning: 'A' redefined\n"
              "<source>:1:9: note: previous definition of 'A' is here\n");
  check_diag ("#define F(x) #y\n#define G(x) ## x\n#define 3 x\n#define\n#define H(a,a) a\n"
              "#define defined 1\n#define K(a b) a\n", "",
              "<source>:1:14: error: '#' is not followed by a macro parameter\n"
              "<source>:2:14: error: '##' cannot appear at either end of a macro expansion\n"
              "<source>:3:9: error: macro names must be identifiers, not '3'\n"
              "<source>:4:2: error: no macro name given in #define directive\n"
              "<source>:5:13: error: duplicate macro parameter 'a'\n"
              "<source>:6:9: error: 'defined' cannot be used as a macro name\n"
              "<source>:7:13: error: expected ',' or ')' in parameter list, found 'b'\n");
}

/* Evaluates EXPR with #if and returns TRUE when the true branch was taken. */
static gboolean
if_true (const char *prelude, const char *expr)
{
  char *src = g_strdup_printf ("%s\n#if %s\nyes\n#else\nno\n#endif\n", prelude, expr);
  Result r = run (src);
  if (r.errors)
    g_error ("unexpected diagnostics for #if %s: %s", expr, r.diags);
  g_assert_nonnull (r.out);
  gboolean yes = strstr (r.out, "yes") != NULL;
  g_assert_true (yes != (strstr (r.out, "no") != NULL));
  result_clear (&r);
  g_free (src);
  return yes;
}

static void
test_if_expressions (void)
{
  const char *pre = "#define FOO 2\n#define EMPTY\n#define F(x) (x*2)\n#define HAS(x) defined(x)\n#define IS_DEF defined(FOO)";
  static const struct { const char *expr; gboolean value; } cases[] = {
    { "1", TRUE }, { "0", FALSE }, { "FOO == 2", TRUE }, { "UNDEFINED", FALSE },
    { "UNDEFINED == 0", TRUE }, { "defined FOO", TRUE }, { "defined(FOO) && !defined BAR", TRUE },
    { "defined EMPTY", TRUE }, { "IS_DEF", TRUE }, { "HAS(BAR)", FALSE },
    { "F(3) == 6", TRUE }, { "1 + 2 * 3 == 7", TRUE }, { "(1 + 2) * 3 == 9", TRUE },
    { "0x10 == 16", TRUE }, { "010 == 8", TRUE }, { "0XfFu == 255", TRUE },
    { "10 / 3 == 3 && 10 % 3 == 1", TRUE }, { "-7 / 2 == -3", TRUE },
    { "-1 < 0", TRUE }, { "-1 < 0u", FALSE }, { "-1 > 0u", TRUE },
    { "~0 == -1", TRUE }, { "1 << 3 == 8", TRUE }, { "-8 >> 1 == -4", TRUE },
    { "(1 | 2) ^ 3 == 0", TRUE }, { "(6 & 3) == 2", TRUE }, { "5 >= 5 && 4 <= 3", FALSE },
    { "3 != 3 || 2 > 1", TRUE }, { "!0 == 1", TRUE }, { "- - 1 == +1", TRUE },
    { "1 ? 0 : 1", FALSE }, { "0 ? 0 : 1 ? 5 : 0", TRUE }, { "(0 ? 1 : 2) == 2", TRUE },
    { "0 && 1 / 0", FALSE }, { "1 || 1 / 0", TRUE }, { "0 ? 1 / 0 : 1", TRUE },
    { "'A' == 65", TRUE }, { "'\\n' == 10", TRUE },
    { "18446744073709551615 == -1", TRUE }, { "0xFFFFFFFFFFFFFFFF > 0", TRUE },
    { "9223372036854775807 > 0", TRUE }, { "__LINE__ == 6", TRUE },
  };
  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    if (if_true (pre, cases[i].expr) != cases[i].value)
      g_error ("#if %s should be %s", cases[i].expr, cases[i].value ? "true" : "false");
}

static void
test_if_errors (void)
{
  check_diag ("#if 1 / 0\nx\n#endif\n", "", "<source>:1:7: error: division by zero in #if\n");
  check_diag ("#if\n#endif\n", "", "<source>:1:2: error: #if with no expression\n");
  check_diag ("#if 1.5\n#endif\n", "", "<source>:1:5: error: invalid integer constant '1.5' in #if\n");
  check_diag ("#if (1\n#endif\n", "", "<source>:1:5: error: missing ')' in #if expression\n");
  check_diag ("#if 1 2\n#endif\n", "", "<source>:1:7: error: missing binary operator before token '2'\n");
  check_diag ("#if 1 +\n#endif\n", "", "<source>:1:7: error: #if expression ends too early\n");
  check_diag ("#if \"s\"\n#endif\n", "", "<source>:1:5: error: token '\"s\"' is not valid in #if expressions\n");
  check_diag ("#if 99999999999999999999\n#endif\n", "",
              "<source>:1:5: error: integer constant '99999999999999999999' is too large\n");
  check_diag ("#if defined\n#endif\n", "", "<source>:1:5: error: operator 'defined' requires an identifier\n");
}

static void
test_conditionals (void)
{
  check_ok ("#ifdef A\na\n#elif 1\nb\n#else\nc\n#endif\n", "\n\n\nb\n");
  check_ok ("#define A\n#ifdef A\na\n#elif 1\nb\n#else\nc\n#endif\n", "\n\na\n");
  check_ok ("#ifndef A\n#if 0\nx\n#elif 2 > 1\ny\n#endif\n#else\nz\n#endif\n", "\n\n\n\ny\n");
  /* skipped groups do not evaluate or complain about their content */
  check_ok ("#if 1\nok\n#elif 1/0\n#endif\n#if 0\n#if 1/0\n#error no\n#bogus\n'unterminated\n#endif\n#endif\n",
            "\nok\n");
  check_diag ("a\n#if 1\nb\n#ifdef X\n", "a\n\nb\n",
              "<source>:4:9: error: unterminated #if (opened at line 2)\n"
              "<source>:4:9: error: unterminated #ifdef (opened at line 4)\n");
  check_diag ("#endif\n#else\n#if 1\n#else\n#elif 1\n#else\n#endif\n", "",
              "<source>:1:2: error: #endif without #if\n"
              "<source>:2:2: error: #else without #if\n"
              "<source>:5:2: error: #elif after #else\n"
              "<source>:6:2: error: #else after #else\n");
  check_diag ("#ifdef\n#endif\n#ifdef A B\n#endif C\n", "",
              "<source>:1:2: error: #ifdef expects a macro name\n"
              "<source>:3:10: warning: extra tokens at end of #ifdef directive\n"
              "<source>:4:8: warning: extra tokens at end of #endif directive\n");
  /* a long skipped group is replaced by a #line marker */
  check_ok ("a\n#if 0\n1\n2\n3\n4\n5\n6\n7\n8\n9\n#endif\nb\n",
            "a\n#line 13 \"<source>\"\nb\n");
}

static void
test_includes (void)
{
  static const char *const files[] = {
    "lib/a.hlsl", "float a;\n#include \"b.hlsl\"\nfloat a2 = __LINE__;\n",
    "lib/b.hlsl", "float b = __FILE__;\n",
    "sys/c.hlsl", "#pragma once\nfloat c;\n",
    "guard.hlsl", "#ifndef G\n#define G\nfloat g;\n#endif\n",
    NULL
  };
  static const char *const dirs[] = { "sys", NULL };
  SlPreprocessOptions o = { 0 };
  o.filename = "main.hlsl";
  o.include_dirs = dirs;
  o.read_file = read_from_table;
  o.read_file_user = (void *) files;
  const char *src =
    "#include \"lib/a.hlsl\"\n"
    "#include <c.hlsl>\n"
    "#include \"c.hlsl\"\n"
    "#define GUARD \"guard.hlsl\"\n"
    "#include GUARD\n"
    "#include \"guard.hlsl\"\n"
    "end\n";
  Result r = run_opts (src, strlen (src), &o);
  g_assert_cmpstr (r.diags, ==, "");
  g_assert_cmpstr (r.out, ==,
                   "#line 1 \"lib/a.hlsl\"\n"
                   "float a;\n"
                   "#line 1 \"lib/b.hlsl\"\n"
                   "float b = \"lib/b.hlsl\";\n"
                   "#line 3 \"lib/a.hlsl\"\n"
                   "float a2 = 3       ;\n"
                   "#line 2 \"sys/c.hlsl\"\n"
                   "float c;\n"
                   "#line 3 \"guard.hlsl\"\n"
                   "float g;\n"
                   "#line 7 \"main.hlsl\"\n"
                   "end\n");
  result_clear (&r);

  /* <> does not look beside the including file; "" does */
  static const char *const beside[] = { "x.hlsl", "x;\n", NULL };
  r = run_files ("#include <x.hlsl>\n  #  include \"missing.hlsl\"\n#include\n#include foo\n"
                 "#include <x\n#include \"\"\nok\n", beside);
  g_assert_cmpstr (r.diags, ==,
                   "main.hlsl:1:10: error: #include file <x.hlsl> not found\n"
                   "main.hlsl:2:14: error: #include file \"missing.hlsl\" not found\n"
                   "main.hlsl:3:2: error: #include expects \"FILENAME\" or <FILENAME>\n"
                   "main.hlsl:4:10: error: #include expects \"FILENAME\" or <FILENAME>\n"
                   "main.hlsl:5:10: error: missing terminating > character\n"
                   "main.hlsl:6:10: error: empty file name in #include\n");
  g_assert_cmpstr (r.out, ==, "\n\n\n\n\n\nok\n");
  result_clear (&r);

  /* Windows separators */
  static const char *const win[] = { "dir/w.hlsl", "w;\n", NULL };
  r = run_files ("#include \"dir\\w.hlsl\"\n", win);
  g_assert_cmpstr (r.diags, ==, "");
  g_assert_cmpstr (r.out, ==, "#line 1 \"dir/w.hlsl\"\nw;\n");
  result_clear (&r);
}

static void
test_include_limits (void)
{
  /* a file including itself stops at the depth limit, naming the cycle */
  static const char *const loop[] = { "self.hlsl", "#include \"self.hlsl\"\n", NULL };
  Result r = run_files ("#include \"self.hlsl\"\nafter\n", loop);
  g_assert_cmpint (r.errors, ==, 1);
  g_assert_cmpstr (r.diags, ==, "self.hlsl:1:10: error: #include cycle without include guards: self.hlsl -> self.hlsl\n");
  g_assert_cmpstr (r.out, ==, "\nafter\n");
  result_clear (&r);

  /* #pragma once stops the cycle at once */
  static const char *const once[] = { "o.hlsl", "#pragma once\no;\n#include \"o.hlsl\"\n", NULL };
  r = run_files ("#include \"o.hlsl\"\n#include \"o.hlsl\"\nend\n", once);
  g_assert_cmpstr (r.diags, ==, "");
  g_assert_cmpstr (r.out, ==, "#line 2 \"o.hlsl\"\no;\n#line 3 \"main.hlsl\"\nend\n");
  result_clear (&r);

  /* an unterminated #if inside an include is reported at its end */
  static const char *const open_if[] = { "u.hlsl", "#if 1\nu;\n", NULL };
  r = run_files ("#include \"u.hlsl\"\n#endif\n", open_if);
  g_assert_cmpstr (r.diags, ==,
                   "u.hlsl:2:3: error: unterminated #if (opened at line 1)\n"
                   "main.hlsl:2:2: error: #endif without #if\n");
  g_assert_cmpstr (r.out, ==, "#line 2 \"u.hlsl\"\nu;\n");
  result_clear (&r);
}

static void
test_includes_from_disk (void)
{
  char *main_path = g_build_filename (PP_FIXTURES, "main.hlsl", NULL);
  char *sys = g_build_filename (PP_FIXTURES, "sys", NULL);
  const char *dirs[] = { sys, NULL };
  char *src = NULL;
  gsize len = 0;
  g_assert_true (g_file_get_contents (main_path, &src, &len, NULL));
  SlPreprocessOptions o = { 0 };
  o.filename = main_path;
  o.include_dirs = dirs;
  Result r = run_opts (src, len, &o);
  g_assert_cmpstr (r.diags, ==, "");
  char *want = g_strdup_printf ("#line 2 \"%s/sub/helper.hlsl\"\n"
                                "float helper = 1;\n"
                                "#line 1 \"%s/sub/near.hlsl\"\n"
                                "float near = 1       ;\n"
                                "#line 2 \"%s\"\n"
                                "float main_line = 2       ;\n"
                                "#line 3 \"%s/common.hlsl\"\n"
                                "float common_v = 2;\n"
                                "#line 5 \"%s\"\n"
                                "end\n",
                                PP_FIXTURES, PP_FIXTURES, main_path, sys, main_path);
  g_assert_cmpstr (r.out, ==, want);
  g_free (want);
  result_clear (&r);
  g_free (src);

  /* the self-including fixture ends at the depth limit */
  char *self = g_build_filename (PP_FIXTURES, "self.hlsl", NULL);
  o.filename = self;
  r = run_opts ("#include \"self.hlsl\"\n", (size_t) -1, &o);
  g_assert_cmpint (r.errors, ==, 1);
  g_assert_nonnull (strstr (r.diags, "error: #include cycle without include guards: "));
  g_assert_cmpstr (r.out, ==, "");
  result_clear (&r);
  g_free (self);
  g_free (main_path);
  g_free (sys);
}

static void
test_line_directive (void)
{
  check_ok ("#line 100 \"foo.hlsl\"\nx __LINE__ __FILE__\ny\n",
            "#line 100 \"foo.hlsl\"\nx 100      \"foo.hlsl\"\ny\n");
  check_ok ("a\n#line 50\nb __LINE__\n", "a\n#line 50 \"<source>\"\nb 50\n");
  check_ok ("#define N 7\n#line N\nc\n", "\n\n\n\n\n\nc\n");
  check_ok ("# 20 \"gen.hlsl\" 1\nd\n", "#line 20 \"gen.hlsl\"\nd\n");
  check_diag ("#line x\n#line 0\n#line 5 six\n", "",
              "<source>:1:7: error: #line expects a line number from 1 to 2147483647, not 'x'\n"
              "<source>:2:7: error: #line expects a line number from 1 to 2147483647, not '0'\n"
              "<source>:3:9: error: invalid file name 'six' in #line directive\n");
  /* file names with quotes and backslashes are escaped in markers */
  check_ok ("#line 3 \"C:\\\\dir\\\\f.hlsl\"\nq\n", "#line 3 \"C:\\\\dir\\\\f.hlsl\"\nq\n");
}

static void
test_error_and_unknown (void)
{
  check_diag ("a\n#error this is broken\nb\n", "a\n\nb\n",
              "<source>:2:1: error: #error this is broken\n");
  check_diag ("#warning  careful /* c */ now\n", "", "<source>:1:1: warning: #warning careful now\n");
  check_diag ("#\n  #   \n#foo bar\n# 1x\nz\n", "\n\n\n\nz\n",
              "<source>:3:2: error: unknown directive '#foo'\n"
              "<source>:4:3: error: #line expects a line number from 1 to 2147483647, not '1x'\n");
  check_diag ("#!\n", "", "<source>:1:2: error: unknown directive '#!'\n");
}

static void
test_pragmas (void)
{
  check_ok ("#pragma pack_matrix(row_major)\n"
            "  #pragma parameter Gamma \"Gamma\" 2.2 1.0 3.0 0.1 // note\n"
            "#pragma warning(disable : 3571)\n"
            "#pragma def(ps_2_0, c0, 0, 0, 0, 0)\n"
            "#pragma once\n"
            "#pragma\n"
            "#pragma message(\"hi\")\n"
            "x\n",
            "#pragma pack_matrix(row_major)\n"
            "  #pragma parameter Gamma \"Gamma\" 2.2 1.0 3.0 0.1\n"
            "\n\n\n\n"
            "#pragma message(\"hi\")\n"
            "x\n");
  /* pragmas in skipped groups are dropped */
  check_ok ("#if 0\n#pragma pack_matrix(row_major)\n#endif\ny\n", "\n\n\ny\n");
}

static void
test_comments_and_layout (void)
{
  check_ok ("a /* x */ b // c\n\"//not\" /* multi\nline */ c\n\td\n",
            "a         b\n\"//not\"\n        c\n\td\n");
  /* a comment spanning lines inside a directive continues it */
  check_ok ("#define A 1 /* one\n two */ + 2\nA\n", "\n\n1 + 2\n");
  check_diag ("x /* open\n", "x\n", "<source>:1:3: error: unterminated comment\n");
  check_diag ("s = \"abc\n", "s = \"abc\n", "<source>:1:5: error: missing terminating \" character\n");
  /* columns count characters: the lexer sees `b` where it was */
  check_ok ("/* é */ b\n", "        b\n");
  /* text after a shorter expansion goes back to its own column */
  check_ok ("#define LONGNAME x\nLONGNAME + y\n", "\nx        + y\n");
}

static void
test_continuation_and_line_endings (void)
{
  check_ok ("#define M 1 + \\\n 2\nM\na \\\nb\n", "\n\n1 + 2\na\nb\n");
  check_ok ("ab\\\ncd\n", "abcd\n");
  check_ok ("a\r\nb\r\n#define C 3\r\nC\r\n", "a\nb\n\n3\n");
  check_ok ("a\rb\r\rc", "a\nb\n\nc\n");
  check_ok ("#define M 1 \\  \r\n+ 2\nM\n", "\n\n1 + 2\n");
}

static void
test_encodings (void)
{
  check_ok ("\xEF\xBB\xBF" "#define X 1\nX\n", "\n1\n");
  /* UTF-16LE and BE with BOM: "#define X 2\nX é\n" */
  const char *text = "#define X 2\nX \xC3\xA9\n";
  glong n16 = 0;
  gunichar2 *u16 = g_utf8_to_utf16 (text, -1, NULL, &n16, NULL);
  for (int be = 0; be < 2; be++)
    {
      GByteArray *b = g_byte_array_new ();
      guint8 bom[2] = { be ? 0xFE : 0xFF, be ? 0xFF : 0xFE };
      g_byte_array_append (b, bom, 2);
      for (glong i = 0; i < n16; i++)
        {
          guint8 pair[2] = { u16[i] & 0xFF, u16[i] >> 8 };
          if (be)
            pair[0] = u16[i] >> 8, pair[1] = u16[i] & 0xFF;
          g_byte_array_append (b, pair, 2);
        }
      Result r = run_opts ((const char *) b->data, b->len, NULL);
      g_assert_cmpstr (r.diags, ==, "");
      g_assert_cmpstr (r.out, ==, "\n2 \xC3\xA9\n");
      result_clear (&r);
      g_byte_array_free (b, TRUE);
    }
  g_free (u16);

  Result r = run_opts ("\xFF\xFE\x41", 3, NULL);
  g_assert_null (r.out);
  g_assert_nonnull (strstr (r.diags, "<source>: error: cannot decode UTF-16 source \"<source>\""));
  result_clear (&r);

  check_diag ("a \xFF b\n", "a \xEF\xBF\xBD b\n",
              "<source>: warning: \"<source>\" is not valid UTF-8; bad bytes were replaced\n");
  r = run_opts ("a\0b\n", 4, NULL);
  g_assert_cmpstr (r.out, ==, "a b\n");
  g_assert_cmpstr (r.diags, ==,
                   "<source>: warning: \"<source>\" contains null characters; they were read as spaces\n");
  result_clear (&r);
}

static void
test_predefines (void)
{
  static const char *const defs[] = { "A", "B=2", "F(x)=x+B", "C=", NULL };
  SlPreprocessOptions o = { 0 };
  o.defines = defs;
  const char *src = "A B F(1) [C]\n#ifdef C\nc\n#endif\n";
  Result r = run_opts (src, strlen (src), &o);
  g_assert_cmpstr (r.diags, ==, "");
  g_assert_cmpstr (r.out, ==, "1 2 1+2  [ ]\n\nc\n");
  result_clear (&r);

  static const char *const bad[] = { "=1", "2X", NULL };
  o.defines = bad;
  r = run_opts ("x\n", 2, &o);
  g_assert_cmpstr (r.diags, ==,
                   "<command-line>: error: invalid predefined macro \"=1\"\n"
                   "<command-line>: error: invalid predefined macro \"2X\"\n");
  g_assert_cmpstr (r.out, ==, "x\n");
  result_clear (&r);
}

static void
test_limits (void)
{
  /* exponential growth ends at the output limit */
  GString *s = g_string_new ("#define X0 abcdefgh\n");
  for (int i = 1; i <= 40; i++)
    g_string_append_printf (s, "#define X%d X%d X%d\n", i, i - 1, i - 1);
  g_string_append (s, "X40\n");
  SlPreprocessOptions o = { 0 };
  o.max_output = 1 << 20;
  Result r = run_opts (s->str, s->len, &o);
  g_assert_null (r.out);
  g_assert_cmpstr (r.diags, ==, "<source>: error: preprocessed output is larger than 1048576 bytes\n");
  result_clear (&r);
  g_string_free (s, TRUE);

  /* a chain of 300 macros each expanding to the next */
  s = g_string_new (NULL);
  for (int i = 0; i < 300; i++)
    g_string_append_printf (s, "#define M%d M%d\n", i, i + 1);
  g_string_append (s, "M0\n");
  r = run_opts (s->str, s->len, NULL);
  g_assert_null (r.out);
  g_assert_cmpstr (r.diags, ==,
                   "<source>:301:1: error: macro expansion nested too deeply (more than 256 levels) while expanding 'M256'\n");
  result_clear (&r);
  g_string_free (s, TRUE);

  /* arguments nested 300 deep */
  s = g_string_new ("#define F(x) x\n");
  for (int i = 0; i < 300; i++)
    g_string_append (s, "F(");
  g_string_append_c (s, '1');
  for (int i = 0; i < 300; i++)
    g_string_append_c (s, ')');
  g_string_append_c (s, '\n');
  r = run_opts (s->str, s->len, NULL);
  g_assert_null (r.out);
  g_assert_nonnull (strstr (r.diags, "error: macro arguments nested too deeply (more than 256 levels)"));
  result_clear (&r);
  g_string_free (s, TRUE);

  /* moderate nesting is fine */
  s = g_string_new ("#define F(x) x\n");
  for (int i = 0; i < 50; i++)
    g_string_append (s, "F(");
  g_string_append_c (s, '1');
  for (int i = 0; i < 50; i++)
    g_string_append_c (s, ')');
  g_string_append_c (s, '\n');
  r = run_opts (s->str, s->len, NULL);
  g_assert_cmpstr (r.diags, ==, "");
  g_assert_cmpstr (r.out, ==, "\n1\n");
  result_clear (&r);
  g_string_free (s, TRUE);

  /* too many macro arguments */
  s = g_string_new ("#define F(...) x\nF(");
  for (int i = 0; i < 300; i++)
    g_string_append (s, "a,");
  g_string_append (s, "a)\n#define G(a) a\nG(");
  for (int i = 0; i < 300; i++)
    g_string_append (s, "a,");
  g_string_append (s, "a)\n");
  r = run_opts (s->str, s->len, NULL);
  g_assert_cmpstr (r.diags, ==, "<source>:4:1: error: too many arguments for macro 'G' (limit 256)\n");
  g_assert_cmpstr (r.out, ==, "\nx\n");
  result_clear (&r);
  g_string_free (s, TRUE);

  /* errors stop after a hundred */
  s = g_string_new (NULL);
  for (int i = 0; i < 500; i++)
    g_string_append (s, "#bad\n");
  r = run_opts (s->str, s->len, NULL);
  g_assert_null (r.out);
  g_assert_cmpint (r.errors, ==, 101);
  g_assert_nonnull (strstr (r.diags, "<source>:100:2: error: too many errors; preprocessing stopped\n"));
  result_clear (&r);
  g_string_free (s, TRUE);
}

static void
test_null_and_empty (void)
{
  check_ok ("", "");
  check_ok ("\n\n", "");
  Result r = run_opts (NULL, 0, NULL);
  g_assert_cmpstr (r.out, ==, "");
  result_clear (&r);
  r = run_opts ("x", (size_t) -1, NULL);
  g_assert_cmpstr (r.out, ==, "x\n");
  result_clear (&r);
  /* diagnostics may be NULL */
  char *out = sl_preprocess ("#error e\nk\n", (size_t) -1, NULL, NULL);
  g_assert_cmpstr (out, ==, "\nk\n");
  g_free (out);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/preprocess/object-macros", test_object_macros);
  g_test_add_func ("/preprocess/function-macros", test_function_macros);
  g_test_add_func ("/preprocess/stringize-paste", test_stringize_paste);
  g_test_add_func ("/preprocess/macro-errors", test_macro_errors);
  g_test_add_func ("/preprocess/if-expressions", test_if_expressions);
  g_test_add_func ("/preprocess/if-errors", test_if_errors);
  g_test_add_func ("/preprocess/conditionals", test_conditionals);
  g_test_add_func ("/preprocess/includes", test_includes);
  g_test_add_func ("/preprocess/include-limits", test_include_limits);
  g_test_add_func ("/preprocess/includes-from-disk", test_includes_from_disk);
  g_test_add_func ("/preprocess/line-directive", test_line_directive);
  g_test_add_func ("/preprocess/error-and-unknown", test_error_and_unknown);
  g_test_add_func ("/preprocess/pragmas", test_pragmas);
  g_test_add_func ("/preprocess/comments-and-layout", test_comments_and_layout);
  g_test_add_func ("/preprocess/continuation-and-line-endings", test_continuation_and_line_endings);
  g_test_add_func ("/preprocess/encodings", test_encodings);
  g_test_add_func ("/preprocess/predefines", test_predefines);
  g_test_add_func ("/preprocess/limits", test_limits);
  g_test_add_func ("/preprocess/null-and-empty", test_null_and_empty);
  return g_test_run ();
}
