/* In-process tests of shader:run, loaded from the built gegl-shaders.so.
 *
 * The test builds a GEGL_PATH folder of symlinks (the built module next to
 * GEGL's own modules, because GEGL_PATH replaces the default search path)
 * before gegl_init(), so the op is found exactly as GIMP or the gegl tool
 * would find it.  Inputs are float buffers with known, varied pixels placed
 * at a non-zero origin; outputs are read back as "R'G'B'A float" and
 * compared with values computed here from the input — bit for bit where
 * the shader's arithmetic is exact in float32.
 *
 * Environment (set by meson): GS_PLUGIN_MODULE = the built module,
 * GS_GEGL_PLUGINS_DIR = GEGL's own module folder.
 */

#include <math.h>
#include <string.h>
#include <unistd.h>
#include <glib.h>
#include <glib/gstdio.h>
#include <gegl.h>

#include "module-dir.h"

#define FORMAT "R'G'B'A float"

static gchar *module_dir;
static gint   plugin_warnings;

/* ------------------------------------------------------------------ */
/* Set-up                                                              */
/* ------------------------------------------------------------------ */

static void
make_module_dir (void)
{
  module_dir = gs_test_make_module_dir ("gs-plugin-XXXXXX");
}

static void
remove_module_dir (void)
{
  gs_test_remove_module_dir (module_dir);
  module_dir = NULL;
}

/* The op warns on purpose for broken shaders: count those warnings
 * instead of aborting on them. */
static void
count_warning (const gchar    *log_domain,
               GLogLevelFlags  log_level,
               const gchar    *message,
               gpointer        user_data)
{
  plugin_warnings++;
  g_test_message ("expected warning: %s", message);
}

/* ------------------------------------------------------------------ */
/* Helpers                                                             */
/* ------------------------------------------------------------------ */

/* Deterministic pixels covering [0,1] with exactly representable values
 * (multiples of 1/1024), alpha varied too. */
static gfloat *
make_pixels (gint width,
             gint height)
{
  gfloat  *pixels = g_new (gfloat, (gsize) width * height * 4);
  guint32  seed   = 12345;
  gsize    i;

  for (i = 0; i < (gsize) width * height * 4; i++)
    {
      seed = seed * 1664525u + 1013904223u;
      pixels[i] = (gfloat) ((seed >> 16) % 1025) / 1024.0f;
    }
  return pixels;
}

static GeglBuffer *
make_buffer (const GeglRectangle *rect,
             const gfloat        *pixels)
{
  GeglBuffer *buffer = gegl_buffer_new (rect, babl_format (FORMAT));

  gegl_buffer_set (buffer, rect, 0, babl_format (FORMAT), pixels,
                   GEGL_AUTO_ROWSTRIDE);
  return buffer;
}

typedef struct
{
  GeglNode *graph;
  GeglNode *source;
  GeglNode *shader;
} Graph;

static Graph
make_graph (GeglBuffer *input)
{
  Graph g;

  g.graph  = gegl_node_new ();
  g.source = gegl_node_new_child (g.graph,
                                  "operation", "gegl:buffer-source",
                                  "buffer", input,
                                  NULL);
  g.shader = gegl_node_new_child (g.graph,
                                  "operation", "shader:run",
                                  NULL);
  gegl_node_link (g.source, g.shader);
  return g;
}

/* Renders through gegl:write-buffer and gegl_node_process(), which goes
 * through the processor's chunking like the gegl tool does. */
static gfloat *
render (Graph               *g,
        const GeglRectangle *rect)
{
  GeglBuffer *out    = gegl_buffer_new (rect, babl_format (FORMAT));
  GeglNode   *sink   = gegl_node_new_child (g->graph,
                                            "operation", "gegl:write-buffer",
                                            "buffer", out,
                                            NULL);
  gfloat     *pixels = g_new0 (gfloat, (gsize) rect->width * rect->height * 4);

  gegl_node_link (g->shader, sink);
  gegl_node_process (sink);
  gegl_buffer_get (out, rect, 1.0, babl_format (FORMAT), pixels,
                   GEGL_AUTO_ROWSTRIDE, GEGL_ABYSS_NONE);
  g_object_unref (sink);
  g_object_unref (out);
  return pixels;
}

static gchar *
get_error (Graph *g)
{
  gchar *error = NULL;

  gegl_node_get (g->shader, "error", &error, NULL);
  return error;
}

static void
assert_same_bits (const gfloat *a,
                  const gfloat *b,
                  gsize         n_floats)
{
  gsize i;

  for (i = 0; i < n_floats; i++)
    if (memcmp (&a[i], &b[i], sizeof (gfloat)) != 0)
      g_error ("float %" G_GSIZE_FORMAT " (pixel %" G_GSIZE_FORMAT
               " channel %d) differs: %.9g vs %.9g",
               i, i / 4, (int) (i % 4), a[i], b[i]);
}

static const GeglRectangle small_rect = { 10, 20, 37, 23 };

#define IDENTITY_SHADER                                             \
  "sampler2D s0 : register(s0);\n"                                  \
  "float4 main(float2 uv : TEXCOORD0) : COLOR\n"                    \
  "{\n"                                                             \
  "    return tex2D(s0, uv);\n"                                     \
  "}\n"

