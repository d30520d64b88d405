/* gegl-shaders — command-line front end to shaderlib.
 *
 * One executable with git-style subcommands: `check` compiles and reports,
 * `run` renders a shader over an image (or a blank canvas) and writes or
 * probes the result, `apply` runs a filter over many images (apply.c),
 * `dis` and `dump` show what the compiler made, `test` hands over to the
 * shader test runner (shader-test/).  Each subcommand parses its own
 * options with GOption; the option tables are built by one function per
 * command so that `gegl-shaders help COMMAND` prints exactly what the
 * parser accepts.
 *
 * Exit codes are part of the interface: 0 success, 1 a compile, render or
 * I/O error (reported on stderr), 2 a usage error.  Diagnostics about the
 * shader use shaderlib's "file:line:col: error: message" form; problems
 * with the command line or images are prefixed with the program name.
 * Numbers on the command line and in probe output are parsed and printed in
 * the C locale whatever the user's locale, so scripts see stable text.
 */
#include "config.h"

#include <errno.h>
#include <locale.h>
#include <stdio.h>
#include <stdlib.h>
#include <signal.h>
#include <string.h>

#include <glib.h>
#include <glib/gi18n.h>
#include <glib/gstdio.h>
#include <gegl.h>

#include "shaderlib.h"
#include "messages.h"
#include "image-save.h"
#include "render.h"
#include "apply.h"
#include "effect-cli.h"
#include "shader-file.h"
#include "host-values.h"
#include "memory-budget.h"
#include "image-io.h"

#include "shader-test.h"

#define EXIT_OK    0
#define EXIT_ERROR 1
#define EXIT_USAGE 2

#define PROGRAM "gegl-shaders"

#define MAX_VIEWPORT     65536
#define MAX_JOBS         256
#define DEFAULT_SIZE     512
#define JOBS_UNSET       G_MININT  /* -j not given: one thread per CPU */

typedef struct
{
  /* shared by check and run */
  char     *entry;
  char     *profile;
  char    **include_dirs;
  char    **defines;
  gboolean  any_path;      /* --allow-any-path */
  char     *memory_budget; /* --memory-budget */
  gsize     budget;        /* …resolved with GEGL_SHADERS_MEMORY_BUDGET */
  gboolean  help;
  char     *file;          /* the one operand */
  char    **argv_storage;  /* argument copies GOption parses */
  char    **argv_view;     /* the array GOption rearranges */
  /* run only */
  char     *input;
  char     *size;
  char    **sets;
  char    **textures;
  char    **sources;
  char    **probes;
  char     *output;
  gboolean  linear;
  int       depth;
  int       jobs;
  /* dump only */
  unsigned  compile_flags;
} Options;

static void
options_clear (Options *o)
{
  g_free (o->entry);
  g_free (o->profile);
  g_strfreev (o->include_dirs);
  g_strfreev (o->defines);
  g_free (o->input);
  g_free (o->memory_budget);
  g_free (o->size);
  g_strfreev (o->sets);
  g_strfreev (o->textures);
  g_strfreev (o->sources);
  g_strfreev (o->probes);
  g_free (o->output);
  g_free (o->file);
  g_strfreev (o->argv_storage);
  g_free (o->argv_view);
}

static int
usage_error (const char *command,
             const char *message)
{
  gs_print_error ("%s", message);
  fprintf (stderr, _("Try '%s help %s'.\n"), PROGRAM, command);
  return EXIT_USAGE;
}

/* ------------------------------------------------------------------ */
/* Option tables                                                       */
/* ------------------------------------------------------------------ */

