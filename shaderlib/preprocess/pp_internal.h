/* The preprocessor's private declarations: the one context of a call and
 * the tokens, macros and files it holds, shared by the files of this
 * folder.
 *
 * The work is split by job; every function takes the context and no file
 * keeps state of its own, so calls can run on several threads at once:
 *   preprocess.c    the entry point, the driver loop and diagnostics
 *   pp_lex.c        reading a source (decoding, splicing) into tokens
 *   pp_macro.c      the macro table, #define and hide-set expansion
 *   pp_expr.c       #if / #elif expressions
 *   pp_directive.c  the other directives, #include and #line
 *   pp_output.c     writing tokens with their spacing and #line markers
 *
 * Tokens are allocated in the context's per-line arena and die with the
 * line; macro bodies are copied into the arena that lives for the whole
 * call. */
#ifndef SL_PP_INTERNAL_H
#define SL_PP_INTERNAL_H

#include "base/diag.h"
#include "preprocess/preprocess.h"
#include "base/arena.h"

#include <glib.h>
#include <string.h>

/* Limits of one call, each met with a diagnostic rather than a crash or a
 * hang (the ones callers may quote are in preprocess.h). */
#define MAX_ERRORS        100
#define MAX_LINE_TOKENS   (1 << 20)
#define MAX_MACRO_ARGS    256
#define MAX_FILE_SIZE     ((size_t) 64 * 1024 * 1024)
#define MAX_LINE_MEMORY   ((size_t) 256 * 1024 * 1024)

/* Up to this many blank lines keep the output in step with the source;
 * beyond it a #line marker is shorter. */
#define MAX_BLANK_LINES   8

typedef enum
{
  TK_IDENT,
  TK_NUMBER,
  TK_STRING,
  TK_CHAR,
  TK_PUNCT,
  TK_OTHER,
  TK_PLACEMARKER   /* stands for an empty macro argument next to ## */
} TokKind;

enum
{
  TF_WS    = 1 << 0,   /* whitespace (or a line break) precedes it */
  TF_MACRO = 1 << 1,   /* produced by an expansion: only its line is real */
  TF_BAD   = 1 << 2    /* unterminated literal, already reported */
};

typedef struct Macro Macro;

typedef struct HideSet
{
  const Macro          *macro;
  const struct HideSet *next;
} HideSet;

typedef struct
{
  const char    *text;
  const char    *pre;    /* whitespace before it on its physical line */
  const char    *file;   /* interned presumed file name */
  const HideSet *hs;
  int            line, col;
  unsigned       seq;    /* lexing order, to recognise neighbours */
  int            param;  /* in macro bodies: parameter index, else -1 */
  size_t         off;    /* offset in its file's spliced buffer */
  unsigned char  kind, flags;
} Tok;

struct Macro
{
  char       *name;
  gboolean    function_like, variadic;
  int         builtin;   /* 0, or BUILTIN_LINE, BUILTIN_FILE, … */
  int         n_params;
  char      **params;
  Tok        *body;
  int         n_body;
  const char *file;
  int         line, col;
};

enum { BUILTIN_LINE = 1, BUILTIN_FILE, BUILTIN_FILE_NAME, BUILTIN_FILE_STEM };

typedef struct
{
  char       *buf;          /* spliced UTF-8, NUL-terminated */
  size_t      len, pos;
  size_t     *splices;      /* offsets where a spliced-away line begins */
  guint       n_splices, next_splice;
  int         phys, col;    /* physical position of buf[pos] */
  int         delta;        /* presumed line = physical line + delta */
  const char *name;         /* interned presumed name */
  const char *path;         /* path for relative includes, NULL if none */
  const char *once_key;     /* interned canonical path */
  guint       cond_base;    /* conditional stack depth when entered */
  int         line_end_phys;
  size_t      line_end_off;
  int         last_nl_line, last_nl_col;
} File;

typedef struct
{
  const char *file;
  int         line, col;
  const char *kind;         /* "#if", "#ifdef" or "#ifndef" */
  gboolean    parent_active, taken, active, seen_else;
} Cond;

typedef struct
{
  GPtrArray *stack;         /* Tok *, next token last */
  gboolean   can_fetch;     /* may read further lines of the current file */
  gboolean   if_mode;       /* evaluates `defined` */
} Input;

typedef struct
{
  const SlPreprocessOptions *opt;
  SlDiagnostics *diags;
  int            n_errors;
  gboolean       fatal;
  gboolean       skipping;
  GHashTable    *names;     /* interned strings */
  GHashTable    *macros;    /* name → Macro * */
  GHashTable    *once;      /* once_keys of #pragma once files */
  SlArena       *perm, *line;
  GPtrArray     *files;     /* File *, innermost last */
  GArray        *conds;     /* Cond */
  GPtrArray     *line_a, *line_b;
  gboolean       pushback;  /* line_b holds a directive line read ahead */
  GPtrArray     *top_stack;
  GString       *pre;
  unsigned       seq;
  int            depth;
  size_t         max_output;
  const char    *main_name;
  /* emitter */
  GString       *out;
  const char    *out_file;
  int            out_line, out_col;
  unsigned       last_seq;
  gboolean       last_src;
  char           last_char;
} Pp;