#define INVERT_SHADER                                               \
  "sampler2D s0 : register(s0);\n"                                  \
  "float4 main(float2 uv : TEXCOORD0) : COLOR\n"                    \
  "{\n"                                                             \
  "    float4 c = tex2D(s0, uv);\n"                                 \
  "    return float4(1.0 - c.rgb, c.a);\n"                          \
  "}\n"

#define LERP_SHADER                                                 \
  "sampler2D s0 : register(s0);\n"                                  \
  "float amount = 0.5;\n"                                           \
  "float4 main(float2 uv : TEXCOORD0) : COLOR\n"                    \
  "{\n"                                                             \
  "    float4 c = tex2D(s0, uv);\n"                                 \
  "    return float4(lerp(c.rgb, 1.0 - c.rgb, amount), c.a);\n"     \
  "}\n"

/* Reads the right-hand neighbour; `texel` is one pixel in uv units. */
#define NEIGHBOUR_SHADER                                            \
  "sampler2D s0 : register(s0);\n"                                  \
  "float2 texel = float2(0.0, 0.0);\n"                              \
  "float4 main(float2 uv : TEXCOORD0) : COLOR\n"                    \
  "{\n"                                                             \
  "    return tex2D(s0, uv + texel);\n"                             \
  "}\n"

/* Reads where the pixel's own colour points: unbounded reach. */
#define DEPENDENT_SHADER                                            \
  "sampler2D s0 : register(s0);\n"                                  \
  "float4 main(float2 uv : TEXCOORD0) : COLOR\n"                    \
  "{\n"                                                             \
  "    float4 c = tex2D(s0, uv);\n"                                 \
  "    return tex2D(s0, c.gr);\n"                                   \
  "}\n"

/* ------------------------------------------------------------------ */
/* Tests                                                               */
/* ------------------------------------------------------------------ */

static void
test_registered (void)
{
  GeglNode     *node;
  GParamSpec  **specs;
  guint         n_specs, i;
  const gchar  *wanted[] = { "source", "file", "entry", "profile",
                             "params", "error" };
  gchar        *entry = NULL, *profile = NULL;

  g_assert_true (gegl_has_operation ("shader:run"));
  g_assert_cmpstr (gegl_operation_get_key ("shader:run", "gimp:menu-path"),
                   ==, "<Image>/Filters/Shaders");

  specs = gegl_operation_list_properties ("shader:run", &n_specs);
  for (i = 0; i < G_N_ELEMENTS (wanted); i++)
    {
      guint j;
      gboolean found = FALSE;

      for (j = 0; j < n_specs; j++)
        found |= g_str_equal (specs[j]->name, wanted[i]);
      if (! found)
        g_error ("property %s missing", wanted[i]);
    }
  g_free (specs);

  g_assert_cmpstr (gegl_operation_get_property_key ("shader:run", "source",
                                                    "multiline"), ==, "true");
  g_assert_cmpstr (gegl_operation_get_property_key ("shader:run", "error",
                                                    "error"), ==, "true");

  node = gegl_node_new ();
  gegl_node_set (node, "operation", "shader:run", NULL);
  gegl_node_get (node, "entry", &entry, "profile", &profile, NULL);
  g_assert_cmpstr (entry, ==, "main");
  g_assert_cmpstr (profile, ==, "auto");
  g_free (entry);
  g_free (profile);
  g_object_unref (node);
}

static void
test_identity (void)
{
  gsize       n     = (gsize) small_rect.width * small_rect.height * 4;
  gfloat     *in    = make_pixels (small_rect.width, small_rect.height);
  GeglBuffer *input = make_buffer (&small_rect, in);
  Graph       g     = make_graph (input);
  GeglRectangle bbox;
  gfloat     *out;
  gchar      *error;

  gegl_node_set (g.shader, "source", IDENTITY_SHADER, NULL);
  bbox = gegl_node_get_bounding_box (g.shader);
  g_assert_true (gegl_rectangle_equal (&bbox, &small_rect));

  out = render (&g, &small_rect);
  assert_same_bits (out, in, n);

  error = get_error (&g);
  g_assert_cmpstr (error, ==, "");
  g_free (error);

  g_free (out);
  g_object_unref (g.graph);
  g_object_unref (input);
  g_free (in);
}

/* Host values as the shader ops and the CLI fill them: the image's
 * size, a pixel's, and ReShade's size macros in a per-file shader. */
static void
test_host_values (void)
{
  gfloat     *in    = make_pixels (small_rect.width, small_rect.height);
  GeglBuffer *input = make_buffer (&small_rect, in);
  Graph       g     = make_graph (input);
  gfloat     *out;
  gchar      *error;

  gegl_node_set (g.shader, "source",
                 "float2 PixelSize : PIXELSIZE;\n"
                 "float2 ImageSize;\n"
                 "float4 main (float2 uv : TEXCOORD0) : COLOR\n"
                 "{ return float4 (ImageSize, PixelSize.x * BUFFER_WIDTH,"
                 " BUFFER_RCP_HEIGHT * 23.0); }\n", NULL);
  out = render (&g, &small_rect);
  error = get_error (&g);
  g_assert_cmpstr (error, ==, "");
  g_free (error);
  for (gint i = 0; i < small_rect.width * small_rect.height; i++)
    {
      g_assert_cmpfloat (out[4 * i + 0], ==, 37.0f);
      g_assert_cmpfloat (out[4 * i + 1], ==, 23.0f);
      g_assert_cmpfloat_with_epsilon (out[4 * i + 2], 1.0f, 1e-6f);
      g_assert_cmpfloat_with_epsilon (out[4 * i + 3], 1.0f, 1e-6f);
    }
  g_free (out);
  g_object_unref (g.graph);
  g_object_unref (input);
  g_free (in);
}