static GOptionContext *
make_context (const char *command,
              Options    *o)
{
  const GOptionEntry compile_entries[] =
  {
    { "entry", 0, 0, G_OPTION_ARG_STRING, &o->entry,
      N_("Entry point function (default: main)"), N_("NAME") },
    { "profile", 0, 0, G_OPTION_ARG_STRING, &o->profile,
      N_("Target profile, e.g. ps_2_0, ps_3_0, ps_4_0 (default: auto)"),
      N_("PROFILE") },
    { "include-dir", 'I', 0, G_OPTION_ARG_FILENAME_ARRAY, &o->include_dirs,
      N_("Add DIR to the #include search path (repeatable)"), N_("DIR") },
    { "define", 'D', 0, G_OPTION_ARG_STRING_ARRAY, &o->defines,
      N_("Define a preprocessor macro (repeatable)"), N_("NAME[=VALUE]") },
    { "allow-any-path", 0, 0, G_OPTION_ARG_NONE, &o->any_path,
      N_("Let #include and texture files lie outside the shader's or "
         "effect's folder and the include folders"), NULL },
    { "memory-budget", 0, 0, G_OPTION_ARG_STRING, &o->memory_budget,
      N_("Memory one render may take for its images and textures (default: "
         "GEGL_SHADERS_MEMORY_BUDGET, else 2G)"), N_("SIZE") },
    { "help", 'h', 0, G_OPTION_ARG_NONE, &o->help,
      N_("Show this help"), NULL },
    { NULL }
  };
  const GOptionEntry run_entries[] =
  {
    { "input", 'i', 0, G_OPTION_ARG_FILENAME, &o->input,
      N_("Input image: sets the size, fills sampler slot 0 and pre-fills "
         "the target"), N_("IMG") },
    { "size", 's', 0, G_OPTION_ARG_STRING, &o->size,
      N_("Viewport size (default: the input's size, else 512x512)"),
      N_("WxH") },
    { "set", 0, 0, G_OPTION_ARG_STRING_ARRAY, &o->sets,
      N_("Set a shader or effect parameter (repeatable)"),
      N_("NAME=V[,V...]") },
    { "texture", 't', 0, G_OPTION_ARG_STRING_ARRAY, &o->textures,
      N_("Bind an image to a sampler slot number or sampler name "
         "(repeatable)"), N_("SLOT_OR_NAME=IMG") },
    { "source", 0, 0, G_OPTION_ARG_STRING_ARRAY, &o->sources,
      N_("Effect files: the runtime value of uniforms with source = NAME: "
         "timer=MS, frametime=MS, framecount=N, random=SEED, "
         "mousepoint=X,Y (pixels), date=YEAR,MONTH,DAY,SECONDS "
         "(repeatable)"), N_("NAME=V[,V...]") },
    { "probe", 'p', 0, G_OPTION_ARG_STRING_ARRAY, &o->probes,
      N_("Print pixel X,Y of the result as 'X Y R G B A' (repeatable)"),
      N_("X,Y") },
    { "output", 'o', 0, G_OPTION_ARG_FILENAME, &o->output,
      N_("Write the result; the format follows the extension: .png, .pfm, "
         ".exr, .tif, .jpg, .ppm, .webp, .hdr"), N_("OUT") },
    { "linear", 0, 0, G_OPTION_ARG_NONE, &o->linear,
      N_("Work in linear RGBA instead of perceptual R'G'B'A"), NULL },
    { "depth", 0, 0, G_OPTION_ARG_INT, &o->depth,
      N_("Bits per channel for .png/.ppm (8 or 16) and integer .tif "
         "(default: 8 for PNG, float for TIFF)"), N_("BITS") },
    { "jobs", 'j', 0, G_OPTION_ARG_INT, &o->jobs,
      N_("Render with N threads (default: number of CPUs)"), N_("N") },
    { NULL }
  };
  GOptionContext *context;
  GOptionGroup   *main_group;
  char           *prgname;

  /* GOption prints the program name in the usage line; include the
   * command so "Usage:" reads like what the user has to type. */
  prgname = g_strdup_printf ("%s %s", PROGRAM, command);
  g_set_prgname (prgname);
  g_free (prgname);

  context = g_option_context_new (_("FILE"));
  g_option_context_set_help_enabled (context, FALSE);
  g_option_context_set_translation_domain (context, GETTEXT_PACKAGE);
  main_group = g_option_group_new (NULL, NULL, NULL, NULL, NULL);
  g_option_group_set_translation_domain (main_group, GETTEXT_PACKAGE);
  g_option_group_add_entries (main_group, compile_entries);
  if (g_str_equal (command, "run"))
    {
      g_option_group_add_entries (main_group, run_entries);
      g_option_context_set_summary (context,
        _("Render the pixel shader or effect FILE over an image or a blank "
          "canvas.\n"
          "Exit status: 0 on success, 1 on compile, render or I/O errors, "
          "2 on usage errors."));
    }
  else if (g_str_equal (command, "dis"))
    {
      g_option_context_set_summary (context,
        _("Print the shader assembly or bytecode FILE as canonical assembly "
          "text.\nExit status: 0 on success, 1 on errors, 2 on usage errors."));
    }
  else if (g_str_equal (command, "dump"))
    {
      g_option_context_set_summary (context,
        _("Compile the pixel shader or effect FILE and print its IR before "
          "and after optimisation and the span program the VM runs (for an "
          "effect, of each pass of its technique).\n"
          "Exit status: 0 when it compiles, 1 on errors, 2 on usage "
          "errors."));
    }
  else
    {
      g_option_context_set_summary (context,
        _("Compile the pixel shader or effect FILE and report diagnostics.\n"
          "Exit status: 0 when it compiles, 1 on errors, 2 on usage "
          "errors."));
    }
  g_option_context_set_main_group (context, main_group);
  return context;
}

static void
print_main_help (FILE *stream)
{
  fprintf (stream,
           _("Usage: %s COMMAND [OPTION…] FILE\n"
             "\n"
             "Compile and run Direct3D pixel shaders (HLSL, shader assembly, "
             "bytecode)\nand ReShade effect files.\n"
             "\n"
             "Commands:\n"
             "  check FILE       compile FILE and print its diagnostics\n"
             "  dump FILE        show the IR before and after optimisation and "
             "the span program\n"
             "  run FILE         render FILE; probe pixels or write an image\n"
             "  apply FILTER FILE… -o DIR\n"
             "                   run a filter over many images (batch)\n"
             "  dis FILE         print assembly or bytecode FILE as assembly\n"
             "  test FILE…       run the test cases embedded in shaders\n"
             "  help COMMAND     show the options of COMMAND\n"
             "\n"
             "Options:\n"
             "  -h, --help       show this help\n"
             "  -V, --version    show the version\n"),
           PROGRAM);
}

