/* apply — `gegl-shaders apply FILTER [NAME=VALUE…] FILES… -o DIR`.
 *
 * The batch command is built so that no run can lose or corrupt an image:
 *   - outputs never replace an input: every output path is compared with
 *     every input (by device and inode when it exists, else by canonical
 *     path) before anything is rendered;
 *   - each output is written to a hidden temporary file in its folder,
 *     created exclusively (never an existing file, never through a link),
 *     flushed to disk and renamed over the final name, so a final name
 *     only ever holds a complete image, however the run ends; every write
 *     is checked and a failed output's temporary file is removed;
 *   - a re-run skips outputs that exist and are newer than both their input
 *     and the filter file (so it resumes after a crash or kill), and first
 *     removes the temporary files that dead runs on this host left behind;
 *   - a bad file is reported and the run goes on; every failure is listed
 *     again at the end and the exit status is 1.
 *
 * Nothing of a photograph is lost but what the filter changes.  The filter
 * sees the values the file stores, as perceptual R'G'B'A of the image's own
 * colour space (as GIMP hands a filter the pixels of a tagged image), and
 * the output embeds the input's own ICC profile, byte for byte
 * (icc-embed.c), or none for an untagged input; --convert-to converts to
 * another profile first (colour-convert.c).  EXIF, XMP, IPTC and comments
 * are carried over (image-meta.c) unless --strip-metadata.
 *
 * Several copies can share one list of inputs: --shard K/N takes the
 * inputs whose output name hashes to K (shard.c), so copies started by a
 * Slurm job array, GNU parallel or a Kubernetes Indexed Job process every
 * file exactly once, and --manifest records each input as a JSON line
 * (manifest.c).  Inputs come from the command line and from lists
 * (--list-inputs, for more names than a command line holds).
 *
 * Images are independent, so -j N runs N of them at once, each rendering
 * with a share of the CPUs.  GEGL's codecs, gexiv2 and the image-io warning
 * capture are process-wide, so loading and saving take one lock while
 * rendering, the expensive part, runs in parallel.  A shader filter is
 * compiled once; each image gets its own binding since the viewport is the
 * image's size.  An effect file is compiled per image size
 * (effect-filter.c).  A render that only hit a run-time limit wrote every
 * pixel: the image is kept, with a warning, as `run` keeps it.
 */
#include "config.h"

#include "apply.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <glib.h>
#include <glib/gi18n.h>
#include <glib/gstdio.h>
#include <gegl.h>

#include "shaderlib.h"
#include "messages.h"
#include "image-save.h"
#include "image-write.h"
#include "render.h"
#include "effect-cli.h"
#include "effect-filter.h"
#include "memory-budget.h"
#include "filter-path.h"
#include "shader-file.h"
#include "host-values.h"
#include "icc-file.h"
#include "icc-embed.h"
#include "colour-convert.h"
#include "image-meta.h"
#include "png-text.h"
#include "safe-file.h"
#include "shard.h"
#include "manifest.h"
#include "progress.h"

#define PROGRAM     "gegl-shaders"
#define EXIT_OK     0
#define EXIT_ERROR  1
#define EXIT_USAGE  2
#define MAX_JOBS    256
#define TMP_MARK    ".gs-tmp-"

typedef enum
{
  ITEM_PENDING,
  ITEM_DONE,
  ITEM_SKIPPED,
  ITEM_FAILED
} ItemState;

typedef struct
{
  char     *input;
  char     *output;   /* NULL when the item failed before it was planned */
  int       depth;    /* for gs_image_save(); -1 = take the input's */
  ItemState state;
  char     *error;
  char     *warning;  /* what a written image's render warned of */
  double    seconds;
} Item;

typedef struct
{
  /* options */
  char      *output_dir;
  char      *format;
  int        jobs;
  int        depth;
  gboolean   linear;
  gboolean   force;
  gboolean   help;
  gboolean   list_filters;
  gboolean   quiet;
  gboolean   strip_metadata;
  gboolean   null_separated;
  char      *convert_to;
  char      *shard_spec;
  char      *root;
  char     **list_files;
  char      *manifest_path;
  char      *memory_budget_text;
  /* the run */
  gsize      memory_budget;  /* per image's render: its textures, and a whole
                                input when the filter's reads are unbounded */
  char      *filter_path;
  gint64     filter_mtime;
  SlProgram *program;      /* the filter is a shader… */
  GsEffectFilter *effect;  /* …or an effect file */
  char      *params;       /* "NAME=V; NAME=V,V" for the binding */
  GPtrArray *names;        /* every input named, before sharding */
  GPtrArray *items;        /* Item*, owned: this shard's inputs */
  guint      shard_index, shard_count;   /* count 0: no --shard */
  GsColourTarget *target;
  GsManifest *manifest;
  char      *manifest_error;
  gint       next_item;    /* atomic */
  int        render_threads;
  GMutex     io_lock;      /* GEGL codecs, gexiv2, the warning capture */
  GMutex     report_lock;
  int        n_finished, n_done, n_skipped, n_failed, n_processed;
  gboolean   dropped_warned;
  gboolean   tty;
  gint64     started;
  char      *hostname;
  char      *software;
} Apply;

/* Every line apply prints that may hold a file name goes out escaped
 * (gs_safe_display_name()): a name with a newline or a terminal escape
 * cannot forge or hide a line of a scheduler's log. */
static void
print_error_line (const char *format,
                  ...) G_GNUC_PRINTF (1, 2);

static void
print_error_line (const char *format,
                  ...)
{
  va_list args;
  char   *text, *shown;

  va_start (args, format);
  text = g_strdup_vprintf (format, args);
  va_end (args);
  shown = gs_safe_display_name (text);
  gs_print_error ("%s", shown);
  g_free (shown);
  g_free (text);
}

static int
usage_error (const char *message)
{
  print_error_line ("%s", message);
  fprintf (stderr, _("Try '%s help apply'.\n"), PROGRAM);
  return EXIT_USAGE;
}

static void
item_free (Item *item)
{
  g_free (item->input);
  g_free (item->output);
  g_free (item->error);
  g_free (item->warning);
  g_free (item);
}