static void
test_invert_and_swap (void)
{
  gsize       n     = (gsize) small_rect.width * small_rect.height * 4;
  gfloat     *in    = make_pixels (small_rect.width, small_rect.height);
  GeglBuffer *input = make_buffer (&small_rect, in);
  Graph       g     = make_graph (input);
  gfloat     *out;
  gsize       i;

  gegl_node_set (g.shader, "source", INVERT_SHADER, NULL);
  out = render (&g, &small_rect);
  for (i = 0; i < n; i += 4)
    {
      gfloat want[4] = { 1.0f - in[i], 1.0f - in[i + 1], 1.0f - in[i + 2],
                         in[i + 3] };
      assert_same_bits (out + i, want, 4);
    }
  g_free (out);

  /* Changing the source on the same node must recompile. */
  gegl_node_set (g.shader,
                 "source",
                 "sampler2D s0 : register(s0);\n"
                 "float4 main(float2 uv : TEXCOORD0) : SV_Target\n"
                 "{\n"
                 "    float4 c = tex2D(s0, uv);\n"
                 "    return float4(c.b, c.r, c.g, c.a);\n"
                 "}\n",
                 NULL);
  out = render (&g, &small_rect);
  for (i = 0; i < n; i += 4)
    {
      gfloat want[4] = { in[i + 2], in[i], in[i + 1], in[i + 3] };
      assert_same_bits (out + i, want, 4);
    }
  g_free (out);

  g_object_unref (g.graph);
  g_object_unref (input);
  g_free (in);
}

/* The output band starts as the input only where the shader may leave
 * pixels or components alone: a discarded pixel and a component never
 * written keep the input's value; a shader that writes every pixel whole
 * replaces them all (the band is then not pre-filled). */
static void
test_discard_keeps_input (void)
{
  gsize       n     = (gsize) small_rect.width * small_rect.height * 4;
  gfloat     *in    = make_pixels (small_rect.width, small_rect.height);
  GeglBuffer *input = make_buffer (&small_rect, in);
  Graph       g     = make_graph (input);
  gfloat     *out;
  gsize       i;

  /* Columns left of the middle are discarded, the rest are red. */
  gegl_node_set (g.shader, "source",
                 "float4 main(float2 uv : TEXCOORD0) : COLOR\n"
                 "{\n"
                 "    clip(uv.x - 0.5);\n"
                 "    return float4(1, 0, 0, 1);\n"
                 "}\n",
                 NULL);
  out = render (&g, &small_rect);
  for (i = 0; i < n; i += 4)
    {
      gint   x       = (gint) ((i / 4) % small_rect.width);
      gfloat red[4]  = { 1, 0, 0, 1 };
      gboolean kept  = (x + 0.5f) / small_rect.width < 0.5f;

      assert_same_bits (out + i, kept ? in + i : red, 4);
    }
  g_free (out);

  /* Alpha is never written (a float3 result): it stays the input's. */
  gegl_node_set (g.shader, "source",
                 "float3 main(float2 uv : TEXCOORD0) : COLOR\n"
                 "{\n"
                 "    return float3(0.25, 0.5, 0.75);\n"
                 "}\n",
                 NULL);
  out = render (&g, &small_rect);
  for (i = 0; i < n; i += 4)
    {
      gfloat want[4] = { 0.25f, 0.5f, 0.75f, in[i + 3] };

      assert_same_bits (out + i, want, 4);
    }
  g_free (out);

  /* Every pixel written whole. */
  gegl_node_set (g.shader, "source",
                 "float4 main(float2 uv : TEXCOORD0) : COLOR\n"
                 "{\n"
                 "    return float4(0.125, 0.25, 0.5, 0.75);\n"
                 "}\n",
                 NULL);
  out = render (&g, &small_rect);
  for (i = 0; i < n; i += 4)
    {
      gfloat want[4] = { 0.125f, 0.25f, 0.5f, 0.75f };

      assert_same_bits (out + i, want, 4);
    }
  g_free (out);

  g_object_unref (g.graph);
  g_object_unref (input);
  g_free (in);
}

static void
check_lerp (const gfloat *in,
            const gfloat *out,
            gsize         n,
            gfloat        amount)
{
  gsize i;

  for (i = 0; i < n; i += 4)
    {
      gint c;

      for (c = 0; c < 3; c++)
        {
          gfloat want = in[i + c] + ((1.0f - in[i + c]) - in[i + c]) * amount;

          if (fabsf (out[i + c] - want) > 1e-6f)
            g_error ("pixel %" G_GSIZE_FORMAT " channel %d: %.9g, want %.9g "
                     "(amount %g)", i / 4, c, out[i + c], want, amount);
        }
      g_assert_cmpfloat (out[i + 3], ==, in[i + 3]);
    }
}

