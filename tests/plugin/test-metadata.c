/* Tests of sl_metadata_parse(): the header block, WPF doc comments and
 * #pragma parameter lines, each checked value by value. */
#include <glib.h>
#include <string.h>

#include "shaderlib.h"

static void
test_header (void)
{
  const char *src =
    "\xef\xbb\xbf// Title: Sepia Tone\r\n"
    "// description: Warm brown monochrome,\n"
    "//   like an aged print.\n"
    "\n"
    "// categories: color:artistic\n"
    "// note - prose without a key is ignored\n"
    "// menu: <Image>/Filters/Shaders/Colour\n"
    "// license: LGPL-3.0-or-later\n"
    "sampler2D s0;\n"
    "// label: not in the header\n";
  SlMetadata *md = sl_metadata_parse (src, (size_t) -1);

  g_assert_cmpstr (sl_metadata_get (md, "title"), ==, "Sepia Tone");
  g_assert_cmpstr (sl_metadata_get (md, "TITLE"), ==, "Sepia Tone");
  g_assert_cmpstr (sl_metadata_get (md, "description"), ==,
                   "Warm brown monochrome, like an aged print.");
  g_assert_cmpstr (sl_metadata_get (md, "categories"), ==, "color:artistic");
  g_assert_cmpstr (sl_metadata_get (md, "menu"), ==,
                   "<Image>/Filters/Shaders/Colour");
  g_assert_cmpstr (sl_metadata_get (md, "license"), ==, "LGPL-3.0-or-later");
  g_assert_null (sl_metadata_get (md, "label"));
  g_assert_null (sl_metadata_get (md, "note - prose without a key is ignored"));
  g_assert_cmpint (sl_metadata_get_n_params (md), ==, 0);
  sl_metadata_free (md);
}

static void
test_xml_doc (void)
{
  const char *src =
    "// title: T\n"
    "/// <summary>How much of the\n"
    "///   effect.</summary>\n"
    "/// <minValue>-1</minValue>\n"
    "/// <maxValue>2.5f</maxValue>\n"
    "/// <defaultValue>0.25</defaultValue>\n"
    "uniform float amount : register(c0);\n"
    "\n"
    "/// <summary>Centre</summary>\n"
    "/// <defaultValue>0.5,0.75</defaultValue>\n"
    "float2 center <string UIName = \"C\";> = {0.1, 0.2};\n"
    "/// <defaultValue>#80FF0000</defaultValue>\n"
    "float4 tint;\n"
    "/// <summary>ignored: attaches to a function</summary>\n"
    "float4 main (float2 uv : TEXCOORD0) : COLOR { return 0; }\n";
  SlMetadata       *md = sl_metadata_parse (src, strlen (src));
  const SlParamDoc *d;

  g_assert_cmpint (sl_metadata_get_n_params (md), ==, 3);
  d = sl_metadata_find_param (md, "amount");
  g_assert_nonnull (d);
  g_assert_cmpstr (d->summary, ==, "How much of the effect.");
  g_assert_true (d->has_min && d->has_max && ! d->has_step);
  g_assert_cmpfloat (d->min, ==, -1.0);
  g_assert_cmpfloat (d->max, ==, 2.5);
  g_assert_cmpint (d->n_default, ==, 1);
  g_assert_cmpfloat (d->default_value[0], ==, 0.25);

  d = sl_metadata_find_param (md, "center");
  g_assert_nonnull (d);
  g_assert_cmpstr (d->summary, ==, "Centre");
  g_assert_cmpint (d->n_default, ==, 2);
  g_assert_cmpfloat (d->default_value[1], ==, 0.75);

  d = sl_metadata_find_param (md, "tint");
  g_assert_nonnull (d);
  g_assert_null (d->summary);
  g_assert_cmpint (d->n_default, ==, 4);
  g_assert_cmpfloat (d->default_value[0], ==, 1.0);
  g_assert_cmpfloat (d->default_value[1], ==, 0.0);
  g_assert_cmpfloat (d->default_value[3], ==, 128.0 / 255.0);

  g_assert_null (sl_metadata_find_param (md, "main"));
  sl_metadata_free (md);
}