static int
print_command_help (const char *command,
                    FILE       *stream)
{
  Options         o = { 0 };
  GOptionContext *context;
  char           *text;

  if (g_str_equal (command, "test"))
    {
      fprintf (stream,
               _("Usage: %s test FILE…\n"
                 "\n"
                 "Run the test cases embedded in shader files.\n"),
               PROGRAM);
      return EXIT_OK;
    }
  if (g_str_equal (command, "apply"))
    {
      gs_apply_print_help (stream);
      return EXIT_OK;
    }
  if (!g_str_equal (command, "check") && !g_str_equal (command, "run")
      && !g_str_equal (command, "dis") && !g_str_equal (command, "dump"))
    {
      gs_print_error (_("unknown command '%s'"), command);
      fprintf (stderr, _("Try '%s --help'.\n"), PROGRAM);
      return EXIT_USAGE;
    }
  context = make_context (command, &o);
  text = g_option_context_get_help (context, TRUE, NULL);
  fputs (text, stream);
  g_free (text);
  g_option_context_free (context);
  options_clear (&o);
  return EXIT_OK;
}

/* GOption wants "-D NAME"; compilers taught everyone to write "-DNAME" and
 * "-IDIR", so those are split before parsing. */
static void
split_attached_options (Options *o,
                        int      argc,
                        char   **argv)
{
  GPtrArray *args = g_ptr_array_new ();
  gboolean   operands_only = FALSE;

  for (int i = 0; i < argc; i++)
    {
      const char *arg = argv[i];

      if (!operands_only && g_str_equal (arg, "--"))
        operands_only = TRUE;
      if (!operands_only && i > 0
          && (g_str_has_prefix (arg, "-D") || g_str_has_prefix (arg, "-I"))
          && arg[2] != '\0')
        {
          g_ptr_array_add (args, g_strndup (arg, 2));
          g_ptr_array_add (args, g_strdup (arg + 2));
        }
      else
        g_ptr_array_add (args, g_strdup (arg));
    }
  g_ptr_array_add (args, NULL);
  o->argv_storage = (char **) g_ptr_array_free (args, FALSE);
  o->argv_view = g_memdup2 (o->argv_storage,
                            (g_strv_length (o->argv_storage) + 1)
                            * sizeof (char *));
}

/* Parses the options of @command; on success o->file holds the operand.
 * Returns -1 to go on, else an exit code. */
static int
parse_command_line (const char *command,
                    Options    *o,
                    int         argc,
                    char      **argv)
{
  GOptionContext *context = make_context (command, o);
  GError         *error = NULL;
  int             status = -1;
  char          **args;

  split_attached_options (o, argc, argv);
  args = o->argv_view;
  argc = (int) g_strv_length (args);

  if (!g_option_context_parse (context, &argc, &args, &error))
    {
      status = usage_error (command, error->message);
      g_error_free (error);
    }
  else if (o->help)
    {
      char *text = g_option_context_get_help (context, TRUE, NULL);

      fputs (text, stdout);
      g_free (text);
      status = EXIT_OK;
    }
  else if (argc < 2)
    status = usage_error (command, _("missing shader FILE"));
  else if (argc > 2)
    {
      char *message = g_strdup_printf (_("unexpected argument '%s'"),
                                       args[2]);

      status = usage_error (command, message);
      g_free (message);
    }
  else
    o->file = g_strdup (args[1]);
  /* One budget per render (README, "Hostile input"): the option, else
   * the environment, else the library's default. */
  if (status < 0 && o->memory_budget != NULL
      && !gs_memory_budget_parse (o->memory_budget, &o->budget))
    {
      char *message = g_strdup_printf (_("--memory-budget '%s' is not a size such as "
                                         "512M or 2G"), o->memory_budget);

      status = usage_error (command, message);
      g_free (message);
    }
  else if (status < 0 && o->memory_budget == NULL
           && !gs_memory_budget_from_env (&o->budget))
    {
      char *message = g_strdup_printf (_("%s='%s' is not a size such as 512M or 2G"),
                                       GS_MEMORY_BUDGET_ENV, g_getenv (GS_MEMORY_BUDGET_ENV));

      status = usage_error (command, message);
      g_free (message);
    }
  g_option_context_free (context);
  return status;
}

/* ------------------------------------------------------------------ */
/* Compiling                                                           */
/* ------------------------------------------------------------------ */

static gboolean
read_source (const char *path,
             char      **contents,
             gsize      *length)
{
  GError *error = NULL;

  if (!gs_shader_file_read (path, contents, length, &error))
    {
      gs_print_error ("%s", error->message);
      g_error_free (error);
      return FALSE;
    }
  return TRUE;
}

static void
print_diagnostics (const SlDiagnostics *diags)
{
  char *text;

  if (sl_diagnostics_count (diags) == 0)
    return;
  text = sl_diagnostics_format (diags);
  if (text != NULL)
    fputs (text, stderr);
  g_free (text);
}

/* Compiles @path; diagnostics (warnings too) go to stderr.  NULL on any
 * failure, already reported. */