static void
test_params (void)
{
  gsize       n     = (gsize) small_rect.width * small_rect.height * 4;
  gfloat     *in    = make_pixels (small_rect.width, small_rect.height);
  GeglBuffer *input = make_buffer (&small_rect, in);
  Graph       g     = make_graph (input);
  gfloat     *out;
  gchar      *error;

  gegl_node_set (g.shader, "source", LERP_SHADER, NULL);
  out = render (&g, &small_rect);
  check_lerp (in, out, n, 0.5f);
  g_free (out);

  gegl_node_set (g.shader, "params", "amount=0.25", NULL);
  out = render (&g, &small_rect);
  check_lerp (in, out, n, 0.25f);
  g_free (out);

  error = get_error (&g);
  g_assert_cmpstr (error, ==, "");
  g_free (error);

  /* An unknown parameter is an error: input passes through, no crash. */
  plugin_warnings = 0;
  gegl_node_set (g.shader, "params", "no_such_param=1", NULL);
  out = render (&g, &small_rect);
  assert_same_bits (out, in, n);
  g_free (out);
  error = get_error (&g);
  g_assert_nonnull (strstr (error, "error"));
  g_assert_nonnull (strstr (error, "no_such_param"));
  g_free (error);
  g_assert_cmpint (plugin_warnings, ==, 1);

  g_object_unref (g.graph);
  g_object_unref (input);
  g_free (in);
}

static void
test_broken_shader (void)
{
  gsize       n     = (gsize) small_rect.width * small_rect.height * 4;
  gfloat     *in    = make_pixels (small_rect.width, small_rect.height);
  GeglBuffer *input = make_buffer (&small_rect, in);
  Graph       g     = make_graph (input);
  gfloat     *out;
  gchar      *error;

  plugin_warnings = 0;
  gegl_node_set (g.shader,
                 "source",
                 "sampler2D s0 : register(s0);\n"
                 "float4 main(float2 uv : TEXCOORD0) : COLOR\n"
                 "{\n"
                 "    return tex2D(s0, uv) +;\n"
                 "}\n",
                 NULL);
  out = render (&g, &small_rect);
  assert_same_bits (out, in, n);
  g_free (out);

  error = get_error (&g);
  g_assert_nonnull (error);
  /* file:line:col: error: message, on the line of the mistake. */
  if (! g_str_has_prefix (error, "shader:run:4:") ||
      ! strstr (error, ": error: "))
    g_error ("unexpected diagnostics: %s", error);
  g_free (error);

  /* Processing again without a change must not warn again. */
  out = render (&g, &small_rect);
  assert_same_bits (out, in, n);
  g_free (out);
  g_assert_cmpint (plugin_warnings, ==, 1);

  /* Fixing the shader clears the error. */
  gegl_node_set (g.shader, "source", INVERT_SHADER, NULL);
  out = render (&g, &small_rect);
  g_assert_cmpfloat (out[0], ==, 1.0f - in[0]);
  g_free (out);
  error = get_error (&g);
  g_assert_cmpstr (error, ==, "");
  g_free (error);

  g_object_unref (g.graph);
  g_object_unref (input);
  g_free (in);
}

/* What a dialog sees: the notifies of "error" and "has-errors" on the
 * node, and the values at the time of each. */
typedef struct
{
  gint     errors;       /* notify::error */
  gint     flags;        /* notify::has-errors */
  gint     during;       /* notifies while GEGL was processing */
  gboolean processing;
  gchar   *last;
} Watch;

static void
on_error_notify (GObject    *node,
                 GParamSpec *pspec,
                 Watch      *watch)
{
  if (watch->processing)
    watch->during++;
  if (strcmp (pspec->name, "error") == 0)
    {
      watch->errors++;
      g_free (watch->last);
      gegl_node_get (GEGL_NODE (node), "error", &watch->last, NULL);
      /* As GEGL's own notify handler does: ask for the bounding box,
       * which prepares the node again.  From here that must not notify
       * again, or a dialog would loop. */
      gegl_node_get_bounding_box (GEGL_NODE (node));
    }
  else
    watch->flags++;
}

/* Everything the main loop has to do; a notify loop would never end, so
 * stop after a bound and fail. */
static void
drain_main_loop (void)
{
  gint n = 0;

  while (g_main_context_iteration (NULL, FALSE))
    g_assert_cmpint (++n, <, 1000);
}

/* The dialog's text: no line longer than 36 characters unless it is one
 * word, continuation lines indented by two spaces; returns it with the
 * breaks undone, to match messages against. */
static gchar *
unwrapped (const gchar *text)
{
  gchar  **lines = g_strsplit (text, "\n", -1);
  GString *flat  = g_string_new (NULL);

  for (gint i = 0; lines[i]; i++)
    {
      const gchar *line = lines[i];

      if (g_utf8_strlen (line, -1) > 36 && strchr (line + 2, ' '))
        g_error ("line %d of the error is too long for the dialog: '%s'", i, line);
      if (g_str_has_prefix (line, "  "))
        g_string_append_c (flat, ' ');
      else if (i > 0)
        g_string_append_c (flat, '\n');
      g_string_append (flat, g_str_has_prefix (line, "  ") ? line + 2 : line);
    }
  g_strfreev (lines);
  return g_string_free (flat, FALSE);
}

static gfloat *
render_watched (Graph               *g,
                const GeglRectangle *rect,
                Watch               *watch)
{
  gfloat *out;

  watch->processing = TRUE;
  out = render (g, rect);
  watch->processing = FALSE;
  return out;
}

static gboolean
has_errors (Graph *g)
{
  gboolean flag = FALSE;

  gegl_node_get (g->shader, "has-errors", &flag, NULL);
  return flag;
}