static GOptionContext *
make_context (Apply *a)
{
  const GOptionEntry entries[] =
  {
    { "memory-budget", 0, 0, G_OPTION_ARG_STRING, &a->memory_budget_text,
      N_("Memory one render may take for its images and textures (default: "
         "GEGL_SHADERS_MEMORY_BUDGET, else 2G)"), N_("SIZE") },
    { "output-dir", 'o', 0, G_OPTION_ARG_FILENAME, &a->output_dir,
      N_("Write the results into DIR (created if missing); never over an "
         "input"), N_("DIR") },
    { "jobs", 'j', 0, G_OPTION_ARG_INT, &a->jobs,
      N_("Process N images at once (default 1; each uses a share of the "
         "CPUs)"), N_("N") },
    { "format", 'f', 0, G_OPTION_ARG_STRING, &a->format,
      N_("Write EXT files (png, tif, exr, pfm, jpg, ppm, webp, hdr) instead "
         "of the input's format"), N_("EXT") },
    { "depth", 0, 0, G_OPTION_ARG_INT, &a->depth,
      N_("Bits per channel for PNG, PPM and integer TIFF (8 or 16; "
         "default: the input's)"), N_("BITS") },
    { "linear", 0, 0, G_OPTION_ARG_NONE, &a->linear,
      N_("Give the filter linear RGBA of the image's space instead of the "
         "values the file stores"), NULL },
    { "convert-to", 0, 0, G_OPTION_ARG_FILENAME, &a->convert_to,
      N_("Convert each image to the ICC profile PROFILE (a file, or 'srgb') "
         "before the filter; the outputs embed it"), N_("PROFILE") },
    { "strip-metadata", 0, 0, G_OPTION_ARG_NONE, &a->strip_metadata,
      N_("Do not copy EXIF, XMP, IPTC and comments into the outputs"), NULL },
    { "root", 0, 0, G_OPTION_ARG_FILENAME, &a->root,
      N_("The inputs lie below ROOT: each output keeps its path below it "
         "(folders are created)"), N_("ROOT") },
    { "list-inputs", 0, 0, G_OPTION_ARG_FILENAME_ARRAY, &a->list_files,
      N_("Also process the files named in LIST, one a line ('-': standard "
         "input)"), N_("LIST") },
    { "null", '0', 0, G_OPTION_ARG_NONE, &a->null_separated,
      N_("Names in --list-inputs are separated by NUL bytes, not lines"),
      NULL },
    { "shard", 0, 0, G_OPTION_ARG_STRING, &a->shard_spec,
      N_("Process only share K (from 0) of N of the inputs; auto/N reads K "
         "from Slurm or Kubernetes"), N_("K/N") },
    { "manifest", 0, 0, G_OPTION_ARG_FILENAME, &a->manifest_path,
      N_("Append one JSON line per input (input, output, status, seconds, "
         "error) to FILE"), N_("FILE") },
    { "force", 0, 0, G_OPTION_ARG_NONE, &a->force,
      N_("Redo outputs that look complete"), NULL },
    { "quiet", 'q', 0, G_OPTION_ARG_NONE, &a->quiet,
      N_("Print only failures and the final count (for schedulers' logs)"),
      NULL },
    { "list", 0, 0, G_OPTION_ARG_NONE, &a->list_filters,
      N_("List the filters apply finds by name, and where, and exit"), NULL },
    { "help", 'h', 0, G_OPTION_ARG_NONE, &a->help,
      N_("Show this help"), NULL },
    { NULL }
  };
  GOptionContext *context;
  GOptionGroup   *group;

  g_set_prgname (PROGRAM " apply");
  context = g_option_context_new (_("FILTER [NAME=VALUE…] FILE…"));
  g_option_context_set_help_enabled (context, FALSE);
  g_option_context_set_translation_domain (context, GETTEXT_PACKAGE);
  g_option_context_set_summary (context,
    _("Apply FILTER (a shader or effect file, or the name of a shipped "
      "filter) to\nevery FILE, setting its parameters from NAME=VALUE "
      "operands, and write the\nresults into DIR under the same names, with "
      "the input's colour profile and\nmetadata.\nA re-run skips the "
      "outputs already written.  '--' ends the options.\nExit status: 0 "
      "when every file was written or skipped, 1 when any failed,\n2 on "
      "usage errors."));
  group = g_option_group_new (NULL, NULL, NULL, NULL, NULL);
  g_option_group_set_translation_domain (group, GETTEXT_PACKAGE);
  g_option_group_add_entries (group, entries);
  g_option_context_set_main_group (context, group);
  return context;
}

void
gs_apply_print_help (FILE *stream)
{
  Apply           a = { 0 };
  GOptionContext *context = make_context (&a);
  char           *text = g_option_context_get_help (context, TRUE, NULL);

  fputs (text, stream);
  g_free (text);
  g_option_context_free (context);
}

/* ------------------------------------------------------------------ */
/* Finding the filter                                                  */
/* ------------------------------------------------------------------ */

/* The source tree's filters/ is searched only by a binary that runs from
 * its build tree, so an installed tool never picks up a stale checkout. */
static gboolean
running_from_build_tree (void)
{
#ifdef GS_BUILD_ROOT
  char    *exe = g_file_read_link ("/proc/self/exe", NULL);
  gboolean inside = exe != NULL
                    && g_str_has_prefix (exe, GS_BUILD_ROOT G_DIR_SEPARATOR_S);

  g_free (exe);
  return inside;
#else
  return FALSE;
#endif
}

static const char *
build_tree_filters (void)
{
#ifdef GS_SOURCE_FILTERSDIR
  if (running_from_build_tree ())
    return GS_SOURCE_FILTERSDIR;
#endif
  return NULL;
}

/* A FILTER operand is a shader file when one exists by that name, else a
 * filter name looked up as GIMP and `gegl` look it up (filter-path.c). */
static char *
find_filter (const char *name)
{
  GPtrArray *files;
  GString   *known;
  char      *found;

  if (g_file_test (name, G_FILE_TEST_IS_REGULAR))
    return g_strdup (name);
  found = gs_filter_find (name, build_tree_filters ());
  if (found != NULL)
    return found;

  files = gs_filter_list (build_tree_filters ());
  known = g_string_new (NULL);
  for (guint i = 0; i < files->len; i++)
    {
      GsFilterFile *file = files->pdata[i];

      g_string_append_printf (known, "%s%s", known->len ? ", " : "",
                              file->stem);
    }
  print_error_line (_("no filter, shader or effect file '%s' (shipped filters: %s)"),
                  name, known->len ? known->str : _("none found"));
  g_string_free (known, TRUE);
  g_ptr_array_unref (files);
  return NULL;
}

static SlProgram *
compile_filter (const char *path)
{
  SlCompileOptions options = { 0 };
  SlDiagnostics   *diags;
  SlProgram       *program;
  char            *source;
  gsize            length;
  GError          *error = NULL;
  char            *text;

  if (!gs_shader_file_read (path, &source, &length, &error))
    {
      print_error_line ("%s", error->message);
      g_error_free (error);
      return NULL;
    }
  options.source = source;
  options.length = length;
  options.filename = path;
  options.language = SL_LANGUAGE_AUTO;
  /* ReShade's size macros, as the GEGL op defines them. */
  char *with_host = gs_host_source (path, source, length, &options.length, &options.defines);
  if (with_host != NULL)
    options.source = with_host;
  diags = sl_diagnostics_new ();
  program = sl_compile (&options, diags);
  g_free (with_host);
  text = sl_diagnostics_format (diags);
  if (text != NULL)
    fputs (text, stderr);
  g_free (text);
  if (program == NULL && sl_diagnostics_error_count (diags) == 0)
    print_error_line (_("%s: compilation failed without a diagnostic"), path);
  sl_diagnostics_free (diags);
  g_free (source);
  return program;
}

/* An effect file (techniques and passes) as the filter. */
static gboolean
open_effect (Apply *a)
{
  SlDiagnostics *diags = sl_diagnostics_new ();
  GError        *error = NULL;
  char          *text;

  a->effect = gs_effect_filter_new (a->filter_path, a->linear,
                                    a->memory_budget, diags, &error);
  text = sl_diagnostics_format (diags);
  if (text != NULL)
    fputs (text, stderr);
  g_free (text);
  if (a->effect == NULL && error != NULL)
    print_error_line ("%s", error->message);
  else if (a->effect == NULL && sl_diagnostics_error_count (diags) == 0)
    print_error_line (_("%s: compilation failed without a diagnostic"),
                      a->filter_path);
  g_clear_error (&error);
  sl_diagnostics_free (diags);
  return a->effect != NULL;
}