static SlProgram *
compile_file (const char    *path,
              const Options *o)
{
  SlCompileOptions options = { 0 };
  SlDiagnostics   *diags;
  SlProgram       *program;
  char            *source;
  gsize            length;

  if (!read_source (path, &source, &length))
    return NULL;

  options.source = source;
  options.length = length;
  options.filename = path;
  options.language = SL_LANGUAGE_AUTO;
  options.entry_point = o->entry;
  options.profile = o->profile;
  options.include_dirs = (const char *const *) o->include_dirs;
  options.defines = (const char *const *) o->defines;
  options.flags = o->compile_flags | (o->any_path ? SL_COMPILE_ANY_PATH : 0);

  /* ReShade's size macros, as the GEGL op defines them; -D comes after. */
  const char *const *host_defines;
  char *with_host = gs_host_source (path, source, length, &options.length, &host_defines);
  GPtrArray *defines = g_ptr_array_new ();
  if (with_host != NULL)
    {
      options.source = with_host;
      for (int i = 0; host_defines[i] != NULL; i++)
        g_ptr_array_add (defines, (gpointer) host_defines[i]);
      for (int i = 0; o->defines != NULL && o->defines[i] != NULL; i++)
        g_ptr_array_add (defines, o->defines[i]);
      g_ptr_array_add (defines, NULL);
      options.defines = (const char *const *) defines->pdata;
    }

  diags = sl_diagnostics_new ();
  program = sl_compile (&options, diags);
  g_ptr_array_free (defines, TRUE);
  g_free (with_host);
  print_diagnostics (diags);
  if (program == NULL && sl_diagnostics_error_count (diags) == 0)
    gs_print_error (_("%s: compilation failed without a diagnostic"), path);
  sl_diagnostics_free (diags);
  g_free (source);
  return program;
}

static int
command_check (int    argc,
               char **argv)
{
  Options    o = { 0 };
  SlProgram *program;
  int        status;

  status = parse_command_line ("check", &o, argc, argv);
  if (status >= 0)
    {
      options_clear (&o);
      return status;
    }
  if (gs_effect_file_p (o.file))
    {
      GsEffectArgs a = { .file = o.file, .technique = o.entry, .include_dirs = o.include_dirs,
                         .defines = o.defines, .any_path = o.any_path,
                         .memory_budget = o.budget };
      status = gs_effect_check (&a);
      options_clear (&o);
      return status;
    }
  program = compile_file (o.file, &o);
  options_clear (&o);
  if (program == NULL)
    return EXIT_ERROR;
  sl_program_unref (program);
  return EXIT_OK;
}

/* Disassembly: shader assembly or bytecode back to canonical text. */
static int
command_dis (int    argc,
             char **argv)
{
  Options          o = { 0 };
  SlCompileOptions options = { 0 };
  SlDiagnostics   *diags;
  char            *source, *text;
  gsize            length;
  int              status;

  status = parse_command_line ("dis", &o, argc, argv);
  if (status >= 0)
    {
      options_clear (&o);
      return status;
    }
  if (!read_source (o.file, &source, &length))
    {
      options_clear (&o);
      return EXIT_ERROR;
    }
  options.source = source;
  options.length = length;
  options.filename = o.file;
  options.language = SL_LANGUAGE_AUTO;
  diags = sl_diagnostics_new ();
  text = sl_disassemble (&options, diags);
  print_diagnostics (diags);
  sl_diagnostics_free (diags);
  g_free (source);
  options_clear (&o);
  if (text == NULL)
    return EXIT_ERROR;
  fputs (text, stdout);
  g_free (text);
  return EXIT_OK;
}

/* Prints the three stages sl_program_dump() keeps, each under a header
 * line, for reading what the optimiser did and for golden tests. */
static void
print_program_dump (SlProgram *program)
{
  static const char *const titles[] = {
    "IR before optimisation", "IR after optimisation", "span program"
  };

  for (int stage = 0; stage < 3; stage++)
    {
      char *text = sl_program_dump (program, stage);
      printf ("%s;; %s\n%s", stage ? "\n" : "", titles[stage], text ? text : "");
      g_free (text);
    }
}

/* `dump`: a shader's three stages, or an effect's, pass by pass. */
static int
command_dump (int    argc,
              char **argv)
{
  Options    o = { 0 };
  SlProgram *program;
  int        status;

  status = parse_command_line ("dump", &o, argc, argv);
  if (status >= 0)
    {
      options_clear (&o);
      return status;
    }
  o.compile_flags = SL_COMPILE_KEEP_DUMPS;
  if (gs_effect_file_p (o.file))
    {
      GsEffectArgs a = { .file = o.file, .technique = o.entry, .include_dirs = o.include_dirs,
                         .defines = o.defines, .any_path = o.any_path,
                         .memory_budget = o.budget, .compile_flags = o.compile_flags };
      status = gs_effect_dump (&a, print_program_dump);
      options_clear (&o);
      return status;
    }
  program = compile_file (o.file, &o);
  options_clear (&o);
  if (program == NULL)
    return EXIT_ERROR;
  print_program_dump (program);
  sl_program_unref (program);
  return EXIT_OK;
}

/* ------------------------------------------------------------------ */
/* Argument parsing for run                                            */
/* ------------------------------------------------------------------ */

static gboolean
parse_int (const char *text,
           gint64      min,
           gint64      max,
           int        *value,
           const char **end)
{
  char  *tail;
  gint64 v;

  if (!g_ascii_isdigit (*text) && *text != '-' && *text != '+')
    return FALSE;
  errno = 0;
  v = g_ascii_strtoll (text, &tail, 10);
  if (errno != 0 || tail == text || v < min || v > max)
    return FALSE;
  *value = (int) v;
  *end = tail;
  return TRUE;
}

static gboolean
parse_size (const char *text,
            int        *width,
            int        *height)
{
  const char *p;

  return parse_int (text, 1, MAX_VIEWPORT, width, &p)
         && (*p == 'x' || *p == 'X')
         && parse_int (p + 1, 1, MAX_VIEWPORT, height, &p)
         && *p == '\0';
}

