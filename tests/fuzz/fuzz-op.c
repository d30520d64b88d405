/* fuzz-op — the GEGL op path: a fuzzed shader and fuzzed property values
 * through the module's shader:run op inside GEGL.
 *
 * The input is "SOURCE\0ASSIGNMENTS".  SOURCE becomes the op's "source"
 * property; ASSIGNMENTS holds "name=value" lines, as the gegl tool and
 * GIMP hand them over.  A name the op has as a property (entry, profile,
 * params, source) sets that property from the text; any other name is a
 * shader parameter and is appended to the "params" string, which the op
 * hands to the library's parameter parser (the one the CLI's --set and
 * `apply -p` use too).  The op then renders a 7×5 image of awkward values
 * (NaN, infinities, huge and tiny numbers) through GEGL with two worker
 * threads and 4×4 chunks, at full size and at GIMP's half-size preview
 * level, and its "error" property is read as a dialog would.  A crash,
 * sanitizer report, hang or abort anywhere in the module or the library
 * is a finding; a shader that fails is not (the op passes its input
 * through and says why).
 *
 * GEGL finds the module through a GEGL_PATH folder made at start-up
 * (tests/plugin/module-dir.h) from GS_PLUGIN_MODULE and
 * GS_GEGL_PLUGINS_DIR, which default to the build's module and GEGL's
 * own module folder.  Leak checking is left to Valgrind (README): GEGL
 * keeps caches across renders that LeakSanitizer would report.
 */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <gegl.h>

#include "module-dir.h"

#define W 7
#define H 5

int LLVMFuzzerInitialize (int *argc, char ***argv);
int LLVMFuzzerTestOneInput (const uint8_t *data, size_t size);

static GeglBuffer *input;
static gchar      *module_dir;

static void
remove_module_dir (void)
{
  gs_test_remove_module_dir (module_dir);
}

static void
init_once (void)
{
  static const float specials[] = {
    0.0f, -0.0f, 1.0f, -1.0f, 0.5f, INFINITY, -INFINITY, NAN, 1e30f, -1e-30f,
    3.0f, 255.0f, 0.25f,
  };
  GeglRectangle rect = { 0, 0, W, H };
  float         pixels[W * H * 4];
  GError       *error = NULL;

  if (input)
    return;
  if (!g_getenv ("GS_PLUGIN_MODULE"))
    g_setenv ("GS_PLUGIN_MODULE", FUZZ_PLUGIN_MODULE, TRUE);
  if (!g_getenv ("GS_GEGL_PLUGINS_DIR"))
    g_setenv ("GS_GEGL_PLUGINS_DIR", FUZZ_GEGL_PLUGINS_DIR, TRUE);
  g_setenv ("GEGL_SWAP", "RAM", TRUE);
  module_dir = gs_module_dir_new ("gs-fuzz-op-XXXXXX", &error);
  if (!module_dir)
    {
      fprintf (stderr, "fuzz-op: %s\n", error->message);
      exit (2);
    }
  atexit (remove_module_dir);
  gegl_init (NULL, NULL);
  g_object_set (gegl_config (), "threads", 2, "chunk-size", 16, NULL);
  if (!gegl_has_operation ("shader:run"))
    {
      fprintf (stderr, "fuzz-op: GEGL did not load the module\n");
      exit (2);
    }
  for (size_t i = 0; i < G_N_ELEMENTS (pixels); i++)
    pixels[i] = specials[i % G_N_ELEMENTS (specials)];
  input = gegl_buffer_new (&rect, babl_format ("R'G'B'A float"));
  gegl_buffer_set (input, &rect, 0, babl_format ("R'G'B'A float"), pixels,
                   GEGL_AUTO_ROWSTRIDE);
}

int
LLVMFuzzerInitialize (int *argc, char ***argv)
{
  (void) argc;
  (void) argv;
  init_once ();
  return 0;
}

/* Sets the op's properties from the assignment lines: a property of the
 * op by its name, anything else into the params string. */
static void
set_properties (GeglNode *node, const char *text)
{
  GObjectClass *klass;
  GString      *params = g_string_new (NULL);
  gchar       **lines = g_strsplit (text, "\n", 64);
  GeglOperation *op = NULL;

  g_object_get (node, "gegl-operation", &op, NULL);
  klass = G_OBJECT_GET_CLASS (op);
  for (int i = 0; lines[i]; i++)
    {
      char *eq = strchr (lines[i], '=');
      if (!eq)
        {
          /* The parser must say what is wrong with a bare word too. */
          g_string_append_printf (params, "%s;", lines[i]);
          continue;
        }
      *eq = 0;
      GParamSpec *spec = g_object_class_find_property (klass, lines[i]);
      if (spec && spec->value_type == G_TYPE_STRING
          && strcmp (lines[i], "error") != 0)
        gegl_node_set (node, lines[i], eq + 1, NULL);
      else
        g_string_append_printf (params, "%s=%s;", lines[i], eq + 1);
    }
  if (params->len)
    {
      gchar *old = NULL;
      gegl_node_get (node, "params", &old, NULL);
      gchar *all = g_strconcat (old ? old : "", old && *old ? ";" : "", params->str, NULL);
      gegl_node_set (node, "params", all, NULL);
      g_free (all);
      g_free (old);
    }
  g_object_unref (op);
  g_strfreev (lines);
  g_string_free (params, TRUE);
}

int
LLVMFuzzerTestOneInput (const uint8_t *data, size_t size)
{
  const uint8_t *nul = memchr (data, 0, size);
  size_t         source_len = nul ? (size_t) (nul - data) : size;
  gchar         *source = g_strndup ((const gchar *) data, source_len);
  gchar         *assignments = nul ? g_strndup ((const gchar *) nul + 1, size - source_len - 1) : NULL;
  GeglRectangle  rect = { 0, 0, W, H };
  float          out[W * H * 4];
  gchar         *error = NULL;

  init_once ();
  GeglNode *graph = gegl_node_new ();
  GeglNode *src = gegl_node_new_child (graph, "operation", "gegl:buffer-source",
                                       "buffer", input, NULL);
  GeglNode *shader = gegl_node_new_child (graph, "operation", "shader:run",
                                          "source", source, NULL);
  gegl_node_link (src, shader);
  if (assignments)
    set_properties (shader, assignments);

  gegl_node_blit (shader, 1.0, &rect, babl_format ("R'G'B'A float"), out,
                  GEGL_AUTO_ROWSTRIDE, GEGL_BLIT_DEFAULT);
  GeglRectangle half = { 0, 0, (W + 1) / 2, (H + 1) / 2 };
  gegl_node_blit (shader, 0.5, &half, babl_format ("R'G'B'A float"), out,
                  GEGL_AUTO_ROWSTRIDE, GEGL_BLIT_DEFAULT);
  gegl_node_get (shader, "error", &error, NULL);
  g_free (error);
  g_object_unref (graph);
  /* The op tells dialogs about errors from the main loop: run what it
   * queued so nothing piles up between inputs. */
  while (g_main_context_iteration (NULL, FALSE))
    ;
  g_free (source);
  g_free (assignments);
  return 0;
}
