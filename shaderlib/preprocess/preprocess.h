/* The HLSL preprocessor: C-style directives and macros over shader text.
 *
 * It turns a source buffer (and the files it includes) into one UTF-8 text
 * for the HLSL lexer.  The output keeps the source's lines and, for text
 * that is not macro-expanded, its columns; where the output stops mapping
 * one-to-one onto consecutive source lines it carries `#line N "file"`
 * markers so the lexer can report positions in the original files.
 * Pragmas the compiler reads (pack_matrix, RetroArch's parameter, anything
 * unknown) are passed through as whole lines.  All state lives in one
 * context per call, so the preprocessor can run on several threads.
 *
 * With `reshade` set it reads ReShade FX's dialect as ReShade's own
 * preprocessor does: `exists "file"` and `exists("file")` in #if and #elif
 * (1 when #include would find the file), file names that match without
 * regard to case when the exact spelling is not there (effects are
 * written on Windows), `##` whose result is more than one token re-read as
 * text, __FILE_NAME__ and __FILE_STEM__, and `#pragma reshade …` (and
 * `#pragma message`) consumed rather than passed on. */
#ifndef SL_PREPROCESS_H
#define SL_PREPROCESS_H

#include "shaderlib.h"

#include <stddef.h>

typedef struct
{
  /* For diagnostics, __FILE__ and relative includes; NULL = "<source>". */
  const char        *filename;
  /* NULL-terminated search path for #include; may be NULL. */
  const char *const *include_dirs;
  /* NULL-terminated "NAME" or "NAME=VALUE" predefinitions. */
  const char *const *defines;
  /* Reads an include file for tests and hosts; NULL reads from disk.
   * Returns a g_malloc'd buffer and its length, or NULL if not found. */
  char             *(*read_file) (void *user, const char *path,
                                  size_t *length);
  void              *read_file_user;
  /* Largest output accepted, in bytes; 0 = the default of 64 MiB. */
  size_t             max_output;
  /* By default an include must lie inside the folder of @filename or an
   * include folder (base/file_read.h); true lifts that. */
  bool               any_path;
  /* ReShade FX's preprocessor (see above). */
  bool               reshade;
} SlPreprocessOptions;

/* Default limits, also quoted in the diagnostics. */
#define SL_PP_MAX_OUTPUT        ((size_t) 64 * 1024 * 1024)
#define SL_PP_MAX_INCLUDE_DEPTH 32
#define SL_PP_MAX_EXPANSION     256

/* Returns a g_malloc'd NUL-terminated UTF-8 text, or NULL after a fatal
 * error (the diagnostics say why).  Non-fatal errors (#error, a bad
 * directive) are reported and the output is still returned; the caller
 * checks sl_diagnostics_error_count (). */
char *sl_preprocess (const char *source, size_t length,
                     const SlPreprocessOptions *options,
                     SlDiagnostics *diags);

/* @path itself when it names an existing file or folder, else the path
 * whose components match @path's without regard to case (the first such
 * entry of each folder), else NULL.  g_free() the result.  How ReShade's
 * Windows file names are found on case-sensitive file systems: includes,
 * `exists` and the images of effect textures. */
char *sl_pp_find_path_nocase (const char *path);

#endif /* SL_PREPROCESS_H */