typedef struct
{
  int x, y;
} Probe;

static gboolean
parse_probe (const char *text,
             Probe      *probe)
{
  const char *p;

  return parse_int (text, G_MININT, G_MAXINT, &probe->x, &p)
         && *p == ','
         && parse_int (p + 1, G_MININT, G_MAXINT, &probe->y, &p)
         && *p == '\0';
}

/* "V[,V...]" into floats; booleans are accepted for bool parameters. */
static gboolean
parse_values (const char *text,
              GArray     *values)
{
  char **parts = g_strsplit (text, ",", -1);
  gboolean ok = parts[0] != NULL;

  for (int i = 0; ok && parts[i] != NULL; i++)
    {
      char  *item = g_strstrip (parts[i]);
      char  *tail;
      float  v;

      if (g_ascii_strcasecmp (item, "true") == 0)
        v = 1.0f;
      else if (g_ascii_strcasecmp (item, "false") == 0)
        v = 0.0f;
      else
        {
          double d;

          errno = 0;
          d = g_ascii_strtod (item, &tail);
          if (*item == '\0' || *tail != '\0' || errno == ERANGE)
            ok = FALSE;
          v = (float) d;
        }
      g_array_append_val (values, v);
    }
  g_strfreev (parts);
  return ok;
}

/* Splits "KEY=VALUE" at the first '='; both halves must be non-empty. */
static gboolean
split_assignment (const char *text,
                  char      **key,
                  char      **value)
{
  const char *eq = strchr (text, '=');

  if (eq == NULL || eq == text || eq[1] == '\0')
    return FALSE;
  *key = g_strndup (text, eq - text);
  *value = g_strdup (eq + 1);
  return TRUE;
}

static char *
join_param_names (const SlProgram *program)
{
  GString *names = g_string_new (NULL);
  int      n = sl_program_get_n_params (program);

  for (int i = 0; i < n; i++)
    {
      const SlParam *param = sl_program_get_param (program, i);

      if (names->len > 0)
        g_string_append (names, ", ");
      g_string_append (names, param->name);
    }
  return g_string_free (names, FALSE);
}

static char *
join_sampler_names (const SlProgram *program)
{
  GString *names = g_string_new (NULL);
  int      n = sl_program_get_n_samplers (program);

  for (int i = 0; i < n; i++)
    {
      const SlSamplerInfo *info = sl_program_get_sampler (program, i);

      if (names->len > 0)
        g_string_append (names, ", ");
      g_string_append_printf (names, "%s (slot %d)",
                              info->name ? info->name : "?", info->slot);
    }
  return g_string_free (names, FALSE);
}

static int
param_components (const SlParam *param)
{
  return param->rows * param->columns * MAX (param->array_size, 1);
}

/* Applies every --set; returns an exit code, -1 when all went well. */
static int
apply_params (SlBinding     *binding,
              const Options *o)
{
  SlProgram *program = sl_binding_get_program (binding);

  for (int i = 0; o->sets != NULL && o->sets[i] != NULL; i++)
    {
      char          *name = NULL, *text = NULL;
      GArray        *values;
      const SlParam *param;
      int            status = -1;

      if (!split_assignment (o->sets[i], &name, &text))
        {
          char *message = g_strdup_printf (_("--set expects NAME=V[,V...], "
                                             "got '%s'"), o->sets[i]);

          status = usage_error ("run", message);
          g_free (message);
          return status;
        }
      values = g_array_new (FALSE, FALSE, sizeof (float));
      param = sl_program_find_param (program, name);
      if (!parse_values (text, values))
        {
          char *message = g_strdup_printf (_("--set %s: invalid number in "
                                             "'%s'"), name, text);

          status = usage_error ("run", message);
          g_free (message);
        }
      else if (param == NULL)
        {
          char *known = join_param_names (program);

          if (*known != '\0')
            gs_print_error (_("unknown parameter '%s' (known parameters: %s)"),
                         name, known);
          else
            gs_print_error (_("unknown parameter '%s' (the shader has no "
                           "parameters)"), name);
          g_free (known);
          status = EXIT_ERROR;
        }
      else if ((int) values->len > param_components (param))
        {
          gs_print_error (_("parameter '%s' has %d component(s) but %u values "
                         "were given"), name, param_components (param),
                       values->len);
          status = EXIT_ERROR;
        }
      else
        {
          SlDiagnostics *diags = sl_diagnostics_new ();

          if (!sl_binding_set_param (binding, name,
                                     (const float *) values->data,
                                     (int) values->len, diags))
            {
              print_diagnostics (diags);
              if (sl_diagnostics_count (diags) == 0)
                gs_print_error (_("cannot set parameter '%s'"), name);
              status = EXIT_ERROR;
            }
          sl_diagnostics_free (diags);
        }
      g_array_free (values, TRUE);
      g_free (name);
      g_free (text);
      if (status >= 0)
        return status;
    }
  return -1;
}

/* ------------------------------------------------------------------ */
/* run                                                                 */
/* ------------------------------------------------------------------ */

typedef struct
{
  Options     o;
  Probe      *probes;
  int         n_probes;
  int         width, height;   /* viewport; 0 until known */
  SlProgram  *program;
  SlBinding  *binding;
  GsImage    *input;
  GsImage    *target;
  GPtrArray  *texture_images;  /* GsImage*, owned */
  SlTexture   textures[SL_MAX_SLOTS];
  gboolean    slot_bound[SL_MAX_SLOTS];
  gsize       held;            /* bytes of the texture images */
  SlTexture   blank_texture;
  float       blank_texel[4];
  gboolean    gegl_ready;
} RunState;