static gint
compare_stems (gconstpointer a,
               gconstpointer b)
{
  const GsFilterFile *fa = *(GsFilterFile *const *) a;
  const GsFilterFile *fb = *(GsFilterFile *const *) b;

  return strcmp (fa->stem, fb->stem);
}

/* `apply --list`: what a FILTER name can name, from the search path that
 * GIMP and `gegl` use, sorted by name. */
static int
list_filters (void)
{
  GPtrArray *files = gs_filter_list (build_tree_filters ());
  int        width = 0;

  g_ptr_array_sort (files, compare_stems);
  for (guint i = 0; i < files->len; i++)
    width = MAX (width, (int) strlen (((GsFilterFile *) files->pdata[i])->stem));
  for (guint i = 0; i < files->len; i++)
    {
      GsFilterFile *file = files->pdata[i];
      char         *path = gs_safe_display_name (file->path);

      printf ("%-*s  %s\n", width, file->stem, path);
      g_free (path);
    }
  if (files->len == 0)
    fprintf (stderr, _("%s: no filters found; see 'Writing a filter' in the "
                       "README for the folders searched\n"), PROGRAM);
  g_ptr_array_unref (files);
  return EXIT_OK;
}

/* ------------------------------------------------------------------ */
/* Planning outputs                                                    */
/* ------------------------------------------------------------------ */

/* "NAME=VALUE" with an identifier NAME, and no file by that name. */
static gboolean
is_assignment (const char *arg)
{
  const char *eq = strchr (arg, '=');

  if (eq == NULL || eq == arg || eq[1] == '\0'
      || g_file_test (arg, G_FILE_TEST_EXISTS))
    return FALSE;
  if (!g_ascii_isalpha (arg[0]) && arg[0] != '_')
    return FALSE;
  for (const char *p = arg; p < eq; p++)
    if (!g_ascii_isalnum (*p) && *p != '_')
      return FALSE;
  return TRUE;
}

static const char *
extension_of (const char *path)
{
  const char *base = strrchr (path, G_DIR_SEPARATOR);
  const char *dot = strrchr (base ? base + 1 : path, '.');

  return dot != NULL && dot[1] != '\0' ? dot + 1 : NULL;
}

/* The canonical form of a path that may not exist yet: its folder
 * resolved, its last component kept.  @dirs caches resolved folders, as
 * a million inputs usually live in a few. */
static char *
canonical_path (const char *path,
                GHashTable *dirs)
{
  char       *dir = g_path_get_dirname (path);
  char       *base = g_path_get_basename (path);
  const char *real = dirs ? g_hash_table_lookup (dirs, dir) : NULL;
  char       *result;

  if (real == NULL)
    {
      char *resolved = realpath (dir, NULL);

      real = resolved ? resolved : dir;
      if (dirs != NULL)
        {
          g_hash_table_insert (dirs, g_strdup (dir), g_strdup (real));
          real = g_hash_table_lookup (dirs, dir);
        }
      result = g_build_filename (real, base, NULL);
      free (resolved);
    }
  else
    result = g_build_filename (real, base, NULL);
  g_free (dir);
  g_free (base);
  return result;
}

/* 64-bit FNV-1a: the set of every input's canonical path is kept as
 * hashes, 8 bytes a file whatever the list's length.  A collision can
 * only make apply refuse an output, never overwrite an input. */
static guint64
path_hash (const char *path)
{
  guint64 h = G_GUINT64_CONSTANT (0xcbf29ce484222325);

  for (const guchar *p = (const guchar *) path; *p; p++)
    h = (h ^ *p) * G_GUINT64_CONSTANT (0x100000001b3);
  return h;
}

static gint
compare_u64 (gconstpointer a,
             gconstpointer b)
{
  guint64 x = *(const guint64 *) a, y = *(const guint64 *) b;

  return x < y ? -1 : x > y;
}

static void
fail_item (Item       *item,
           const char *format,
           ...) G_GNUC_PRINTF (2, 3);

static void
fail_item (Item       *item,
           const char *format,
           ...)
{
  va_list args;

  va_start (args, format);
  g_free (item->error);
  item->error = g_strdup_vprintf (format, args);
  va_end (args);
  item->state = ITEM_FAILED;
}

/* The output's path below the output folder: the input's base name, or
 * its path below --root; with --format, under the new extension.  NULL
 * (and @why set) when the input is not below the root. */
static char *
output_key (const Apply *a,
            const char  *input,
            const char  *root_abs,
            char       **why)
{
  char       *rel;
  char       *key;
  const char *ext;

  if (root_abs != NULL)
    {
      char  *abs = g_canonicalize_filename (input, NULL);
      gsize  n = strlen (root_abs);

      if (strncmp (abs, root_abs, n) != 0
          || (abs[n] != G_DIR_SEPARATOR && n > 1) || abs[n] == '\0')
        {
          *why = g_strdup_printf (_("'%s' is not below --root '%s'"), input,
                                  a->root);
          g_free (abs);
          return NULL;
        }
      rel = g_strdup (abs + n + (n > 1));
      g_free (abs);
    }
  else
    rel = g_path_get_basename (input);
  if (a->format == NULL)
    return rel;
  ext = extension_of (rel);
  key = ext ? g_strndup (rel, ext - 1 - rel) : g_strdup (rel);
  g_free (rel);
  rel = g_strconcat (key, ".", a->format, NULL);
  g_free (key);
  return rel;
}

/* Names every output, keeps this shard's inputs, and refuses, per file,
 * anything that could destroy data: an output that is an input (this one
 * or another, in any shard), two inputs mapping to one output, a format
 * that cannot be written.  Two inputs with one output have one key, so
 * they always land in the same shard, which reports them. */
