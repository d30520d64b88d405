/* The compile driver: source → front end → IR → optimised IR, kept in an
 * SlProgram.
 *
 * The languages are one table of front ends, each row naming its language,
 * how to recognise it, its entry to IR and its disassembler, so detection,
 * compiling, disassembling and language names cannot disagree about which
 * languages exist.  The driver does what is common to every language
 * around the front end: it checks the source against the size limit,
 * resolves the options a front end reads (file name, length, language),
 * owns the reflection the front end fills, runs the optimiser and the IR
 * validator, checks the optimised program against the program-size
 * limit, and builds the SlProgram — the one place that does.  With
 * validation on, the IR is checked after lowering and after every step of
 * the optimiser, and the program remembers it so that its bindings check
 * their specialised IR too; a failure is an internal error and no
 * program. */
#include "api/program.h"

#include "asm/d3d9/d3d9.h"
#include "asm/sm4/sm4.h"
#include "base/diag.h"
#include "base/limits.h"
#include "hlsl/hlsl.h"

#include <string.h>

typedef struct
{
  SlLanguage  language;
  const char *name;             /* sl_language_name */
  /* Whether the text is in this language; @start is the offset of its
   * first token after blanks and comments.  NULL: anything else. */
  bool      (*detect)      (const char *source, size_t length, size_t start);
  /* @options with source, length, filename and language resolved → IR,
   * before optimisation, with @info (initialised here) filled; NULL after
   * errors, and the driver clears @info. */
  SlIr     *(*to_ir)       (const SlCompileOptions *options, SlProgramInfo *info,
                            SlDiagnostics *diags);
  /* Canonical assembly text, or NULL after errors; NULL: not offered. */
  char     *(*disassemble) (const char *source, size_t length, const char *filename,
                            SlDiagnostics *diags);
} FrontEnd;

static bool
detect_dxbc (const char *source, size_t length, size_t start)
{
  return length >= 4 && !memcmp (source, "DXBC", 4);
}

static bool
detect_d3d9_bytecode (const char *source, size_t length, size_t start)
{
  const unsigned char *u = (const unsigned char *) source;
  return length >= 4 && u[3] == 0xff && u[2] == 0xff && (u[1] == 1 || u[1] == 2 || u[1] == 3);
}

/* Assembly starts with a version token: "ps_N…". */
static bool
ps_version_token (const char *source, size_t length, size_t start)
{
  return start + 5 <= length && !g_ascii_strncasecmp (source + start, "ps_", 3)
         && g_ascii_isdigit (source[start + 3]);
}

/* Whether that token opens an SM4 listing.  fxc's ps_4_0_level_9_x
 * listings print the ps_2_0 fallback inside the header, before the SM4
 * program they describe. */
static bool
sm4_version (const char *source, size_t start)
{
  return source[start + 3] >= '4' || g_strstr_len (source, (gssize) start, "Level9 shader bytecode:");
}

static bool
detect_sm4_asm (const char *source, size_t length, size_t start)
{
  return ps_version_token (source, length, start) && sm4_version (source, start);
}

static bool
detect_d3d9_asm (const char *source, size_t length, size_t start)
{
  if (ps_version_token (source, length, start))
    return !sm4_version (source, start);
  return start + 5 <= length && !g_ascii_strncasecmp (source + start, "ps.", 3);
}

/* In detection order: the binary formats by their first bytes, then the
 * assembly listings by their version token; HLSL takes the rest. */
static const FrontEnd front_ends[] = {
  { SL_LANGUAGE_DXBC, "dxbc", detect_dxbc, sm4_to_ir, sl_sm4_disassemble },
  { SL_LANGUAGE_D3D9_BYTECODE, "d3d9-bytecode", detect_d3d9_bytecode, d9_to_ir,
    d9_disassemble_bytecode },
  { SL_LANGUAGE_SM4_ASM, "sm4-asm", detect_sm4_asm, sm4_to_ir, sl_sm4_disassemble },
  { SL_LANGUAGE_D3D9_ASM, "d3d9-asm", detect_d3d9_asm, d9_to_ir, d9_disassemble_asm },
  { SL_LANGUAGE_HLSL, "hlsl", NULL, hlsl_to_ir, NULL },
};

static const FrontEnd *
find_front_end (SlLanguage language)
{
  for (size_t i = 0; i < G_N_ELEMENTS (front_ends); i++)
    if (front_ends[i].language == language)
      return &front_ends[i];
  return NULL;
}