static void
run_state_clear (RunState *s)
{
  if (s->binding != NULL)
    sl_binding_free (s->binding);
  if (s->program != NULL)
    sl_program_unref (s->program);
  gs_image_free (s->input);
  gs_image_free (s->target);
  if (s->texture_images != NULL)
    g_ptr_array_free (s->texture_images, TRUE);
  g_free (s->probes);
  options_clear (&s->o);
  if (s->gegl_ready)
    gs_image_io_gegl_exit ();
}

/* Validates everything that does not need the shader or the images, so
 * usage errors come out before any expensive work. */
static int
check_run_arguments (RunState *s)
{
  Options *o = &s->o;

  if (o->size != NULL && !parse_size (o->size, &s->width, &s->height))
    {
      char *message = g_strdup_printf (_("--size expects WxH with both "
                                         "between 1 and %d, got '%s'"),
                                       MAX_VIEWPORT, o->size);
      int   status = usage_error ("run", message);

      g_free (message);
      return status;
    }
  s->n_probes = o->probes ? (int) g_strv_length (o->probes) : 0;
  s->probes = g_new0 (Probe, MAX (s->n_probes, 1));
  for (int i = 0; i < s->n_probes; i++)
    if (!parse_probe (o->probes[i], &s->probes[i]))
      {
        char *message = g_strdup_printf (_("--probe expects X,Y, got '%s'"),
                                         o->probes[i]);
        int   status = usage_error ("run", message);

        g_free (message);
        return status;
      }
  for (int i = 0; o->textures != NULL && o->textures[i] != NULL; i++)
    if (strchr (o->textures[i], '=') == NULL
        || o->textures[i][0] == '='
        || strchr (o->textures[i], '=')[1] == '\0')
      {
        char *message = g_strdup_printf (_("--texture expects "
                                           "SLOT_OR_NAME=IMG, got '%s'"),
                                         o->textures[i]);
        int   status = usage_error ("run", message);

        g_free (message);
        return status;
      }
  if (o->sources != NULL)
    {
      SlEffectHostValues hv;
      char              *message = NULL;

      sl_effect_host_values_init (&hv);
      if (!gs_effect_apply_sources (o->sources, 1, 1, &hv, &message))
        {
          int status = usage_error ("run", message);

          g_free (message);
          return status;
        }
    }
  for (int i = 0; o->sets != NULL && o->sets[i] != NULL; i++)
    {
      char *name, *text;

      if (!split_assignment (o->sets[i], &name, &text))
        {
          char *message = g_strdup_printf (_("--set expects NAME=V[,V...], "
                                             "got '%s'"), o->sets[i]);
          int   status = usage_error ("run", message);

          g_free (message);
          return status;
        }
      g_free (name);
      g_free (text);
    }
  if (o->depth != 0 && o->depth != 8 && o->depth != 16)
    return usage_error ("run", _("--depth must be 8 or 16"));
  if (o->jobs != JOBS_UNSET && (o->jobs < 1 || o->jobs > MAX_JOBS))
    {
      char *message = g_strdup_printf (_("--jobs must be between 1 and %d"),
                                       MAX_JOBS);
      int   status = usage_error ("run", message);

      g_free (message);
      return status;
    }
  if (o->output != NULL && !gs_image_save_supported (o->output))
    {
      char *message = g_strdup_printf (_("cannot tell the format of '%s' "
                                         "from its extension (use .png, "
                                         ".pfm, .exr, .tif, .jpg, .ppm, "
                                         ".webp or .hdr)"), o->output);
      int   status = usage_error ("run", message);

      g_free (message);
      return status;
    }
  return -1;
}

/* Finds the slot a --texture key designates; -1 (reported) when none. */
static int
texture_slot (const SlProgram *program,
              const char      *key)
{
  int   n = sl_program_get_n_samplers (program);
  char *known;
  int   slot;
  const char *end;

  if (g_ascii_isdigit (key[0]))
    {
      if (parse_int (key, 0, SL_MAX_SLOTS - 1, &slot, &end) && *end == '\0')
        return slot;
      gs_print_error (_("texture slot '%s' is out of range (0 to %d)"),
                   key, SL_MAX_SLOTS - 1);
      return -1;
    }
  for (int i = 0; i < n; i++)
    {
      const SlSamplerInfo *info = sl_program_get_sampler (program, i);

      if (info->name != NULL && g_str_equal (info->name, key))
        {
          if (info->slot < 0 || info->slot >= SL_MAX_SLOTS)
            {
              gs_print_error (_("sampler '%s' uses slot %d, which is out of "
                             "range"), key, info->slot);
              return -1;
            }
          return info->slot;
        }
    }
  known = join_sampler_names (program);
  if (*known != '\0')
    gs_print_error (_("unknown sampler '%s' (known samplers: %s)"), key, known);
  else
    gs_print_error (_("unknown sampler '%s' (the shader has no samplers)"), key);
  g_free (known);
  return -1;
}