static void
plan_outputs (Apply *a)
{
  GHashTable *dirs = g_hash_table_new_full (g_str_hash, g_str_equal,
                                            g_free, g_free);
  GHashTable *outputs = g_hash_table_new_full (g_str_hash, g_str_equal,
                                               g_free, NULL);
  GArray     *inputs = g_array_sized_new (FALSE, FALSE, sizeof (guint64),
                                          a->names->len);
  char       *root_abs = a->root ? g_canonicalize_filename (a->root, NULL)
                                 : NULL;

  for (guint i = 0; i < a->names->len; i++)
    {
      char   *canon = canonical_path (a->names->pdata[i], dirs);
      guint64 h = path_hash (canon);

      g_array_append_val (inputs, h);
      g_free (canon);
    }
  g_array_sort (inputs, compare_u64);

  for (guint i = 0; i < a->names->len; i++)
    {
      const char *input = a->names->pdata[i];
      char       *why = NULL;
      char       *key = output_key (a, input, root_abs, &why);
      Item       *item;
      char       *canon;
      const char *ext;
      guint64     h;
      GStatBuf    in_st, out_st;

      if (key != NULL && a->shard_count > 0
          && gs_shard_of (key, a->shard_count) != a->shard_index)
        {
          g_free (key);
          continue;
        }
      /* Not below the root: no key, so every shard would report it;
       * only shard 0 does. */
      if (key == NULL && a->shard_count > 0 && a->shard_index != 0)
        {
          g_free (why);
          continue;
        }
      item = g_new0 (Item, 1);
      item->input = g_strdup (input);
      g_ptr_array_add (a->items, item);
      if (key == NULL)
        {
          fail_item (item, "%s", why);
          g_free (why);
          continue;
        }
      item->output = g_build_filename (a->output_dir, key, NULL);
      ext = extension_of (input);
      item->depth = a->depth != 0 ? a->depth : -1;
      if (a->format != NULL && a->depth == 0
          && (ext == NULL || g_ascii_strcasecmp (ext, a->format) != 0))
        item->depth = 0;   /* another format: its own default depth */
      canon = canonical_path (item->output, dirs);
      h = path_hash (canon);

      if (!gs_image_save_supported (item->output))
        fail_item (item, _("cannot write '%s' files; choose an output format "
                           "with --format"), ext ? ext : _("extension-less"));
      else if (bsearch (&h, inputs->data, inputs->len, sizeof h, compare_u64)
               != NULL
               || (g_stat (item->output, &out_st) == 0
                   && g_stat (item->input, &in_st) == 0
                   && out_st.st_dev == in_st.st_dev
                   && out_st.st_ino == in_st.st_ino))
        fail_item (item, _("the output '%s' is an input; refusing to "
                           "overwrite it (choose another -o DIR)"),
                   item->output);
      else if (g_hash_table_contains (outputs, canon))
        fail_item (item, _("another input is also written to '%s'"),
                   item->output);
      else
        {
          g_hash_table_add (outputs, canon);
          canon = NULL;
        }
      g_free (canon);
      g_free (key);
    }
  g_hash_table_destroy (outputs);
  g_hash_table_destroy (dirs);
  g_array_free (inputs, TRUE);
  g_free (root_abs);
  /* The names are not needed any more; a million of them is memory. */
  g_ptr_array_set_size (a->names, 0);
}

static gint64
mtime_of (const char *path)
{
  GStatBuf st;

  if (g_stat (path, &st) != 0)
    return -1;
  return (gint64) st.st_mtime;
}

/* Written atomically, so an output that exists is whole; it is up to date
 * when no newer input or filter could have changed it.  Only a regular
 * file counts: a link planted under the output's name (to anything) is
 * replaced, never taken for this run's output. */
static gboolean
output_is_complete (const Apply *a,
                    const Item  *item)
{
  GStatBuf st;
  gint64   out;

  if (g_lstat (item->output, &st) != 0 || !S_ISREG (st.st_mode))
    return FALSE;
  out = (gint64) st.st_mtime;
  return out >= mtime_of (item->input) && out >= a->filter_mtime;
}

/* The host and process of a temporary name's "HOST-PID[-rHEX].EXT" part;
 * FALSE for a name that is not one of ours. */
static gboolean
parse_temp_owner (const char *rest_in,
                  char      **host,
                  long       *pid)
{
  char *rest = g_strdup (rest_in);
  char *dot = strrchr (rest, '.');
  char *dash, *end;

  if (dot != NULL)
    *dot = '\0';
  dash = strrchr (rest, '-');
  /* The random part that makes a name unguessable. */
  if (dash != NULL && dash[1] == 'r' && dash[2] != '\0'
      && strspn (dash + 2, "0123456789abcdef") == strlen (dash + 2))
    {
      *dash = '\0';
      dash = strrchr (rest, '-');
    }
  if (dash == NULL)
    {
      g_free (rest);
      return FALSE;
    }
  *dash = '\0';
  errno = 0;
  *pid = strtol (dash + 1, &end, 10);
  if (errno != 0 || *end != '\0' || *pid <= 0 || dash[1] == '\0')
    {
      g_free (rest);
      return FALSE;
    }
  *host = rest;
  return TRUE;
}

/* Removes temporary files of runs that died on this host.  A temp name is
 * ".NAME.gs-tmp-HOST-PID-rHEX.EXT"; a live PID (another run still writing)
 * and other hosts' files (a shared folder) are left alone. */
static void
remove_stale_temps (const Apply *a,
                    const char  *folder)
{
  GDir       *dir = g_dir_open (folder, 0, NULL);
  const char *entry;

  if (dir == NULL)
    return;
  while ((entry = g_dir_read_name (dir)) != NULL)
    {
      const char *mark = strstr (entry, TMP_MARK);
      char       *host = NULL;
      long        pid;

      if (entry[0] != '.' || mark == NULL
          || !parse_temp_owner (mark + strlen (TMP_MARK), &host, &pid))
        continue;
      if (g_str_equal (host, a->hostname)
          && kill ((pid_t) pid, 0) != 0 && errno == ESRCH)
        {
          char *path = g_build_filename (folder, entry, NULL);

          g_unlink (path);
          g_free (path);
        }
      g_free (host);
    }
  g_dir_close (dir);
}

/* Every folder this shard writes into, cleaned once before the run. */
static void
remove_all_stale_temps (const Apply *a)
{
  GHashTable *seen = g_hash_table_new_full (g_str_hash, g_str_equal,
                                            g_free, NULL);

  for (guint i = 0; i < a->items->len; i++)
    {
      Item *item = a->items->pdata[i];
      char *dir;

      if (item->output == NULL)
        continue;
      dir = g_path_get_dirname (item->output);
      if (g_hash_table_add (seen, dir))
        remove_stale_temps (a, dir);
    }
  g_hash_table_destroy (seen);
}

/* ------------------------------------------------------------------ */
/* Processing one image                                                */
/* ------------------------------------------------------------------ */

/* Creates the temporary file for @item.  Host and PID say whose it is
 * (remove_stale_temps()); the random part makes the name unguessable, so
 * nobody can plant a link under it beforehand, and the file is created
 * exclusively, so an existing name is never written through. */
static char *
create_temp_for (const Apply *a,
                 const Item  *item,
                 GError     **error)
{
  char       *dir = g_path_get_dirname (item->output);
  char       *base = g_path_get_basename (item->output);
  const char *ext = extension_of (base);
  char       *path = NULL;

  for (int attempt = 0; attempt < 16; attempt++)
    {
      char   *name;
      GError *local = NULL;

      g_clear_error (error);
      /* The extension stays last: it picks the encoder. */
      name = g_strdup_printf (".%s" TMP_MARK "%s-%ld-r%08x.%s", base,
                              a->hostname, (long) getpid (),
                              g_random_int (), ext ? ext : "tmp");
      path = g_build_filename (dir, name, NULL);
      g_free (name);
      if (gs_safe_file_create (path, &local))
        break;
      g_propagate_error (error, local);
      g_clear_pointer (&path, g_free);
      if (!g_error_matches (*error, G_FILE_ERROR, G_FILE_ERROR_EXIST))
        break;
    }
  g_free (dir);
  g_free (base);
  return path;
}

/* The float RGBA format of @space (NULL: sRGB), perceptual or linear. */
static const Babl *
pixel_format (const Babl *space,
              gboolean    linear)
{
  return space != NULL
         ? babl_format_with_space (linear ? "RGBA float" : "R'G'B'A float", space)
         : gs_image_working_format (linear);
}

/* Converts @image in place between perceptual and linear RGBA of its
 * own space. */