/* GIMP copies "error" into its open dialog only when the node notifies
 * it.  The notify comes from the main loop, never from inside prepare()
 * or process(), once per change, for compile errors and run-time ones
 * alike; with a dialog listening nothing is logged. */
static void
test_error_notify (void)
{
  gsize       n     = (gsize) small_rect.width * small_rect.height * 4;
  gfloat     *in    = make_pixels (small_rect.width, small_rect.height);
  GeglBuffer *input = make_buffer (&small_rect, in);
  Graph       g     = make_graph (input);
  Watch       watch = { 0 };
  gfloat     *out;
  gchar      *error;
  gchar      *flat;

  drain_main_loop ();
  g_signal_connect (g.shader, "notify::error", G_CALLBACK (on_error_notify),
                    &watch);
  g_signal_connect (g.shader, "notify::has-errors",
                    G_CALLBACK (on_error_notify), &watch);
  plugin_warnings = 0;

  /* A compile error. */
  gegl_node_set (g.shader, "source",
                 "float4 main(float2 uv : TEXCOORD0) : COLOR\n"
                 "{ return nowhere; }\n", NULL);
  out = render_watched (&g, &small_rect, &watch);
  assert_same_bits (out, in, n);
  g_free (out);
  g_assert_cmpint (watch.errors, ==, 0);
  g_assert_true (has_errors (&g));
  drain_main_loop ();
  g_assert_cmpint (watch.errors, ==, 1);
  g_assert_cmpint (watch.flags, ==, 1);
  flat = unwrapped (watch.last);
  g_assert_cmpstr (flat, ==,
                   "shader:run:2:10: error: undeclared identifier 'nowhere'");
  g_assert_cmpstr (watch.last, ==,
                   "shader:run:2:10: error: undeclared\n"
                   "  identifier 'nowhere'");
  g_free (flat);

  /* Rendering the same failure again says nothing new. */
  g_free (render_watched (&g, &small_rect, &watch));
  drain_main_loop ();
  g_assert_cmpint (watch.errors, ==, 1);

  /* Something else writing the property (GIMP restoring the dialog's
   * last values) is undone at the next preparation, and notified. */
  gegl_node_set (g.shader, "error", "", NULL);
  g_free (render_watched (&g, &small_rect, &watch));
  drain_main_loop ();
  g_assert_nonnull (strstr (watch.last, "nowhere"));
  g_assert_true (has_errors (&g));

  /* A run-time error: a loop that never ends is stopped by the
   * interpreter; the dialog hears of it from the render. */
  watch.errors = 0;
  gegl_node_set (g.shader, "source",
                 "float4 main(float2 uv : TEXCOORD0) : COLOR\n"
                 "{ float x = uv.x; [loop] while (x >= 0) x += 1;\n"
                 "  return x; }\n", NULL);
  g_free (render_watched (&g, &small_rect, &watch));
  drain_main_loop ();
  g_assert_cmpint (watch.errors, ==, 1);
  flat = unwrapped (watch.last);
  g_assert_nonnull (strstr (flat, "a loop reached the iteration cap"));
  g_free (flat);
  g_assert_true (has_errors (&g));

  /* Fixed: the box empties and hides. */
  gegl_node_set (g.shader, "source", INVERT_SHADER, NULL);
  out = render_watched (&g, &small_rect, &watch);
  g_assert_cmpfloat (out[0], ==, 1.0f - in[0]);
  g_free (out);
  drain_main_loop ();
  g_assert_cmpint (watch.errors, ==, 2);
  g_assert_cmpstr (watch.last, ==, "");
  g_assert_false (has_errors (&g));
  error = get_error (&g);
  g_assert_cmpstr (error, ==, "");
  g_free (error);

  g_assert_cmpint (watch.during, ==, 0);
  /* The dialog shows the errors; the log stays quiet. */
  g_assert_cmpint (plugin_warnings, ==, 0);

  g_free (watch.last);
  g_object_unref (g.graph);
  g_object_unref (input);
  g_free (in);
}

/* Without a dialog (the gegl tool, a batch script) each distinct error is
 * logged once per op, however often the settings return to it. */
static void
test_log_once_per_error (void)
{
  gfloat     *in    = make_pixels (small_rect.width, small_rect.height);
  GeglBuffer *input = make_buffer (&small_rect, in);
  Graph       g     = make_graph (input);
  const gchar *typed[] =
  {
    "float4 main() : COLOR { return a; }",
    "float4 main() : COLOR { return ab; }",
    "float4 main() : COLOR { return a; }",
    "float4 main() : COLOR { return ab; }",
    "float4 main() : COLOR { return abc; }",
  };

  plugin_warnings = 0;
  for (gsize i = 0; i < G_N_ELEMENTS (typed); i++)
    {
      gegl_node_set (g.shader, "source", typed[i], NULL);
      g_free (render (&g, &small_rect));
      g_free (render (&g, &small_rect));
    }
  g_assert_cmpint (plugin_warnings, ==, 3);

  g_object_unref (g.graph);
  g_object_unref (input);
  g_free (in);
}