static int
bind_textures (RunState *s)
{
  Options         *o = &s->o;
  const SlTexture *overrides[SL_MAX_SLOTS];
  /* Texture images are held whole, within the render's budget; the
   * input and the result are tiled (render.c). */
  gsize            left = s->o.budget;

  s->texture_images = g_ptr_array_new_with_free_func ((GDestroyNotify) gs_image_free);
  for (int i = 0; o->textures != NULL && o->textures[i] != NULL; i++)
    {
      char    *key, *path;
      int      slot;
      GsImage *image;
      GError  *error = NULL;

      split_assignment (o->textures[i], &key, &path);
      slot = texture_slot (s->program, key);
      g_free (key);
      if (slot < 0)
        {
          g_free (path);
          return EXIT_ERROR;
        }
      image = gs_image_load_within (path, gs_image_working_format (o->linear), left, &error);
      g_free (path);
      if (image == NULL)
        {
          gs_print_error ("%s", error->message);
          g_error_free (error);
          return EXIT_ERROR;
        }
      left -= gs_image_bytes (image->width, image->height);
      s->held += gs_image_bytes (image->width, image->height);
      g_ptr_array_add (s->texture_images, image);
      sl_texture_init_2d (&s->textures[slot], image->width, image->height,
                          (size_t) image->width * 4, image->pixels);
      s->slot_bound[slot] = TRUE;
    }

  /* The samplers that read the input see, until each band brings its
   * part, one transparent texel standing for the whole image (the
   * sampling reach is measured in its texels); without an input image
   * they read that single texel: the same as sampling an empty canvas. */
  if (s->input != NULL)
    gs_texture_placeholder (&s->blank_texture, s->blank_texel,
                           s->input->width, s->input->height);
  else
    gs_texture_placeholder (&s->blank_texture, s->blank_texel, 1, 1);

  for (int slot = 0; slot < SL_MAX_SLOTS; slot++)
    overrides[slot] = s->slot_bound[slot] ? &s->textures[slot] : NULL;
  gs_bind_samplers (s->binding, s->program, &s->blank_texture, overrides);
  return -1;
}

static void
print_probe (const GsImage *image,
             const Babl    *format,
             const Probe   *probe)
{
  float px[4];
  char  buf[G_ASCII_DTOSTR_BUF_SIZE];

  gs_image_read (image, probe->x, probe->y, 1, 1, format, px);
  printf ("%d %d", probe->x, probe->y);
  for (int c = 0; c < 4; c++)
    printf (" %s", g_ascii_formatd (buf, sizeof buf, "%.9g", px[c]));
  putchar ('\n');
}

static int
command_run (int    argc,
             char **argv)
{
  RunState       s;
  SlDiagnostics *diags;
  GError        *error = NULL;
  int            status;
  gboolean       ok;

  memset (&s, 0, sizeof s);
  s.o.jobs = JOBS_UNSET;
  status = parse_command_line ("run", &s.o, argc, argv);
  if (status < 0)
    status = check_run_arguments (&s);
  if (status >= 0)
    {
      run_state_clear (&s);
      return status;
    }

  if (gs_effect_file_p (s.o.file))
    {
      GsEffectArgs a = {
        .file = s.o.file, .technique = s.o.entry, .include_dirs = s.o.include_dirs,
        .defines = s.o.defines, .input = s.o.input, .width = s.width, .height = s.height,
        .sets = s.o.sets, .textures = s.o.textures, .sources = s.o.sources,
        .n_probes = s.n_probes,
        .probes = (const int *) s.probes, .output = s.o.output, .linear = s.o.linear,
        .depth = s.o.depth, .jobs = s.o.jobs != JOBS_UNSET ? s.o.jobs : 0,
        .any_path = s.o.any_path, .memory_budget = s.o.budget,
      };
      status = gs_effect_run (&a);
      run_state_clear (&s);
      return status;
    }
  if (s.o.sources != NULL)
    {
      /* Only uniforms of effect files have source annotations. */
      status = usage_error ("run", _("--source applies to effect files"));
      run_state_clear (&s);
      return status;
    }
  s.program = compile_file (s.o.file, &s.o);
  if (s.program == NULL)
    {
      run_state_clear (&s);
      return EXIT_ERROR;
    }

  gegl_init (NULL, NULL);
  s.gegl_ready = TRUE;

  if (s.o.input != NULL)
    {
      s.input = gs_image_open (s.o.input, gs_image_working_format (s.o.linear),
                               FALSE, &error);
      if (s.input == NULL)
        {
          gs_print_error ("%s", error->message);
          g_error_free (error);
          run_state_clear (&s);
          return EXIT_ERROR;
        }
      if (s.o.size == NULL)
        {
          s.width = s.input->width;
          s.height = s.input->height;
        }
    }
  if (s.width == 0)
    s.width = s.height = DEFAULT_SIZE;

  for (int i = 0; i < s.n_probes; i++)
    if (s.probes[i].x < 0 || s.probes[i].x >= s.width
        || s.probes[i].y < 0 || s.probes[i].y >= s.height)
      {
        gs_print_error (_("probe %d,%d is outside the %d×%d image"),
                     s.probes[i].x, s.probes[i].y, s.width, s.height);
        run_state_clear (&s);
        return EXIT_ERROR;
      }

  /* The result is tiled: rendered and written band by band. */
  s.target = gs_image_new_tiled (s.width, s.height,
                                 gs_image_working_format (s.o.linear), &error);
  if (s.target == NULL)
    {
      gs_print_error ("%s", error->message);
      g_error_free (error);
      run_state_clear (&s);
      return EXIT_ERROR;
    }

  s.binding = sl_binding_new (s.program);
  sl_binding_set_auto_mips (s.binding, true);
  sl_binding_set_viewport (s.binding, s.width, s.height);
  /* The image's size and a pixel's, as the GEGL op fills them (the size
   * the output is rendered at, as BUFFER_* for effect files); first, so
   * that --set of one still wins. */
  {
    SlDiagnostics *host_diags = sl_diagnostics_new ();
    gs_host_values_set (s.binding, s.width, s.height, NULL, host_diags);
    print_diagnostics (host_diags);
    sl_diagnostics_free (host_diags);
  }
  status = apply_params (s.binding, &s.o);
  if (status < 0)
    status = bind_textures (&s);
  if (status >= 0)
    {
      run_state_clear (&s);
      return status;
    }

  diags = sl_diagnostics_new ();
  ok = sl_binding_prepare (s.binding, diags);
  /* A run-time limit (loop cap, instruction budget) is a warning: the
   * pixels are written, so they are probed and saved like any others. */
  if (ok)
    {
      GsRenderJob job = {
        .binding = s.binding, .input = s.input,
        .format = gs_image_working_format (s.o.linear),
        /* Discarded pixels keep the input, as in the GEGL op. */
        .prefill = TRUE, .budget = s.o.budget, .held = s.held,
        .n_threads = s.o.jobs != JOBS_UNSET ? s.o.jobs : (int) g_get_num_processors (),
        .name = s.o.file,
      };

      for (int slot = 0; slot < SL_MAX_SLOTS; slot++)
        job.textures[slot] = s.slot_bound[slot] ? &s.textures[slot] : NULL;
      ok = gs_render (&job, s.target, diags) || sl_diagnostics_error_count (diags) == 0;
    }
  print_diagnostics (diags);
  if (!ok && sl_diagnostics_error_count (diags) == 0)
    gs_print_error (_("rendering '%s' failed"), s.o.file);
  sl_diagnostics_free (diags);
  if (!ok)
    {
      run_state_clear (&s);
      return EXIT_ERROR;
    }

  for (int i = 0; i < s.n_probes; i++)
    print_probe (s.target, gs_image_working_format (s.o.linear), &s.probes[i]);
  fflush (stdout);

  status = EXIT_OK;
  if (s.o.output != NULL
      && !gs_image_save (s.target, s.o.output, s.o.linear, s.o.depth, &error))
    {
      gs_print_error ("%s", error->message);
      g_error_free (error);
      status = EXIT_ERROR;
    }
  run_state_clear (&s);
  return status;
}

