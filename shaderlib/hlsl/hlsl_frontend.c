/* The HLSL front end's entry: source → preprocessed text → AST → IR.
 *
 * The compile driver hands hlsl_to_ir the caller's options; this file does
 * what is HLSL's own around the parser and lowering: it reads the profile
 * (the shader model decides the predefined macros, the parser's rules and
 * the register layout), predefines the shader-target macros as fxc does
 * (and __GEGL_SHADERS__), preprocesses with includes read from disk, and
 * finds the entry point.  The parser and
 * lowering share one arena that dies here; only the IR and the reflection
 * (in the info's own arena) outlive the call. */
#include "base/diag.h"
#include "base/file_read.h"
#include "hlsl/hlsl_ast.h"
#include "preprocess/preprocess.h"

#include <string.h>

/* "ps_3_0" → 30, "ps_4_0_level_9_1" → 40, NULL/"auto" → 0. */
int
sl_profile_model (const char *profile, bool *ok)
{
  *ok = true;
  if (!profile || !*profile || !strcmp (profile, "auto"))
    return 0;
  if (strlen (profile) >= 6 && (profile[0] == 'p') && profile[1] == 's' && profile[2] == '_'
      && g_ascii_isdigit (profile[3]) && profile[4] == '_')
    {
      int major = profile[3] - '0';
      int minor = g_ascii_isdigit (profile[5]) ? profile[5] - '0'
                  : (profile[5] == 'x' || profile[5] == 'a' || profile[5] == 'b' || profile[5] == 's') ? 1 : 0;
      if (major >= 1 && major <= 6)
        return major * 10 + minor;
    }
  *ok = false;
  return 0;
}

static char *
read_include (void *user, const char *path, size_t *length)
{
  char *data = NULL;
  sl_read_regular_file (path, SL_MAX_SOURCE_BYTES, &data, length);
  return data;
}

/* The source with the caller's defines and the predefined ones expanded;
 * NULL after errors. */
static char *
preprocess (const SlCompileOptions *options, int sm, SlDiagnostics *diags)
{
  GPtrArray *defines = g_ptr_array_new_with_free_func (g_free);
  if (options->defines)
    for (int i = 0; options->defines[i]; i++)
      g_ptr_array_add (defines, g_strdup (options->defines[i]));
  g_ptr_array_add (defines, g_strdup_printf ("__SHADER_TARGET_MAJOR=%d", sm / 10));
  g_ptr_array_add (defines, g_strdup_printf ("__SHADER_TARGET_MINOR=%d", sm % 10));
  g_ptr_array_add (defines, g_strdup ("__HLSL_VERSION=2018"));
  g_ptr_array_add (defines, g_strdup ("__GEGL_SHADERS__=1"));
  g_ptr_array_add (defines, NULL);
  SlPreprocessOptions ppo = {
    .filename = options->filename,
    .include_dirs = options->include_dirs,
    .defines = (const char *const *) defines->pdata,
    .read_file = read_include,
    /* Macros must not build a bigger program than a source may be. */
    .max_output = SL_MAX_SOURCE_BYTES,
    .any_path = (options->flags & SL_COMPILE_ANY_PATH) != 0,
  };
  char *text = sl_preprocess (options->source, options->length, &ppo, diags);
  g_ptr_array_free (defines, TRUE);
  if (text && sl_diagnostics_error_count (diags))
    {
      g_free (text);
      text = NULL;
    }
  return text;
}

/* Sets unit->entry to the entry point's one definition, or reports why
 * there is none. */
static void
find_entry (HlslUnit *unit, const SlCompileOptions *options)
{
  const char *entry = options->entry_point && *options->entry_point ? options->entry_point : "main";
  unit->entry = g_hash_table_lookup (unit->funcs, entry);
  if (!unit->entry || !unit->entry->body)
    sl_diag (unit->diags, SL_DIAG_HLSL_ENTRY_NOT_FOUND, options->filename, 0, 0,
             "entry point '%s' not found", entry);
  else if (unit->entry->next_overload)
    sl_diag (unit->diags, SL_DIAG_HLSL_ENTRY_OVERLOADED, options->filename, unit->entry->loc.line,
             unit->entry->loc.column, "entry point '%s' is overloaded", entry);
}

SlIr *
hlsl_to_ir (const SlCompileOptions *options, SlProgramInfo *info, SlDiagnostics *diags)
{
  bool profile_ok;
  int sm = sl_profile_model (options->profile, &profile_ok);
  if (!profile_ok)
    {
      sl_diag (diags, SL_DIAG_HLSL_UNKNOWN_PROFILE, options->filename, 0, 0,
               "unknown profile '%s' (expected ps_2_0, ps_3_0, ps_4_0, …)", options->profile);
      return NULL;
    }
  int target = sm ? sm : 30;
  char *text = preprocess (options, target, diags);
  if (!text)
    return NULL;

  SlArena *arena = sl_arena_new ();
  HlslUnit unit = {
    .arena = arena,
    .diags = diags,
    .globals = g_ptr_array_new (),
    .funcs = g_hash_table_new (g_str_hash, g_str_equal),
    .shader_model = target,
    .reshade = (options->flags & SL_COMPILE_RESHADE_FX) != 0,
    .fxc_profile = sm != 0 && !(options->flags & SL_COMPILE_RESHADE_FX),
  };
  SlIr *ir = NULL;
  bool parsed = hlsl_parse (&unit, text, options->filename);
  if (parsed)
    find_entry (&unit, options);
  if (parsed && sl_diagnostics_error_count (diags) == 0)
    {
      info->shader_model = target;
      ir = hlsl_lower (&unit, info);
      if (ir && sl_diagnostics_error_count (diags))
        {
          sl_ir_free (ir);
          ir = NULL;
        }
    }
  g_ptr_array_free (unit.globals, TRUE);
  g_hash_table_destroy (unit.funcs);
  sl_arena_free (arena);
  g_free (text);
  return ir;
}