static void
test_no_shader (void)
{
  gsize       n     = (gsize) small_rect.width * small_rect.height * 4;
  gfloat     *in    = make_pixels (small_rect.width, small_rect.height);
  GeglBuffer *input = make_buffer (&small_rect, in);
  Graph       g     = make_graph (input);
  gfloat     *out;
  gchar      *error;

  plugin_warnings = 0;
  out = render (&g, &small_rect);
  assert_same_bits (out, in, n);
  g_free (out);
  error = get_error (&g);
  g_assert_cmpstr (error, ==, "");
  g_free (error);
  g_assert_cmpint (plugin_warnings, ==, 0);

  g_object_unref (g.graph);
  g_object_unref (input);
  g_free (in);
}

static void
test_file (void)
{
  gsize       n     = (gsize) small_rect.width * small_rect.height * 4;
  gfloat     *in    = make_pixels (small_rect.width, small_rect.height);
  GeglBuffer *input = make_buffer (&small_rect, in);
  Graph       g     = make_graph (input);
  gchar      *path  = g_build_filename (module_dir, "invert.hlsl", NULL);
  gchar      *missing = g_build_filename (module_dir, "missing.hlsl", NULL);
  GError     *gerror = NULL;
  gfloat     *out;
  gchar      *error;
  gsize       i;

  g_file_set_contents (path, INVERT_SHADER, -1, &gerror);
  g_assert_no_error (gerror);

  /* The file wins over the source text. */
  gegl_node_set (g.shader, "source", IDENTITY_SHADER, "file", path, NULL);
  out = render (&g, &small_rect);
  for (i = 0; i < n; i += 4)
    {
      gfloat want[4] = { 1.0f - in[i], 1.0f - in[i + 1], 1.0f - in[i + 2],
                         in[i + 3] };
      assert_same_bits (out + i, want, 4);
    }
  g_free (out);

  plugin_warnings = 0;
  gegl_node_set (g.shader, "file", missing, NULL);
  out = render (&g, &small_rect);
  assert_same_bits (out, in, n);
  g_free (out);
  /* Named relative to the shader file's folder: the dialog is narrow. */
  error = get_error (&g);
  if (! g_str_has_prefix (error, "missing.hlsl: error: ") ||
      strstr (error, module_dir))
    g_error ("unexpected diagnostics: %s", error);
  g_free (error);
  g_assert_cmpint (plugin_warnings, ==, 1);

  g_unlink (path);
  g_free (path);
  g_free (missing);
  g_object_unref (g.graph);
  g_object_unref (input);
  g_free (in);
}

/* An infinite input has no viewport: the op must say so and pass it on. */
static void
test_infinite_input (void)
{
  GeglNode      *graph  = gegl_node_new ();
  GeglColor     *color  = gegl_color_new (NULL);
  GeglNode      *source, *shader;
  GeglRectangle  rect   = { -5, 7, 4, 3 };
  gfloat         out[4 * 4 * 3];
  gchar         *error  = NULL;
  gint           i;

  gegl_color_set_rgba (color, 0.25, 0.5, 0.75, 1.0);
  source = gegl_node_new_child (graph, "operation", "gegl:color",
                                "value", color, NULL);
  shader = gegl_node_new_child (graph, "operation", "shader:run",
                                "source", INVERT_SHADER, NULL);
  gegl_node_link (source, shader);

  plugin_warnings = 0;
  gegl_node_blit (shader, 1.0, &rect, babl_format ("RGBA float"), out,
                  GEGL_AUTO_ROWSTRIDE, GEGL_BLIT_DEFAULT);
  for (i = 0; i < rect.width * rect.height; i++)
    {
      g_assert_cmpfloat_with_epsilon (out[i * 4 + 0], 0.25, 1e-6);
      g_assert_cmpfloat_with_epsilon (out[i * 4 + 1], 0.5, 1e-6);
      g_assert_cmpfloat_with_epsilon (out[i * 4 + 2], 0.75, 1e-6);
      g_assert_cmpfloat (out[i * 4 + 3], ==, 1.0f);
    }

  gegl_node_get (shader, "error", &error, NULL);
  if (! strstr (error, ": error: ") || ! strstr (error, "crop"))
    g_error ("unexpected diagnostics: %s", error);
  g_free (error);
  g_assert_cmpint (plugin_warnings, ==, 1);

  g_object_unref (color);
  g_object_unref (graph);
}

/* A bigger image, processed in small chunks, so windowed fetching and the
 * row split over threads are both exercised. */
static gfloat *
render_big (const gchar         *source,
            const gchar         *params,
            const GeglRectangle *rect,
            const gfloat        *in,
            gint                 threads)
{
  GeglBuffer *input = make_buffer (rect, in);
  Graph       g     = make_graph (input);
  gfloat     *out;
  gchar      *error;

  g_object_set (gegl_config (), "threads", threads, NULL);
  gegl_node_set (g.shader, "source", source, "params", params, NULL);
  out = render (&g, rect);

  error = get_error (&g);
  g_assert_cmpstr (error, ==, "");
  g_free (error);

  g_object_unref (g.graph);
  g_object_unref (input);
  return out;
}

