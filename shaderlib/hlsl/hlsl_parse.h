/* The HLSL parser's private interface, shared by its files (see
 * hlsl_parse.c): the parser state P, the token cursor, node constructors,
 * and what each file offers the others.
 *
 * The cursor helpers are small and used everywhere, so they are inline
 * here; everything else is named hlsl_ and lives in the file of its job. */
#ifndef SL_HLSL_PARSE_H
#define SL_HLSL_PARSE_H

#include "base/diag.h"
#include "hlsl/hlsl_ast.h"

#include <string.h>

typedef struct Scope
{
  GHashTable   *names;     /* name → Var* */
  GHashTable   *types;     /* local typedefs: name → Type* */
  struct Scope *up;
} Scope;

typedef struct
{
  HlslUnit   *u;
  SlArena    *arena;
  Token      *toks;
  int         n_toks, pos;
  Scope      *scope;
  GHashTable *types;       /* struct/typedef name → Type* */
  GHashTable *intrinsics;  /* name → id+1 */
  Func       *cur_func;
  int         depth;       /* expression/statement nesting */
  int         chain;       /* operators above the current operand (SL_MAX_EXPR_CHAIN) */
  int         struct_depth; /* struct definitions being parsed (SL_MAX_TYPE_DEPTH) */
  int         loop_depth;
  bool        in_switch;   /* innermost breakable statement is a switch */
  Scope      *param_scope; /* parameters of the function being parsed */
  bool        row_major_default;
  SlLoc       major_loc;   /* last row_major/column_major modifier seen */
  Type       *t_error, *t_void, *t_float, *t_int, *t_uint, *t_bool, *t_string;
} P;

/* Declaration modifiers (hlsl_parse_modifiers); the first twelve follow
 * the order of the modifier names in hlsl_types.c. */
enum
{
  MOD_CONST = 1 << 0, MOD_ROW_MAJOR = 1 << 1, MOD_COLUMN_MAJOR = 1 << 2, MOD_STATIC = 1 << 3,
  MOD_UNIFORM = 1 << 4, MOD_EXTERN = 1 << 5, MOD_VOLATILE = 1 << 6, MOD_INLINE = 1 << 7,
  MOD_PRECISE = 1 << 8, MOD_SHARED = 1 << 9, MOD_GROUPSHARED = 1 << 10, MOD_EXPORT = 1 << 11,
  MOD_IN = 1 << 16, MOD_OUT = 1 << 17, MOD_INOUT = 1 << 18,
};

/* What a run of [attributes] asked for; unknown attributes are accepted
 * (and ignored) like the D3D compiler does, but their syntax is checked. */
typedef struct
{
  int  n;
  int  unroll_cap;     /* [unroll(n)]: n; [unroll]: -1 */
  bool unroll, loop, fastopt, branch, flatten;
  SlLoc loc;
  SlLoc unroll_loc, loop_loc, branch_loc, flatten_loc;
} Attrs;

/* ---- diagnostics and recovery (hlsl_parse.c) ---------------------------- */

/* After this many errors the parser stops: what follows so many mistakes
 * is rarely worth reading, and error recovery over a long run of garbage
 * can cost seconds (fuzz-exec). */
#define MAX_PARSE_ERRORS 100

/* The kind (a row of base/diag_codes.def) gives the code and severity. */
void hlsl_error (P *p, SlLoc loc, SlDiagKind kind, const char *fmt, ...)
  __attribute__ ((format (printf, 4, 5)));
void hlsl_warning (P *p, SlLoc loc, SlDiagKind kind, const char *fmt, ...)
  __attribute__ ((format (printf, 4, 5)));
void hlsl_skip_rest_of_expression (P *p);
void hlsl_recover (P *p);

/* ---- the token cursor ----------------------------------------------------- */

static inline Token *
peek (P *p)
{
  return &p->toks[p->pos];
}

static inline Token *
peek_at (P *p, int k)
{
  int i = p->pos + k;
  return &p->toks[i < p->n_toks ? i : p->n_toks - 1];
}

static inline Token *
next (P *p)
{
  if (p->u->n_errors >= MAX_PARSE_ERRORS)
    p->pos = p->n_toks - 1;   /* stay at the end once stopped */
  Token *t = &p->toks[p->pos];
  if (t->kind != TK_EOF)
    p->pos++;
  return t;
}

static inline bool
is (P *p, const char *s)
{
  Token *t = peek (p);
  return (t->kind == TK_PUNCT || t->kind == TK_IDENT) && !strcmp (t->text, s);
}

static inline bool
accept (P *p, const char *s)
{
  if (is (p, s))
    {
      next (p);
      return true;
    }
  return false;
}

static inline const char *
tok_desc (Token *t)
{
  return t->kind == TK_EOF ? "end of file" : t->text;
}

static inline bool
expect (P *p, const char *s)
{
  if (accept (p, s))
    return true;
  Token *t = peek (p);
  hlsl_error (p, t->loc, SL_DIAG_HLSL_EXPECTED_TOKEN, "expected '%s' before '%s'", s, tok_desc (t));
  return false;
}