static void
convert_encoding (GsImage *image,
                  gboolean to_linear)
{
  const Babl *perceptual = pixel_format (image->space, FALSE);
  const Babl *linear = pixel_format (image->space, TRUE);
  const Babl *fish = to_linear ? babl_fish (perceptual, linear)
                               : babl_fish (linear, perceptual);
  gsize       row = (gsize) image->width * 4;
  float      *tmp = g_new (float, row);

  for (int y = 0; y < image->height; y++)
    {
      float *p = image->pixels + (gsize) y * row;

      babl_process (fish, p, tmp, image->width);
      memcpy (p, tmp, row * sizeof (float));
    }
  g_free (tmp);
}

/* What is done to each band of an image: in place, to a whole image of
 * the band's rows, which may relabel its space. */
typedef gboolean (*BandStep) (GsImage  *band,
                              gpointer  data,
                              GError  **error);

/* A new tiled image holding @step applied to @image (tiled) band by
 * band, as @linear values of the space the step leaves: the images of a
 * batch never exist whole. */
static GsImage *
map_bands (const GsImage *image,
           gboolean       linear,
           BandStep       step,
           gpointer       data,
           GError       **error)
{
  int      rows = CLAMP ((1 << 20) / image->width, 1, image->height);
  GsImage  band = { .width = image->width };
  GsImage *out = NULL;

  band.pixels = g_try_malloc_n ((gsize) rows * image->width, 4 * sizeof (float));
  if (band.pixels == NULL)
    {
      g_set_error (error, GS_IMAGE_IO_ERROR, GS_IMAGE_IO_ERROR_TOO_LARGE,
                   _("out of memory for a %d×%d band"), image->width, rows);
      return NULL;
    }
  for (int y = 0; y < image->height; y += rows)
    {
      band.height = MIN (rows, image->height - y);
      band.space = image->space;
      gs_image_read (image, 0, y, image->width, band.height, image->format, band.pixels);
      if (!step (&band, data, error))
        {
          g_clear_pointer (&out, gs_image_free);
          break;
        }
      if (out == NULL)
        {
          out = gs_image_new_tiled (image->width, image->height,
                                    pixel_format (band.space, linear), error);
          if (out == NULL)
            break;
          out->source_depth = image->source_depth;
        }
      gs_image_write_rect (out, 0, y, image->width, band.height, out->format, band.pixels);
    }
  g_free (band.pixels);
  return out;
}

typedef struct
{
  GBytes               *source;
  const GsColourTarget *target;
  gboolean              linear;
} Conversion;

static gboolean
convert_band (GsImage  *band,
              gpointer  data,
              GError  **error)
{
  Conversion *c = data;

  if (!gs_colour_convert (band, c->source, c->target, error))
    return FALSE;
  if (c->linear)
    convert_encoding (band, TRUE);
  return TRUE;
}

static gboolean
perceptual_band (GsImage  *band,
                 gpointer  data,
                 GError  **error)
{
  convert_encoding (band, FALSE);
  return TRUE;
}

/* Loads the input as the filter sees it, tiled; sets *@profile to the
 * profile the output embeds (not referenced when NULL). */
static GsImage *
load_input (Apply   *a,
            Item    *item,
            GBytes **profile)
{
  GsImage *input = NULL;
  GBytes  *own = NULL;
  GError  *error = NULL;
  gboolean convert = a->target != NULL;

  *profile = NULL;
  g_mutex_lock (&a->io_lock);
  if (gs_icc_read_file (item->input, &own, &error))
    input = gs_image_open (item->input, NULL, a->linear && !convert, &error);
  g_mutex_unlock (&a->io_lock);
  if (input == NULL)
    {
      fail_item (item, "%s", error->message);
      g_error_free (error);
      goto fail;
    }
  if (!gs_colour_profile_is_rgb (own))
    {
      fail_item (item, _("its colour profile is not an RGB profile; apply "
                         "works on RGB images"));
      goto fail;
    }
  if (convert)
    {
      Conversion conversion = { own, a->target, a->linear };
      GsImage   *converted = map_bands (input, a->linear, convert_band, &conversion, &error);

      if (converted == NULL)
        {
          fail_item (item, "%s", error->message);
          g_error_free (error);
          goto fail;
        }
      gs_image_free (input);
      input = converted;
      *profile = g_bytes_ref (gs_colour_target_profile (a->target));
    }
  else
    *profile = own ? g_bytes_ref (own) : NULL;
  if (own != NULL)
    g_bytes_unref (own);
  return input;

fail:
  if (own != NULL)
    g_bytes_unref (own);
  gs_image_free (input);
  return NULL;
}

/* What the render reported, on one line for the log; NULL when nothing. */
static char *
diagnostics_line (const SlDiagnostics *diags)
{
  char *text = sl_diagnostics_format (diags);

  if (text == NULL)
    return NULL;
  g_strchomp (text);
  for (char *nl = strchr (text, '\n'); nl; nl = strchr (nl, '\n'))
    *nl = ';';
  if (*text == '\0')
    g_clear_pointer (&text, g_free);
  return text;
}

/* A render with errors fails @item.  One that only hit a run-time limit
 * (a loop's iteration cap, the instruction budget) wrote every pixel: the
 * image is kept and the warning told, as `run` does. */
static gboolean
judge_render (Item                *item,
              gboolean             rendered,
              const SlDiagnostics *diags,
              const GError        *error)
{
  char *text = diagnostics_line (diags);

  if (rendered && sl_diagnostics_error_count (diags) == 0)
    {
      g_free (item->warning);
      item->warning = text;
      return TRUE;
    }
  fail_item (item, _("rendering failed: %s"),
             text ? text : error ? error->message : _("no diagnostic"));
  g_free (text);
  return FALSE;
}

/* Runs the filter over @input (tiled) into a new tiled image, band by
 * band, or NULL (item failed). */
static GsImage *
render (Apply   *a,
        Item    *item,
        GsImage *input)
{
  GsImage       *target;
  GError        *error = NULL;
  SlBinding     *binding;
  SlDiagnostics *diags;
  SlTexture      placeholder;
  float          texel[4];
  gboolean       ok;

  if (a->effect != NULL)
    {
      diags = sl_diagnostics_new ();
      target = gs_effect_filter_render (a->effect, input, a->params,
                                        a->render_threads, a->memory_budget,
                                        0, diags, &error);
      judge_render (item, target != NULL, diags, error);
      g_clear_error (&error);
      sl_diagnostics_free (diags);
      return target;
    }
  target = gs_image_new_tiled (input->width, input->height, input->format, &error);
  if (target == NULL)
    {
      fail_item (item, "%s", error->message);
      g_error_free (error);
      return NULL;
    }

  diags = sl_diagnostics_new ();
  binding = sl_binding_new (a->program);
  sl_binding_set_auto_mips (binding, true);
  sl_binding_set_viewport (binding, input->width, input->height);
  /* Host values first, so that a NAME=VALUE naming one still wins. */
  gs_host_values_set (binding, input->width, input->height, NULL, diags);
  if (a->params != NULL)
    sl_binding_set_params_string (binding, a->params, diags);
  /* Every sampler reads the image, as in the GEGL op: until each band
   * brings its part, through a placeholder of its size. */
  gs_texture_placeholder (&placeholder, texel, input->width, input->height);
  gs_bind_samplers (binding, a->program, &placeholder, NULL);
  ok = sl_binding_prepare (binding, diags);
  if (ok)
    {
      GsRenderJob job = {
        .binding = binding, .input = input, .format = input->format,
        /* Discarded pixels keep the input, as the GEGL op does. */
        .prefill = TRUE, .budget = a->memory_budget,
        .n_threads = a->render_threads, .name = a->filter_path,
      };

      ok = gs_render (&job, target, diags) || sl_diagnostics_error_count (diags) == 0;
    }
  if (!judge_render (item, ok, diags, NULL))
    g_clear_pointer (&target, gs_image_free);
  sl_binding_free (binding);
  sl_diagnostics_free (diags);
  return target;
}