static void
test_neighbour_and_threads (void)
{
  GeglRectangle rect = { -7, 3, 301, 259 };
  gfloat       *in   = make_pixels (rect.width, rect.height);
  gsize         n    = (gsize) rect.width * rect.height * 4;
  gchar        *params;
  gfloat       *one, *four;
  gint          x, y;

  params = g_strdup_printf ("texel=%.9g,0", 1.0 / rect.width);

  one  = render_big (NEIGHBOUR_SHADER, params, &rect, in, 1);
  four = render_big (NEIGHBOUR_SHADER, params, &rect, in, 4);
  assert_same_bits (one, four, n);

  /* Each pixel shows its right neighbour, the last column itself. */
  for (y = 0; y < rect.height; y++)
    for (x = 0; x < rect.width; x++)
      {
        gint   sx = MIN (x + 1, rect.width - 1);
        gint   c;

        for (c = 0; c < 4; c++)
          {
            gfloat got  = one[((gsize) y * rect.width + x) * 4 + c];
            gfloat want = in[((gsize) y * rect.width + sx) * 4 + c];

            if (fabsf (got - want) > 1e-4f)
              g_error ("neighbour (%d,%d) channel %d: %.9g, want %.9g",
                       x, y, c, got, want);
          }
      }
  g_free (one);
  g_free (four);

  one  = render_big (DEPENDENT_SHADER, "", &rect, in, 1);
  four = render_big (DEPENDENT_SHADER, "", &rect, in, 4);
  assert_same_bits (one, four, n);
  g_free (one);
  g_free (four);

  g_object_set (gegl_config (), "threads", 1, NULL);
  g_free (params);
  g_free (in);
}

/* A shader that may read anywhere reads the whole input.  When the input
 * buffer holds R'G'B'A float at full size, the op reads its tiles where
 * they lie; in any other format it reads a converted copy.  Both must
 * give the same bits, whatever the tile size, the buffer's origin and
 * shift, and with discarded pixels (which keep the input). */
#define SWIRL_SHADER                                                    \
  "sampler2D s : register(s0);\n"                                      \
  "float4 main(float2 uv : TEXCOORD0) : COLOR\n"                       \
  "{\n"                                                                \
  "    float2 d = uv - 0.5;\n"                                         \
  "    float a = 4.0 * length(d), c = cos(a), n = sin(a);\n"           \
  "    clip(0.45 - length(d));\n"                                      \
  "    float2 p = 0.5 + float2(d.x * c - d.y * n, d.x * n + d.y * c);\n" \
  "    return tex2D(s, p * 1.3 - 0.15);\n"                             \
  "}\n"

/* @source run over @input through shader:run, with no error. */
static gfloat *
render_source (GeglBuffer          *input,
               const gchar         *source,
               const GeglRectangle *rect)
{
  Graph   g = make_graph (input);
  gfloat *out;
  gchar  *error;

  gegl_node_set (g.shader, "source", source, NULL);
  out = render (&g, rect);
  error = get_error (&g);
  g_assert_cmpstr (error, ==, "");
  g_free (error);
  g_object_unref (g.graph);
  return out;
}

static void
test_unbounded_reads (void)
{
  const GeglRectangle rect = { -70, 30, 300, 150 };
  gsize       n       = (gsize) rect.width * rect.height * 4;
  gfloat     *in      = make_pixels (rect.width, rect.height);
  GeglBuffer *doubles = gegl_buffer_new (&rect, babl_format ("R'G'B'A double"));
  GeglBuffer *floats  = make_buffer (&rect, in);
  GeglBuffer *small_tiles, *parent, *shifted;
  GeglRectangle moved = { rect.x + 45, rect.y - 27, rect.width, rect.height };
  gfloat     *want, *out;
  gsize       centre;

  /* The reference reads a copy: the input is not in the op's format. */
  gegl_buffer_set (doubles, &rect, 0, babl_format (FORMAT), in,
                   GEGL_AUTO_ROWSTRIDE);
  want = render_source (doubles, SWIRL_SHADER, &rect);

  out = render_source (floats, SWIRL_SHADER, &rect);
  assert_same_bits (out, want, n);
  g_free (out);

  small_tiles = g_object_new (GEGL_TYPE_BUFFER,
                              "format", babl_format (FORMAT),
                              "x", rect.x, "y", rect.y,
                              "width", rect.width, "height", rect.height,
                              "tile-width", 32, "tile-height", 16,
                              NULL);
  gegl_buffer_set (small_tiles, &rect, 0, babl_format (FORMAT), in,
                   GEGL_AUTO_ROWSTRIDE);
  out = render_source (small_tiles, SWIRL_SHADER, &rect);
  assert_same_bits (out, want, n);
  g_free (out);

  /* The same pixels 45 right and 27 up in a parent, seen through a
   * shifted buffer at the original place. */
  parent = make_buffer (&moved, in);
  shifted = g_object_new (GEGL_TYPE_BUFFER,
                          "source", parent,
                          "shift-x", 45, "shift-y", -27,
                          "x", rect.x, "y", rect.y,
                          "width", rect.width, "height", rect.height,
                          "abyss-x", rect.x, "abyss-y", rect.y,
                          "abyss-width", rect.width,
                          "abyss-height", rect.height,
                          NULL);
  out = render_source (shifted, SWIRL_SHADER, &rect);
  assert_same_bits (out, want, n);
  g_free (out);

  /* Some pixels were discarded and kept the input, some were not. */
  g_assert_cmpint (memcmp (want, in, n * sizeof (gfloat)), !=, 0);
  centre = ((gsize) rect.height / 2 * rect.width + rect.width / 2) * 4;
  g_assert_cmpint (memcmp (want + centre, in + centre, 4 * sizeof (gfloat)), !=, 0);
  g_assert_cmpint (memcmp (want, in, 4 * sizeof (gfloat)), ==, 0);

  g_object_unref (shifted);
  g_object_unref (parent);
  g_object_unref (small_tiles);
  g_object_unref (floats);
  g_object_unref (doubles);
  g_free (want);
  g_free (in);
}