static void
test_pragma (void)
{
  const char *src =
    "#pragma parameter strength \"Strength of it\" 0.5 0.0 2.0 0.05\n"
    "#pragma  parameter  radius \"Radius\" 3 1 9\n"
    "#pragma parameterx bogus \"no\" 1 2 3\n"
    "/* #pragma parameter hidden \"H\" 1 0 1\n"
    "*/\n"
    "float strength;\n";
  SlMetadata       *md = sl_metadata_parse (src, strlen (src));
  const SlParamDoc *d;

  g_assert_cmpint (sl_metadata_get_n_params (md), ==, 2);
  d = sl_metadata_find_param (md, "strength");
  g_assert_cmpstr (d->label, ==, "Strength of it");
  g_assert_cmpfloat (d->default_value[0], ==, 0.5);
  g_assert_cmpfloat (d->min, ==, 0.0);
  g_assert_cmpfloat (d->max, ==, 2.0);
  g_assert_true (d->has_step);
  g_assert_cmpfloat (d->step, ==, 0.05);
  d = sl_metadata_find_param (md, "radius");
  g_assert_cmpstr (d->label, ==, "Radius");
  g_assert_cmpfloat (d->max, ==, 9.0);
  g_assert_false (d->has_step);
  g_assert_null (sl_metadata_find_param (md, "bogus"));
  g_assert_null (sl_metadata_find_param (md, "hidden"));
  sl_metadata_free (md);
}

static void
test_binary (void)
{
  const char bytes[] = { 0x00, 0x03, (char) 0xff, (char) 0xff, 'x' };
  SlMetadata *md = sl_metadata_parse (bytes, sizeof bytes);

  g_assert_null (sl_metadata_get (md, "title"));
  g_assert_cmpint (sl_metadata_get_n_params (md), ==, 0);
  sl_metadata_free (md);
  sl_metadata_free (NULL);
}

static void
test_texture_files (void)
{
  static const char src[] =
    "texture lutTex < string ResourceName = \"lut.png\"; >;\n"
    "sampler2D lut = sampler_state { Texture = <lutTex>; MinFilter = Point; };\n"
    "texture noiseTex < source = \"noise/blue.png\"; >;\n"
    "sampler2D noise : register(s3) = sampler_state { Texture = noiseTex; };\n"
    "Texture2D grain < string ResourceName = \"grain.png\"; >;\n"
    "// texture old < string ResourceName = \"old.png\"; >;\n"
    "sampler2D plain = sampler_state { Texture = <other>; };\n"
    "texture other;\n"
    "sampler2D s0 : register(s0);\n";
  SlMetadata *md = sl_metadata_parse (src, sizeof src - 1);
  const char *tex = "unset";

  g_assert_cmpstr (sl_metadata_texture_file (md, "lut", &tex), ==, "lut.png");
  g_assert_cmpstr (tex, ==, "lutTex");
  g_assert_cmpstr (sl_metadata_texture_file (md, "noise", &tex), ==,
                   "noise/blue.png");
  g_assert_cmpstr (tex, ==, "noiseTex");
  /* An SM4 texture object is its own sampler. */
  g_assert_cmpstr (sl_metadata_texture_file (md, "grain", NULL), ==,
                   "grain.png");
  g_assert_null (sl_metadata_texture_file (md, "old", NULL));
  g_assert_null (sl_metadata_texture_file (md, "plain", &tex));
  g_assert_null (tex);
  g_assert_null (sl_metadata_texture_file (md, "s0", NULL));
  sl_metadata_free (md);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/metadata/header", test_header);
  g_test_add_func ("/metadata/xml-doc", test_xml_doc);
  g_test_add_func ("/metadata/pragma", test_pragma);
  g_test_add_func ("/metadata/binary", test_binary);
  g_test_add_func ("/metadata/texture-files", test_texture_files);
  return g_test_run ();
}
