/* The effect scanner's private interface: the state of one scan over an
 * effect's tokens, the drafts of its techniques and passes, the token
 * cursor and what each file of the scan offers the others.  Shared by the
 * scanner (fx_scan.c), the declaration parsers (fx_decl.c) and the compile
 * that drives them and compiles the drafts (fx_compile.c).
 *
 * The cursor helpers are small and used everywhere, so they are inline
 * here; everything else is named fx_ and lives in the file of its job. */
#ifndef SL_FX_SCAN_H
#define SL_FX_SCAN_H

#include "base/diag.h"
#include "fx/effect.h"
#include "hlsl/hlsl.h"

#include <string.h>

#define MAX_NAMESPACE_DEPTH 32

typedef struct
{
  SlEffectPass pub;
  const char  *entry;        /* mangled entry point */
  const char  *profile;      /* NULL = default */
  SlLoc        profile_loc;
  SlLoc        loc;
} PassDraft;

typedef struct
{
  const char *name;
  GArray     *passes;        /* PassDraft */
  GArray     *annotations;   /* SlAnnotation */
} TechDraft;

/* A folded constant: ReShade's int or 32-bit float arithmetic. */
typedef struct
{
  double v;
  bool   integer;
} FxNum;

typedef struct
{
  SlEffect      *fx;
  const char    *filename;   /* the effect file, for the images it names */
  const char *const *dirs;   /* the caller's include folders */
  SlDiagnostics *diags;
  SlArena       *arena;
  Token         *t;
  int            n, pos;
  /* output */
  GString       *out;
  const char    *ofile;
  int            oline, ocol;
  /* namespaces */
  const char    *ns[MAX_NAMESPACE_DEPTH];  /* mangled prefixes, "A__B__" */
  int            n_ns;
  GHashTable    *declared;   /* mangled names declared inside namespaces */
  GArray        *techs;      /* TechDraft */
  bool           reshade;    /* ReShade-style constructs seen */
  GHashTable    *consts;     /* mangled name → FxNum*: static const scalars */
  GHashTable    *typed;      /* mangled sampler name → its T in sampler2D<T> */
} Scan;

/* ---- diagnostics (fx_scan.c) ---- */

void fx_error (Scan *s, SlLoc loc, SlDiagKind kind, const char *fmt, ...) G_GNUC_PRINTF (4, 5);
void fx_note (Scan *s, SlLoc loc, SlDiagKind kind, const char *fmt, ...) G_GNUC_PRINTF (4, 5);

/* ---- the token cursor ---- */

static inline Token *
peek_at (Scan *s, int k)
{
  int i = s->pos + k;
  return &s->t[i < s->n ? i : s->n - 1];
}

static inline Token *
peek (Scan *s)
{
  return peek_at (s, 0);
}

static inline bool
tok_is (const Token *t, const char *text)
{
  return (t->kind == TK_IDENT || t->kind == TK_PUNCT) && !strcmp (t->text, text);
}

static inline bool
is (Scan *s, const char *text)
{
  return tok_is (peek (s), text);
}

static inline Token *
next (Scan *s)
{
  Token *t = peek (s);
  if (s->pos < s->n - 1)
    s->pos++;
  return t;
}

static inline bool
accept (Scan *s, const char *text)
{
  if (!is (s, text))
    return false;
  next (s);
  return true;
}

static inline bool
expect (Scan *s, const char *text)
{
  if (accept (s, text))
    return true;
  Token *t = peek (s);
  fx_error (s, t->loc, SL_DIAG_FX_EXPECTED_TOKEN,
            "expected '%s' before '%s'", text, t->kind == TK_EOF ? "end of file" : t->text);
  return false;
}

static inline bool
at_eof (Scan *s)
{
  return peek (s)->kind == TK_EOF;
}

/* ---- the HLSL text, names and values (fx_scan.c) ---- */

void        fx_out_text (Scan *s, SlLoc loc, const char *text);
void        fx_out_token (Scan *s, const Token *t, const char *spelling);
const char *fx_read_name (Scan *s, SlLoc *loc);
/* Records the names declared at the top level of each namespace, before
 * the scan, so that uses can be mangled ahead of their declaration. */
void        fx_collect_namespace_names (Scan *s);
/* A mangled name as the user spells it ("A__b" → "A::b"). */
const char *fx_display_name (Scan *s, const char *mangled);
char       *fx_word_value (Scan *s);
void        fx_copy_annotations (Scan *s, GArray *record, bool host_sources);
GArray     *fx_skip_annotations (Scan *s);
void        fx_copy_statement (Scan *s);

/* ---- constants (fx_const.c) ---- */

/* Index of the ';' (or closing bracket) ending the value at the cursor. */
int         fx_value_end (Scan *s);
/* Folds the tokens [pos, @end); true when they are one constant and the
 * cursor reached @end. */
bool        fx_fold (Scan *s, int end, FxNum *value);
/* Folds the value up to its ';', with an error when it is not constant. */
bool        fx_eval_value (Scan *s, double *value);
/* Records the scalars of a `static const` declaration at the cursor
 * (names prefixed with @prefix, the namespace's), leaving the cursor. */
void        fx_record_constants (Scan *s, const char *prefix);

/* ---- declarations (fx_decl.c) ---- */

/* Scans declarations up to the end of the file, or of the namespace. */
void        fx_scan_scope (Scan *s, bool in_namespace);

#endif