/* A shader that reads only its own pixel renders GEGL's tiles in place
 * when the input holds the op's format, and bands of copies otherwise.
 * Both must give the same bits, with discards (the input stays), a
 * partial write (alpha stays) and tiles that do not line up with the
 * viewport; a program with derivatives, which needs its quads' texels,
 * must keep to bands. */
static void
test_point_in_place (void)
{
  static const gchar *const shaders[] = {
    "sampler2D s : register(s0);\n"
    "float4 main(float2 uv : TEXCOORD0) : COLOR\n"
    "{\n"
    "    float4 c = tex2D(s, uv);\n"
    "    clip(c.g - 0.3);\n"
    "    return float4(step(0.5, c.rgb), c.a);\n"
    "}\n",
    "sampler2D s : register(s0);\n"
    "float3 main(float2 uv : TEXCOORD0) : COLOR\n"
    "{\n"
    "    float4 c = tex2D(s, uv);\n"
    "    return c.bgr * 0.75 + float3(ddx(c.r), ddy(c.g), ddx(uv.y * uv.x) * 100.0);\n"
    "}\n",
    "sampler2D s : register(s0);\n"
    "float3 main(float2 uv : TEXCOORD0) : COLOR\n"
    "{\n"
    "    return tex2D(s, uv).bgr * 0.75;\n"
    "}\n",
  };
  const GeglRectangle rect = { -71, 29, 300, 151 };
  gsize       n       = (gsize) rect.width * rect.height * 4;
  gfloat     *in      = make_pixels (rect.width, rect.height);
  GeglBuffer *doubles = gegl_buffer_new (&rect, babl_format ("R'G'B'A double"));
  GeglBuffer *floats  = make_buffer (&rect, in);
  GeglBuffer *small_tiles;

  gegl_buffer_set (doubles, &rect, 0, babl_format (FORMAT), in,
                   GEGL_AUTO_ROWSTRIDE);
  small_tiles = g_object_new (GEGL_TYPE_BUFFER,
                              "format", babl_format (FORMAT),
                              "x", rect.x, "y", rect.y,
                              "width", rect.width, "height", rect.height,
                              "tile-width", 32, "tile-height", 16,
                              NULL);
  gegl_buffer_set (small_tiles, &rect, 0, babl_format (FORMAT), in,
                   GEGL_AUTO_ROWSTRIDE);
  for (guint i = 0; i < G_N_ELEMENTS (shaders); i++)
    {
      GeglBuffer *inputs[] = { doubles, floats, small_tiles };
      gfloat     *want = NULL;

      for (guint k = 0; k < G_N_ELEMENTS (inputs); k++)
        {
          gfloat *out = render_source (inputs[k], shaders[i], &rect);

          if (! want)
            want = out;
          else
            {
              assert_same_bits (out, want, n);
              g_free (out);
            }
        }
      /* Not the input: the shader ran. */
      g_assert_cmpint (memcmp (want, in, n * sizeof (gfloat)), !=, 0);
      g_free (want);
    }

  g_object_unref (small_tiles);
  g_object_unref (floats);
  g_object_unref (doubles);
  g_free (in);
}

int
main (int    argc,
      char **argv)
{
  int result;

  g_test_init (&argc, &argv, NULL);
  /* g_test_init makes warnings fatal; the op's own are expected, and
   * criticals stay fatal. */
  g_log_set_always_fatal (G_LOG_FATAL_MASK | G_LOG_LEVEL_CRITICAL);
  g_log_set_handler ("gegl-shaders", G_LOG_LEVEL_WARNING, count_warning,
                     NULL);

  make_module_dir ();
  g_setenv ("GEGL_SWAP", "RAM", TRUE);
  gegl_init (&argc, &argv);
  /* Small chunks: many process() calls per image. */
  g_object_set (gegl_config (), "chunk-size", 64 * 64, NULL);

  g_test_add_func ("/shader-run/registered", test_registered);
  g_test_add_func ("/shader-run/identity", test_identity);
  g_test_add_func ("/shader-run/host-values", test_host_values);
  g_test_add_func ("/shader-run/invert-and-swap", test_invert_and_swap);
  g_test_add_func ("/shader-run/discard-keeps-input", test_discard_keeps_input);
  g_test_add_func ("/shader-run/params", test_params);
  g_test_add_func ("/shader-run/broken-shader", test_broken_shader);
  g_test_add_func ("/shader-run/error-notify", test_error_notify);
  g_test_add_func ("/shader-run/log-once-per-error",
                   test_log_once_per_error);
  g_test_add_func ("/shader-run/no-shader", test_no_shader);
  g_test_add_func ("/shader-run/file", test_file);
  g_test_add_func ("/shader-run/infinite-input", test_infinite_input);
  g_test_add_func ("/shader-run/unbounded-reads", test_unbounded_reads);
  g_test_add_func ("/shader-run/point-in-place", test_point_in_place);
  g_test_add_func ("/shader-run/neighbour-and-threads",
                   test_neighbour_and_threads);

  result = g_test_run ();

  gegl_exit ();
  remove_module_dir ();
  return result;
}
