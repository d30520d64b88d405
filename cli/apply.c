/* apply — `gegl-shaders apply FILTER [NAME=VALUE…] FILES… -o DIR`.
 *
 * The batch command is built so that no run can lose or corrupt an image:
 *   - outputs never replace an input: every output path is compared with
 *     every input (by device and inode when it exists, else by canonical
 *     path) before anything is rendered;
 *   - each output is written to a hidden temporary file in DIR, flushed to
 *     disk and renamed over the final name, so a final name only ever holds
 *     a complete image, however the run ends;
 *   - a re-run skips outputs that exist and are newer than both their input
 *     and the filter file (so it resumes after a crash or kill), and first
 *     removes the temporary files that dead runs on this host left behind;
 *   - a bad file is reported and the run goes on; every failure is listed
 *     again at the end and the exit status is 1.
 * Images are independent, so -j N runs N of them at once, each rendering
 * with a share of the CPUs.  GEGL's codecs and the image-io warning capture
 * are process-wide, so loading and saving take one lock while rendering,
 * the expensive part, runs in parallel.  The filter is compiled once; each
 * image gets its own binding since the viewport is the image's size.
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
#include "render.h"
#include "filter-path.h"
#include "shader-file.h"

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
  char     *output;   /* NULL when the item failed before it started */
  int       depth;    /* for gs_image_save(); -1 = take the input's */
  ItemState state;
  char     *error;
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
  /* the run */
  char      *filter_path;
  gint64     filter_mtime;
  SlProgram *program;
  char      *params;       /* "NAME=V; NAME=V,V" for the binding */
  GPtrArray *items;        /* Item*, owned */
  gint       next_item;    /* atomic */
  int        render_threads;
  GMutex     io_lock;      /* GEGL codecs and the warning capture */
  GMutex     report_lock;
  int        n_finished, n_done, n_skipped, n_failed;
  gboolean   tty;
  char      *hostname;
} Apply;

static int
usage_error (const char *message)
{
  gs_print_error ("%s", message);
  fprintf (stderr, _("Try '%s help apply'.\n"), PROGRAM);
  return EXIT_USAGE;
}

static void
item_free (Item *item)
{
  g_free (item->input);
  g_free (item->output);
  g_free (item->error);
  g_free (item);
}

static GOptionContext *
make_context (Apply *a)
{
  const GOptionEntry entries[] =
  {
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
      N_("Work in linear RGBA instead of perceptual R'G'B'A"), NULL },
    { "force", 0, 0, G_OPTION_ARG_NONE, &a->force,
      N_("Redo outputs that look complete"), NULL },
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
    _("Apply FILTER (a shader file, or the name of a shipped filter) to "
      "every FILE,\nsetting its parameters from NAME=VALUE operands, and "
      "write the results\ninto DIR under the same names.  A re-run skips "
      "the outputs already written.\nExit status: 0 when every file was "
      "written or skipped, 1 when any failed,\n2 on usage errors."));
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
  gs_print_error (_("no filter or shader file '%s' (shipped filters: %s)"),
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
      gs_print_error ("%s", error->message);
      g_error_free (error);
      return NULL;
    }
  options.source = source;
  options.length = length;
  options.filename = path;
  options.language = SL_LANGUAGE_AUTO;
  diags = sl_diagnostics_new ();
  program = sl_compile (&options, diags);
  text = sl_diagnostics_format (diags);
  if (text != NULL)
    fputs (text, stderr);
  g_free (text);
  if (program == NULL && sl_diagnostics_error_count (diags) == 0)
    gs_print_error (_("%s: compilation failed without a diagnostic"), path);
  sl_diagnostics_free (diags);
  g_free (source);
  return program;
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
 * resolved, its last component kept. */