static gboolean
has_extension (const char *path,
               const char *ext)
{
  const char *e = extension_of (path);

  return e != NULL && g_ascii_strcasecmp (e, ext) == 0;
}

/* The saver, the exact profile, the metadata: everything that makes the
 * temporary file the finished output.  Called with the I/O lock held. */
static gboolean
write_output (Apply      *a,
              Item       *item,
              GsImage    *target,
              int         depth,
              const char *temp,
              GBytes     *profile,
              gboolean   *dropped,
              GError    **error)
{
  GsMetaUpdate update = { 0 };
  GsImage      labelled = *target;
  GsImage     *perceptual = NULL;
  gboolean     linear = a->linear;
  gboolean     ok;

  /* The savers get perceptual values (PFM excepted: it stores the
   * working values verbatim).  PNG, JPEG and TIFF store them as they are
   * in the buffer's space, and gs_icc_embed() then writes the exact
   * profile; PNG's buffer is labelled sRGB, as GEGL's PNG saver derives
   * a cHRM chunk from other spaces that libpng may refuse, and the
   * profile replaces that chunk anyway.  Savers of formats without a
   * profile convert from the true space to their own (sRGB, linear). */
  if (linear && !has_extension (temp, "pfm"))
    {
      perceptual = map_bands (target, FALSE, perceptual_band, NULL, error);
      if (perceptual == NULL)
        return FALSE;
      labelled = *perceptual;
      linear = FALSE;
    }
  if (has_extension (temp, "png"))
    labelled.space = NULL;
  ok = gs_image_write (&labelled, temp, linear, depth, error);
  gs_image_free (perceptual);
  if (!ok)
    return FALSE;
  if (!gs_icc_embed (temp, profile, error))
    return FALSE;
  if (a->strip_metadata)
    return TRUE;
  update.width = target->width;
  update.height = target->height;
  update.software = a->software;
  update.converted = a->target != NULL;
  update.to_srgb = a->target != NULL && gs_colour_target_is_srgb (a->target);
  update.profile_description = a->target != NULL
                               ? gs_colour_target_description (a->target)
                               : NULL;
  return gs_meta_carry (item->input, temp, &update, dropped, error)
         && gs_png_text_carry (item->input, temp, a->software, error);
}

static void
warn_dropped (Apply      *a,
              const Item *item)
{
  const char *ext = extension_of (item->output);

  g_mutex_lock (&a->report_lock);
  if (!a->dropped_warned)
    {
      if (a->tty && !a->quiet)
        fputs ("\r\033[K", stderr);
      fprintf (stderr, _("%s: warning: %s files cannot hold EXIF, XMP or "
                         "IPTC; the inputs' metadata is not carried over\n"),
               PROGRAM, ext ? ext : "");
      a->dropped_warned = TRUE;
    }
  g_mutex_unlock (&a->report_lock);
}

/* The output folder exists (prepare()); the folders --root adds below it
 * are made one by one without following a link planted among them. */
static gboolean
make_output_folder (const Apply *a,
                    const char  *dir,
                    GError     **error)
{
  int saved;

  if (g_str_has_prefix (dir, a->output_dir))
    return gs_safe_mkdir_below (a->output_dir, dir + strlen (a->output_dir),
                                error);
  if (g_mkdir_with_parents (dir, 0777) == 0)
    return TRUE;
  saved = errno;
  g_set_error_literal (error, G_FILE_ERROR, g_file_error_from_errno (saved),
                       g_strerror (saved));
  return FALSE;
}

static void
process_item (Apply *a,
              Item  *item)
{
  GsImage  *input, *target = NULL;
  GBytes   *profile = NULL;
  GError   *error = NULL;
  char     *temp = NULL;
  char     *dir;
  gboolean  ok, dropped = FALSE;

  input = load_input (a, item, &profile);
  if (input == NULL)
    return;
  target = render (a, item, input);
  if (target == NULL)
    goto out;

  dir = g_path_get_dirname (item->output);
  if (!make_output_folder (a, dir, &error))
    {
      fail_item (item, _("cannot create '%s': %s"), dir, error->message);
      g_clear_error (&error);
      g_free (dir);
      goto out;
    }
  g_free (dir);
  temp = create_temp_for (a, item, &error);
  if (temp == NULL)
    {
      fail_item (item, _("cannot write '%s': %s"), item->output,
                 error->message);
      g_error_free (error);
      goto out;
    }
  g_mutex_lock (&a->io_lock);
  ok = write_output (a, item, target,
                     item->depth >= 0 ? item->depth : input->source_depth,
                     temp, profile, &dropped, &error);
  g_mutex_unlock (&a->io_lock);
  if (ok && dropped)
    warn_dropped (a, item);
  /* The saver, the profile and the metadata have each rewritten the
   * file; what counts is that the last version is whole and on disk. */
  if (ok)
    ok = gs_image_check_complete (temp, &error)
         && gs_safe_file_sync (temp, &error);
  if (!ok)
    {
      /* Name the real output, not the temporary file. */
      fail_item (item, _("cannot write '%s': %s"), item->output,
                 error->message);
      g_error_free (error);
      g_unlink (temp);
      goto out;
    }
  if (g_rename (temp, item->output) != 0)
    {
      int saved = errno;

      fail_item (item, _("cannot write '%s': %s"), item->output,
                 g_strerror (saved));
      g_unlink (temp);
      goto out;
    }
  item->state = ITEM_DONE;

out:
  g_free (temp);
  if (profile != NULL)
    g_bytes_unref (profile);
  gs_image_free (target);
  gs_image_free (input);
}

/* ------------------------------------------------------------------ */
/* Progress                                                            */
/* ------------------------------------------------------------------ */

static const char *
state_name (ItemState state)
{
  switch (state)
    {
    case ITEM_DONE:    return "written";
    case ITEM_SKIPPED: return "skipped";
    default:           return "failed";
    }
}

/* Called with the report lock held. */
static void
record (Apply *a,
        Item  *item)
{
  GsManifestEntry entry;
  GError         *error = NULL;

  if (a->manifest == NULL || a->manifest_error != NULL)
    return;
  entry.input = item->input;
  entry.output = item->output;
  entry.status = state_name (item->state);
  entry.seconds = item->seconds;
  entry.error = item->state == ITEM_FAILED ? item->error : NULL;
  entry.warning = item->state == ITEM_DONE ? item->warning : NULL;
  if (!gs_manifest_add (a->manifest, &entry, &error))
    {
      /* Reported at the end, and the run fails: a scheduler that merges
       * manifests must not trust this one. */
      a->manifest_error = g_strdup (error->message);
      g_error_free (error);
    }
}

