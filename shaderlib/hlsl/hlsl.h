/* Private interface of the HLSL front end: its tokens and its entry.
 * The AST that the parser and lowering share is in hlsl_ast.h. */
#ifndef SL_HLSL_H
#define SL_HLSL_H

#include "ir/ir.h"
#include "ir/reflect.h"
#include "base/arena.h"
#include "base/limits.h"
#include "base/loc.h"

/* ---- tokens (hlsl_lex.c) ----------------------------------------------- */

typedef enum
{
  TK_EOF,
  TK_IDENT,
  TK_INT,
  TK_FLOAT,
  TK_STRING,
  TK_PUNCT,
  TK_PRAGMA     /* text of a #pragma line, without "#pragma" */
} TokKind;

typedef struct
{
  TokKind     kind;
  const char *text;     /* arena copy of the spelling (string: unquoted) */
  int         len;
  SlLoc       loc;
  double      fval;
  uint64_t    ival;
  char        suffix;   /* 'f', 'h', 'l', 'u' or 0 */
} Token;

/* Splits preprocessed text into tokens (terminated by TK_EOF). */
Token *sl_hlsl_tokenize (SlArena *arena, const char *text, const char *filename,
                         SlDiagnostics *diags, int *n_tokens);

/* ---- the front end's entry (hlsl_frontend.c) ---------------------------- */

/* The shader model of a pixel profile name ("ps_3_0" → 30, "ps_4_0_level_9_1"
 * → 40, NULL or "auto" → 0); *ok is false for anything else. */
int sl_profile_model (const char *profile, bool *ok);

/* The compile driver's entry for SL_LANGUAGE_HLSL: @options with source,
 * length and filename resolved → the entry point's IR, before
 * optimisation, with @info (initialised by the caller) filled.  NULL after
 * errors. */
SlIr *hlsl_to_ir (const SlCompileOptions *options, SlProgramInfo *info,
                  SlDiagnostics *diags);

#endif