SlLanguage
sl_detect_language (const char *source, size_t length)
{
  if (!source)
    return SL_LANGUAGE_HLSL;
  if (length == (size_t) -1)
    length = strlen (source);
  /* Skip blanks and comments (// or ;) before the first token. */
  size_t i = 0;
  while (i < length)
    {
      while (i < length && g_ascii_isspace (source[i]))
        i++;
      if (i + 1 < length && ((source[i] == '/' && source[i + 1] == '/') || source[i] == ';'))
        {
          while (i < length && source[i] != '\n')
            i++;
          continue;
        }
      break;
    }
  for (size_t k = 0; k < G_N_ELEMENTS (front_ends); k++)
    if (!front_ends[k].detect || front_ends[k].detect (source, length, i))
      return front_ends[k].language;
  return SL_LANGUAGE_HLSL;
}

const char *
sl_language_name (SlLanguage language)
{
  const FrontEnd *fe = find_front_end (language);
  return fe ? fe->name : "auto";
}

SlProgram *
sl_compile (const SlCompileOptions *options, SlDiagnostics *diags)
{
  SlDiagnostics *own = diags ? NULL : sl_diagnostics_new ();
  if (!diags)
    diags = own;
  const char *filename = options->filename ? options->filename : "<source>";
  size_t length = options->length == (size_t) -1
                    ? (options->source ? strlen (options->source) : 0) : options->length;
  SlProgram *program = NULL;

  if (!options->source)
    {
      sl_diag (diags, SL_DIAG_API_NO_SOURCE, filename, 0, 0, "no source given");
      goto out;
    }
  if (length > SL_MAX_SOURCE_BYTES)
    {
      sl_diag (diags, SL_DIAG_API_SOURCE_TOO_LARGE, filename, 0, 0,
               "source is %zu bytes; the limit is %u", length, SL_MAX_SOURCE_BYTES);
      goto out;
    }
  SlLanguage lang = options->language == SL_LANGUAGE_AUTO
                      ? sl_detect_language (options->source, length) : options->language;
  const FrontEnd *fe = find_front_end (lang);
  if (!fe)
    {
      sl_diag (diags, SL_DIAG_API_LANGUAGE_UNSUPPORTED, filename, 1, 1,
               "%s input is not supported yet", sl_language_name (lang));
      goto out;
    }
  SlCompileOptions resolved = *options;
  resolved.filename = filename;
  resolved.length = length;
  resolved.language = lang;
  SlProgramInfo info;
  sl_program_info_init (&info);
  SlIr *ir = fe->to_ir (&resolved, &info, diags);
  if (!ir)
    {
      sl_program_info_clear (&info);
      goto out;
    }
  program = sl_program_new (lang, ir, &info);

  /* Validation is on for a compile that asks for it and for every compile
   * of a test run, where the environment sets SHADERLIB_VALIDATE. */
  program->validate = (options->flags & SL_COMPILE_VALIDATE) || sl_validation_requested ();
  if (program->validate && !sl_ir_validate (program->ir, "lowering", diags))
    goto fail;
  if (options->flags & SL_COMPILE_KEEP_DUMPS)
    program->dump_before = sl_ir_dump (program->ir);
  if (!(options->flags & SL_COMPILE_NO_OPTIMIZE)
      && !sl_pass_optimise_checked (program->ir, program->validate, diags))
    goto fail;
  if (options->flags & SL_COMPILE_KEEP_DUMPS)
    program->dump_after = sl_ir_dump (program->ir);
  if (program->ir->insns->len > SL_MAX_PROGRAM_INSNS)
    {
      /* Blamed on the code that carries the program past the limit: the
       * first instruction from there on that knows its line (assembly's
       * do; HLSL's IR keeps none, and the file is blamed). */
      int line = 0;
      for (guint i = SL_MAX_PROGRAM_INSNS; i < program->ir->insns->len && line <= 0; i++)
        line = sl_ir_insn (program->ir, i)->line;
      sl_diag (diags, SL_DIAG_API_PROGRAM_TOO_LARGE, filename, line > 0 ? line : 1, 1,
               "the program has %u instructions after optimisation; the limit is %u",
               program->ir->insns->len, SL_MAX_PROGRAM_INSNS);
      goto fail;
    }
  goto out;

fail:
  sl_program_unref (program);
  program = NULL;
out:
  sl_diagnostics_free (own);
  return program;
}

char *
sl_disassemble (const SlCompileOptions *options, SlDiagnostics *diags)
{
  const char *filename = options->filename ? options->filename : "<source>";
  if (!options->source)
    {
      sl_diag (diags, SL_DIAG_API_NO_SOURCE, filename, 0, 0, "no source given");
      return NULL;
    }
  size_t length = options->length == (size_t) -1 ? strlen (options->source) : options->length;
  SlLanguage lang = options->language == SL_LANGUAGE_AUTO
                      ? sl_detect_language (options->source, length) : options->language;
  const FrontEnd *fe = find_front_end (lang);
  if (fe && fe->disassemble)
    return fe->disassemble (options->source, length, filename, diags);
  sl_diag (diags, SL_DIAG_API_CANNOT_DISASSEMBLE, filename, 1, 1,
           "cannot disassemble %s input", sl_language_name (lang));
  return NULL;
}