/* ---- preprocess.c -------------------------------------------------------- */

/* The kind (a row of base/diag_codes.def) gives the code and severity. */
void        sl_pp_report (Pp *pp, SlDiagKind kind, const char *file, int line,
                          int col, const char *format, ...)
  G_GNUC_PRINTF (6, 7);
const char *sl_pp_intern (Pp *pp, const char *s);

/* error_at and warning_at differ only in what they tell the reader: the
 * kind decides the severity. */
#define error_at(pp, t, kind, ...) \
  sl_pp_report ((pp), (kind), (t)->file, (t)->line, (t)->col, __VA_ARGS__)
#define warning_at(pp, t, kind, ...) \
  sl_pp_report ((pp), (kind), (t)->file, (t)->line, (t)->col, __VA_ARGS__)

/* An error after which no output is returned. */
#define fatal_at(pp, file, line, col, kind, ...) \
  do { sl_pp_report ((pp), (kind), (file), (line), (col), __VA_ARGS__); \
       (pp)->fatal = TRUE; } while (0)

static inline gboolean
is_punct (const Tok *t, const char *p)
{
  return t && t->kind == TK_PUNCT && strcmp (t->text, p) == 0;
}

static inline gboolean
is_ident_char (unsigned char c)
{
  return g_ascii_isalnum (c) || c == '_';
}

static inline File *
top_file (Pp *pp)
{
  return pp->files->len ? pp->files->pdata[pp->files->len - 1] : NULL;
}

/* ---- pp_lex.c ------------------------------------------------------------ */

/* A token in the per-line arena, with no position. */
Tok     *sl_pp_tok_new     (Pp *pp);
Tok     *sl_pp_tok_copy    (Pp *pp, const Tok *src);
size_t   sl_pp_scan_token  (const char *s, size_t n, TokKind *kind,
                            gboolean *unterminated);
/* @where is the #include that enters the file, NULL for the main file and
 * the predefinitions. */
File    *sl_pp_file_new    (Pp *pp, const char *data, size_t len,
                            const char *name, const char *path,
                            const Tok *where);
void     sl_pp_file_free   (File *f);
gboolean sl_pp_lex_line    (Pp *pp, File *f, GPtrArray *toks);

/* ---- pp_macro.c ---------------------------------------------------------- */

/* Expands @in's tokens into @collect, or writes them out when @collect is
 * NULL. */
void       sl_pp_expand_stream (Pp *pp, Input *in, GPtrArray *collect);
/* Macro-expands @toks on their own, not reading further lines; @if_mode
 * evaluates `defined`.  Returns a new array (the caller frees it) of
 * tokens in the per-line arena. */
GPtrArray *sl_pp_expand_list   (Pp *pp, GPtrArray *toks, gboolean if_mode);
/* #define with toks[start] the macro name. */
void       sl_pp_define        (Pp *pp, GPtrArray *toks, guint start);
/* Frees a Macro (the macro table's value destructor). */
void       sl_pp_macro_free    (gpointer data);

/* ---- pp_expr.c ----------------------------------------------------------- */

gboolean sl_pp_eval_if (Pp *pp, GPtrArray *toks, guint start);

/* ---- pp_directive.c ------------------------------------------------------ */

/* Runs the directive line @toks (toks[0] is the '#') read from @f. */
void        sl_pp_directive       (Pp *pp, File *f, GPtrArray *toks);
/* Recomputes pp->skipping from the conditional stack. */
void        sl_pp_update_skipping (Pp *pp);
/* The interned key under which #pragma once remembers @path. */
const char *sl_pp_canonical_key   (Pp *pp, const char *path);
/* Whether `#include "@name"` in the current file would find a file
 * (ReShade's `exists`). */
gboolean    sl_pp_file_exists     (Pp *pp, const char *name);

/* ---- pp_output.c --------------------------------------------------------- */

void sl_pp_out_newline    (Pp *pp);
/* Appends @text with '"' and '\\' escaped, as inside a string literal. */
void sl_pp_append_escaped (GString *s, const char *text);
void sl_pp_emit_tok       (Pp *pp, const Tok *t);
/* Writes a directive line (a passed-through #pragma) as it was. */
void sl_pp_emit_line      (Pp *pp, GPtrArray *toks);

#endif /* SL_PP_INTERNAL_H */