static void
report (Apply *a,
        Item  *item)
{
  int   total = (int) a->items->len;
  char *input, *output, *why;

  g_mutex_lock (&a->report_lock);
  a->n_finished++;
  if (item->state == ITEM_DONE)
    a->n_done++;
  else if (item->state == ITEM_SKIPPED)
    a->n_skipped++;
  else
    a->n_failed++;
  if (item->state != ITEM_SKIPPED)
    a->n_processed++;
  record (a, item);
  /* Told even with --quiet: the image was written, but not all of it may
   * be what the filter meant (a loop was stopped). */
  if (item->warning != NULL)
    {
      char *shown_input = gs_safe_display_name (item->input);
      char *shown = gs_safe_display_name (item->warning);

      if (a->tty && !a->quiet)
        fputs ("\r\033[K", stderr);
      fprintf (stderr, _("%s: warning: %s: %s\n"), PROGRAM, shown_input, shown);
      g_free (shown_input);
      g_free (shown);
    }
  if (a->quiet)
    {
      g_mutex_unlock (&a->report_lock);
      return;
    }
  input = gs_safe_display_name (item->input);
  output = item->output ? gs_safe_display_name (item->output) : NULL;
  why = item->error ? gs_safe_display_name (item->error) : NULL;
  if (a->tty)
    {
      GsProgress p;
      char      *line;

      p.finished = a->n_finished;
      p.total = total;
      p.failed = a->n_failed;
      p.processed = a->n_processed;
      p.elapsed = (g_get_monotonic_time () - a->started) / 1e6;
      line = gs_progress_line (&p);
      if (item->state == ITEM_FAILED)
        fprintf (stderr, "\r\033[K%s: %s\n", input, why);
      fprintf (stderr, "\r\033[K%s", line);
      fflush (stderr);
      g_free (line);
    }
  else
    {
      switch (item->state)
        {
        case ITEM_DONE:
          printf (_("[%d/%d] wrote %s\n"), a->n_finished, total, output);
          break;
        case ITEM_SKIPPED:
          printf (_("[%d/%d] skipped %s (up to date)\n"), a->n_finished, total,
                  output);
          break;
        default:
          printf (_("[%d/%d] FAILED %s: %s\n"), a->n_finished, total,
                  input, why);
          break;
        }
      fflush (stdout);
    }
  g_free (input);
  g_free (output);
  g_free (why);
  g_mutex_unlock (&a->report_lock);
}

static gpointer
worker_run (gpointer data)
{
  Apply *a = data;

  for (;;)
    {
      int    i = g_atomic_int_add (&a->next_item, 1);
      Item  *item;
      gint64 t0;

      if (i >= (int) a->items->len)
        break;
      item = a->items->pdata[i];
      t0 = g_get_monotonic_time ();
      if (item->state == ITEM_PENDING)
        {
          if (!a->force && output_is_complete (a, item))
            item->state = ITEM_SKIPPED;
          else
            process_item (a, item);
        }
      item->seconds = (g_get_monotonic_time () - t0) / 1e6;
      report (a, item);
    }
  return NULL;
}

/* ------------------------------------------------------------------ */
/* main                                                                */
/* ------------------------------------------------------------------ */

static int
check_options (Apply *a)
{
  if (a->jobs < 1 || a->jobs > MAX_JOBS)
    {
      char *message = g_strdup_printf (_("--jobs must be between 1 and %d"),
                                       MAX_JOBS);
      int   status = usage_error (message);

      g_free (message);
      return status;
    }
  if (a->depth != 0 && a->depth != 8 && a->depth != 16)
    return usage_error (_("--depth must be 8 or 16"));
  /* One budget per image's render, as for `run`: the option, else the
   * environment, else the library's default. */
  if (a->memory_budget_text != NULL
      ? !gs_memory_budget_parse (a->memory_budget_text, &a->memory_budget)
      : !gs_memory_budget_from_env (&a->memory_budget))
    {
      char *message = a->memory_budget_text != NULL
        ? g_strdup_printf (_("--memory-budget '%s' is not a size such as "
                             "512M or 2G"), a->memory_budget_text)
        : g_strdup_printf (_("%s='%s' is not a size such as 512M or 2G"),
                           GS_MEMORY_BUDGET_ENV, g_getenv (GS_MEMORY_BUDGET_ENV));
      int   status = usage_error (message);

      g_free (message);
      return status;
    }
  if (a->format != NULL)
    {
      char    *probe;
      gboolean ok;

      if (*a->format == '.')
        memmove (a->format, a->format + 1, strlen (a->format));
      probe = g_strconcat ("x.", a->format, NULL);
      ok = gs_image_save_supported (probe);
      g_free (probe);
      if (!ok)
        return usage_error (_("--format must be one of png, pfm, exr, tif, "
                              "jpg, ppm, webp, hdr"));
    }
  if (a->root != NULL && !g_file_test (a->root, G_FILE_TEST_IS_DIR))
    {
      char *message = g_strdup_printf (_("--root '%s' is not a folder"),
                                       a->root);
      int   status = usage_error (message);

      g_free (message);
      return status;
    }
  if (a->shard_spec != NULL)
    {
      GError *error = NULL;

      if (!gs_shard_parse (a->shard_spec, &a->shard_index, &a->shard_count,
                           &error))
        {
          int status = usage_error (error->message);

          g_error_free (error);
          return status;
        }
    }
  return -1;
}

static int
parse_arguments (Apply     *a,
                 int        argc,
                 char     **argv,
                 char     **filter,
                 GPtrArray *params)
{
  GOptionContext *context = make_context (a);
  GError         *error = NULL;
  char          **copy = g_new0 (char *, argc + 1);
  char          **args = copy;
  int             n = argc;
  int             status = -1;
  gboolean        options_ended = FALSE;

  memcpy (copy, argv, argc * sizeof (char *));
  if (!g_option_context_parse (context, &n, &args, &error))
    {
      status = usage_error (error->message);
      g_error_free (error);
    }
  else if (a->help)
    {
      gs_apply_print_help (stdout);
      status = EXIT_OK;
    }
  else if (a->list_filters)
    status = list_filters ();
  else
    {
      GPtrArray *operands = g_ptr_array_new ();

      /* GOption leaves a "--" in place when operands follow it. */
      for (int i = 1; i < n; i++)
        if (!options_ended && g_str_equal (args[i], "--"))
          options_ended = TRUE;
        else
          g_ptr_array_add (operands, args[i]);
      if (operands->len < 1)
        status = usage_error (_("missing FILTER"));
      else
        {
          *filter = g_strdup (operands->pdata[0]);
          for (guint i = 1; i < operands->len; i++)
            if (is_assignment (operands->pdata[i]))
              g_ptr_array_add (params, g_strdup (operands->pdata[i]));
            else
              g_ptr_array_add (a->names, g_strdup (operands->pdata[i]));
        }
      g_ptr_array_unref (operands);
      for (int i = 0; status < 0 && a->list_files && a->list_files[i]; i++)
        if (!gs_read_input_list (a->list_files[i], a->null_separated,
                                 a->names, &error))
          {
            print_error_line ("%s", error->message);
            g_error_free (error);
            status = EXIT_ERROR;
          }
      if (status >= 0)
        ;
      else if (a->names->len == 0 && a->list_files == NULL)
        status = usage_error (_("no input FILE given"));
      else if (a->output_dir == NULL)
        status = usage_error (_("missing -o DIR"));
      else
        status = check_options (a);
    }
  g_free (copy);
  g_option_context_free (context);
  return status;
}