static inline const char *
expect_ident (P *p)
{
  Token *t = peek (p);
  if (t->kind != TK_IDENT)
    {
      hlsl_error (p, t->loc, SL_DIAG_HLSL_EXPECTED_IDENTIFIER,
                  "expected an identifier before '%s'", tok_desc (t));
      return NULL;
    }
  next (p);
  return t->text;
}

/* ---- nodes ---------------------------------------------------------------- */

static inline Node *
new_node (P *p, NodeKind kind, SlLoc loc, Type *type)
{
  Node *n = SL_NEW (p->arena, Node);
  n->kind = kind;
  n->loc = loc;
  n->type = type;
  return n;
}

static inline Node *
error_node (P *p, SlLoc loc)
{
  return new_node (p, N_LIT, loc, p->t_error);
}

static inline bool
is_error (const Node *n)
{
  return n->type->kind == TY_ERROR;
}

/* ---- scopes (hlsl_parse.c) ------------------------------------------------ */

void  hlsl_push_scope (P *p);
void  hlsl_pop_scope (P *p);
Var  *hlsl_lookup_var (P *p, const char *name);
Type *hlsl_lookup_local_type (P *p, const char *name);
bool  hlsl_is_reserved_name (const char *name);
void  hlsl_declare_var (P *p, Var *v);

/* ---- types and conversions (hlsl_types.c) --------------------------------- */

Type     *hlsl_type_array (P *p, Type *elem, int len);
bool      hlsl_type_equal (const Type *a, const Type *b);
char     *hlsl_type_name (P *p, const Type *t);
Type     *hlsl_builtin_numeric (P *p, const char *s);
Type     *hlsl_apply_majority (P *p, Type *t, unsigned mods);
unsigned  hlsl_parse_modifiers (P *p);
Type     *hlsl_parse_type (P *p);
bool      hlsl_is_type_start (P *p);
bool      hlsl_objects_line_up (const Type *from, const Type *to, bool prefix, bool same_bases);
bool      hlsl_same_component_bases (const Type *a, const Type *b);
bool      hlsl_prefix_component_bases (const Type *a, const Type *b);
bool      hlsl_initlist_objects_ok (const Node *list, const Type *t);
Node     *hlsl_convert (P *p, Node *e, Type *to, SlLoc loc, bool explicit_cast, const char *what);
BaseType  hlsl_common_base (BaseType a, BaseType b);
Type     *hlsl_binary_type_ex (P *p, SlLoc loc, Type *a, Type *b, BaseType base, bool nest);
Type     *hlsl_binary_type (P *p, SlLoc loc, Type *a, Type *b, BaseType base);

/* ---- constant evaluation (hlsl_const.c) ----------------------------------- */

int    hlsl_const_eval_int (P *p, Node *e, bool *ok);
double hlsl_const_eval_double (P *p, Node *e, bool *ok);
int    hlsl_parse_const_int_expr (P *p, int *out);
bool   hlsl_is_literal_expr (const Node *e);

/* ---- expressions (hlsl_expr.c) -------------------------------------------- */

bool  hlsl_is_lvalue (P *p, Node *e, bool report);
Node *hlsl_parse_initializer_list (P *p, SlLoc loc);
Node *hlsl_parse_unary (P *p);
Node *hlsl_parse_assign (P *p);
Node *hlsl_parse_expr (P *p);

/* ---- intrinsics (hlsl_intrinsics.c) --------------------------------------- */

GHashTable *hlsl_intrinsic_table_new (bool reshade);
Node       *hlsl_intrinsic_call (P *p, Token *name, Node *object, GPtrArray *args);

/* ---- statements (hlsl_stmt.c) --------------------------------------------- */

void  hlsl_parse_attributes (P *p, Attrs *at);
Node *hlsl_parse_block (P *p);
bool  hlsl_end_reachable (P *p, Node *body);

/* ---- declarations (hlsl_decl.c) ------------------------------------------- */

GArray *hlsl_parse_annotations (P *p);
void    hlsl_parse_semantics (P *p, const char **semantic, int *reg_kind, int *reg_index);
Type   *hlsl_parse_struct (P *p);
Node   *hlsl_parse_declarators (P *p, Type *base, unsigned mods, bool global);
void    hlsl_parse_function (P *p, Type *ret, Token *name_tok, unsigned mods);
void    hlsl_parse_typedef (P *p, bool global);

/* ---- effect syntax (hlsl_effect_syntax.c) --------------------------------- */

void hlsl_parse_pragma (P *p, Token *t);
bool hlsl_is_shader_object_type (Token *t);
bool hlsl_is_state_object_type (Token *t);
void hlsl_parse_state_object (P *p);
int  hlsl_skip_args (P *p);
void hlsl_parse_compile_target (P *p, bool check_names);
/* After a block's '{': its entries and '}'; false (reported) if it has none. */
bool hlsl_parse_state_entries_into (P *p, SlSamplerState *st);
void hlsl_skip_annotations (P *p);
void hlsl_parse_technique (P *p);
void hlsl_parse_shader_object (P *p);

#endif