static char *
canonical_path (const char *path)
{
  char *dir = g_path_get_dirname (path);
  char *base = g_path_get_basename (path);
  char *real = realpath (dir, NULL);
  char *result = g_build_filename (real ? real : dir, base, NULL);

  free (real);
  g_free (dir);
  g_free (base);
  return result;
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

/* Names every output and refuses, per file, anything that could destroy
 * data: an output that is an input (this one or another), two inputs
 * mapping to one output, a format that cannot be written. */
static void
plan_outputs (Apply *a)
{
  GHashTable *inputs = g_hash_table_new_full (g_str_hash, g_str_equal,
                                              g_free, NULL);
  GHashTable *outputs = g_hash_table_new (g_str_hash, g_str_equal);

  for (guint i = 0; i < a->items->len; i++)
    {
      Item *item = a->items->pdata[i];

      g_hash_table_add (inputs, canonical_path (item->input));
    }
  for (guint i = 0; i < a->items->len; i++)
    {
      Item       *item = a->items->pdata[i];
      char       *base = g_path_get_basename (item->input);
      const char *ext = extension_of (base);
      char       *name, *canon;
      GStatBuf    in_st, out_st;

      if (a->format != NULL)
        {
          char *stem = ext ? g_strndup (base, ext - 1 - base) : g_strdup (base);

          name = g_strconcat (stem, ".", a->format, NULL);
          g_free (stem);
        }
      else
        name = g_strdup (base);
      item->output = g_build_filename (a->output_dir, name, NULL);
      item->depth = a->depth != 0 ? a->depth : -1;
      if (a->format != NULL && a->depth == 0
          && (ext == NULL || g_ascii_strcasecmp (ext, a->format) != 0))
        item->depth = 0;   /* another format: its own default depth */
      canon = canonical_path (item->output);

      if (!gs_image_save_supported (item->output))
        fail_item (item, _("cannot write '%s' files; choose an output format "
                           "with --format"), ext ? ext : _("extension-less"));
      else if (g_hash_table_contains (inputs, canon)
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
        g_hash_table_insert (outputs, canon, item);
      if (item->state == ITEM_FAILED)
        g_free (canon);
      g_free (name);
      g_free (base);
    }
  /* The output table borrows the canonical names; free them here. */
  {
    GHashTableIter iter;
    gpointer       key;

    g_hash_table_iter_init (&iter, outputs);
    while (g_hash_table_iter_next (&iter, &key, NULL))
      g_free (key);
  }
  g_hash_table_destroy (outputs);
  g_hash_table_destroy (inputs);
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
 * when no newer input or filter could have changed it. */
static gboolean
output_is_complete (const Apply *a,
                    const Item  *item)
{
  gint64 out = mtime_of (item->output);

  return out >= 0 && out >= mtime_of (item->input)
         && out >= a->filter_mtime;
}

/* Removes temporary files of runs that died on this host.  A temp name is
 * ".NAME.gs-tmp-HOST-PID.EXT"; a live PID (another run still writing) and
 * other hosts' files (a shared folder) are left alone. */
static void
remove_stale_temps (const Apply *a)
{
  GDir       *dir = g_dir_open (a->output_dir, 0, NULL);
  const char *entry;

  if (dir == NULL)
    return;
  while ((entry = g_dir_read_name (dir)) != NULL)
    {
      const char *mark = strstr (entry, TMP_MARK);
      char       *rest, *dot, *dash, *end;
      long        pid;

      if (entry[0] != '.' || mark == NULL)
        continue;
      rest = g_strdup (mark + strlen (TMP_MARK));
      dot = strrchr (rest, '.');
      if (dot != NULL)
        *dot = '\0';
      dash = strrchr (rest, '-');
      if (dash != NULL)
        {
          *dash = '\0';
          errno = 0;
          pid = strtol (dash + 1, &end, 10);
          if (errno == 0 && *end == '\0' && pid > 0
              && g_str_equal (rest, a->hostname)
              && kill ((pid_t) pid, 0) != 0 && errno == ESRCH)
            {
              char *path = g_build_filename (a->output_dir, entry, NULL);

              g_unlink (path);
              g_free (path);
            }
        }
      g_free (rest);
    }
  g_dir_close (dir);
}

/* ------------------------------------------------------------------ */
/* Processing one image                                                */
/* ------------------------------------------------------------------ */

/* Outputs are distinct, so host, PID and output name make a temp name no
 * other writer uses, even with several machines on one shared folder. */
static char *
temp_path_for (const Apply *a,
               const Item  *item)
{
  char       *base = g_path_get_basename (item->output);
  const char *ext = extension_of (base);
  char       *name, *path;

  /* The extension stays last: it picks the encoder. */
  name = g_strdup_printf (".%s" TMP_MARK "%s-%ld.%s", base, a->hostname,
                          (long) getpid (), ext ? ext : "tmp");
  path = g_build_filename (a->output_dir, name, NULL);
  g_free (name);
  g_free (base);
  return path;
}

static gboolean
flush_to_disk (const char *path)
{
  int fd = g_open (path, O_RDONLY, 0);
  int ok;

  if (fd < 0)
    return FALSE;
  ok = fsync (fd) == 0 || errno == EINVAL;
  close (fd);
  return ok;
}

static void
process_item (Apply *a,
              Item  *item)
{
  GsImage       *input, *target = NULL;
  GError        *error = NULL;
  SlBinding     *binding = NULL;
  SlDiagnostics *diags = sl_diagnostics_new ();
  SlTexture      texture;
  char          *temp = NULL;
  gboolean       ok;

  g_mutex_lock (&a->io_lock);
  input = gs_image_load (item->input, gs_image_working_format (a->linear),
                         &error);
  g_mutex_unlock (&a->io_lock);
  if (input == NULL)
    {
      fail_item (item, "%s", error->message);
      g_error_free (error);
      goto out;
    }
  target = gs_image_new (input->width, input->height, &error);
  if (target == NULL)
    {
      fail_item (item, "%s", error->message);
      g_error_free (error);
      goto out;
    }
  /* Discarded pixels keep the input, as the GEGL op does. */
  memcpy (target->pixels, input->pixels,
          (gsize) input->width * input->height * 4 * sizeof (float));

  binding = sl_binding_new (a->program);
  sl_binding_set_auto_mips (binding, true);
  sl_binding_set_viewport (binding, input->width, input->height);
  if (a->params != NULL)
    sl_binding_set_params_string (binding, a->params, diags);
  sl_texture_init_2d (&texture, input->width, input->height,
                      (size_t) input->width * 4, input->pixels);
  /* Every sampler reads the image, as in the GEGL op. */
  gs_bind_samplers (binding, a->program, &texture, NULL);
  ok = sl_binding_prepare (binding, diags)
       && gs_render_image (binding, target, a->render_threads, diags);
  if (!ok || sl_diagnostics_error_count (diags) > 0)
    {
      char *text = sl_diagnostics_format (diags);

      g_strchomp (text);
      fail_item (item, _("rendering failed: %s"),
                 *text ? text : _("no diagnostic"));
      g_free (text);
      goto out;
    }

  temp = temp_path_for (a, item);
  g_mutex_lock (&a->io_lock);
  ok = gs_image_save (target, temp, a->linear,
                      item->depth >= 0 ? item->depth : input->source_depth,
                      &error);
  g_mutex_unlock (&a->io_lock);
  if (!ok)
    {
      /* Name the real output, not the temporary file. */
      fail_item (item, _("cannot write '%s': %s"), item->output,
                 error->message);
      g_error_free (error);
      g_unlink (temp);
      goto out;
    }
  if (!flush_to_disk (temp) || g_rename (temp, item->output) != 0)
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
  if (binding != NULL)
    sl_binding_free (binding);
  sl_diagnostics_free (diags);
  gs_image_free (target);
  gs_image_free (input);
}

/* ------------------------------------------------------------------ */
/* Progress                                                            */
/* ------------------------------------------------------------------ */

static void
report (Apply *a,
        Item  *item)
{
  int total = (int) a->items->len;

  g_mutex_lock (&a->report_lock);
  a->n_finished++;
  if (item->state == ITEM_DONE)
    a->n_done++;
  else if (item->state == ITEM_SKIPPED)
    a->n_skipped++;
  else
    a->n_failed++;
  if (a->tty)
    {
      const int width = 30;
      int       filled = total ? a->n_finished * width / total : width;
      char     *base = g_path_get_basename (item->input);

      if (item->state == ITEM_FAILED)
        fprintf (stderr, "\r\033[K%s: %s\n", item->input, item->error);
      fprintf (stderr, "\r\033[K[");
      for (int i = 0; i < width; i++)
        fputc (i < filled ? '#' : '.', stderr);
      fprintf (stderr, _("] %d/%d, %d failed  %.40s"), a->n_finished, total,
               a->n_failed, base);
      g_free (base);
      fflush (stderr);
    }
  else
    {
      switch (item->state)
        {
        case ITEM_DONE:
          printf (_("[%d/%d] wrote %s\n"), a->n_finished, total, item->output);
          break;
        case ITEM_SKIPPED:
          printf (_("[%d/%d] skipped %s (up to date)\n"), a->n_finished, total,
                  item->output);
          break;
        default:
          printf (_("[%d/%d] FAILED %s: %s\n"), a->n_finished, total,
                  item->input, item->error);
          break;
        }
      fflush (stdout);
    }
  g_mutex_unlock (&a->report_lock);
}

static gpointer
worker_run (gpointer data)
{
  Apply *a = data;

  for (;;)
    {
      int   i = g_atomic_int_add (&a->next_item, 1);
      Item *item;

      if (i >= (int) a->items->len)
        break;
      item = a->items->pdata[i];
      if (item->state == ITEM_PENDING)
        {
          if (!a->force && output_is_complete (a, item))
            item->state = ITEM_SKIPPED;
          else
            process_item (a, item);
        }
      report (a, item);
    }
  return NULL;
}

/* ------------------------------------------------------------------ */
/* main                                                                */
/* ------------------------------------------------------------------ */

static int
parse_arguments (Apply  *a,
                 int     argc,
                 char  **argv,
                 char  **filter,
                 GPtrArray *params)
{
  GOptionContext *context = make_context (a);
  GError         *error = NULL;
  char          **copy = g_new0 (char *, argc + 1);
  char          **args = copy;
  int             n = argc;
  int             status = -1;

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
  else if (n < 2)
    status = usage_error (_("missing FILTER"));
  else
    {
      *filter = g_strdup (args[1]);
      for (int i = 2; i < n; i++)
        if (is_assignment (args[i]))
          g_ptr_array_add (params, g_strdup (args[i]));
        else
          {
            Item *item = g_new0 (Item, 1);

            item->input = g_strdup (args[i]);
            g_ptr_array_add (a->items, item);
          }
      if (a->items->len == 0)
        status = usage_error (_("no input FILE given"));
      else if (a->output_dir == NULL)
        status = usage_error (_("missing -o DIR"));
      else if (a->jobs < 1 || a->jobs > MAX_JOBS)
        {
          char *message = g_strdup_printf (_("--jobs must be between 1 and "
                                             "%d"), MAX_JOBS);

          status = usage_error (message);
          g_free (message);
        }
      else if (a->depth != 0 && a->depth != 8 && a->depth != 16)
        status = usage_error (_("--depth must be 8 or 16"));
      else if (a->format != NULL)
        {
          char *probe;

          if (*a->format == '.')
            memmove (a->format, a->format + 1, strlen (a->format));
          probe = g_strconcat ("x.", a->format, NULL);
          if (!gs_image_save_supported (probe))
            status = usage_error (_("--format must be one of png, pfm, exr, "
                                    "tif, jpg, ppm, webp, hdr"));
          g_free (probe);
        }
    }
  g_free (copy);
  g_option_context_free (context);
  return status;
}

/* Checks every NAME=VALUE against the filter once, before any image. */
static gboolean
check_params (Apply *a)
{
  SlBinding     *binding = sl_binding_new (a->program);
  sl_binding_set_auto_mips (binding, true);
  SlDiagnostics *diags = sl_diagnostics_new ();
  gboolean       ok;

  ok = sl_binding_set_params_string (binding, a->params, diags)
       && sl_diagnostics_error_count (diags) == 0;
  if (!ok)
    {
      char *text = sl_diagnostics_format (diags);

      if (text != NULL && *text != '\0')
        fputs (text, stderr);
      else
        gs_print_error (_("invalid parameters '%s'"), a->params);
      g_free (text);
    }
  sl_diagnostics_free (diags);
  sl_binding_free (binding);
  return ok;
}

static void
apply_clear (Apply *a)
{
  g_free (a->output_dir);
  g_free (a->format);
  g_free (a->filter_path);
  g_free (a->params);
  g_free (a->hostname);
  if (a->program != NULL)
    sl_program_unref (a->program);
  if (a->items != NULL)
    g_ptr_array_free (a->items, TRUE);
  g_mutex_clear (&a->io_lock);
  g_mutex_clear (&a->report_lock);
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

  a.jobs = 1;
  a.items = g_ptr_array_new_with_free_func ((GDestroyNotify) item_free);
  g_mutex_init (&a.io_lock);
  g_mutex_init (&a.report_lock);

  status = parse_arguments (&a, argc, argv, &filter, params);
  if (status < 0)
    {
      a.filter_path = find_filter (filter);
      if (a.filter_path == NULL)
        status = EXIT_ERROR;
    }
  if (status < 0)
    {
      a.program = compile_filter (a.filter_path);
      a.filter_mtime = mtime_of (a.filter_path);
      if (a.program == NULL)
        status = EXIT_ERROR;
    }
  if (status < 0 && params->len > 0)
    {
      g_ptr_array_add (params, NULL);
      a.params = g_strjoinv ("; ", (char **) params->pdata);
      if (!check_params (&a))
        status = EXIT_ERROR;
    }
  if (status < 0 && g_mkdir_with_parents (a.output_dir, 0777) != 0)
    {
      int saved = errno;

      gs_print_error (_("cannot create '%s': %s"), a.output_dir,
                   g_strerror (saved));
      status = EXIT_ERROR;
    }
  g_ptr_array_free (params, TRUE);
  g_free (filter);
  if (status >= 0)
    {
      apply_clear (&a);
      return status;
    }

  if (gethostname (host, sizeof host) != 0)
    g_strlcpy (host, "localhost", sizeof host);
  host[sizeof host - 1] = '\0';
  a.hostname = g_strdup (host);
  a.tty = isatty (STDERR_FILENO) && g_getenv ("GS_NO_PROGRESS_BAR") == NULL;
  plan_outputs (&a);
  remove_stale_temps (&a);

  gegl_init (NULL, NULL);
  a.jobs = MIN (a.jobs, (int) a.items->len);
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

  if (a.tty)
    fputc ('\n', stderr);
  printf (_("%d written, %d skipped, %d failed\n"), a.n_done, a.n_skipped,
          a.n_failed);
  fflush (stdout);
  for (guint i = 0; i < a.items->len; i++)
    {
      Item *item = a.items->pdata[i];

      if (item->state == ITEM_FAILED)
        gs_print_error ("%s: %s", item->input, item->error);
    }
  status = a.n_failed > 0 ? EXIT_ERROR : EXIT_OK;
  apply_clear (&a);
  gegl_exit ();
  return status;
}