/* Checks every NAME=VALUE against the filter once, before any image. */
static gboolean
check_params (Apply *a)
{
  SlBinding     *binding = NULL;
  SlDiagnostics *diags = sl_diagnostics_new ();
  gboolean       ok;

  if (a->effect != NULL)
    ok = gs_effect_filter_check_params (a->effect, a->params, diags);
  else
    {
      binding = sl_binding_new (a->program);
      sl_binding_set_auto_mips (binding, true);
      ok = sl_binding_set_params_string (binding, a->params, diags)
           && sl_diagnostics_error_count (diags) == 0;
    }
  if (!ok)
    {
      char *text = sl_diagnostics_format (diags);

      if (text != NULL && *text != '\0')
        fputs (text, stderr);
      else
        print_error_line (_("invalid parameters '%s'"), a->params);
      g_free (text);
    }
  sl_diagnostics_free (diags);
  if (binding != NULL)
    sl_binding_free (binding);
  return ok;
}

static void
apply_clear (Apply *a)
{
  g_free (a->output_dir);
  g_free (a->format);
  g_free (a->convert_to);
  g_free (a->shard_spec);
  g_free (a->root);
  g_strfreev (a->list_files);
  g_free (a->manifest_path);
  g_free (a->memory_budget_text);
  g_free (a->filter_path);
  g_free (a->params);
  g_free (a->hostname);
  g_free (a->software);
  g_free (a->manifest_error);
  gs_colour_target_free (a->target);
  if (a->program != NULL)
    sl_program_unref (a->program);
  gs_effect_filter_free (a->effect);
  if (a->items != NULL)
    g_ptr_array_free (a->items, TRUE);
  if (a->names != NULL)
    g_ptr_array_free (a->names, TRUE);
  g_mutex_clear (&a->io_lock);
  g_mutex_clear (&a->report_lock);
}

/* Everything that can fail before the first image: the filter, its
 * parameters, the target profile, the output folder, the manifest. */
static int
prepare (Apply     *a,
         const char *filter,
         GPtrArray *params)
{
  GError *error = NULL;

  a->filter_path = find_filter (filter);
  if (a->filter_path == NULL)
    return EXIT_ERROR;
  a->filter_mtime = mtime_of (a->filter_path);
  if (gs_effect_file_p (a->filter_path))
    {
      if (!open_effect (a))
        return EXIT_ERROR;
    }
  else if ((a->program = compile_filter (a->filter_path)) == NULL)
    return EXIT_ERROR;
  if (params->len > 0)
    {
      g_ptr_array_add (params, NULL);
      a->params = g_strjoinv ("; ", (char **) params->pdata);
      if (!check_params (a))
        return EXIT_ERROR;
    }
  if (a->convert_to != NULL)
    {
      a->target = gs_colour_target_new (a->convert_to, &error);
      if (a->target == NULL)
        {
          print_error_line ("%s", error->message);
          g_error_free (error);
          return EXIT_ERROR;
        }
      if (a->linear && gs_colour_target_space (a->target) == NULL
          && !gs_colour_target_is_srgb (a->target))
        {
          print_error_line (_("--linear needs a matrix profile to linearise "
                            "with; '%s' is not one"), a->convert_to);
          return EXIT_ERROR;
        }
    }
  if (g_mkdir_with_parents (a->output_dir, 0777) != 0)
    {
      int saved = errno;

      print_error_line (_("cannot create '%s': %s"), a->output_dir,
                      g_strerror (saved));
      return EXIT_ERROR;
    }
  if (a->manifest_path != NULL)
    {
      char *shard = a->shard_count > 0
                    ? g_strdup_printf ("%u/%u", a->shard_index, a->shard_count)
                    : NULL;

      a->manifest = gs_manifest_open (a->manifest_path, shard, a->hostname,
                                      &error);
      g_free (shard);
      if (a->manifest == NULL)
        {
          print_error_line ("%s", error->message);
          g_error_free (error);
          return EXIT_ERROR;
        }
    }
  return -1;
}

int
gs_apply_main (int    argc,
               char **argv)
{
  Apply      a = { 0 };
  GPtrArray *params = g_ptr_array_new_with_free_func (g_free);
  char      *filter = NULL;
  int        status;
  GThread  **threads;
  char       host[256];
  GError    *error = NULL;

  a.jobs = 1;
  a.items = g_ptr_array_new_with_free_func ((GDestroyNotify) item_free);
  a.names = g_ptr_array_new_with_free_func (g_free);
  g_mutex_init (&a.io_lock);
  g_mutex_init (&a.report_lock);
  if (gethostname (host, sizeof host) != 0)
    g_strlcpy (host, "localhost", sizeof host);
  host[sizeof host - 1] = '\0';
  a.hostname = g_strdup (host);
  a.software = g_strdup (PROGRAM " " GEGL_SHADERS_VERSION);

  status = parse_arguments (&a, argc, argv, &filter, params);
  if (status < 0)
    {
      /* babl reads the target profile, GEGL the images. */
      gegl_init (NULL, NULL);
      status = prepare (&a, filter, params);
      if (status >= 0)
        gs_image_io_gegl_exit ();
    }
  g_ptr_array_free (params, TRUE);
  g_free (filter);
  if (status >= 0)
    {
      gs_manifest_close (a.manifest, NULL);
      apply_clear (&a);
      return status;
    }

  a.tty = isatty (STDERR_FILENO) && g_getenv ("GS_NO_PROGRESS_BAR") == NULL;
  plan_outputs (&a);
  remove_all_stale_temps (&a);
  if (a.shard_count > 0 && !a.quiet)
    {
      printf (_("shard %u/%u: %u inputs\n"), a.shard_index, a.shard_count,
              a.items->len);
      fflush (stdout);
    }

  if (!a.strip_metadata)
    gs_meta_init ();
  a.started = g_get_monotonic_time ();
  a.jobs = MAX (1, MIN (a.jobs, (int) a.items->len));
  a.render_threads = MAX (1, (int) g_get_num_processors () / a.jobs);
  threads = g_new0 (GThread *, a.jobs);
  /* The calling thread is one of the workers; a thread that cannot be
   * created only means fewer images at once. */
  for (int i = 1; i < a.jobs; i++)
    threads[i] = g_thread_try_new ("gs-apply", worker_run, &a, NULL);
  worker_run (&a);
  for (int i = 1; i < a.jobs; i++)
    if (threads[i] != NULL)
      g_thread_join (threads[i]);
  g_free (threads);

  if (a.tty && !a.quiet && a.items->len > 0)
    fputc ('\n', stderr);
  printf (_("%d written, %d skipped, %d failed\n"), a.n_done, a.n_skipped,
          a.n_failed);
  fflush (stdout);
  for (guint i = 0; i < a.items->len; i++)
    {
      Item *item = a.items->pdata[i];

      if (item->state == ITEM_FAILED)
        print_error_line ("%s: %s", item->input, item->error);
    }
  status = a.n_failed > 0 ? EXIT_ERROR : EXIT_OK;
  if (!gs_manifest_close (a.manifest, &error) && a.manifest_error == NULL)
    {
      a.manifest_error = g_strdup (error->message);
      g_error_free (error);
    }
  if (a.manifest_error != NULL)
    {
      print_error_line ("%s", a.manifest_error);
      status = EXIT_ERROR;
    }
  apply_clear (&a);
  gs_image_io_gegl_exit ();
  return status;
}