/* ------------------------------------------------------------------ */
/* main                                                                */
/* ------------------------------------------------------------------ */

static int
command_test (int    argc,
              char **argv)
{
  return gs_shader_test_main (argc, argv);
}

int
main (int    argc,
      char **argv)
{
  const char *command;

  setlocale (LC_ALL, "");
  /* GEGL_SHADERS_LOCALEDIR lets tests read the catalogues of a build tree. */
  bindtextdomain (GETTEXT_PACKAGE,
                  g_getenv ("GEGL_SHADERS_LOCALEDIR")
                  ? g_getenv ("GEGL_SHADERS_LOCALEDIR") : LOCALEDIR);
  bind_textdomain_codeset (GETTEXT_PACKAGE, "UTF-8");
  textdomain (GETTEXT_PACKAGE);
  gs_image_io_install_log_capture ();
#ifdef SIGXFSZ
  /* Past a file-size limit a write fails with EFBIG, which every output
   * reports, instead of the signal ending the whole batch. */
  signal (SIGXFSZ, SIG_IGN);
#endif

  if (argc < 2)
    {
      print_main_help (stderr);
      return EXIT_USAGE;
    }
  command = argv[1];

  if (g_str_equal (command, "--help") || g_str_equal (command, "-h"))
    {
      print_main_help (stdout);
      return EXIT_OK;
    }
  if (g_str_equal (command, "--version") || g_str_equal (command, "-V"))
    {
      printf ("%s %s\n", PROGRAM, GEGL_SHADERS_VERSION);
      return EXIT_OK;
    }
  if (g_str_equal (command, "help"))
    {
      if (argc == 2)
        {
          print_main_help (stdout);
          return EXIT_OK;
        }
      if (argc > 3)
        {
          gs_print_error (_("help takes one COMMAND"));
          fprintf (stderr, _("Try '%s --help'.\n"), PROGRAM);
          return EXIT_USAGE;
        }
      return print_command_help (argv[2], stdout);
    }
  if (g_str_equal (command, "check"))
    return command_check (argc - 1, argv + 1);
  if (g_str_equal (command, "run"))
    return command_run (argc - 1, argv + 1);
  if (g_str_equal (command, "dis"))
    return command_dis (argc - 1, argv + 1);
  if (g_str_equal (command, "dump"))
    return command_dump (argc - 1, argv + 1);
  if (g_str_equal (command, "test"))
    return command_test (argc - 1, argv + 1);
  if (g_str_equal (command, "apply"))
    return gs_apply_main (argc - 1, argv + 1);

  gs_print_error (_("unknown command '%s'"), command);
  fprintf (stderr, _("Try '%s --help'.\n"), PROGRAM);
  return EXIT_USAGE;
}
