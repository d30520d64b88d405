/* HLSL parser and type checker: tokens → typed AST.
 *
 * Recursive descent, one function per grammar level.  Types are assigned
 * while parsing; every implicit conversion becomes an explicit N_CAST node
 * made by convert(), the single place that knows HLSL's conversion rules.
 * After an error the offending expression gets the type TY_ERROR, which
 * every later check accepts silently, so one mistake yields one message.
 * Statement-level recovery skips to the next ';' or '}'. */
#include "hlsl/hlsl_ast.h"

#include "vm/scalar_ops.h"

#include <stdlib.h>
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
  int         loop_depth;
  bool        in_switch;   /* innermost breakable statement is a switch */
  Scope      *param_scope; /* parameters of the function being parsed */
  bool        row_major_default;
  SlLoc       major_loc;   /* last row_major/column_major modifier seen */
  Type       *t_error, *t_void, *t_float, *t_int, *t_uint, *t_bool, *t_string;
} P;

static const char *const intrinsic_names[] = {
#define SL_INTRINSIC(id, name, nmin, nmax) name,
#include "hlsl/hlsl_intrinsics.def"
#undef SL_INTRINSIC
};
static const int intrinsic_min[] = {
#define SL_INTRINSIC(id, name, nmin, nmax) nmin,
#include "hlsl/hlsl_intrinsics.def"
#undef SL_INTRINSIC
};
static const int intrinsic_max[] = {
#define SL_INTRINSIC(id, name, nmin, nmax) nmax,
#include "hlsl/hlsl_intrinsics.def"
#undef SL_INTRINSIC
};

/* ------------------------------------------------------------------ */
/* Diagnostics                                                          */
/* ------------------------------------------------------------------ */

static void
error_at (P *p, SlLoc loc, const char *fmt, ...) __attribute__ ((format (printf, 3, 4)));
/* After this many errors the parser stops: what follows so many mistakes
 * is rarely worth reading, and error recovery over a long run of garbage
 * can cost seconds (fuzz-exec). */
#define MAX_PARSE_ERRORS 100

static void
error_at (P *p, SlLoc loc, const char *fmt, ...)
{
  if (p->u->n_errors >= MAX_PARSE_ERRORS)
    {
      p->u->n_errors++;
      return;
    }
  va_list ap;
  va_start (ap, fmt);
  char *msg = g_strdup_vprintf (fmt, ap);
  va_end (ap);
  /* Unwinding from a nesting limit or a missing token repeats the same
   * error at the same place once per open level: say it once. */
  int n = sl_diagnostics_count (p->u->diags);
  const SlDiagnostic *last = n > 0 ? sl_diagnostics_get (p->u->diags, n - 1) : NULL;
  if (last && last->severity == SL_SEVERITY_ERROR && last->line == loc.line
      && last->column == loc.column && g_strcmp0 (last->file, loc.file) == 0
      && strcmp (last->message, msg) == 0)
    {
      g_free (msg);
      p->u->n_errors++;
      return;
    }
  sl_diagnostics_add (p->u->diags, SL_SEVERITY_ERROR, loc.file, loc.line, loc.column,
                      "E-HLSL", "%s", msg);
  g_free (msg);
  if (++p->u->n_errors == MAX_PARSE_ERRORS)
    {
      sl_diagnostics_add (p->u->diags, SL_SEVERITY_ERROR, loc.file, loc.line, loc.column,
                          "E-HLSL", "too many errors (%d); the rest is not checked",
                          MAX_PARSE_ERRORS);
      /* Every parsing loop ends at the end of the tokens. */
      p->pos = p->n_toks - 1;
    }
}

static void
warn_at (P *p, SlLoc loc, const char *fmt, ...) __attribute__ ((format (printf, 3, 4)));
static void
warn_at (P *p, SlLoc loc, const char *fmt, ...)
{
  va_list ap;
  va_start (ap, fmt);
  char *msg = g_strdup_vprintf (fmt, ap);
  va_end (ap);
  sl_diagnostics_add (p->u->diags, SL_SEVERITY_WARNING, loc.file, loc.line, loc.column,
                      "W-HLSL", "%s", msg);
  g_free (msg);
}

/* ------------------------------------------------------------------ */
/* Types                                                                */
/* ------------------------------------------------------------------ */

Type *
hlsl_type_num (SlArena *arena, BaseType base, NumClass cls, int rows, int cols)
{
  Type *t = SL_NEW (arena, Type);
  t->kind = TY_NUM;
  t->base = base;
  t->cls = cls;
  t->rows = cls == NUM_MATRIX ? rows : 1;
  t->cols = cls == NUM_SCALAR ? 1 : cols;
  t->n_comp = t->rows * t->cols;
  return t;
}

int
hlsl_type_is_numeric (const Type *t)
{
  return t->kind == TY_NUM;
}

Type *
hlsl_scalar_of (SlArena *arena, const Type *t)
{
  return hlsl_type_num (arena, t->kind == TY_NUM ? t->base : BT_FLOAT, NUM_SCALAR, 1, 1);
}

static Type *
type_array (P *p, Type *elem, int len)
{
  Type *t = SL_NEW (p->arena, Type);
  t->kind = TY_ARRAY;
  t->elem = elem;
  t->len = len;
  t->n_comp = elem->n_comp * len;
  t->n_objects = elem->n_objects * len;
  t->base = elem->base;
  return t;
}

static Token *peek (P *p);
static char *type_name (P *p, const Type *t);

/* Applies a row_major/column_major modifier.  Only a matrix type takes
 * one (not a vector, struct or array of matrices), and a type whose
 * majority was already given explicitly may only be given the same one. */
static Type *
type_with_major (P *p, Type *t, bool row_major, SlLoc loc)
{
  if (t->kind == TY_ERROR)
    return t;
  if (t->kind == TY_NUM && t->cls == NUM_MATRIX)
    {
      if (t->has_major && t->row_major != row_major)
        {
          error_at (p, loc, "'%s' already has %s majority", type_name (p, t),
                    t->row_major ? "row" : "column");
          return t;
        }
      Type *c = SL_NEW (p->arena, Type);
      *c = *t;
      c->row_major = row_major;
      c->has_major = true;
      return c;
    }
  error_at (p, loc, "%s applies only to matrix types, not '%s'",
            row_major ? "row_major" : "column_major", type_name (p, t));
  return p->t_error;
}

static bool
type_equal (const Type *a, const Type *b)
{
  if (a == b)
    return true;
  if (a->kind != b->kind)
    return false;
  switch (a->kind)
    {
    case TY_NUM:
      return a->base == b->base && a->cls == b->cls && a->rows == b->rows && a->cols == b->cols;
    case TY_ARRAY:
      return a->len == b->len && type_equal (a->elem, b->elem);
    case TY_STRUCT:
      return a->fields == b->fields;
    case TY_SAMPLER: case TY_TEXTURE:
      return a->tex_dim == b->tex_dim;
    default:
      return true;
    }
}

static const char *
base_name (BaseType b)
{
  static const char *const n[] = { "bool", "int", "uint", "float" };
  return n[b];
}

static char *
type_name (P *p, const Type *t)
{
  char buf[128];
  switch (t->kind)
    {
    case TY_VOID: return "void";
    case TY_ERROR: return "<error>";
    case TY_STRING: return "string";
    case TY_STRUCT: return (char *) (t->name ? t->name : "struct");
    case TY_SAMPLER: return (char *) (t->name ? t->name : "sampler");
    case TY_TEXTURE: return (char *) (t->name ? t->name : "texture");
    case TY_ARRAY:
      g_snprintf (buf, sizeof buf, "%s[%d]", type_name (p, t->elem), t->len);
      return sl_arena_strdup (p->arena, buf);
    case TY_NUM:
      if (t->cls == NUM_SCALAR)
        return (char *) base_name (t->base);
      if (t->cls == NUM_VECTOR)
        g_snprintf (buf, sizeof buf, "%s%d", base_name (t->base), t->cols);
      else
        g_snprintf (buf, sizeof buf, "%s%dx%d", base_name (t->base), t->rows, t->cols);
      return sl_arena_strdup (p->arena, buf);
    }
  return "?";
}

/* ------------------------------------------------------------------ */
/* Token helpers                                                        */
/* ------------------------------------------------------------------ */

static Token *
peek (P *p)
{
  return &p->toks[p->pos];
}

static Token *
peek_at (P *p, int k)
{
  int i = p->pos + k;
  return &p->toks[i < p->n_toks ? i : p->n_toks - 1];
}

static Token *
next (P *p)
{
  if (p->u->n_errors >= MAX_PARSE_ERRORS)
    p->pos = p->n_toks - 1;   /* stay at the end once stopped */
  Token *t = &p->toks[p->pos];
  if (t->kind != TK_EOF)
    p->pos++;
  return t;
}

static bool
is (P *p, const char *s)
{
  Token *t = peek (p);
  return (t->kind == TK_PUNCT || t->kind == TK_IDENT) && !strcmp (t->text, s);
}

static bool
accept (P *p, const char *s)
{
  if (is (p, s))
    {
      next (p);
      return true;
    }
  return false;
}

static const char *
tok_desc (Token *t)
{
  return t->kind == TK_EOF ? "end of file" : t->text;
}

/* After a malformed operand: drop the rest of the expression (balanced
 * brackets included) up to the ';', ',' or closing bracket that ends it,
 * so that one mistake gives one message. */
static void
skip_rest_of_expression (P *p)
{
  int depth = 0;
  while (peek (p)->kind != TK_EOF)
    {
      if (is (p, "(") || is (p, "[") || is (p, "{"))
        depth++;
      else if (is (p, ")") || is (p, "]") || is (p, "}"))
        {
          if (depth == 0)
            return;
          depth--;
        }
      else if (depth == 0 && (is (p, ";") || is (p, ",")))
        return;
      next (p);
    }
}

static bool
expect (P *p, const char *s)
{
  if (accept (p, s))
    return true;
  Token *t = peek (p);
  error_at (p, t->loc, "expected '%s' before '%s'", s, tok_desc (t));
  return false;
}

static const char *
expect_ident (P *p)
{
  Token *t = peek (p);
  if (t->kind != TK_IDENT)
    {
      error_at (p, t->loc, "expected an identifier before '%s'", tok_desc (t));
      return NULL;
    }
  next (p);
  return t->text;
}

/* Skips to after the next ';' at this nesting level, or before '}'. */
static void
recover (P *p)
{
  int depth = 0;
  while (peek (p)->kind != TK_EOF)
    {
      if (is (p, "{") || is (p, "(") || is (p, "["))
        depth++;
      else if (is (p, ")") || is (p, "]"))
        depth = MAX (depth - 1, 0);
      else if (is (p, "}"))
        {
          if (depth == 0)
            return;
          depth--;
          if (depth == 0)
            {
              next (p);
              accept (p, ";");
              return;
            }
        }
      else if (is (p, ";") && depth == 0)
        {
          next (p);
          return;
        }
      next (p);
    }
}

/* ------------------------------------------------------------------ */
/* Scopes                                                               */
/* ------------------------------------------------------------------ */

static void
push_scope (P *p)
{
  Scope *s = g_new0 (Scope, 1);
  s->names = g_hash_table_new (g_str_hash, g_str_equal);
  s->types = g_hash_table_new (g_str_hash, g_str_equal);
  s->up = p->scope;
  p->scope = s;
}

static void
pop_scope (P *p)
{
  Scope *s = p->scope;
  p->scope = s->up;
  g_hash_table_destroy (s->names);
  g_hash_table_destroy (s->types);
  g_free (s);
}

static Var *
lookup_var (P *p, const char *name)
{
  for (Scope *s = p->scope; s; s = s->up)
    {
      Var *v = g_hash_table_lookup (s->names, name);
      if (v)
        return v;
    }
  return NULL;
}

/* Typedefs made inside functions; the outermost scope's go to p->types. */
static Type *
lookup_local_type (P *p, const char *name)
{
  for (Scope *s = p->scope; s && s->up; s = s->up)
    {
      Type *t = g_hash_table_lookup (s->types, name);
      if (t)
        return t;
    }
  return NULL;
}

/* Names the effect framework reserves even in plain shaders. */
static bool
is_reserved_name (const char *name)
{
  return !g_ascii_strcasecmp (name, "technique") || !strcmp (name, "technique10")
         || !strcmp (name, "technique11") || !strcmp (name, "fxgroup")
         || !strcmp (name, "vertexshader") || !strcmp (name, "VertexShader")
         || !strcmp (name, "pixelshader") || !strcmp (name, "PixelShader");
}

static Type *builtin_numeric (P *p, const char *s);

static void
declare_var (P *p, Var *v)
{
  if (is_reserved_name (v->name))
    error_at (p, v->loc, "'%s' is a reserved word", v->name);
  else if (!p->scope->up && builtin_numeric (p, v->name))
    error_at (p, v->loc, "'%s' is a type name", v->name);
  Var *old = g_hash_table_lookup (p->scope->names, v->name);
  /* The body's outermost block shares its names with the parameters. */
  if (!old && p->param_scope && p->scope->up == p->param_scope)
    old = g_hash_table_lookup (p->param_scope->names, v->name);
  if (old)
    error_at (p, v->loc, "redefinition of '%s'", v->name);
  g_hash_table_insert (p->scope->names, (gpointer) v->name, v);
  v->id = p->u->n_vars++;
}

/* ------------------------------------------------------------------ */
/* Type names                                                           */
/* ------------------------------------------------------------------ */

static bool
parse_base_name (const char *s, BaseType *base, int *consumed)
{
  static const struct { const char *name; BaseType base; } names[] = {
    { "min16float", BT_FLOAT }, { "min10float", BT_FLOAT }, { "min16int", BT_INT },
    { "min12int", BT_INT }, { "min16uint", BT_UINT },
    { "float", BT_FLOAT }, { "half", BT_FLOAT }, { "double", BT_FLOAT },
    { "dword", BT_UINT }, { "uint", BT_UINT }, { "int", BT_INT }, { "bool", BT_BOOL },
  };
  for (size_t i = 0; i < G_N_ELEMENTS (names); i++)
    {
      size_t n = strlen (names[i].name);
      if (!strncmp (s, names[i].name, n))
        {
          *base = names[i].base;
          *consumed = n;
          return true;
        }
    }
  return false;
}

/* Recognises float, float3, float3x3, half2 … */
static Type *
builtin_numeric (P *p, const char *s)
{
  BaseType base;
  int n;
  if (!parse_base_name (s, &base, &n))
    return NULL;
  const char *r = s + n;
  if (!*r)
    return hlsl_type_num (p->arena, base, NUM_SCALAR, 1, 1);
  if (r[0] >= '1' && r[0] <= '4' && !r[1])
    return hlsl_type_num (p->arena, base, NUM_VECTOR, 1, r[0] - '0');
  if (r[0] >= '1' && r[0] <= '4' && r[1] == 'x' && r[2] >= '1' && r[2] <= '4' && !r[3])
    {
      Type *t = hlsl_type_num (p->arena, base, NUM_MATRIX, r[0] - '0', r[2] - '0');
      t->row_major = p->row_major_default;
      return t;
    }
  return NULL;
}

static int
sampler_dim (const char *s, bool *is_sampler, bool *is_texture, bool *comparison)
{
  static const struct { const char *name; int dim; int what; } names[] = {
    { "sampler", -1, 0 }, { "sampler1D", SL_TEXTURE_1D, 0 }, { "sampler2D", SL_TEXTURE_2D, 0 },
    { "sampler3D", SL_TEXTURE_3D, 0 }, { "samplerCUBE", SL_TEXTURE_CUBE, 0 },
    { "SamplerState", -1, 0 }, { "sampler_state", -1, 0 },
    { "SamplerComparisonState", -1, 2 },
    { "texture", -1, 1 }, { "Texture", -1, 1 }, { "texture1D", SL_TEXTURE_1D, 1 },
    { "texture2D", SL_TEXTURE_2D, 1 }, { "texture3D", SL_TEXTURE_3D, 1 },
    { "textureCUBE", SL_TEXTURE_CUBE, 1 },
    { "Texture1D", SL_TEXTURE_1D, 1 }, { "Texture2D", SL_TEXTURE_2D, 1 },
    { "Texture3D", SL_TEXTURE_3D, 1 }, { "TextureCube", SL_TEXTURE_CUBE, 1 },
  };
  for (size_t i = 0; i < G_N_ELEMENTS (names); i++)
    if (!strcmp (s, names[i].name))
      {
        *is_sampler = names[i].what != 1;
        *is_texture = names[i].what == 1;
        *comparison = names[i].what == 2;
        return names[i].dim;
      }
  return -2;
}

static bool is_type_start (P *p);

static const char *const modifiers[] = {
  "const", "row_major", "column_major", "static", "uniform", "extern", "volatile",
  "inline", "precise", "shared", "groupshared", "nointerpolation", "linear",
  "centroid", "noperspective", "sample", "in", "out", "inout", "snorm", "unorm",
};

enum
{
  MOD_CONST = 1 << 0, MOD_ROW_MAJOR = 1 << 1, MOD_COLUMN_MAJOR = 1 << 2, MOD_STATIC = 1 << 3,
  MOD_UNIFORM = 1 << 4, MOD_EXTERN = 1 << 5, MOD_VOLATILE = 1 << 6, MOD_INLINE = 1 << 7,
  MOD_PRECISE = 1 << 8, MOD_SHARED = 1 << 9, MOD_GROUPSHARED = 1 << 10,
  MOD_IN = 1 << 16, MOD_OUT = 1 << 17, MOD_INOUT = 1 << 18,
};

/* A declaration's row_major/column_major modifier, if any, on its type. */
static Type *
apply_majority (P *p, Type *t, unsigned mods)
{
  if (!(mods & (MOD_ROW_MAJOR | MOD_COLUMN_MAJOR)))
    return t;
  return type_with_major (p, t, mods & MOD_ROW_MAJOR, p->major_loc);
}


static unsigned
parse_modifiers (P *p)
{
  unsigned mods = 0;
  for (;;)
    {
      Token *t = peek (p);
      if (t->kind != TK_IDENT)
        return mods;
      size_t i;
      for (i = 0; i < G_N_ELEMENTS (modifiers); i++)
        if (!strcmp (t->text, modifiers[i]))
          break;
      if (i == G_N_ELEMENTS (modifiers))
        return mods;
      /* typedef float4 precise; precise main() — a type, not a modifier,
       * when a name (not a type) follows it. */
      if (g_hash_table_contains (p->types, t->text) && peek_at (p, 1)->kind == TK_IDENT
          && !g_hash_table_contains (p->types, peek_at (p, 1)->text)
          && !builtin_numeric (p, peek_at (p, 1)->text))
        {
          bool follows_mod = false;
          for (size_t j = 0; j < G_N_ELEMENTS (modifiers); j++)
            follows_mod |= !strcmp (peek_at (p, 1)->text, modifiers[j]);
          bool a, b, c;
          if (!follows_mod && sampler_dim (peek_at (p, 1)->text, &a, &b, &c) == -2)
            return mods;
        }
      unsigned bit = i <= 10 ? 1u << i : (!strcmp (t->text, "in") ? MOD_IN
                                           : !strcmp (t->text, "out") ? MOD_OUT
                                           : !strcmp (t->text, "inout") ? MOD_INOUT : 0);
      if (bit && (mods & bit))
        error_at (p, t->loc, "modifier '%s' given twice", t->text);
      /* A majority error names the modifier, not the declared name. */
      if (bit & (MOD_ROW_MAJOR | MOD_COLUMN_MAJOR))
        p->major_loc = t->loc;
      mods |= bit;
      next (p);
    }
}

static Type *parse_struct (P *p);

static int parse_const_int_expr (P *p, int *out);

/* Parses a type name (without modifiers); NULL if none is here. */
static Type *
parse_type (P *p)
{
  Token *t = peek (p);
  if (t->kind != TK_IDENT)
    return NULL;
  Type *local = lookup_local_type (p, t->text);
  if (local)
    {
      next (p);
      return local;
    }
  if (!strcmp (t->text, "unsigned"))
    {
      next (p);
      Token *it = peek (p);
      Type *u = parse_type (p);
      if (!u || u->kind != TY_NUM || u->base != BT_INT)
        {
          error_at (p, it->loc, "'unsigned' applies only to int types");
          return p->t_error;
        }
      Type *r = hlsl_type_num (p->arena, BT_UINT, u->cls, u->rows, u->cols);
      r->row_major = u->row_major;
      r->has_major = u->has_major;
      return r;
    }
  if (!strcmp (t->text, "struct"))
    return parse_struct (p);
  if ((!strcmp (t->text, "InputPatch") || !strcmp (t->text, "OutputPatch"))
      && peek_at (p, 1)->kind == TK_PUNCT && !strcmp (peek_at (p, 1)->text, "<"))
    {
      /* Outside tessellation shaders a patch is a constant array. */
      next (p);
      next (p);
      Token *et = peek (p);
      Type *elem = parse_type (p);
      if (!elem)
        {
          /* Name the bad element type once, then read on as if it were
           * one, so the rest of the declaration parses. */
          error_at (p, et->loc, "expected an element type in %s<>", t->text);
          if (et->kind == TK_IDENT)
            next (p);
          elem = p->t_error;
        }
      int n = 0;
      expect (p, ",");
      Token *nt = peek (p);
      bool n_ok = parse_const_int_expr (p, &n);
      expect (p, ">");
      if (elem->kind == TY_ERROR)
        return p->t_error;
      if (n_ok && n < 1)
        {
          error_at (p, nt->loc, "%s needs at least one element", t->text);
          return p->t_error;
        }
      Type *r = type_array (p, elem, n);
      r->is_patch = true;
      return r;
    }
  if (!strcmp (t->text, "void"))
    {
      next (p);
      return p->t_void;
    }
  if (!strcmp (t->text, "string"))
    {
      next (p);
      return p->t_string;
    }
  if (!strcmp (t->text, "vector") || !strcmp (t->text, "matrix"))
    {
      bool is_matrix = t->text[0] == 'm';
      next (p);
      if (!accept (p, "<"))
        {
          Type *r = is_matrix ? hlsl_type_num (p->arena, BT_FLOAT, NUM_MATRIX, 4, 4)
                              : hlsl_type_num (p->arena, BT_FLOAT, NUM_VECTOR, 1, 4);
          r->row_major = p->row_major_default;
          return r;
        }
      Token *bt = next (p);
      BaseType base = BT_FLOAT;
      int n;
      Type *bty = bt->kind == TK_IDENT ? builtin_numeric (p, bt->text) : NULL;
      if (!bty || bty->cls != NUM_SCALAR)
        error_at (p, bt->loc, "expected a scalar type in %s<>", is_matrix ? "matrix" : "vector");
      else
        base = bty->base;
      (void) n;
      int rows = 1, cols = 4;
      expect (p, ",");
      SlLoc first_loc = peek (p)->loc, cols_loc = first_loc;
      parse_const_int_expr (p, is_matrix ? &rows : &cols);
      if (is_matrix)
        {
          expect (p, ",");
          cols_loc = peek (p)->loc;
          parse_const_int_expr (p, &cols);
        }
      expect (p, ">");
      if (rows < 1 || rows > 4 || cols < 1 || cols > 4)
        {
          error_at (p, rows < 1 || rows > 4 ? first_loc : cols_loc,
                    "%s dimensions must be between 1 and 4", is_matrix ? "matrix" : "vector");
          return p->t_error;
        }
      Type *r = hlsl_type_num (p->arena, base, is_matrix ? NUM_MATRIX : NUM_VECTOR, rows, cols);
      r->row_major = p->row_major_default;
      return r;
    }
  Type *num = builtin_numeric (p, t->text);
  if (num)
    {
      num->is_double = !strncmp (t->text, "double", 6);
      next (p);
      return num;
    }
  bool is_s, is_t, cmp;
  int dim = sampler_dim (t->text, &is_s, &is_t, &cmp);
  if (dim != -2)
    {
      next (p);
      Type *r = SL_NEW (p->arena, Type);
      r->kind = is_t ? TY_TEXTURE : TY_SAMPLER;
      r->tex_dim = dim;
      r->comparison = cmp;
      r->n_objects = 1;
      r->name = t->text;
      if (is_t && accept (p, "<"))
        {
          /* Texture2D<float4>: the element type only shapes results. */
          int angle = 1;
          while (angle > 0 && peek (p)->kind != TK_EOF)
            {
              if (is (p, "<"))
                angle++;
              else if (is (p, ">"))
                angle--;
              next (p);
            }
        }
      return r;
    }
  Type *named = g_hash_table_lookup (p->types, t->text);
  if (named)
    {
      next (p);
      return named;
    }
  /* The D3D9-era names are case-insensitive (but the vector<> and
   * matrix<> templates are not). */
  if (!g_ascii_strcasecmp (t->text, "matrix") || !g_ascii_strcasecmp (t->text, "vector"))
    {
      if (peek_at (p, 1)->kind == TK_PUNCT && !strcmp (peek_at (p, 1)->text, "<"))
        return NULL;
      next (p);
      Type *r = g_ascii_tolower (t->text[0]) == 'm' ? hlsl_type_num (p->arena, BT_FLOAT, NUM_MATRIX, 4, 4)
                                                  : hlsl_type_num (p->arena, BT_FLOAT, NUM_VECTOR, 1, 4);
      r->row_major = p->row_major_default;
      return r;
    }
  if (!g_ascii_strcasecmp (t->text, "dword"))
    {
      next (p);
      return p->t_uint;
    }
  if (!g_ascii_strcasecmp (t->text, "texture"))
    {
      next (p);
      Type *r = SL_NEW (p->arena, Type);
      r->kind = TY_TEXTURE;
      r->tex_dim = -1;
      r->n_objects = 1;
      r->name = "texture";
      return r;
    }
  return NULL;
}

static bool
is_type_start (P *p)
{
  Token *t = peek (p);
  if (t->kind != TK_IDENT)
    return false;
  if (!strcmp (t->text, "InputPatch") || !strcmp (t->text, "OutputPatch")
      || !strcmp (t->text, "unsigned"))
    return !lookup_var (p, t->text);
  if (!strcmp (t->text, "struct") || !strcmp (t->text, "vector") || !strcmp (t->text, "matrix")
      || !strcmp (t->text, "void") || !strcmp (t->text, "string"))
    return true;
  for (size_t i = 0; i < G_N_ELEMENTS (modifiers); i++)
    if (!strcmp (t->text, modifiers[i]))
      return true;
  if (g_hash_table_contains (p->types, t->text) || lookup_local_type (p, t->text))
    return !lookup_var (p, t->text);
  if (!g_ascii_strcasecmp (t->text, "matrix") || !g_ascii_strcasecmp (t->text, "vector")
      || !g_ascii_strcasecmp (t->text, "dword") || !g_ascii_strcasecmp (t->text, "texture"))
    return !lookup_var (p, t->text);
  bool a, b, c;
  if (sampler_dim (t->text, &a, &b, &c) != -2)
    return true;
  Type *num = builtin_numeric (p, t->text);
  return num != NULL;
}

/* ------------------------------------------------------------------ */
/* Expressions                                                          */
/* ------------------------------------------------------------------ */

static Node *
new_node (P *p, NodeKind kind, SlLoc loc, Type *type)
{
  Node *n = SL_NEW (p->arena, Node);
  n->kind = kind;
  n->loc = loc;
  n->type = type;
  return n;
}

static Node *
error_node (P *p, SlLoc loc)
{
  return new_node (p, N_LIT, loc, p->t_error);
}

static Node *
lit_scalar (P *p, SlLoc loc, BaseType base, uint32_t bits)
{
  Node *n = new_node (p, N_LIT, loc, hlsl_type_num (p->arena, base, NUM_SCALAR, 1, 1));
  n->lit = SL_NEW_N (p->arena, uint32_t, 1);
  n->lit[0] = bits;
  return n;
}

static bool
is_error (const Node *n)
{
  return n->type->kind == TY_ERROR;
}

/* One entry of a type's flattened layout: a numeric component (its base
 * type) or an object (sampler or texture, with the texture dimension).
 * Objects take no numeric component, so two aggregates whose numbers line
 * up may still disagree on where their objects sit; conversions compare
 * these lists. */
typedef struct
{
  signed char kind;   /* BaseType, or SLOT_SAMPLER/SLOT_TEXTURE */
  signed char dim;
} Slot;

enum { SLOT_SAMPLER = 8, SLOT_TEXTURE = 9 };

static int
flat_slots (const Type *t, Slot *out, int max)
{
  int n = 0;
  switch (t->kind)
    {
    case TY_NUM:
      for (int i = 0; i < t->n_comp && n < max; i++)
        out[n++] = (Slot) { (signed char) t->base, 0 };
      return n;
    case TY_SAMPLER: case TY_TEXTURE:
      if (max > 0)
        out[n++] = (Slot) { t->kind == TY_SAMPLER ? SLOT_SAMPLER : SLOT_TEXTURE,
                            (signed char) t->tex_dim };
      return n;
    case TY_ARRAY:
      for (int i = 0; i < t->len && n < max; i++)
        n += flat_slots (t->elem, out + n, max - n);
      return n;
    case TY_STRUCT:
      for (int i = 0; i < t->n_fields && n < max; i++)
        n += flat_slots (t->fields[i].type, out + n, max - n);
      return n;
    default:
      return 0;
    }
}

/* Whether the layout of @to matches that of @from (or, with @prefix, its
 * beginning): objects at the same places and of a compatible kind, and
 * with @same_bases numbers of the same base types. */
static bool
objects_line_up (const Type *from, const Type *to, bool prefix, bool same_bases)
{
  int nf = from->n_comp + from->n_objects, nt = to->n_comp + to->n_objects;
  if (nt > nf || (!prefix && nt != nf))
    return false;
  Slot *x = g_new (Slot, nf + 1), *y = g_new (Slot, nt + 1);
  nf = flat_slots (from, x, nf);
  nt = flat_slots (to, y, nt);
  bool ok = nt <= nf;
  for (int i = 0; i < nt && ok; i++)
    {
      bool xo = x[i].kind >= SLOT_SAMPLER, yo = y[i].kind >= SLOT_SAMPLER;
      if (xo != yo)
        ok = false;
      else if (xo)
        ok = x[i].kind == y[i].kind
             && (x[i].kind == SLOT_SAMPLER || x[i].dim == y[i].dim || x[i].dim < 0 || y[i].dim < 0);
      else if (same_bases)
        ok = x[i].kind == y[i].kind;
    }
  g_free (x);
  g_free (y);
  return ok;
}

/* For types without objects: the same numeric components of the same base
 * types.  Aggregates of over 256 components pass unchecked, as they did
 * when these compared fixed-size arrays; checking them too would reject
 * shaders accepted today, so it is left for a change of its own. */
static bool
same_component_bases (const Type *a, const Type *b)
{
  return a->n_comp > 256 || objects_line_up (a, b, false, true);
}

/* Whether @a's component types start @b's. */
static bool
prefix_component_bases (const Type *a, const Type *b)
{
  return a->n_comp > 256 || b->n_comp > 256 || objects_line_up (b, a, true, true);
}

static void
initlist_slots (const Node *e, GArray *out)
{
  if (e->kind == N_INITLIST)
    {
      for (int i = 0; i < e->n_args; i++)
        initlist_slots (e->args[i], out);
      return;
    }
  if (e->type->kind == TY_ERROR)
    return;
  int n = e->type->n_comp + e->type->n_objects;
  g_array_set_size (out, out->len + n);
  flat_slots (e->type, &g_array_index (out, Slot, out->len - n), n);
}

/* A brace list flattens objects in among the numbers; they must land on
 * the objects of @t, one for one. */
static bool
initlist_objects_ok (const Node *list, const Type *t)
{
  GArray *have = g_array_new (FALSE, FALSE, sizeof (Slot));
  initlist_slots (list, have);
  int n = t->n_comp + t->n_objects;
  bool any = t->n_objects > 0;
  for (guint i = 0; i < have->len && !any; i++)
    any = g_array_index (have, Slot, i).kind >= SLOT_SAMPLER;
  bool ok = !any || (int) have->len == n;
  if (any && ok)
    {
      Slot *want = g_new (Slot, n + 1);
      flat_slots (t, want, n);
      for (int i = 0; i < n && ok; i++)
        {
          Slot x = g_array_index (have, Slot, i), y = want[i];
          if ((x.kind >= SLOT_SAMPLER) != (y.kind >= SLOT_SAMPLER))
            ok = false;
          else if (x.kind >= SLOT_SAMPLER)
            ok = x.kind == y.kind
                 && (x.kind == SLOT_SAMPLER || x.dim == y.dim || x.dim < 0 || y.dim < 0);
        }
      g_free (want);
    }
  g_array_free (have, TRUE);
  return ok;
}

/* An explicit cast that drops components on the way into or out of a
 * matrix: the source matrix must be a single row or column, and a target
 * matrix a single row (what the D3D compiler accepts). */
static bool
matrix_cast_ok (const Type *from, const Type *to)
{
  if (from->n_comp < to->n_comp)
    return false;
  if (from->kind == TY_NUM && from->cls == NUM_MATRIX && from->rows != 1 && from->cols != 1)
    return false;
  if (to->kind == TY_NUM && to->cls == NUM_MATRIX && to->rows != 1)
    return false;
  return true;
}

/* The conversion rules of HLSL, in one place.  Returns the converted
 * expression, or an error node after a diagnostic.  @explicit_cast allows
 * the conversions only a C-style cast may make. */
static Node *
convert (P *p, Node *e, Type *to, SlLoc loc, bool explicit_cast, const char *what)
{
  Type *from = e->type;
  if (from->kind == TY_ERROR || to->kind == TY_ERROR)
    return e;
  /* Matrices differing only in row/column-major storage hold the same
   * values, so they too convert as themselves. */
  if (type_equal (from, to))
    return e;
  bool ok = false, truncates = false;
  if (from->kind == TY_NUM && to->kind == TY_NUM)
    {
      int fn = from->n_comp, tn = to->n_comp;
      if (fn == 1)
        ok = true;                                  /* scalar → anything: replicate */
      else if (tn == 1)
        {
          ok = true;                                /* first component */
          truncates = true;
        }
      else if (from->cls == NUM_VECTOR && to->cls == NUM_VECTOR)
        {
          ok = tn <= fn;
          truncates = tn < fn;
        }
      else if (from->cls == NUM_MATRIX && to->cls == NUM_MATRIX)
        {
          ok = to->rows <= from->rows && to->cols <= from->cols;
          truncates = tn < fn;
        }
      else
        {
          ok = tn == fn || (explicit_cast && matrix_cast_ok (from, to));
          truncates = tn < fn;
        }
    }
  else if (explicit_cast && ((from->kind == TY_NUM && from->cls == NUM_MATRIX
                              && (to->kind == TY_STRUCT || to->kind == TY_ARRAY))
                             || ((from->kind == TY_STRUCT || from->kind == TY_ARRAY)
                                 && to->kind == TY_NUM && to->cls == NUM_MATRIX)))
    {
      /* A matrix holds no objects: only a struct's trailing ones can be
       * dropped. */
      ok = (from->n_objects == 0 || objects_line_up (from, to, true, false))
           && to->n_objects == 0 && (from->n_comp == to->n_comp || matrix_cast_ok (from, to));
      truncates = from->n_comp > to->n_comp;
    }
  else if (explicit_cast && (from->kind == TY_STRUCT || from->kind == TY_ARRAY || from->kind == TY_NUM)
           && (to->kind == TY_STRUCT || to->kind == TY_ARRAY || to->kind == TY_NUM))
    {
      /* Aggregates convert component-wise when the source has enough
       * numeric components (scalars replicate). */
      if (from->n_objects || to->n_objects)
        ok = objects_line_up (from, to, true, false);
      else
        ok = from->n_comp >= to->n_comp || from->n_comp == 1;
      truncates = from->n_comp > to->n_comp;
    }
  else if (!explicit_cast && (from->kind == TY_STRUCT || from->kind == TY_ARRAY)
           && (to->kind == TY_STRUCT || to->kind == TY_ARRAY))
    {
      /* Implicitly only between the same components of the same types. */
      if (from->n_objects || to->n_objects)
        ok = objects_line_up (from, to, false, true);
      else
        ok = from->n_comp == to->n_comp && same_component_bases (from, to);
    }
  else if ((from->kind == TY_SAMPLER && to->kind == TY_SAMPLER)
           || (from->kind == TY_TEXTURE && to->kind == TY_TEXTURE))
    ok = from->tex_dim == to->tex_dim || from->tex_dim == -1 || to->tex_dim == -1;

  if (!ok)
    {
      error_at (p, loc, "cannot convert from '%s' to '%s'%s%s", type_name (p, from),
                type_name (p, to), what ? " in " : "", what ? what : "");
      return error_node (p, loc);
    }
  if (truncates && !explicit_cast)
    warn_at (p, loc, "implicit truncation of %s type", from->cls == NUM_MATRIX ? "matrix" : "vector");
  if (from->kind == TY_SAMPLER || from->kind == TY_TEXTURE)
    return e;
  Node *c = new_node (p, N_CAST, loc, to);
  c->a = e;
  return c;
}

static Node *parse_expr (P *p);
static Node *parse_assign (P *p);
static Node *parse_unary (P *p);
static int skip_args (P *p);
static void parse_compile_target (P *p, bool check_names);
static bool is_shader_object_type (Token *t);

/* Component @k of a constant expression: literals, initializer lists
 * and the constant variables they initialise, seen through indexing,
 * members and swizzles. */
static double
const_component (P *p, Node *e, int k, bool *ok)
{
  if (!e || !*ok)
    {
      *ok = false;
      return 0;
    }
  switch (e->kind)
    {
    case N_LIT:
      if (e->type->kind != TY_NUM || !e->lit || k >= e->type->n_comp)
        break;
      switch (e->type->base)
        {
        case BT_FLOAT: return sl_u2f (e->lit[k]);
        case BT_BOOL: return e->lit[k] ? 1 : 0;
        case BT_UINT: return e->lit[k];
        default: return (int32_t) e->lit[k];
        }
    case N_VAR:
      if (e->var->is_const && e->var->init)
        return const_component (p, e->var->init, k, ok);
      break;
    case N_INITLIST:
      for (int i = 0; i < e->n_args; i++)
        {
          Node *a = e->args[i];
          int n = a->kind == N_INITLIST ? a->n_comps : a->type->n_comp;
          if (k < n)
            return const_component (p, a, k, ok);
          k -= n;
        }
      break;
    case N_CAST:
      {
        double v = const_component (p, e->a, e->a->type->n_comp == 1 ? 0 : k, ok);
        if (e->type->kind == TY_NUM && (e->type->base == BT_INT || e->type->base == BT_UINT))
          v = (double) (int64_t) v;
        else if (e->type->kind == TY_NUM && e->type->base == BT_BOOL)
          v = v != 0;
        return v;
      }
    case N_INDEX:
      {
        int idx = (int) const_component (p, e->b, 0, ok);
        return const_component (p, e->a, idx * e->type->n_comp + k, ok);
      }
    case N_MEMBER:
      return const_component (p, e->a, e->offset + k, ok);
    case N_SWIZZLE:
      if (k < e->n_comps)
        return const_component (p, e->a, e->comps[k], ok);
      break;
    case N_UNARY:
      if (e->op == '-')
        return -const_component (p, e->a, k, ok);
      if (e->op == '+')
        return const_component (p, e->a, k, ok);
      break;
    case N_BINARY:
      {
        double a = const_component (p, e->a, e->a->type->n_comp == 1 ? 0 : k, ok);
        double b = const_component (p, e->b, e->b->type->n_comp == 1 ? 0 : k, ok);
        switch (e->op)
          {
          case '+': return a + b;
          case '-': return a - b;
          case '*': return a * b;
          case '/': return b != 0 ? a / b : 0;
          default: break;
          }
        break;
      }
    default:
      break;
    }
  *ok = false;
  return 0;
}

static int
const_eval_int (P *p, Node *e, bool *ok)
{
  /* Only literals and casts of literals fold here; the IR folds the rest. */
  if (e->kind == N_LIT && e->type->kind == TY_NUM && e->lit)
    {
      uint32_t w = e->lit[0];
      switch (e->type->base)
        {
        case BT_FLOAT: return sl_scalar_FTOI (sl_u2f (w));
        case BT_BOOL: return w ? 1 : 0;
        default: return (int32_t) w;
        }
    }
  if (e->kind == N_CAST)
    return const_eval_int (p, e->a, ok);
  if (e->kind == N_UNARY && e->op == '-')
    return sl_scalar_INEG (const_eval_int (p, e->a, ok));
  if (e->kind == N_BINARY)
    {
      /* The VM's wrapping helpers: hostile sizes like INT_MAX * 2 must not
       * be undefined behaviour in the compiler itself. */
      int32_t a = const_eval_int (p, e->a, ok), b = const_eval_int (p, e->b, ok);
      switch (e->op)
        {
        case '+': return sl_scalar_IADD (a, b);
        case '-': return sl_scalar_ISUB (a, b);
        case '*': return sl_scalar_IMUL (a, b);
        case '/': return b ? sl_scalar_IDIV (a, b) : 0;
        case '%': return b ? sl_scalar_IMOD (a, b) : 0;
        case '<' * 256 + '<': return (int32_t) sl_scalar_SHL ((uint32_t) a, (uint32_t) b);
        case '>' * 256 + '>': return sl_scalar_ISHR (a, b);
        default: break;
        }
    }
  if (e->kind == N_VAR && e->var->is_const && e->var->init)
    return const_eval_int (p, e->var->init, ok);
  if (e->kind == N_INDEX || e->kind == N_MEMBER || e->kind == N_SWIZZLE)
    return (int) const_component (p, e, 0, ok);
  *ok = false;
  return 0;
}

static double
const_eval_double (P *p, Node *e, bool *ok)
{
  if (e->kind == N_LIT && e->type->kind == TY_NUM && e->lit)
    {
      uint32_t w = e->lit[0];
      switch (e->type->base)
        {
        case BT_FLOAT: return sl_u2f (w);
        case BT_BOOL: return w ? 1 : 0;
        case BT_UINT: return w;
        default: return (int32_t) w;
        }
    }
  if (e->kind == N_CAST)
    return const_eval_double (p, e->a, ok);
  if (e->kind == N_UNARY && e->op == '-')
    return -const_eval_double (p, e->a, ok);
  if (e->kind == N_BINARY)
    {
      double a = const_eval_double (p, e->a, ok), b = const_eval_double (p, e->b, ok);
      switch (e->op)
        {
        case '+': return a + b;
        case '-': return a - b;
        case '*': return a * b;
        case '/': return b != 0 ? a / b : 0;
        default: break;
        }
    }
  *ok = false;
  return 0;
}

static int
parse_const_int_expr (P *p, int *out)
{
  Token *t = peek (p);
  Node *e = parse_unary (p);
  /* allow simple binary arithmetic */
  while (is (p, "*") || is (p, "+") || is (p, "-") || is (p, "/"))
    {
      Token *o = next (p);
      Node *b = new_node (p, N_BINARY, o->loc, e->type);
      b->op = o->text[0];
      b->a = e;
      b->b = parse_unary (p);
      e = b;
    }
  bool ok = true;
  int v = const_eval_int (p, e, &ok);
  if (!ok && !is_error (e))
    error_at (p, t->loc, "expected a constant integer expression");
  *out = v;
  return ok;
}

static BaseType
common_base (BaseType a, BaseType b)
{
  return a > b ? a : b;   /* bool < int < uint < float */
}

/* The result type of a component-wise binary operation. */
static Type *
binary_type_ex (P *p, SlLoc loc, Type *a, Type *b, BaseType base, bool nest)
{
  if (a->kind != TY_NUM || b->kind != TY_NUM)
    {
      if (a->kind == TY_ERROR || b->kind == TY_ERROR)
        return p->t_error;
      error_at (p, loc, "operands of type '%s' and '%s' are not numeric", type_name (p, a),
                type_name (p, b));
      return p->t_error;
    }
  if (a->n_comp == 1 && b->n_comp == 1)
    return hlsl_type_num (p->arena, base, NUM_SCALAR, 1, 1);
  if (a->n_comp == 1)
    return hlsl_type_num (p->arena, base, b->cls, b->rows, b->cols);
  if (b->n_comp == 1)
    return hlsl_type_num (p->arena, base, a->cls, a->rows, a->cols);
  if (a->cls == NUM_VECTOR && b->cls == NUM_VECTOR)
    {
      /* convert() warns about the operand that loses components. */
      int n = MIN (a->cols, b->cols);
      return hlsl_type_num (p->arena, base, NUM_VECTOR, 1, n);
    }
  if (a->cls == NUM_MATRIX && b->cls == NUM_MATRIX)
    {
      int r = MIN (a->rows, b->rows), c = MIN (a->cols, b->cols);
      if (nest && !((a->rows <= b->rows && a->cols <= b->cols) || (b->rows <= a->rows && b->cols <= a->cols)))
        {
          error_at (p, loc, "cannot combine '%s' and '%s'", type_name (p, a), type_name (p, b));
          return p->t_error;
        }
      return hlsl_type_num (p->arena, base, NUM_MATRIX, r, c);
    }
  /* vector with matrix: allowed when the sizes match */
  if (a->n_comp == b->n_comp)
    return hlsl_type_num (p->arena, base, a->cls, a->rows, a->cols);
  error_at (p, loc, "cannot combine '%s' and '%s'", type_name (p, a), type_name (p, b));
  return p->t_error;
}

/* Operators need one matrix operand to fit inside the other;
 * intrinsics take the common leading part of any two. */
static Type *
binary_type (P *p, SlLoc loc, Type *a, Type *b, BaseType base)
{
  return binary_type_ex (p, loc, a, b, base, true);
}

static Node *
make_binary (P *p, SlLoc loc, int op, Node *a, Node *b)
{
  if (is_error (a) || is_error (b))
    return error_node (p, loc);
  Type *ta = a->type, *tb = b->type;
  bool cmp = op == '<' || op == '>' || op == '<' * 256 + '=' || op == '>' * 256 + '='
             || op == '=' * 256 + '=' || op == '!' * 256 + '=';
  bool logical = op == '&' * 256 + '&' || op == '|' * 256 + '|';
  bool bitwise = op == '&' || op == '|' || op == '^' || op == '<' * 256 + '<'
                 || op == '>' * 256 + '>' || op == '%';
  if (ta->kind != TY_NUM || tb->kind != TY_NUM)
    {
      error_at (p, loc, "operator needs numeric operands, not '%s' and '%s'", type_name (p, ta),
                type_name (p, tb));
      return error_node (p, loc);
    }
  BaseType base = common_base (ta->base, tb->base);
  if (logical)
    base = BT_BOOL;
  else if (bitwise && op != '%')
    {
      if (ta->base == BT_FLOAT || tb->base == BT_FLOAT)
        {
          error_at (p, loc, "bitwise operators need integer operands");
          return error_node (p, loc);
        }
      if (base == BT_BOOL)
        base = BT_INT;
    }
  else if (base == BT_BOOL)
    base = BT_INT;    /* arithmetic on bools happens in int */
  if (op == '<' * 256 + '<' || op == '>' * 256 + '>')
    base = ta->base == BT_BOOL ? BT_INT : ta->base;
  Type *rt = binary_type (p, loc, ta, tb, base);
  if (rt->kind == TY_ERROR)
    return error_node (p, loc);
  Node *n = new_node (p, N_BINARY, loc, NULL);
  n->op = op;
  Type *operand_t = hlsl_type_num (p->arena, logical ? BT_BOOL : base, rt->cls, rt->rows, rt->cols);
  if (op == '<' * 256 + '<' || op == '>' * 256 + '>')
    {
      n->a = convert (p, a, operand_t, loc, false, NULL);
      n->b = convert (p, b, hlsl_type_num (p->arena, BT_UINT, rt->cls, rt->rows, rt->cols), loc, false, NULL);
    }
  else
    {
      n->a = convert (p, a, operand_t, loc, false, NULL);
      n->b = convert (p, b, operand_t, loc, false, NULL);
    }
  n->type = cmp ? hlsl_type_num (p->arena, BT_BOOL, rt->cls, rt->rows, rt->cols) : rt;
  return n;
}

static bool
is_lvalue (P *p, Node *e, bool report)
{
  switch (e->kind)
    {
    case N_VAR:
      if (e->var->is_const)
        {
          if (report)
            error_at (p, e->loc, "cannot assign to const variable '%s'", e->var->name);
          return false;
        }
      if (e->var->storage == STORE_UNIFORM)
        {
          if (report)
            error_at (p, e->loc, "cannot assign to uniform '%s'", e->var->name);
          return false;
        }
      return true;
    case N_SWIZZLE:
      for (int i = 0; i < e->n_comps; i++)
        for (int j = 0; j < i; j++)
          if (e->comps[i] == e->comps[j])
            {
              if (report)
                error_at (p, e->loc, "swizzle used as a write mask repeats a component");
              return false;
            }
      return is_lvalue (p, e->a, report);
    case N_MEMBER: case N_INDEX:
      return is_lvalue (p, e->a, report);
    case N_CAST:
      /* (float2) v = … assigns part of v; aggregates must keep their
       * component types. */
      if (e->a->type->n_objects
          || (e->type->kind != TY_NUM && !prefix_component_bases (e->type, e->a->type)))
        {
          if (report)
            error_at (p, e->loc, "cast of type '%s' cannot be assigned to", type_name (p, e->type));
          return false;
        }
      return is_lvalue (p, e->a, report);
    default:
      if (report && !is_error (e))
        error_at (p, e->loc, "expression is not assignable");
      return false;
    }
}

static Node *
parse_initializer_list (P *p, SlLoc loc)
{
  /* { a, b, { c, d } } — flattened by lowering */
  Node *n = new_node (p, N_INITLIST, loc, p->t_void);
  GPtrArray *items = g_ptr_array_new ();
  int total = 0;
  if (!is (p, "}"))
    for (;;)
      {
        Node *item;
        if (is (p, "{"))
          {
            Token *b = next (p);
            item = parse_initializer_list (p, b->loc);
          }
        else
          item = parse_assign (p);
        g_ptr_array_add (items, item);
        total += item->type->kind == TY_VOID ? item->n_comps : item->type->n_comp;
        if (!accept (p, ","))
          break;
        if (is (p, "}"))
          break;
      }
  expect (p, "}");
  n->n_args = items->len;
  n->args = SL_NEW_N (p->arena, Node *, items->len + 1);
  if (items->len > 0)   /* pdata is NULL while empty */
    memcpy (n->args, items->pdata, items->len * sizeof (Node *));
  n->n_comps = total;
  g_ptr_array_free (items, TRUE);
  return n;
}

/* Parses the swizzle/member letters of a numeric value. */
static Node *
parse_swizzle (P *p, Node *base, Token *name)
{
  Type *t = base->type;
  const char *s = name->text;
  int comps[16];
  int n = 0;
  if (t->cls == NUM_MATRIX || (s[0] == '_' ))
    {
      /* _m00 / _11 forms, chained: _m00_m11 (one form per swizzle) */
      const char *q = s;
      int form = 0;
      if (t->cls != NUM_MATRIX)
        {
          error_at (p, name->loc, "'%s' is not a matrix; '%s' is a matrix swizzle", type_name (p, t), s);
          return error_node (p, name->loc);
        }
      while (*q)
        {
          int r, c;
          int this_form = q[0] == '_' && q[1] == 'm' ? 1 : 2;
          if (form && form != this_form)
            {
              error_at (p, name->loc, "matrix swizzle '%s' mixes the _mRC and _RC forms", s);
              return error_node (p, name->loc);
            }
          form = this_form;
          if (q[0] == '_' && q[1] == 'm' && q[2] >= '0' && q[2] <= '3' && q[3] >= '0' && q[3] <= '3')
            {
              r = q[2] - '0';
              c = q[3] - '0';
              q += 4;
            }
          else if (q[0] == '_' && q[1] >= '1' && q[1] <= '4' && q[2] >= '1' && q[2] <= '4')
            {
              r = q[1] - '1';
              c = q[2] - '1';
              q += 3;
            }
          else
            {
              error_at (p, name->loc, "invalid matrix swizzle '%s'", s);
              return error_node (p, name->loc);
            }
          if (r >= t->rows || c >= t->cols || n >= 4)
            {
              error_at (p, name->loc, "matrix swizzle '%s' is out of range for '%s'", s, type_name (p, t));
              return error_node (p, name->loc);
            }
          comps[n++] = r * t->cols + c;
        }
    }
  else
    {
      int len = strlen (s);
      if (len > 4)
        {
          error_at (p, name->loc, "invalid swizzle '%s'", s);
          return error_node (p, name->loc);
        }
      int set = 0;
      for (int i = 0; i < len; i++)
        {
          const char *xyzw = "xyzw", *rgba = "rgba";
          const char *a = strchr (xyzw, s[i]), *b = strchr (rgba, s[i]);
          int c = a ? a - xyzw : b ? b - rgba : -1;
          int this_set = a ? 1 : 2;
          if (c < 0 || (set && set != this_set))
            {
              error_at (p, name->loc, "invalid swizzle '%s'", s);
              return error_node (p, name->loc);
            }
          set = this_set;
          if (c >= t->n_comp)
            {
              error_at (p, name->loc, "swizzle '%s' reads beyond the %d component(s) of '%s'", s,
                        t->n_comp, type_name (p, t));
              return error_node (p, name->loc);
            }
          comps[n++] = c;
        }
    }
  Node *sw = new_node (p, N_SWIZZLE, name->loc,
                       hlsl_type_num (p->arena, t->base, n == 1 ? NUM_SCALAR : NUM_VECTOR, 1, n));
  sw->a = base;
  sw->n_comps = n;
  sw->comps = SL_NEW_N (p->arena, int, n);
  memcpy (sw->comps, comps, n * sizeof (int));
  return sw;
}

static Type *intrinsic_type (P *p, Node *call);

static Node *
make_call (P *p, Token *name, Node *object, GPtrArray *args)
{
  SlLoc loc = name->loc;
  for (guint i = 0; i < args->len; i++)
    if (is_error (g_ptr_array_index (args, i)))
      return error_node (p, loc);

  /* User functions first: they may overload intrinsic names. */
  Func *f = object ? NULL : g_hash_table_lookup (p->u->funcs, name->text);
  Func *best = NULL;
  if (f)
    {
      /* Overload resolution: exact matches beat conversions; among
       * viable candidates the one with fewest conversions wins. */
      int best_cost = INT_MAX, ties = 0;
      for (Func *c = f; c; c = c->next_overload)
        {
          int n_req = 0;
          for (int k = 0; k < c->n_params; k++)
            if (!c->defaults || !c->defaults[k])
              n_req = k + 1;
          if ((int) args->len < n_req || (int) args->len > c->n_params)
            continue;
          int cost = 0;
          bool viable = true;
          for (guint k = 0; k < args->len && viable; k++)
            {
              Node *an = g_ptr_array_index (args, k);
              Type *at = an->type, *pt = c->params[k]->type;
              if (at->kind == TY_NUM && pt->kind == TY_NUM && at->is_double != pt->is_double)
                cost += 100;
              if (type_equal (at, pt))
                continue;
              /* Ranked like the D3D compiler: dropping components is
               * worse than changing the component type, which is worse
               * than replicating a scalar; how many components change
               * does not matter, nor does vector versus matrix shape. */
              if (at->kind == TY_NUM && pt->kind == TY_NUM)
                {
                  if (at->n_comp == pt->n_comp)
                    ;
                  else if (at->n_comp == 1)
                    cost += 1;
                  else if (at->n_comp > pt->n_comp)
                    cost += 10000;
                  else
                    viable = false;
                  /* An unsuffixed integer literal is as much uint as int. */
                  bool literal_int = an->kind == N_LIT && at->base == BT_INT && pt->base == BT_UINT;
                  if (at->base != pt->base && !literal_int)
                    cost += 100;
                }
              else if ((at->kind == TY_ARRAY || at->kind == TY_STRUCT)
                       && (pt->kind == TY_ARRAY || pt->kind == TY_STRUCT)
                       && at->n_comp == pt->n_comp
                       && (at->n_objects || pt->n_objects ? objects_line_up (at, pt, false, true)
                                                          : same_component_bases (at, pt)))
                cost += 1;   /* the same components in another shape */
              else if (!((at->kind == TY_SAMPLER || at->kind == TY_TEXTURE) && at->kind == pt->kind))
                viable = false;
            }
          if (!viable)
            continue;
          if (cost < best_cost)
            {
              best = c;
              best_cost = cost;
              ties = 0;
            }
          else if (cost == best_cost)
            ties++;
        }
      if (!best && g_hash_table_lookup (p->intrinsics, name->text))
        f = NULL;   /* user overloads of an intrinsic that do not fit: the intrinsic */
      else if (!best)
        {
          error_at (p, loc, "no overload of '%s' takes these %u argument(s)", name->text, args->len);
          return error_node (p, loc);
        }
      if (best && ties)
        {
          error_at (p, loc, "ambiguous call to overloaded function '%s'", name->text);
          return error_node (p, loc);
        }
    }
  if (f)
    {
      Node *call = new_node (p, N_CALL, loc, best->ret);
      call->func = best;
      call->n_args = best->n_params;
      call->args = SL_NEW_N (p->arena, Node *, best->n_params + 1);
      for (int k = 0; k < best->n_params; k++)
        {
          Node *arg = k < (int) args->len ? g_ptr_array_index (args, k) : best->defaults[k];
          Var *prm = best->params[k];
          if (prm->param_mod != 0)
            {
              if (!is_lvalue (p, arg, true))
                return error_node (p, arg->loc);
              if (!type_equal (arg->type, prm->type) && arg->type->n_comp != prm->type->n_comp)
                {
                  error_at (p, arg->loc, "cannot pass '%s' as out parameter of type '%s'",
                            type_name (p, arg->type), type_name (p, prm->type));
                  return error_node (p, arg->loc);
                }
              call->args[k] = arg;
            }
          else
            call->args[k] = convert (p, arg, prm->type, arg->loc, false, "argument");
        }
      return call;
    }

  gpointer hit = g_hash_table_lookup (p->intrinsics, name->text);
  if (!hit)
    {
      error_at (p, loc, "undeclared function '%s'", name->text);
      return error_node (p, loc);
    }
  int id = GPOINTER_TO_INT (hit) - 1;
  bool is_method = id >= INTR_M_SAMPLE;
  if (is_method != (object != NULL))
    {
      if (is_method)
        error_at (p, loc, "'%s' is a method of texture objects", name->text);
      else
        error_at (p, loc, "'%s' is not a method", name->text);
      return error_node (p, loc);
    }
  /* tex2Dlod(s, t, offset) is ReShade's; fxc knows two arguments only. */
  int max_args = id == INTR_TEX2DLOD && !p->u->reshade ? 2 : intrinsic_max[id];
  if ((int) args->len < intrinsic_min[id] || (int) args->len > max_args)
    {
      if (intrinsic_min[id] == max_args)
        error_at (p, loc, "'%s' takes %d argument%s, not %u", name->text, max_args,
                  max_args == 1 ? "" : "s", args->len);
      else
        error_at (p, loc, "'%s' takes %d to %d arguments, not %u", name->text, intrinsic_min[id],
                  max_args, args->len);
      return error_node (p, loc);
    }
  Node *call = new_node (p, N_INTRINSIC, loc, NULL);
  call->op = id;
  call->a = object;
  call->n_args = args->len;
  call->args = SL_NEW_N (p->arena, Node *, args->len + 1);
  if (args->len > 0)   /* pdata is NULL while empty */
    memcpy (call->args, args->pdata, args->len * sizeof (Node *));
  for (int i = 0; i < call->n_args; i++)
    {
      Node *arg = call->args[i];
      if (arg->type->kind == TY_SAMPLER && arg->kind == N_VAR && arg->var->storage == STORE_STATIC)
        {
          /* A static sampler is never bound to anything. */
          error_at (p, arg->loc, "cannot sample with static sampler '%s'", arg->var->name);
          return error_node (p, loc);
        }
      const char *in = intrinsic_names[id];
      if (i == 0 && arg->type->kind == TY_SAMPLER && arg->kind == N_VAR && !strncmp (in, "tex", 3)
          && (in[3] == '1' || in[3] == '2' || in[3] == '3' || in[3] == 'C'))
        {
          /* One sampler serves one texture dimension. */
          int dim = in[3] == 'C' ? 4 : in[3] - '0';
          if (arg->var->sampled_dim && arg->var->sampled_dim != dim)
            {
              error_at (p, arg->loc, "sampler '%s' is used with textures of different dimensions",
                        arg->var->name);
              return error_node (p, loc);
            }
          arg->var->sampled_dim = dim;
        }
    }
  call->type = intrinsic_type (p, call);
  if (call->type->kind == TY_ERROR)
    return error_node (p, loc);
  return call;
}

static Node *
parse_primary (P *p)
{
  Token *t = peek (p);
  SlLoc loc = t->loc;
  if (++p->depth > SL_MAX_NESTING)
    {
      error_at (p, loc, "expression nested too deeply");
      p->depth--;
      /* Skip only this operand, up to the ')' or ',' its enclosing
       * levels are waiting for, so that they close without errors. */
      skip_rest_of_expression (p);
      return error_node (p, loc);
    }
  Node *result = NULL;
  if (t->kind == TK_INT)
    {
      next (p);
      if (t->ival > 0xffffffffull)
        warn_at (p, loc, "integer constant is too large and is truncated");
      result = lit_scalar (p, loc, t->suffix == 'u' ? BT_UINT : BT_INT, (uint32_t) t->ival);
    }
  else if (t->kind == TK_FLOAT)
    {
      next (p);
      result = lit_scalar (p, loc, BT_FLOAT, sl_f2u ((float) t->fval));
    }
  else if (t->kind == TK_IDENT && (!strcmp (t->text, "true") || !strcmp (t->text, "false")))
    {
      next (p);
      result = lit_scalar (p, loc, BT_BOOL, t->text[0] == 't' ? SL_TRUE : 0);
    }
  else if (t->kind == TK_STRING)
    {
      next (p);
      result = new_node (p, N_LIT, loc, p->t_string);
    }
  else if (t->kind == TK_IDENT && (!strcmp (t->text, "compile")
                                   || (!strcmp (t->text, "CompileShader")
                                       && peek_at (p, 1)->kind == TK_PUNCT
                                       && !strcmp (peek_at (p, 1)->text, "("))))
    {
      /* A compiled shader inside a numeric initializer: the D3D compiler
       * accepts it and drops the default value; it counts as one zero. */
      next (p);
      if (t->text[0] == 'C')
        {
          next (p);
          skip_args (p);
        }
      else
        parse_compile_target (p, false);
      result = lit_scalar (p, loc, BT_FLOAT, 0);
    }
  else if (is (p, "("))
    {
      next (p);
      result = parse_expr (p);
      expect (p, ")");
    }
  else if (t->kind == TK_IDENT)
    {
      /* Constructors: float3(…), vector<float,3>(…). */
      if (is_type_start (p) && !lookup_var (p, t->text))
        {
          int save = p->pos;
          Type *ty = parse_type (p);
          if (ty && is (p, "("))
            {
              next (p);
              GPtrArray *args = g_ptr_array_new ();
              int total = 0;
              bool bad = false;
              if (!is (p, ")"))
                do
                  {
                    Node *a = parse_assign (p);
                    g_ptr_array_add (args, a);
                    if (is_error (a))
                      bad = true;
                    else if (a->type->kind != TY_NUM && !(a->type->kind == TY_STRUCT || a->type->kind == TY_ARRAY))
                      {
                        error_at (p, a->loc, "constructor argument must be numeric");
                        bad = true;
                      }
                    else
                      total += a->type->n_comp;
                  }
                while (accept (p, ","));
              expect (p, ")");
              if (!bad && ty->kind != TY_NUM)
                {
                  error_at (p, loc, "cannot construct '%s' this way", type_name (p, ty));
                  bad = true;
                }
              if (!bad && p->u->reshade && args->len == 1 && total == 1 && ty->n_comp > 1)
                {
                  /* ReShade FX: float4(x) repeats x, like (float4) x. */
                  result = new_node (p, N_CAST, loc, ty);
                  result->a = g_ptr_array_index (args, 0);
                }
              else if (!bad && total != ty->n_comp)
                {
                  error_at (p, loc, "'%s' constructor needs %d components, got %d",
                            type_name (p, ty), ty->n_comp, total);
                  bad = true;
                }
              if (result)
                ;
              else if (bad)
                result = error_node (p, loc);
              else
                {
                  Node *c = new_node (p, N_CTOR, loc, ty);
                  c->n_args = args->len;
                  c->args = SL_NEW_N (p->arena, Node *, args->len + 1);
                  if (args->len > 0)   /* pdata is NULL while empty */
                    memcpy (c->args, args->pdata, args->len * sizeof (Node *));
                  result = c;
                }
              g_ptr_array_free (args, TRUE);
            }
          else
            {
              p->pos = save;
              error_at (p, loc, "unexpected type name '%s' in an expression", t->text);
              next (p);
              result = error_node (p, loc);
            }
        }
      else if (peek_at (p, 1)->kind == TK_PUNCT && !strcmp (peek_at (p, 1)->text, "(")
               && !lookup_var (p, t->text))
        {
          next (p);
          next (p);
          GPtrArray *args = g_ptr_array_new ();
          if (!is (p, ")"))
            do
              g_ptr_array_add (args, parse_assign (p));
            while (accept (p, ","));
          expect (p, ")");
          result = make_call (p, t, NULL, args);
          g_ptr_array_free (args, TRUE);
        }
      else
        {
          next (p);
          Var *v = lookup_var (p, t->text);
          if (!v)
            {
              error_at (p, loc, "undeclared identifier '%s'", t->text);
              result = error_node (p, loc);
            }
          else
            {
              result = new_node (p, N_VAR, loc, v->type);
              result->var = v;
            }
        }
    }
  else
    {
      error_at (p, loc, "expected an expression before '%s'", tok_desc (t));
      if (t->kind != TK_EOF && !is (p, ";") && !is (p, "}") && !is (p, ")"))
        next (p);
      result = error_node (p, loc);
    }
  p->depth--;
  return result;
}

static Node *
parse_postfix (P *p)
{
  Node *e = parse_primary (p);
  for (;;)
    {
      Token *t = peek (p);
      if (is (p, "."))
        {
          next (p);
          Token *name = peek (p);
          if (name->kind != TK_IDENT)
            {
              error_at (p, name->loc, "expected a member name after '.'");
              skip_rest_of_expression (p);
              return error_node (p, name->loc);
            }
          next (p);
          if (is_error (e))
            {
              if (is (p, "("))
                {
                  next (p);
                  while (!is (p, ")") && peek (p)->kind != TK_EOF)
                    next (p);
                  accept (p, ")");
                }
              continue;
            }
          if (is (p, "(") && (e->type->kind == TY_TEXTURE || e->type->kind == TY_SAMPLER))
            {
              next (p);
              GPtrArray *args = g_ptr_array_new ();
              if (!is (p, ")"))
                do
                  g_ptr_array_add (args, parse_assign (p));
                while (accept (p, ","));
              expect (p, ")");
              e = make_call (p, name, e, args);
              g_ptr_array_free (args, TRUE);
              continue;
            }
          if (is (p, "("))
            {
              /* v.Sample (…) on a non-object: one message, not a
               * swizzle error and a syntax error after it. */
              error_at (p, name->loc, "'%s' has no method '%s'", type_name (p, e->type), name->text);
              skip_rest_of_expression (p);
              e = error_node (p, name->loc);
              continue;
            }
          if (e->type->kind == TY_STRUCT)
            {
              Field *f = NULL;
              for (int i = 0; i < e->type->n_fields; i++)
                if (!strcmp (e->type->fields[i].name, name->text))
                  f = &e->type->fields[i];
              if (!f)
                {
                  error_at (p, name->loc, "'%s' has no member '%s'", type_name (p, e->type), name->text);
                  e = error_node (p, name->loc);
                  continue;
                }
              Node *m = new_node (p, N_MEMBER, name->loc, f->type);
              m->a = e;
              m->offset = f->offset;
              m->op = (int) (f - e->type->fields);   /* lowering finds the field's objects */
              e = m;
              continue;
            }
          if (e->type->kind == TY_NUM)
            {
              e = parse_swizzle (p, e, name);
              continue;
            }
          error_at (p, name->loc, "'%s' has no members", type_name (p, e->type));
          e = error_node (p, name->loc);
        }
      else if (is (p, "["))
        {
          next (p);
          Node *idx = parse_expr (p);
          expect (p, "]");
          if (is_error (e) || is_error (idx))
            {
              e = error_node (p, t->loc);
              continue;
            }
          Type *et;
          if (e->type->kind == TY_ARRAY)
            et = e->type->elem;
          else if (e->type->kind == TY_NUM && e->type->cls == NUM_MATRIX)
            et = hlsl_type_num (p->arena, e->type->base, NUM_VECTOR, 1, e->type->cols);
          else if (e->type->kind == TY_NUM && e->type->cls == NUM_VECTOR)
            et = hlsl_type_num (p->arena, e->type->base, NUM_SCALAR, 1, 1);
          else
            {
              error_at (p, t->loc, "'%s' cannot be indexed", type_name (p, e->type));
              e = error_node (p, t->loc);
              continue;
            }
          /* A vector index is truncated (convert() warns). */
          if (idx->type->kind != TY_NUM
              || (idx->type->n_comp != 1 && idx->type->cls != NUM_VECTOR))
            {
              error_at (p, idx->loc, "array index must be a scalar");
              e = error_node (p, t->loc);
              continue;
            }
          Node *n = new_node (p, N_INDEX, t->loc, et);
          n->a = e;
          n->b = convert (p, idx, p->t_int, idx->loc, false, NULL);
          e = n;
        }
      else if (is (p, "++") || is (p, "--"))
        {
          next (p);
          if (is_error (e) || !is_lvalue (p, e, true))
            {
              e = error_node (p, t->loc);
              continue;
            }
          Node *n = new_node (p, N_INCDEC, t->loc, e->type);
          n->a = e;
          n->op = t->text[0];
          n->postfix = true;
          e = n;
        }
      else
        return e;
    }
}

static Node *
parse_unary (P *p)
{
  Token *t = peek (p);
  if (is (p, "-") || is (p, "+") || is (p, "!") || is (p, "~"))
    {
      next (p);
      Node *a = parse_unary (p);
      if (is_error (a))
        return a;
      if (a->type->kind != TY_NUM)
        {
          error_at (p, t->loc, "operator '%s' needs a numeric operand", t->text);
          return error_node (p, t->loc);
        }
      if (t->text[0] == '+')
        return a;
      Node *n = new_node (p, N_UNARY, t->loc, a->type);
      n->op = t->text[0];
      if (n->op == '!')
        {
          n->type = hlsl_type_num (p->arena, BT_BOOL, a->type->cls, a->type->rows, a->type->cols);
          n->a = convert (p, a, n->type, t->loc, false, NULL);
        }
      else if (n->op == '~')
        {
          if (a->type->base == BT_FLOAT)
            {
              error_at (p, t->loc, "operator '~' needs an integer operand");
              return error_node (p, t->loc);
            }
          n->type = a->type->base == BT_BOOL
                      ? hlsl_type_num (p->arena, BT_INT, a->type->cls, a->type->rows, a->type->cols)
                      : a->type;
          n->a = convert (p, a, n->type, t->loc, false, NULL);
        }
      else
        {
          if (a->type->base == BT_BOOL)
            n->type = hlsl_type_num (p->arena, BT_INT, a->type->cls, a->type->rows, a->type->cols);
          n->a = convert (p, a, n->type, t->loc, false, NULL);
        }
      return n;
    }
  if (is (p, "++") || is (p, "--"))
    {
      next (p);
      Node *a = parse_unary (p);
      if (is_error (a) || !is_lvalue (p, a, true))
        return error_node (p, t->loc);
      Node *n = new_node (p, N_INCDEC, t->loc, a->type);
      n->a = a;
      n->op = t->text[0];
      return n;
    }
  /* C-style cast: '(' type ')' */
  if (is (p, "("))
    {
      int save = p->pos;
      next (p);
      if (is_type_start (p))
        {
          parse_modifiers (p);
          Type *ty = parse_type (p);
          if (ty)
            {
              while (accept (p, "["))
                {
                  int n;
                  parse_const_int_expr (p, &n);
                  expect (p, "]");
                  ty = type_array (p, ty, MAX (n, 1));
                }
              if (accept (p, ")"))
                {
                  Node *a = parse_unary (p);
                  if (is_error (a) || ty->kind == TY_ERROR)
                    return error_node (p, t->loc);
                  return convert (p, a, ty, t->loc, true, "cast");
                }
            }
        }
      p->pos = save;
    }
  return parse_postfix (p);
}

typedef struct
{
  const char *tok;
  int         prec;
  int         op;
} BinOp;

static const BinOp binops[] = {
  { "||", 1, '|' * 256 + '|' }, { "&&", 2, '&' * 256 + '&' },
  { "|", 3, '|' }, { "^", 4, '^' }, { "&", 5, '&' },
  { "==", 6, '=' * 256 + '=' }, { "!=", 6, '!' * 256 + '=' },
  { "<", 7, '<' }, { ">", 7, '>' }, { "<=", 7, '<' * 256 + '=' }, { ">=", 7, '>' * 256 + '=' },
  { "<<", 8, '<' * 256 + '<' }, { ">>", 8, '>' * 256 + '>' },
  { "+", 9, '+' }, { "-", 9, '-' },
  { "*", 10, '*' }, { "/", 10, '/' }, { "%", 10, '%' },
};

static const BinOp *
binop_here (P *p)
{
  Token *t = peek (p);
  if (t->kind != TK_PUNCT)
    return NULL;
  for (size_t i = 0; i < G_N_ELEMENTS (binops); i++)
    if (!strcmp (t->text, binops[i].tok))
      return &binops[i];
  return NULL;
}

static Node *
parse_binary (P *p, int min_prec)
{
  Node *lhs = parse_unary (p);
  for (;;)
    {
      const BinOp *op = binop_here (p);
      if (!op || op->prec < min_prec)
        return lhs;
      Token *t = next (p);
      Node *rhs = parse_binary (p, op->prec + 1);
      lhs = make_binary (p, t->loc, op->op, lhs, rhs);
    }
}

static Node *
parse_ternary (P *p)
{
  Node *c = parse_binary (p, 1);
  if (!is (p, "?"))
    return c;
  Token *q = next (p);
  Node *a = parse_assign (p);
  expect (p, ":");
  Node *b = parse_assign (p);
  if (is_error (c) || is_error (a) || is_error (b))
    return error_node (p, q->loc);
  if (c->type->kind != TY_NUM)
    {
      error_at (p, c->loc, "condition must be numeric");
      return error_node (p, q->loc);
    }
  Type *rt;
  Type *ta = a->type, *tb = b->type, *tc = c->type;
  if (ta->kind == TY_NUM && tb->kind == TY_NUM && ta->cls == tb->cls && ta->rows == tb->rows
      && ta->cols == tb->cols)
    rt = hlsl_type_num (p->arena, common_base (ta->base, tb->base), ta->cls, ta->rows, ta->cols);
  else if (ta->kind == TY_NUM && tb->kind == TY_NUM)
    rt = binary_type (p, q->loc, a->type, b->type, common_base (a->type->base, b->type->base));
  else if (type_equal (a->type, b->type))
    rt = a->type;
  else
    {
      error_at (p, q->loc, "'?:' operands have different types '%s' and '%s'",
                type_name (p, a->type), type_name (p, b->type));
      return error_node (p, q->loc);
    }
  if (rt->kind == TY_ERROR)
    return error_node (p, q->loc);
  if (rt->kind != TY_NUM && tc->n_comp > 1)
    {
      error_at (p, c->loc, "condition selecting '%s' values must be scalar", type_name (p, rt));
      return error_node (p, q->loc);
    }
  /* The condition must have the result's shape, or either is scalar, or
   * one is typeN and the other type1xN. */
  if (rt->kind == TY_NUM && tc->n_comp > 1 && rt->n_comp > 1
      && !(tc->cls == rt->cls && tc->rows == rt->rows && tc->cols == rt->cols)
      && !(tc->rows == 1 && rt->rows == 1 && tc->cols == rt->cols))
    {
      error_at (p, c->loc, "condition of type '%s' does not match the result type '%s'",
                type_name (p, tc), type_name (p, rt));
      return error_node (p, q->loc);
    }
  Node *n = new_node (p, N_TERNARY, q->loc, rt);
  if (rt->kind == TY_NUM && tc->n_comp > 1 && rt->n_comp == 1)
    rt = hlsl_type_num (p->arena, rt->base, tc->cls, tc->rows, tc->cols);
  n->type = rt;
  Type *ct = rt->kind == TY_NUM && c->type->n_comp > 1
               ? hlsl_type_num (p->arena, BT_BOOL, rt->cls, rt->rows, rt->cols)
               : p->t_bool;
  n->a = convert (p, c, ct, c->loc, false, NULL);
  n->b = convert (p, a, rt, a->loc, false, NULL);
  n->c = convert (p, b, rt, b->loc, false, NULL);
  return n;
}

static Node *
parse_assign (P *p)
{
  Node *lhs = parse_ternary (p);
  static const char *const ops[] = { "=", "+=", "-=", "*=", "/=", "%=", "&=", "|=", "^=", "<<=", ">>=" };
  Token *t = peek (p);
  if (t->kind != TK_PUNCT)
    return lhs;
  size_t k;
  for (k = 0; k < G_N_ELEMENTS (ops); k++)
    if (!strcmp (t->text, ops[k]))
      break;
  if (k == G_N_ELEMENTS (ops))
    return lhs;
  next (p);
  Node *rhs = parse_assign (p);
  if (is_error (lhs) || is_error (rhs))
    return error_node (p, t->loc);
  if (!is_lvalue (p, lhs, true))
    return error_node (p, t->loc);
  Node *value = rhs;
  if (k > 0)
    {
      int op = t->text[0];
      if (!strcmp (t->text, "<<="))
        op = '<' * 256 + '<';
      else if (!strcmp (t->text, ">>="))
        op = '>' * 256 + '>';
      value = make_binary (p, t->loc, op, lhs, rhs);
      if (is_error (value))
        return value;
    }
  Node *n = new_node (p, N_ASSIGN, t->loc, lhs->type);
  n->a = lhs;
  n->b = convert (p, value, lhs->type, t->loc, false, "assignment");
  return n;
}

static Node *
parse_expr (P *p)
{
  Node *e = parse_assign (p);
  while (is (p, ","))
    {
      Token *t = next (p);
      Node *rhs = parse_assign (p);
      Node *n = new_node (p, N_COMMA, t->loc, rhs->type);
      n->a = e;
      n->b = rhs;
      e = n;
    }
  return e;
}

/* ------------------------------------------------------------------ */
/* Intrinsic typing                                                     */
/* ------------------------------------------------------------------ */

static Type *
float_like (P *p, Type *t)
{
  return hlsl_type_num (p->arena, BT_FLOAT, t->cls, t->rows, t->cols);
}

/* Converts args[i] to @t in place. */
static void
coerce (P *p, Node *call, int i, Type *t)
{
  call->args[i] = convert (p, call->args[i], t, call->args[i]->loc, false, "argument");
}

static bool
all_numeric (P *p, Node *call, int from, int to)
{
  for (int i = from; i < to && i < call->n_args; i++)
    if (call->args[i]->type->kind != TY_NUM)
      {
        error_at (p, call->args[i]->loc, "argument %d of '%s' must be numeric", i + 1,
                  intrinsic_names[call->op]);
        return false;
      }
  return true;
}

/* Common type of all arguments for component-wise intrinsics. */
static Type *
unify_args (P *p, Node *call, bool force_float)
{
  if (!all_numeric (p, call, 0, call->n_args))
    return p->t_error;
  /* Component-wise intrinsics do not mix matrices with vectors (a
   * scalar goes with anything). */
  bool has_matrix = false, has_vector = false;
  for (int i = 0; i < call->n_args; i++)
    {
      has_matrix |= call->args[i]->type->cls == NUM_MATRIX;
      has_vector |= call->args[i]->type->cls == NUM_VECTOR;
    }
  if (has_matrix && has_vector)
    {
      error_at (p, call->loc, "cannot mix matrix and vector arguments");
      return p->t_error;
    }
  Type *t = call->args[0]->type;
  for (int i = 1; i < call->n_args; i++)
    {
      t = binary_type_ex (p, call->loc, t, call->args[i]->type,
                          common_base (t->base, call->args[i]->type->base), false);
      if (t->kind == TY_ERROR)
        return t;
    }
  if (force_float || t->base == BT_BOOL)
    t = float_like (p, t);
  for (int i = 0; i < call->n_args; i++)
    coerce (p, call, i, t);
  return t;
}

static Type *
texture_call_type (P *p, Node *call, int dim, int n_coord_args)
{
  Node *s = call->args[0];
  if (s->type->kind != TY_SAMPLER)
    {
      error_at (p, s->loc, "first argument of '%s' must be a sampler", intrinsic_names[call->op]);
      return p->t_error;
    }
  if (s->type->tex_dim >= 0 && s->type->tex_dim != dim)
    {
      error_at (p, call->loc, "'%s' needs a %s sampler, not '%s'", intrinsic_names[call->op],
                dim == SL_TEXTURE_1D ? "1D" : dim == SL_TEXTURE_2D ? "2D" : dim == SL_TEXTURE_3D ? "3D" : "cube",
                s->type->name ? s->type->name : "sampler");
      return p->t_error;
    }
  if (!all_numeric (p, call, 1, call->n_args))
    return p->t_error;
  int nc = dim == SL_TEXTURE_1D ? 1 : dim == SL_TEXTURE_2D ? 2 : 3;
  for (int i = 1; i < call->n_args; i++)
    {
      int want = (i == 1) ? n_coord_args : nc;
      Type *t = hlsl_type_num (p->arena, BT_FLOAT, want == 1 ? NUM_SCALAR : NUM_VECTOR, 1, want);
      if (call->args[i]->type->n_comp < want && call->args[i]->type->n_comp != 1)
        {
          error_at (p, call->args[i]->loc, "'%s' coordinates need %d components", intrinsic_names[call->op], want);
          return p->t_error;
        }
      coerce (p, call, i, t);
    }
  call->sampler_obj = dim;
  return hlsl_type_num (p->arena, BT_FLOAT, NUM_VECTOR, 1, 4);
}

/* ReShade's sampler intrinsics (SL_COMPILE_RESHADE_FX only):
 *   tex2Dfetch(s, int2 xy [, int lod]) and tex2Dfetch(s, int4 (x, y, -, lod))
 *   tex2Dsize(s [, int lod]) → int2
 *   tex2Dgather(s, float2 t, int comp [, int2 offset]), tex2DgatherR…A(s, t [, offset])
 *   tex2Doffset(s, float2 t, int2 offset), tex2Dlodoffset(s, float4 t, int2 offset) */
static Type *
reshade_call_type (P *p, Node *call)
{
  int id = call->op;
  Node *s = call->args[0];
  if (s->type->kind != TY_SAMPLER)
    {
      error_at (p, s->loc, "first argument of '%s' must be a sampler", intrinsic_names[id]);
      return p->t_error;
    }
  if (s->type->tex_dim >= 0 && s->type->tex_dim != SL_TEXTURE_2D)
    {
      error_at (p, call->loc, "'%s' needs a 2D sampler", intrinsic_names[id]);
      return p->t_error;
    }
  if (!all_numeric (p, call, 1, call->n_args))
    return p->t_error;
  Type *i1 = p->t_int;
  Type *i2 = hlsl_type_num (p->arena, BT_INT, NUM_VECTOR, 1, 2);
  Type *f2 = hlsl_type_num (p->arena, BT_FLOAT, NUM_VECTOR, 1, 2);
  Type *f4 = hlsl_type_num (p->arena, BT_FLOAT, NUM_VECTOR, 1, 4);
  call->sampler_obj = SL_TEXTURE_2D;
  switch (id)
    {
    case INTR_RS_TEX2DFETCH:
      coerce (p, call, 1, call->args[1]->type->n_comp >= 4
                            ? hlsl_type_num (p->arena, BT_INT, NUM_VECTOR, 1, 4) : i2);
      if (call->n_args > 2)
        coerce (p, call, 2, i1);
      return f4;
    case INTR_RS_TEX2DSIZE:
      if (call->n_args > 1)
        coerce (p, call, 1, i1);
      return i2;
    case INTR_RS_TEX2DGATHER:
      coerce (p, call, 1, f2);
      coerce (p, call, 2, i1);
      if (call->n_args > 3)
        coerce (p, call, 3, i2);
      return f4;
    case INTR_RS_TEX2DGATHERR: case INTR_RS_TEX2DGATHERG: case INTR_RS_TEX2DGATHERB:
    case INTR_RS_TEX2DGATHERA:
      coerce (p, call, 1, f2);
      if (call->n_args > 2)
        coerce (p, call, 2, i2);
      return f4;
    default:   /* tex2Doffset, tex2Dlodoffset */
      coerce (p, call, 1, id == INTR_RS_TEX2DOFFSET ? f2 : f4);
      coerce (p, call, 2, i2);
      return f4;
    }
}

static Type *
intrinsic_type (P *p, Node *call)
{
  int id = call->op;
  Node **a = call->args;
  switch (id)
    {
    case INTR_ABS: case INTR_MIN: case INTR_MAX: case INTR_CLAMP: case INTR_SIGN:
      {
        Type *t = unify_args (p, call, false);
        if (t->kind == TY_NUM && id == INTR_SIGN)
          return hlsl_type_num (p->arena, BT_INT, t->cls, t->rows, t->cols);
        return t;
      }
    case INTR_ACOS: case INTR_ASIN: case INTR_ATAN: case INTR_ATAN2: case INTR_CEIL:
    case INTR_COS: case INTR_COSH: case INTR_DEGREES: case INTR_EXP: case INTR_EXP2:
    case INTR_FLOOR: case INTR_FMOD: case INTR_FRAC: case INTR_LDEXP: case INTR_LERP:
    case INTR_LOG: case INTR_LOG10: case INTR_LOG2: case INTR_MAD: case INTR_POW:
    case INTR_RADIANS: case INTR_RCP: case INTR_ROUND: case INTR_RSQRT: case INTR_SATURATE:
    case INTR_SIN: case INTR_SINH: case INTR_SMOOTHSTEP: case INTR_SQRT: case INTR_STEP:
    case INTR_TAN: case INTR_TANH: case INTR_TRUNC: case INTR_DDX: case INTR_DDY:
    case INTR_DDX_COARSE: case INTR_DDX_FINE: case INTR_DDY_COARSE: case INTR_DDY_FINE:
    case INTR_FWIDTH:
      return unify_args (p, call, true);
    case INTR_MODF: case INTR_FREXP:
      {
        if (!all_numeric (p, call, 0, 2))
          return p->t_error;
        Type *t = float_like (p, a[0]->type);
        coerce (p, call, 0, t);
        if (!is_lvalue (p, a[1], true))
          return p->t_error;
        return t;
      }
    case INTR_SINCOS:
      {
        if (!all_numeric (p, call, 0, 3))
          return p->t_error;
        Type *t = float_like (p, a[0]->type);
        coerce (p, call, 0, t);
        if (!is_lvalue (p, a[1], true) || !is_lvalue (p, a[2], true))
          return p->t_error;
        return p->t_void;
      }
    case INTR_ISNAN: case INTR_ISINF: case INTR_ISFINITE:
      {
        Type *t = unify_args (p, call, true);
        if (t->kind != TY_NUM)
          return t;
        return hlsl_type_num (p->arena, BT_BOOL, t->cls, t->rows, t->cols);
      }
    case INTR_ALL: case INTR_ANY:
      if (!all_numeric (p, call, 0, 1))
        return p->t_error;
      return p->t_bool;
    case INTR_ASFLOAT: case INTR_ASINT: case INTR_ASUINT:
      {
        if (!all_numeric (p, call, 0, 1))
          return p->t_error;
        Type *t = a[0]->type;
        BaseType b = id == INTR_ASFLOAT ? BT_FLOAT : id == INTR_ASINT ? BT_INT : BT_UINT;
        if (t->base == BT_BOOL)
          coerce (p, call, 0, hlsl_type_num (p->arena, BT_UINT, t->cls, t->rows, t->cols));
        return hlsl_type_num (p->arena, b, t->cls, t->rows, t->cols);
      }
    case INTR_F32TOF16:
      {
        if (!all_numeric (p, call, 0, 1))
          return p->t_error;
        Type *t = float_like (p, a[0]->type);
        coerce (p, call, 0, t);
        return hlsl_type_num (p->arena, BT_UINT, t->cls, t->rows, t->cols);
      }
    case INTR_F16TOF32:
      {
        if (!all_numeric (p, call, 0, 1))
          return p->t_error;
        Type *t = a[0]->type;
        coerce (p, call, 0, hlsl_type_num (p->arena, BT_UINT, t->cls, t->rows, t->cols));
        return float_like (p, t);
      }
    case INTR_CLIP:
      if (!all_numeric (p, call, 0, 1))
        return p->t_error;
      coerce (p, call, 0, float_like (p, a[0]->type));
      return p->t_void;
    case INTR_CROSS:
      {
        if (!all_numeric (p, call, 0, 2))
          return p->t_error;
        Type *t = hlsl_type_num (p->arena, BT_FLOAT, NUM_VECTOR, 1, 3);
        coerce (p, call, 0, t);
        coerce (p, call, 1, t);
        return t;
      }
    case INTR_DOT:
      {
        Type *t = unify_args (p, call, false);
        if (t->kind != TY_NUM)
          return t;
        if (t->cls == NUM_MATRIX)
          {
            error_at (p, call->loc, "'dot' takes vectors, not matrices");
            return p->t_error;
          }
        return hlsl_type_num (p->arena, t->base == BT_BOOL ? BT_INT : t->base, NUM_SCALAR, 1, 1);
      }
    case INTR_DISTANCE: case INTR_LENGTH:
      {
        for (int i = 0; i < call->n_args; i++)
          if (a[i]->type->kind == TY_NUM && a[i]->type->cls == NUM_MATRIX)
            {
              error_at (p, a[i]->loc, "'%s' takes vectors, not matrices", intrinsic_names[call->op]);
              return p->t_error;
            }
        Type *t = unify_args (p, call, true);
        if (t->kind != TY_NUM)
          return t;
        return p->t_float;
      }
    case INTR_NORMALIZE:
      if (a[0]->type->kind == TY_NUM && a[0]->type->cls == NUM_MATRIX)
        {
          error_at (p, a[0]->loc, "'normalize' takes a vector, not a matrix");
          return p->t_error;
        }
      return unify_args (p, call, true);
    case INTR_REFLECT:
      return unify_args (p, call, true);
    case INTR_REFRACT:
      {
        if (!all_numeric (p, call, 0, 3))
          return p->t_error;
        Type *t = float_like (p, a[0]->type);
        coerce (p, call, 0, t);
        coerce (p, call, 1, t);
        coerce (p, call, 2, p->t_float);
        return t;
      }
    case INTR_FACEFORWARD:
      return unify_args (p, call, true);
    case INTR_LIT:
      if (!all_numeric (p, call, 0, 3))
        return p->t_error;
      for (int i = 0; i < 3; i++)
        coerce (p, call, i, p->t_float);
      return hlsl_type_num (p->arena, BT_FLOAT, NUM_VECTOR, 1, 4);
    case INTR_DST:
      return unify_args (p, call, true);
    case INTR_D3DCOLORTOUBYTE4:
      if (!all_numeric (p, call, 0, 1))
        return p->t_error;
      coerce (p, call, 0, hlsl_type_num (p->arena, BT_FLOAT, NUM_VECTOR, 1, 4));
      return hlsl_type_num (p->arena, BT_INT, NUM_VECTOR, 1, 4);
    case INTR_DETERMINANT:
      if (!all_numeric (p, call, 0, 1))
        return p->t_error;
      /* A non-square matrix uses its leading square part. */
      if (a[0]->type->cls == NUM_VECTOR)
        {
          error_at (p, call->loc, "'determinant' takes a matrix or a scalar");
          return p->t_error;
        }
      coerce (p, call, 0, float_like (p, a[0]->type));
      return p->t_float;
    case INTR_TRANSPOSE:
      {
        if (!all_numeric (p, call, 0, 1))
          return p->t_error;
        Type *t = a[0]->type;
        if (t->cls != NUM_MATRIX)
          return t;
        return hlsl_type_num (p->arena, t->base, NUM_MATRIX, t->cols, t->rows);
      }
    case INTR_MUL:
      {
        if (!all_numeric (p, call, 0, 2))
          return p->t_error;
        Type *x = a[0]->type, *y = a[1]->type;
        BaseType b = common_base (x->base, y->base);
        if (b == BT_BOOL)
          b = BT_INT;
        if (x->cls == NUM_SCALAR || y->cls == NUM_SCALAR)
          {
            Type *other = x->cls == NUM_SCALAR ? y : x;
            Type *t = hlsl_type_num (p->arena, b, other->cls, other->rows, other->cols);
            coerce (p, call, 0, x->cls == NUM_SCALAR ? hlsl_type_num (p->arena, b, NUM_SCALAR, 1, 1) : t);
            coerce (p, call, 1, y->cls == NUM_SCALAR ? hlsl_type_num (p->arena, b, NUM_SCALAR, 1, 1) : t);
            return t;
          }
        /* vector·vector → scalar; vector·matrix → vector(cols);
         * matrix·vector → vector(rows); matrix·matrix → matrix. */
        int xr = x->cls == NUM_VECTOR ? 1 : x->rows, xc = x->cols;
        int yr = y->cls == NUM_VECTOR ? y->cols : y->rows, yc = y->cls == NUM_VECTOR ? 1 : y->cols;
        /* When xc != yr, coerce() warns about the truncated operand. */
        int inner = MIN (xc, yr);
        Type *xt = x->cls == NUM_VECTOR ? hlsl_type_num (p->arena, b, NUM_VECTOR, 1, inner)
                                        : hlsl_type_num (p->arena, b, NUM_MATRIX, xr, inner);
        Type *yt = y->cls == NUM_VECTOR ? hlsl_type_num (p->arena, b, NUM_VECTOR, 1, inner)
                                        : hlsl_type_num (p->arena, b, NUM_MATRIX, inner, yc);
        coerce (p, call, 0, xt);
        coerce (p, call, 1, yt);
        if (x->cls == NUM_VECTOR && y->cls == NUM_VECTOR)
          return hlsl_type_num (p->arena, b, NUM_SCALAR, 1, 1);
        if (x->cls == NUM_VECTOR)
          return hlsl_type_num (p->arena, b, yc == 1 ? NUM_SCALAR : NUM_VECTOR, 1, yc);
        if (y->cls == NUM_VECTOR)
          return hlsl_type_num (p->arena, b, xr == 1 ? NUM_SCALAR : NUM_VECTOR, 1, xr);
        return hlsl_type_num (p->arena, b, NUM_MATRIX, xr, yc);
      }
    case INTR_TEX1D: case INTR_TEX1DBIAS: case INTR_TEX1DGRAD: case INTR_TEX1DLOD: case INTR_TEX1DPROJ:
    case INTR_TEX2D: case INTR_TEX2DBIAS: case INTR_TEX2DGRAD: case INTR_TEX2DLOD: case INTR_TEX2DPROJ:
    case INTR_TEX3D: case INTR_TEX3DBIAS: case INTR_TEX3DGRAD: case INTR_TEX3DLOD: case INTR_TEX3DPROJ:
    case INTR_TEXCUBE: case INTR_TEXCUBEBIAS: case INTR_TEXCUBEGRAD: case INTR_TEXCUBELOD: case INTR_TEXCUBEPROJ:
      {
        int group = (id - INTR_TEX1D) / 5, variant = (id - INTR_TEX1D) % 5;
        int dim = group == 0 ? SL_TEXTURE_1D : group == 1 ? SL_TEXTURE_2D : group == 2 ? SL_TEXTURE_3D : SL_TEXTURE_CUBE;
        int nc = dim == SL_TEXTURE_1D ? 1 : dim == SL_TEXTURE_2D ? 2 : 3;
        /* ReShade's tex2D(s, t, offset) and tex2Dlod(s, t, offset): the
         * offset is an int2 constant. */
        if (p->u->reshade && group == 1 && (variant == 0 || variant == 3) && call->n_args == 3)
          {
            call->n_args = 2;
            Type *r = texture_call_type (p, call, dim, variant == 3 ? 4 : 2);
            call->n_args = 3;
            if (r->kind != TY_ERROR)
              {
                if (!all_numeric (p, call, 2, 3))
                  return p->t_error;
                coerce (p, call, 2, hlsl_type_num (p->arena, BT_INT, NUM_VECTOR, 1, 2));
              }
            return r;
          }
        /* tex2D(s, t, ddx, ddy) is the gradient form. */
        if (variant == 0 && call->n_args == 3)
          {
            error_at (p, call->loc, "'%s' takes 2 or 4 arguments", intrinsic_names[id]);
            return p->t_error;
          }
        int coord = (variant == 1 || variant == 3 || variant == 4) ? 4 : nc;
        return texture_call_type (p, call, dim, coord);
      }
    case INTR_RS_TEX2DFETCH: case INTR_RS_TEX2DSIZE: case INTR_RS_TEX2DGATHER:
    case INTR_RS_TEX2DGATHERR: case INTR_RS_TEX2DGATHERG: case INTR_RS_TEX2DGATHERB:
    case INTR_RS_TEX2DGATHERA: case INTR_RS_TEX2DOFFSET: case INTR_RS_TEX2DLODOFFSET:
      return reshade_call_type (p, call);
    default:
      break;
    }

  /* Methods of texture objects: the object is call->a. */
  Node *obj = call->a;
  if (obj->type->kind != TY_TEXTURE)
    {
      error_at (p, call->loc, "'%s' is a method of texture objects", intrinsic_names[id]);
      return p->t_error;
    }
  int dim = obj->type->tex_dim < 0 ? SL_TEXTURE_2D : obj->type->tex_dim;
  int nc = dim == SL_TEXTURE_1D ? 1 : dim == SL_TEXTURE_2D ? 2 : 3;
  Type *coord_t = hlsl_type_num (p->arena, BT_FLOAT, nc == 1 ? NUM_SCALAR : NUM_VECTOR, 1, nc);
  Type *off_t = hlsl_type_num (p->arena, BT_INT, nc == 1 ? NUM_SCALAR : NUM_VECTOR, 1, nc);
  call->sampler_obj = dim;
  switch (id)
    {
    case INTR_M_SAMPLE: case INTR_M_SAMPLEBIAS: case INTR_M_SAMPLELEVEL: case INTR_M_SAMPLEGRAD:
    case INTR_M_SAMPLECMP: case INTR_M_SAMPLECMPLZ:
      {
        if (a[0]->type->kind != TY_SAMPLER)
          {
            error_at (p, a[0]->loc, "first argument of '%s' must be a sampler state", intrinsic_names[id]);
            return p->t_error;
          }
        bool cmp = id == INTR_M_SAMPLECMP || id == INTR_M_SAMPLECMPLZ;
        if (cmp && !a[0]->type->comparison)
          {
            error_at (p, a[0]->loc, "'%s' needs a SamplerComparisonState", intrinsic_names[id]);
            return p->t_error;
          }
        if (!all_numeric (p, call, 1, call->n_args))
          return p->t_error;
        coerce (p, call, 1, coord_t);
        int extra = id == INTR_M_SAMPLE ? 0 : id == INTR_M_SAMPLEGRAD ? 2 : 1;
        for (int i = 2; i < 2 + extra && i < call->n_args; i++)
          coerce (p, call, i, id == INTR_M_SAMPLEGRAD ? coord_t : p->t_float);
        /* Offsets must be constant; lowering checks that once folded. */
        if (call->n_args > 2 + extra)
          coerce (p, call, 2 + extra, off_t);
        if (call->n_args < 2 + extra)
          {
            error_at (p, call->loc, "'%s' needs %d arguments", intrinsic_names[id], 2 + extra);
            return p->t_error;
          }
        return cmp ? p->t_float : hlsl_type_num (p->arena, BT_FLOAT, NUM_VECTOR, 1, 4);
      }
    case INTR_M_LOAD:
      {
        if (!all_numeric (p, call, 0, call->n_args))
          return p->t_error;
        coerce (p, call, 0, hlsl_type_num (p->arena, BT_INT, NUM_VECTOR, 1, nc + 1));
        if (call->n_args > 1)
          coerce (p, call, 1, off_t);
        return hlsl_type_num (p->arena, BT_FLOAT, NUM_VECTOR, 1, 4);
      }
    case INTR_M_GETDIMENSIONS:
      for (int i = 0; i < call->n_args; i++)
        if (!is_lvalue (p, a[i], i > 0 || call->n_args == nc) && i > 0)
          return p->t_error;
      return p->t_void;
    default:
      break;
    }
  error_at (p, call->loc, "unsupported intrinsic '%s'",
            (unsigned) id < G_N_ELEMENTS (intrinsic_names) ? intrinsic_names[id] : "?");
  return p->t_error;
}

/* ------------------------------------------------------------------ */
/* Declarations                                                         */
/* ------------------------------------------------------------------ */

static GArray *
parse_annotations (P *p)
{
  /* < type name = value; … >, or ReShade's untyped < name = value; … >
   * whose type follows from the value. */
  GArray *anns = g_array_new (FALSE, TRUE, sizeof (SlAnnotation));
  while (!is (p, ">") && peek (p)->kind != TK_EOF)
    {
      bool untyped = peek (p)->kind == TK_IDENT && peek_at (p, 1)->kind == TK_PUNCT
                     && !strcmp (peek_at (p, 1)->text, "=");
      if (!untyped)
        parse_modifiers (p);
      Type *t = untyped ? NULL : parse_type (p);
      if (!t && !untyped)
        {
          error_at (p, peek (p)->loc, "expected an annotation type");
          while (!is (p, ">") && peek (p)->kind != TK_EOF)
            next (p);
          break;
        }
      const char *name = expect_ident (p);
      SlAnnotation an = { .name = name ? sl_arena_strdup (p->arena, name) : "" };
      if (accept (p, "["))
        {
          while (!is (p, "]") && peek (p)->kind != TK_EOF)
            next (p);
          expect (p, "]");
        }
      expect (p, "=");
      if (untyped ? peek (p)->kind == TK_STRING : t->kind == TY_STRING)
        {
          an.type = SL_ANNOTATION_STRING;
          GString *s = g_string_new (NULL);
          while (peek (p)->kind == TK_STRING)
            g_string_append (s, next (p)->text);
          an.string_value = sl_arena_strdup (p->arena, s->str);
          g_string_free (s, TRUE);
        }
      else
        {
          if (untyped)
            an.type = peek (p)->kind == TK_INT ? SL_ANNOTATION_INT
                      : peek (p)->kind == TK_IDENT && (!strcmp (peek (p)->text, "true")
                                                       || !strcmp (peek (p)->text, "false"))
                      ? SL_ANNOTATION_BOOL : SL_ANNOTATION_FLOAT;
          else
            an.type = t->kind == TY_NUM && t->base == BT_BOOL ? SL_ANNOTATION_BOOL
                      : t->kind == TY_NUM && (t->base == BT_INT || t->base == BT_UINT) ? SL_ANNOTATION_INT
                      : SL_ANNOTATION_FLOAT;
          bool braces = accept (p, "{");
          if (!braces && is_type_start (p))
            {
              parse_type (p);
              braces = accept (p, "(");
            }
          while (!is (p, ";") && !is (p, ">") && peek (p)->kind != TK_EOF)
            {
              bool neg = false;
              while (is (p, "-") || is (p, "+"))
                neg ^= next (p)->text[0] == '-';
              Token *v = next (p);
              double d = 0;
              if (v->kind == TK_INT)
                d = (double) v->ival;
              else if (v->kind == TK_FLOAT)
                d = v->fval;
              else if (v->kind == TK_IDENT && !strcmp (v->text, "true"))
                d = 1;
              else if (v->kind == TK_STRING)
                {
                  an.type = SL_ANNOTATION_STRING;
                  an.string_value = sl_arena_strdup (p->arena, v->text);
                }
              else if (v->kind == TK_PUNCT && (!strcmp (v->text, ",") || !strcmp (v->text, "}")
                                               || !strcmp (v->text, ")")))
                continue;
              if (an.n_values < 16 && (v->kind == TK_INT || v->kind == TK_FLOAT || v->kind == TK_IDENT))
                an.values[an.n_values++] = neg ? -d : d;
            }
        }
      expect (p, ";");
      g_array_append_val (anns, an);
    }
  expect (p, ">");
  return anns;
}

/* ': SEMANTIC', ': register(x)', ': packoffset(…)', after a declarator. */
static void
parse_semantics (P *p, const char **semantic, int *reg_kind, int *reg_index)
{
  while (accept (p, ":"))
    {
      Token *t = peek (p);
      if (t->kind != TK_IDENT)
        {
          error_at (p, t->loc, "expected a semantic after ':'");
          /* Take the bad token as the semantic so the declaration goes on. */
          if (t->kind != TK_EOF && !is (p, "{") && !is (p, ";") && !is (p, ",") && !is (p, ")")
              && !is (p, "="))
            next (p);
          return;
        }
      next (p);
      if (!strcmp (t->text, "register") || !strcmp (t->text, "packoffset"))
        {
          bool is_reg = t->text[0] == 'r';
          expect (p, "(");
          /* register(ps_3_0, c0) has a profile first */
          Token *r = next (p);
          if (is (p, ","))
            {
              next (p);
              r = next (p);
            }
          if (r->kind == TK_IDENT && reg_kind)
            {
              /* "c3", "c", "c1abc" (trailing letters ignored), with an
               * optional [expr] added to the index. */
              char k = (char) g_ascii_tolower (r->text[0]);
              bool has_digit = g_ascii_isdigit (r->text[1]);
              /* Clamped while parsing so a hostile index cannot overflow;
               * range-checked below (a constant buffer has 4096
               * registers, and the constant file is sized by the index). */
              long long lidx = g_ascii_strtoll (r->text + 1, NULL, 10);
              bool bracket = false;
              if (is_reg && accept (p, "["))
                {
                  bracket = true;
                  Node *e = parse_expr (p);
                  bool ok = true;
                  double d = const_eval_double (p, e, &ok);
                  if (!ok && !is_error (e))
                    error_at (p, e->loc, "register offset must be a constant expression");
                  if (ok)
                    lidx += (long long) CLAMP (d, -1e12, 1e12);
                  expect (p, "]");
                }
              int idx = 0;
              if (lidx < 0 || lidx >= 4096)
                error_at (p, r->loc, "register index %lld is out of range (0 to 4095)", lidx);
              else
                idx = (int) lidx;
              if (is_reg)
                {
                  /* A 'c' reservation wins over others on the same
                   * variable (SM1-3 keep numeric values there). */
                  if (*reg_kind != 'c')
                    {
                      *reg_kind = k;
                      *reg_index = idx;
                      if (!has_digit && !bracket && r->text[1])
                        *reg_kind = k | 0x100;   /* letters only: no index */
                    }
                }
              else
                {
                  /* packoffset(c3.y) → component offset */
                  int comp = 0;
                  if (accept (p, "."))
                    {
                      Token *c = next (p);
                      const char *xyzw = "xyzw";
                      const char *q = strchr (xyzw, c->text[0]);
                      comp = q ? q - xyzw : 0;
                    }
                  *reg_kind = 'p';
                  *reg_index = idx * 4 + comp;
                }
            }
          if (accept (p, "["))
            {
              while (!is (p, "]") && peek (p)->kind != TK_EOF)
                next (p);
              expect (p, "]");
            }
          expect (p, ")");
        }
      else if (semantic)
        *semantic = t->text;
    }
}

static Type *
parse_array_suffix (P *p, Type *t, bool allow_unsized, int *unsized)
{
  /* Dimensions apply outermost first: float a[2][3] is 2 arrays of 3. */
  int dims[8], n = 0;
  SlLoc first_loc = peek (p)->loc;
  while (accept (p, "["))
    {
      int len = 0;
      if (is (p, "]") && allow_unsized && n == 0)
        {
          len = -1;
          if (unsized)
            *unsized = 1;
        }
      else
        {
          Token *lt = peek (p);
          if (!parse_const_int_expr (p, &len))
            len = 1;   /* already reported */
          else if (len <= 0 || len > SL_MAX_ARRAY_COMPONENTS)
            {
              error_at (p, lt->loc, "array size must be between 1 and %d", SL_MAX_ARRAY_COMPONENTS);
              len = 1;
            }
        }
      expect (p, "]");
      if (n < 8)
        dims[n++] = len;
    }
  for (int i = n - 1; i >= 0; i--)
    {
      t = type_array (p, t, dims[i] < 0 ? 1 : dims[i]);
      if ((size_t) t->n_comp > SL_MAX_ARRAY_COMPONENTS)
        {
          error_at (p, first_loc, "array is too large");
          return p->t_error;
        }
    }
  return t;
}

static Type *
parse_struct (P *p)
{
  Token *kw = next (p);  /* struct */
  Token *name_tok = peek (p);
  const char *name = NULL;
  if (peek (p)->kind == TK_IDENT)
    name = next (p)->text;
  Type *base = NULL;
  if (name && is (p, ":"))
    {
      /* struct b : a — a's members come first; later ones shadow them. */
      next (p);
      Token *bt = peek (p);
      base = parse_type (p);
      if (!base || base->kind != TY_STRUCT)
        {
          error_at (p, bt->loc, "a struct can only derive from a struct");
          base = NULL;
        }
      if (is (p, ","))
        {
          error_at (p, peek_at (p, 1)->loc, "a struct can derive from only one struct");
          while (!is (p, "{") && peek (p)->kind != TK_EOF)
            next (p);
        }
    }
  if (!is (p, "{"))
    {
      Type *t = name ? g_hash_table_lookup (p->types, name) : NULL;
      if (!t)
        {
          if (name)
            error_at (p, name_tok->loc, "unknown struct '%s'", name);
          else
            error_at (p, kw->loc, "expected a struct name or '{' after 'struct'");
          return p->t_error;
        }
      return t;
    }
  next (p);
  Type *t = SL_NEW (p->arena, Type);
  t->kind = TY_STRUCT;
  t->name = name;
  GArray *fields = g_array_new (FALSE, TRUE, sizeof (Field));
  guint own_from = 0;
  if (base)
    {
      g_array_append_vals (fields, base->fields, base->n_fields);
      t->n_comp = base->n_comp;
      t->n_objects = base->n_objects;
      own_from = fields->len;
    }
  while (!is (p, "}") && peek (p)->kind != TK_EOF)
    {
      unsigned mods = parse_modifiers (p);
      Type *ft = parse_type (p);
      if (!ft)
        {
          error_at (p, peek (p)->loc, "expected a member type before '%s'", tok_desc (peek (p)));
          recover (p);
          continue;
        }
      ft = apply_majority (p, ft, mods);
      bool bad_name = false;
      do
        {
          Token *ftok = peek (p);
          const char *fname = expect_ident (p);
          if (!fname)
            {
              bad_name = true;
              break;
            }
          Type *full = parse_array_suffix (p, ft, false, NULL);
          Field f = { .name = fname, .type = full, .offset = t->n_comp };
          parse_semantics (p, &f.semantic, NULL, NULL);
          for (guint i = own_from; i < fields->len; i++)
            if (!strcmp (g_array_index (fields, Field, i).name, fname))
              error_at (p, ftok->loc, "duplicate member '%s'", fname);
          t->n_comp += full->n_comp;
          t->n_objects += full->n_objects;
          g_array_append_val (fields, f);
        }
      while (accept (p, ","));
      if (bad_name)
        recover (p);   /* past this member's ';', quietly */
      else
        expect (p, ";");
    }
  expect (p, "}");
  t->n_fields = fields->len;
  t->fields = SL_NEW_N (p->arena, Field, fields->len + 1);
  if (fields->len > 0)   /* pdata is NULL while empty */
    memcpy (t->fields, fields->data, fields->len * sizeof (Field));
  g_array_free (fields, TRUE);
  if (name)
    g_hash_table_insert (p->types, (gpointer) name, t);
  return t;
}

static Node *parse_statement (P *p);
static void parse_typedef (P *p, bool global);
static void parse_state_entries (P *p);
static void skip_annotations (P *p);
static void parse_state_entries_into (P *p, SlSamplerState *st);

static Node *
parse_var_init (P *p, Var *v, bool unsized)
{
  SlLoc loc = peek (p)->loc;
  if (unsized && v->type->kind == TY_ARRAY)
    {
      /* float4 a[] = …: the initializer decides the outer length. */
      Type *elem = v->type->elem;
      Node *e;
      int n;
      if (is (p, "{"))
        {
          next (p);
          e = parse_initializer_list (p, loc);
          n = e->n_comps;
        }
      else
        {
          e = parse_assign (p);
          if (is_error (e))
            return NULL;
          n = e->type->n_comp;
        }
      if (elem->n_comp <= 0 || n % elem->n_comp || n == 0)
        {
          error_at (p, loc, "initializer for '%s' has %d components, not a multiple of %d", v->name,
                    n, elem->n_comp);
          return NULL;
        }
      v->type = type_array (p, elem, n / elem->n_comp);
      if (e->kind == N_INITLIST)
        {
          e->type = v->type;
          return e;
        }
      return convert (p, e, v->type, loc, false, "initialization");
    }
  if (is (p, "{"))
    {
      next (p);
      Node *list = parse_initializer_list (p, loc);
      if (v->type->kind != TY_ERROR && list->n_comps != v->type->n_comp
          && !(list->n_comps == 1 && !v->type->n_objects))
        {
          error_at (p, loc, "initializer for '%s' has %d components, expected %d", v->name,
                    list->n_comps, v->type->n_comp);
          return NULL;
        }
      if (v->type->kind != TY_ERROR && !initlist_objects_ok (list, v->type))
        {
          error_at (p, loc, "initializer for '%s' does not put its samplers and textures "
                    "where '%s' has them", v->name, type_name (p, v->type));
          return NULL;
        }
      list->type = v->type;
      return list;
    }
  if (is (p, "sampler_state") && peek_at (p, 1)->kind == TK_PUNCT
      && !strcmp (peek_at (p, 1)->text, "{") && v->type->kind == TY_SAMPLER)
    {
      next (p);
      next (p);
      v->declared = SL_NEW (p->arena, SlSamplerState);
      sl_sampler_state_init_default (v->declared);
      parse_state_entries_into (p, v->declared);
      return NULL;
    }
  if (is (p, "sampler_state") || is (p, "compile"))
    {
      /* compile …: read by the effect layer; skip here */
      next (p);
      if (accept (p, "{"))
        {
          int depth = 1;
          while (depth && peek (p)->kind != TK_EOF)
            {
              if (is (p, "{"))
                depth++;
              else if (is (p, "}"))
                depth--;
              next (p);
            }
        }
      return NULL;
    }
  Node *e = parse_assign (p);
  if (is_error (e))
    return NULL;
  return convert (p, e, v->type, loc, false, "initialization");
}

static bool
is_literal_expr (const Node *e)
{
  if (!e)
    return true;
  switch (e->kind)
    {
    case N_LIT:
      return true;
    case N_VAR:
      return e->var->is_const && e->var->storage == STORE_STATIC;
    case N_CALL: case N_ASSIGN: case N_INCDEC:
      return false;
    default:
      break;
    }
  if (e->type && (e->type->kind == TY_SAMPLER || e->type->kind == TY_TEXTURE))
    return false;
  if (!is_literal_expr (e->a) || !is_literal_expr (e->b) || !is_literal_expr (e->c))
    return false;
  for (int i = 0; i < e->n_args; i++)
    if (!is_literal_expr (e->args[i]))
      return false;
  return true;
}

/* register() reservations of a global: the register class must suit the
 * type (before SM4 numeric values live in 'c').  Overlaps are checked when
 * lowering, where it is known which variables are used. */
static void
check_register (P *p, Var *v)
{
  if (!v->reg_kind)
    return;
  bool letters_only = (v->reg_kind & 0x100) != 0;
  v->reg_kind &= 0xff;
  Type *t = v->type;
  while (t->kind == TY_ARRAY)
    t = t->elem;
  if (t->kind == TY_SAMPLER)
    {
      if ((v->reg_kind != 's' && v->reg_kind != 't') || letters_only)
        error_at (p, v->loc, "sampler '%s' needs an 's' or 't' register", v->name);
      return;
    }
  if (t->kind == TY_TEXTURE || t->kind == TY_ERROR)
    return;
  /* D3D9 bool registers hold bools for flow control (if (flag) …). */
  bool bool_reg = v->reg_kind == 'b' && t->kind == TY_NUM && t->base == BT_BOOL;
  if (p->u->shader_model < 40 && v->reg_kind != 'c' && !bool_reg)
    {
      error_at (p, v->loc, "'%s' needs a 'c' register reservation", v->name);
      return;
    }
}

/* Declarations after the type: name [dims] [: sem] [<ann>] [= init], … */
static Node *
parse_declarators (P *p, Type *base, unsigned mods, bool global)
{
  Node *block = new_node (p, S_BLOCK, peek (p)->loc, p->t_void);
  GPtrArray *stmts = g_ptr_array_new ();
  do
    {
      Token *nt = peek (p);
      const char *name = expect_ident (p);
      if (!name)
        {
          recover (p);
          g_ptr_array_free (stmts, TRUE);
          return block;
        }
      int unsized = 0;
      Type *t = parse_array_suffix (p, base, true, &unsized);
      Var *v = SL_NEW (p->arena, Var);
      v->name = name;
      v->loc = nt->loc;
      v->type = t;
      v->is_const = (mods & MOD_CONST) != 0 || base->is_patch;
      v->storage = global ? ((mods & MOD_STATIC) ? STORE_STATIC : STORE_UNIFORM) : STORE_LOCAL;
      if (!global && (mods & MOD_STATIC))
        v->storage = STORE_STATIC;
      if (global && (mods & MOD_STATIC) && (mods & MOD_UNIFORM))
        error_at (p, nt->loc, "'%s' cannot be both static and uniform", name);
      if (!global && (mods & (MOD_UNIFORM | MOD_EXTERN)))
        error_at (p, nt->loc, "local variable '%s' cannot be uniform or extern", name);
      if (t->kind == TY_VOID)
        error_at (p, nt->loc, "variable '%s' declared void", name);
      parse_semantics (p, &v->semantic, &v->reg_kind, &v->reg_index);
      if (global)
        check_register (p, v);
      if (accept (p, "<"))
        {
          v->annotations = parse_annotations (p);
          sl_arena_own (p->arena, v->annotations, (GDestroyNotify) g_array_unref);
        }
      if (global && t->kind == TY_SAMPLER && accept (p, "{"))
        {
          v->declared = SL_NEW (p->arena, SlSamplerState);
          sl_sampler_state_init_default (v->declared);
          parse_state_entries_into (p, v->declared);
        }
      if (accept (p, "="))
        {
          v->init = parse_var_init (p, v, unsized);
          /* A uniform's initializer is its default value, stored in the
           * shader: it may not read variables. */
          if (v->init && v->storage == STORE_UNIFORM && !is_literal_expr (v->init))
            error_at (p, v->init->loc, "the default value of '%s' must be a literal expression", name);
        }
      else if (unsized)
        error_at (p, nt->loc, "array '%s' needs a size or an initializer", name);
      else if (v->is_const && v->storage == STORE_LOCAL)
        error_at (p, nt->loc, "const variable '%s' needs an initializer", name);
      declare_var (p, v);
      if (global)
        g_ptr_array_add (p->u->globals, v);
      else
        {
          Node *d = new_node (p, S_DECL, nt->loc, p->t_void);
          d->var = v;
          g_ptr_array_add (stmts, d);
        }
    }
  while (accept (p, ","));
  expect (p, ";");
  block->n_args = stmts->len;
  block->args = SL_NEW_N (p->arena, Node *, stmts->len + 1);
  if (stmts->len > 0)   /* pdata is NULL while empty */
    memcpy (block->args, stmts->pdata, stmts->len * sizeof (Node *));
  g_ptr_array_free (stmts, TRUE);
  return block;
}

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

static SlLoc
loc_later (SlLoc a, SlLoc b)
{
  return a.line > b.line || (a.line == b.line && a.column > b.column) ? a : b;
}

static void
parse_attributes (P *p, Attrs *at)
{
  GPtrArray *seen = g_ptr_array_new ();
  memset (at, 0, sizeof *at);
  while (is (p, "[") && peek_at (p, 1)->kind == TK_IDENT)
    {
      Token *open = next (p);
      if (!at->n)
        at->loc = open->loc;
      at->n++;
      Token *name = next (p);
      for (guint i = 0; i < seen->len; i++)
        if (!strcmp (g_ptr_array_index (seen, i), name->text))
          error_at (p, name->loc, "attribute '%s' is given twice", name->text);
      g_ptr_array_add (seen, (gpointer) name->text);
      int n_args = 0;
      Node *first = NULL;
      if (accept (p, "("))
        {
          /* Each argument is an expression or a string; an empty list or
           * an empty argument is a syntax error. */
          do
            {
              if (is (p, ")") || is (p, ","))
                {
                  error_at (p, peek (p)->loc, "expected an attribute argument before '%s'",
                            tok_desc (peek (p)));
                  break;
                }
              if (peek (p)->kind == TK_STRING)
                next (p);
              else
                {
                  Node *e = parse_assign (p);
                  if (!n_args)
                    first = e;
                }
              n_args++;
            }
          while (accept (p, ","));
          expect (p, ")");
        }
      expect (p, "]");
      /* A lone non-constant argument cannot be evaluated as the
       * attribute's value. */
      if (n_args == 1 && first && first->kind == N_VAR && !first->var->is_const)
        error_at (p, first->loc, "attribute argument must be a literal expression");
      if (!strcmp (name->text, "unroll"))
        {
          at->unroll = true;
          at->unroll_loc = name->loc;
          at->unroll_cap = -1;
          if (first)
            {
              bool ok = true;
              int v = const_eval_int (p, first, &ok);
              if (ok)
                at->unroll_cap = v;
            }
        }
      else if (!strcmp (name->text, "loop"))
        at->loop = true, at->loop_loc = name->loc;
      else if (!strcmp (name->text, "fastopt"))
        at->fastopt = true, at->loop_loc = name->loc;
      else if (!strcmp (name->text, "branch"))
        at->branch = true, at->branch_loc = name->loc;
      else if (!strcmp (name->text, "flatten"))
        at->flatten = true, at->flatten_loc = name->loc;
    }
  g_ptr_array_free (seen, TRUE);
  /* A conflict is reported at the second of the two attributes. */
  if (at->unroll && (at->loop || at->fastopt))
    error_at (p, loc_later (at->unroll_loc, at->loop_loc), "[unroll] conflicts with [%s]",
              at->loop ? "loop" : "fastopt");
  if (at->branch && at->flatten)
    error_at (p, loc_later (at->branch_loc, at->flatten_loc), "[branch] conflicts with [flatten]");
}

static Node *
parse_block (P *p)
{
  Token *open = peek (p);
  expect (p, "{");
  push_scope (p);
  Node *b = new_node (p, S_BLOCK, open->loc, p->t_void);
  GPtrArray *stmts = g_ptr_array_new ();
  while (!is (p, "}") && peek (p)->kind != TK_EOF)
    {
      int before = p->pos;
      g_ptr_array_add (stmts, parse_statement (p));
      if (p->pos == before)
        next (p);   /* never loop on the same token */
    }
  expect (p, "}");
  pop_scope (p);
  b->n_args = stmts->len;
  b->args = SL_NEW_N (p->arena, Node *, stmts->len + 1);
  if (stmts->len > 0)   /* pdata is NULL while empty */
    memcpy (b->args, stmts->pdata, stmts->len * sizeof (Node *));
  g_ptr_array_free (stmts, TRUE);
  return b;
}

static Node *
condition (P *p, Node *c)
{
  if (is_error (c))
    return c;
  if (c->type->kind != TY_NUM)
    {
      error_at (p, c->loc, "condition must be numeric, not '%s'", type_name (p, c->type));
      return error_node (p, c->loc);
    }
  if (c->type->n_comp > 1)
    {
      error_at (p, c->loc, "condition must have one component, not '%s'", type_name (p, c->type));
      return error_node (p, c->loc);
    }
  return convert (p, c, p->t_bool, c->loc, true, NULL);
}

static Node *
strip_casts (Node *e)
{
  while (e && e->kind == N_CAST)
    e = e->a;
  return e;
}

/* The iteration count of for (i = A; i < B; ++i) with constant A and B,
 * or -1 for any other loop shape. */
static int
for_trip_count (P *p, Node *s)
{
  Node *cond = strip_casts (s->b);
  if (!cond || cond->kind != N_BINARY || cond->op != '<')
    return -1;
  Node *iv = strip_casts (cond->a);
  if (!iv || iv->kind != N_VAR)
    return -1;
  bool ok = true;
  int hi = const_eval_int (p, cond->b, &ok);
  Node *init = s->a;
  Node *start = NULL;
  if (init && init->kind == S_EXPR && init->a && init->a->kind == N_ASSIGN
      && init->a->a->kind == N_VAR && init->a->a->var == iv->var)
    start = init->a->b;
  else if (init && init->kind == S_BLOCK && init->n_args == 1 && init->args[0]->var == iv->var)
    start = iv->var->init;
  if (!start)
    return -1;
  int lo = const_eval_int (p, start, &ok);
  return ok ? hi - lo : -1;
}

/* Whether a statement contains a 'break' of the enclosing switch (not
 * one of a nested loop) or a 'return'. */
static bool
leaves_switch (Node *s, Node **has_loop, Node **has_return)
{
  if (!s)
    return false;
  switch (s->kind)
    {
    case S_BREAK:
      return true;
    case S_CONTINUE:   /* an error of its own in a switch: no fall-through error too */
      return true;
    case S_RETURN:
      if (!*has_return)
        *has_return = s;
      return true;
    case S_BLOCK:
      {
        bool r = false;
        for (int i = 0; i < s->n_args; i++)
          r |= leaves_switch (s->args[i], has_loop, has_return);
        return r;
      }
    case S_IF:
      {
        bool a = leaves_switch (s->b, has_loop, has_return);
        bool b = leaves_switch (s->c, has_loop, has_return);
        return a || b;
      }
    case S_FOR: case S_WHILE: case S_DO:
      {
        if (!*has_loop)
          *has_loop = s;
        Node *dummy = NULL;
        leaves_switch (s->d, &dummy, has_return);
        return false;
      }
    default:
      return false;
    }
}

/* The D3D compiler's rules for switch bodies: distinct case values, one
 * default, no case group that falls through into the next (or is left
 * empty at the end); before SM4 no loops inside and no return from a
 * switch inside a loop. */
static void
check_switch (P *p, GPtrArray *items, bool in_loop)
{
  int n_default = 0;
  Node *has_loop = NULL, *has_return = NULL;
  for (guint i = 0; i < items->len; i++)
    {
      Node *it = g_ptr_array_index (items, i);
      if (it->kind == S_EXPR && it->op == 2 && ++n_default == 2)
        error_at (p, it->loc, "switch has more than one default label");
      if (it->kind == S_EXPR && it->op == 1)
        for (guint j = 0; j < i; j++)
          {
            Node *o = g_ptr_array_index (items, j);
            if (o->kind == S_EXPR && o->op == 1 && o->offset == it->offset)
              {
                error_at (p, it->loc, "duplicate case value %d", it->offset);
                break;
              }
          }
    }
  guint i = 0;
  while (i < items->len)
    {
      Node *label = g_ptr_array_index (items, i);
      while (i < items->len && ((Node *) g_ptr_array_index (items, i))->kind == S_EXPR
             && ((Node *) g_ptr_array_index (items, i))->op)
        i++;
      bool any = false, leaves = false;
      for (; i < items->len; i++)
        {
          Node *st = g_ptr_array_index (items, i);
          if (st->kind == S_EXPR && st->op)
            break;
          any = true;
          leaves |= leaves_switch (st, &has_loop, &has_return);
        }
      if (!any && i >= items->len)
        error_at (p, label->loc, "the last case of a switch is empty");
      else if (any && !leaves)
        error_at (p, label->loc, "case falls through to the next one");
    }
  if (p->u->shader_model < 40 && has_loop)
    error_at (p, has_loop->loc, "loops inside a switch need shader model 4.0");
  else if (p->u->shader_model < 40 && in_loop && has_return)
    error_at (p, has_return->loc, "returning from a switch inside a loop needs shader model 4.0");
}

static Node *
parse_statement (P *p)
{
  Token *t = peek (p);
  SlLoc loc = t->loc;
  if (++p->depth > SL_MAX_NESTING)
    {
      error_at (p, loc, "statements nested too deeply");
      p->depth--;
      recover (p);
      return new_node (p, S_EMPTY, loc, p->t_void);
    }
  Node *result;
  Attrs attrs;
  parse_attributes (p, &attrs);
  int cap = attrs.unroll_cap > 0 ? attrs.unroll_cap : 0;
  t = peek (p);
  loc = t->loc;
  if (is (p, "{"))
    result = parse_block (p);
  else if (accept (p, ";"))
    result = new_node (p, S_EMPTY, loc, p->t_void);
  else if (accept (p, "if"))
    {
      result = new_node (p, S_IF, loc, p->t_void);
      expect (p, "(");
      result->a = condition (p, parse_expr (p));
      expect (p, ")");
      result->b = parse_statement (p);
      if (accept (p, "else"))
        result->c = parse_statement (p);
    }
  else if (accept (p, "for"))
    {
      result = new_node (p, S_FOR, loc, p->t_void);
      result->loop_cap = cap;
      push_scope (p);
      expect (p, "(");
      if (!accept (p, ";"))
        {
          if (is_type_start (p))
            {
              unsigned mods = parse_modifiers (p);
              Type *ty = parse_type (p);
              result->a = parse_declarators (p, ty ? ty : p->t_error, mods, false);
            }
          else
            {
              Node *s = new_node (p, S_EXPR, peek (p)->loc, p->t_void);
              s->a = parse_expr (p);
              result->a = s;
              expect (p, ";");
            }
        }
      if (!is (p, ";"))
        result->b = condition (p, parse_expr (p));
      expect (p, ";");
      if (!is (p, ")"))
        result->c = parse_expr (p);
      expect (p, ")");
      p->loop_depth++;
      bool sw = p->in_switch;
      p->in_switch = false;
      result->d = parse_statement (p);
      p->in_switch = sw;
      p->loop_depth--;
      pop_scope (p);
      if (attrs.unroll && attrs.unroll_cap < 0 && for_trip_count (p, result) >= 1024)
        error_at (p, loc, "cannot unroll a loop of more than 1024 iterations");
    }
  else if (accept (p, "while"))
    {
      result = new_node (p, S_WHILE, loc, p->t_void);
      result->loop_cap = cap;
      expect (p, "(");
      result->b = condition (p, parse_expr (p));
      expect (p, ")");
      p->loop_depth++;
      bool sw = p->in_switch;
      p->in_switch = false;
      result->d = parse_statement (p);
      p->in_switch = sw;
      p->loop_depth--;
    }
  else if (accept (p, "do"))
    {
      result = new_node (p, S_DO, loc, p->t_void);
      result->loop_cap = cap;
      p->loop_depth++;
      bool sw = p->in_switch;
      p->in_switch = false;
      result->d = parse_statement (p);
      p->in_switch = sw;
      p->loop_depth--;
      expect (p, "while");
      expect (p, "(");
      result->b = condition (p, parse_expr (p));
      expect (p, ")");
      expect (p, ";");
    }
  else if (accept (p, "return"))
    {
      result = new_node (p, S_RETURN, loc, p->t_void);
      Type *rt = p->cur_func ? p->cur_func->ret : p->t_void;
      if (!is (p, ";"))
        {
          Node *e = parse_expr (p);
          if (rt->kind == TY_VOID && !is_error (e))
            error_at (p, loc, "void function cannot return a value");
          else
            result->a = convert (p, e, rt, e->loc, false, "return");
        }
      else if (rt->kind != TY_VOID && rt->kind != TY_ERROR)
        error_at (p, loc, "non-void function must return a value");
      expect (p, ";");
    }
  else if (is (p, "break") || is (p, "continue"))
    {
      next (p);
      result = new_node (p, t->text[0] == 'b' ? S_BREAK : S_CONTINUE, loc, p->t_void);
      if (p->loop_depth == 0 && !(t->text[0] == 'b' && p->depth > 1))
        error_at (p, loc, "'%s' outside a loop", t->text);
      else if (t->text[0] == 'c' && p->in_switch)
        error_at (p, loc, "'continue' is not allowed inside a switch");
      expect (p, ";");
    }
  else if (accept (p, "discard"))
    {
      result = new_node (p, S_DISCARD, loc, p->t_void);
      expect (p, ";");
    }
  else if (accept (p, "typedef"))
    {
      parse_typedef (p, false);
      result = new_node (p, S_EMPTY, loc, p->t_void);
    }
  else if (is_shader_object_type (t))
    {
      error_at (p, loc, "shader objects cannot be declared inside functions");
      recover (p);
      result = new_node (p, S_EMPTY, loc, p->t_void);
    }
  else if (accept (p, "switch"))
    {
      result = new_node (p, S_SWITCH, loc, p->t_void);
      expect (p, "(");
      Node *sel = parse_expr (p);
      expect (p, ")");
      if (!is_error (sel) && (sel->type->kind != TY_NUM || sel->type->n_comp != 1
                              || sel->type->base == BT_FLOAT))
        {
          error_at (p, sel->loc, "switch selector must be an integer scalar");
          sel = error_node (p, sel->loc);
        }
      else if (!is_error (sel))
        sel = convert (p, sel, p->t_int, sel->loc, false, NULL);
      result->a = sel;
      /* Cases are kept as a flat list: S_EXPR nodes with op = 1 (case
       * value in a) or 2 (default) mark the labels. */
      expect (p, "{");
      push_scope (p);
      GPtrArray *items = g_ptr_array_new ();
      int outer_loops = p->loop_depth;
      bool sw = p->in_switch;
      p->in_switch = true;
      p->loop_depth++;
      while (!is (p, "}") && peek (p)->kind != TK_EOF)
        {
          Token *ct = peek (p);
          if (accept (p, "case"))
            {
              Node *lab = new_node (p, S_EXPR, ct->loc, p->t_void);
              lab->op = 1;
              int v = 0;
              parse_const_int_expr (p, &v);
              lab->offset = v;
              expect (p, ":");
              g_ptr_array_add (items, lab);
            }
          else if (accept (p, "default"))
            {
              Node *lab = new_node (p, S_EXPR, ct->loc, p->t_void);
              lab->op = 2;
              expect (p, ":");
              g_ptr_array_add (items, lab);
            }
          else
            {
              int before = p->pos;
              g_ptr_array_add (items, parse_statement (p));
              if (p->pos == before)
                next (p);
            }
        }
      p->loop_depth--;
      p->in_switch = sw;
      pop_scope (p);
      expect (p, "}");
      check_switch (p, items, outer_loops > 0);
      result->n_args = items->len;
      result->args = SL_NEW_N (p->arena, Node *, items->len + 1);
      if (items->len > 0)   /* pdata is NULL while empty */
        memcpy (result->args, items->pdata, items->len * sizeof (Node *));
      g_ptr_array_free (items, TRUE);
    }
  else if (is_type_start (p) && !(peek_at (p, 1)->kind == TK_PUNCT && !strcmp (peek_at (p, 1)->text, "(")
                                   && builtin_numeric (p, t->text)))
    {
      unsigned mods = parse_modifiers (p);
      Type *ty = parse_type (p);
      if (!ty)
        {
          error_at (p, peek (p)->loc, "expected a type before '%s'", tok_desc (peek (p)));
          recover (p);
          result = new_node (p, S_EMPTY, loc, p->t_void);
        }
      else if (is (p, ";") && ty->kind == TY_STRUCT)
        {
          next (p);
          result = new_node (p, S_EMPTY, loc, p->t_void);
        }
      else
        {
          ty = apply_majority (p, ty, mods);
          result = parse_declarators (p, ty, mods, false);
        }
    }
  else
    {
      result = new_node (p, S_EXPR, loc, p->t_void);
      int errors_before = p->u->n_errors;
      result->a = parse_expr (p);
      if (p->u->n_errors > errors_before && !is (p, ";"))
        recover (p);
      else
        expect (p, ";");
    }
  p->depth--;
  return result;
}

/* ---- "not all control paths return a value" -----------------------
 * The D3D compiler rejects a non-void function whose end is reachable
 * (error X3507).  The analysis is structural and deliberately simple, so
 * that it never claims a return that might not happen: a path ends at
 * 'return'; 'discard' does not end one (the pixel goes on running, and the
 * D3D compiler treats a switch case ending in discard as falling through
 * too, see check_switch); 'if' needs both branches; a switch needs a
 * default and no break out of it; a loop ends every path only when its
 * condition is absent or a nonzero literal and no break leaves it.  An
 * 'if' whose condition is a literal has only the branch it takes: the D3D
 * compiler accepts 'if (1) { return x; }' at the end of a function (vkd3d's
 * scope.shader_test). */

typedef struct
{
  bool brk;    /* a reachable 'break' leaves the innermost loop/switch */
  bool cont;   /* a reachable 'continue' goes to the innermost loop's test */
} Exits;

/* A condition's value when the parser can tell: 1, 0, or -1 (unknown).
 * const_eval_int truncates floats, which would make 0.5 false. */
static int
literal_truth (P *p, Node *cond)
{
  Node *e = cond;
  while (e->kind == N_CAST)
    e = e->a;
  if (e->type->kind == TY_NUM && e->type->base == BT_FLOAT)
    {
      if (e->kind != N_LIT || !e->lit || e->type->n_comp != 1)
        return -1;
      return (e->lit[0] & 0x7fffffffu) != 0;
    }
  bool ok = true;
  int v = const_eval_int (p, cond, &ok);
  return ok ? v != 0 : -1;
}

static bool
always_true (P *p, Node *cond)
{
  return !cond || literal_truth (p, cond) == 1;   /* !cond: for (;;) */
}

/* Whether control can run past the end of statement s. */
static bool
can_fall_through (P *p, Node *s, Exits *ex)
{
  if (!s)
    return true;
  switch (s->kind)
    {
    case S_RETURN:
      return false;
    case S_BREAK:
      ex->brk = true;
      return false;
    case S_CONTINUE:
      ex->cont = true;
      return false;
    case S_BLOCK:
      for (int i = 0; i < s->n_args; i++)
        if (!can_fall_through (p, s->args[i], ex))
          return false;   /* the rest is unreachable */
      return true;
    case S_IF:
      {
        int v = literal_truth (p, s->a);
        if (v >= 0)
          return can_fall_through (p, v ? s->b : s->c, ex);
        bool a = can_fall_through (p, s->b, ex);
        bool b = can_fall_through (p, s->c, ex);
        return a || b;
      }
    case S_FOR: case S_WHILE: case S_DO:
      {
        Exits in = { false, false };
        bool body = can_fall_through (p, s->d, &in);
        if (always_true (p, s->b))
          return in.brk;
        /* A do-while whose every pass returns never tests its condition. */
        if (s->kind == S_DO)
          return body || in.brk || in.cont;
        return true;
      }
    case S_SWITCH:
      {
        /* Labels are S_EXPR items with op 1 (case) or 2 (default); each
         * makes the code after it reachable again. */
        Exits in = { false, false };
        bool has_default = false, reach = true;
        for (int i = 0; i < s->n_args; i++)
          {
            Node *it = s->args[i];
            if (it->kind == S_EXPR && it->op)
              {
                has_default |= it->op == 2;
                reach = true;
              }
            else if (reach)
              reach = can_fall_through (p, it, &in);
          }
        ex->cont |= in.cont;   /* a continue in a switch is the loop's */
        return !has_default || in.brk || reach;
      }
    default:
      return true;
    }
}

/* ------------------------------------------------------------------ */
/* Top level                                                            */
/* ------------------------------------------------------------------ */

static void
parse_function (P *p, Type *ret, Token *name_tok, unsigned mods)
{
  Func *f = SL_NEW (p->arena, Func);
  f->name = name_tok->text;
  f->ret = ret;
  f->loc = name_tok->loc;
  next (p);   /* ( */
  push_scope (p);
  GPtrArray *params = g_ptr_array_new ();
  GPtrArray *defaults = g_ptr_array_new ();
  bool any_default = false;
  if (is (p, "void") && peek_at (p, 1)->kind == TK_PUNCT && !strcmp (peek_at (p, 1)->text, ")"))
    next (p);   /* f(void) */
  bool bad_param = false;
  if (!is (p, ")"))
    do
      {
        unsigned pm = parse_modifiers (p);
        Token *tt = peek (p);
        Type *pt = parse_type (p);
        if (!pt)
          {
            error_at (p, tt->loc, "expected a parameter type before '%s'", tok_desc (tt));
            bad_param = true;
            break;
          }
        pt = apply_majority (p, pt, pm);
        Token *pn = peek (p);
        const char *pname = expect_ident (p);
        if (!pname)
          {
            bad_param = true;
            break;
          }
        Var *v = SL_NEW (p->arena, Var);
        v->name = pname;
        v->loc = pn->loc;
        v->type = parse_array_suffix (p, pt, false, NULL);
        v->storage = STORE_PARAM;
        v->is_const = (pm & MOD_CONST) != 0;
        v->param_mod = (pm & MOD_INOUT) ? 2 : (pm & MOD_OUT) ? 1 : 0;
        if ((pm & MOD_IN) && (pm & MOD_OUT))
          v->param_mod = 2;
        v->uniform_param = (pm & MOD_UNIFORM) != 0;
        parse_semantics (p, &v->semantic, &v->reg_kind, &v->reg_index);
        Node *def = NULL;
        if (accept (p, "="))
          {
            def = parse_var_init (p, v, false);
            any_default = true;
          }
        else if (any_default)
          error_at (p, pn->loc, "parameter '%s' needs a default value", pname);
        declare_var (p, v);
        g_ptr_array_add (params, v);
        g_ptr_array_add (defaults, def);
      }
    while (accept (p, ","));
  if (bad_param)
    {
      /* One message per bad parameter list: skip to its ')' quietly. */
      int nest = 0;
      while (peek (p)->kind != TK_EOF && !is (p, "{") && !is (p, ";")
             && !(nest == 0 && is (p, ")")))
        {
          if (is (p, "("))
            nest++;
          else if (is (p, ")"))
            nest--;
          next (p);
        }
      accept (p, ")");
    }
  else
    expect (p, ")");
  parse_semantics (p, &f->semantic, NULL, NULL);
  f->n_params = params->len;
  f->params = SL_NEW_N (p->arena, Var *, params->len + 1);
  if (params->len > 0)   /* pdata is NULL while empty */
    memcpy (f->params, params->pdata, params->len * sizeof (Var *));
  if (any_default)
    {
      f->defaults = SL_NEW_N (p->arena, Node *, params->len + 1);
      if (params->len > 0)   /* pdata is NULL while empty */
        memcpy (f->defaults, defaults->pdata, params->len * sizeof (Node *));
    }
  g_ptr_array_free (params, TRUE);
  g_ptr_array_free (defaults, TRUE);

  /* Register before the body so a recursive call resolves (and is then
   * rejected when inlining). */
  Func *chain = g_hash_table_lookup (p->u->funcs, f->name);
  Func *same = NULL;
  for (Func *c = chain; c; c = c->next_overload)
    if (c->n_params == f->n_params)
      {
        bool eq = true;
        for (int k = 0; k < f->n_params; k++)
          if (!type_equal (c->params[k]->type, f->params[k]->type))
            eq = false;
        if (eq)
          same = c;
      }
  if (is (p, "{"))
    {
      if (same && same->body)
        error_at (p, name_tok->loc, "redefinition of function '%s'", f->name);
      Func *target = same ? same : f;
      if (same)
        {
          /* Definition of an earlier prototype: take the new parameter
           * names. */
          same->params = f->params;
          same->defaults = f->defaults ? f->defaults : same->defaults;
          same->semantic = f->semantic ? f->semantic : same->semantic;
        }
      else
        {
          f->next_overload = chain;
          g_hash_table_insert (p->u->funcs, (gpointer) f->name, f);
        }
      Func *saved = p->cur_func;
      p->cur_func = target;
      int saved_loop = p->loop_depth;
      p->loop_depth = 0;
      p->param_scope = p->scope;
      int errors_before = p->u->n_errors;
      target->body = parse_block (p);
      /* After an error the body may be cut short by recovery: no
       * second message about its end. */
      Token *close = &p->toks[p->pos - 1];
      Exits ex = { false, false };
      if (p->u->n_errors == errors_before && ret->kind != TY_VOID && ret->kind != TY_ERROR
          && can_fall_through (p, target->body, &ex))
        error_at (p, close->kind == TK_PUNCT && !strcmp (close->text, "}") ? close->loc : name_tok->loc,
                  "not all control paths of '%s' return a value", f->name);
      p->param_scope = NULL;
      p->loop_depth = saved_loop;
      p->cur_func = saved;
    }
  else
    {
      expect (p, ";");
      if (!same)
        {
          f->next_overload = chain;
          g_hash_table_insert (p->u->funcs, (gpointer) f->name, f);
        }
    }
  pop_scope (p);
  (void) mods;
}

static void
parse_pragma (P *p, Token *t)
{
  const char *s = t->text;
  if (g_str_has_prefix (s, "pack_matrix"))
    {
      if (strstr (s, "row_major"))
        p->row_major_default = true;
      else if (strstr (s, "column_major"))
        p->row_major_default = false;
      else
        warn_at (p, t->loc, "unknown #pragma pack_matrix argument");
    }
  /* #pragma parameter and others: reflection reads them from the source. */
}

/* ---- effect syntax -------------------------------------------------
 * Techniques, passes, state blocks and shader objects only configure the
 * effect framework; a pixel shader compile checks their syntax and the
 * rules the D3D compiler enforces, and otherwise ignores them. */

static const struct { const char *name; int min, max; } state_functions[] = {
  { "SetBlendState", 3, 3 }, { "SetDepthStencilState", 2, 2 }, { "SetRasterizerState", 1, 1 },
  { "SetVertexShader", 1, 1 }, { "SetDomainShader", 1, 1 }, { "SetHullShader", 1, 1 },
  { "SetGeometryShader", 1, 1 }, { "SetPixelShader", 1, 1 }, { "SetComputeShader", 1, 1 },
  { "OMSetRenderTargets", 2, 9 },
};

static int
state_function (const char *name)
{
  for (size_t i = 0; i < G_N_ELEMENTS (state_functions); i++)
    if (!strcmp (name, state_functions[i].name))
      return i;
  return -1;
}

static bool
is_shader_object_type (Token *t)
{
  static const char *const names[] = {
    "PixelShader", "VertexShader", "GeometryShader", "HullShader", "DomainShader",
    "ComputeShader", "pixelshader", "vertexshader",
  };
  if (t->kind != TK_IDENT)
    return false;
  for (size_t i = 0; i < G_N_ELEMENTS (names); i++)
    if (!strcmp (t->text, names[i]))
      return true;
  return false;
}

/* D3D10 effect state objects: they configure the output merger and the
 * rasteriser, which a pixel-shader runtime does not have, so their blocks
 * are read for syntax and dropped. */
static bool
is_state_object_type (Token *t)
{
  return t->kind == TK_IDENT
         && (!strcmp (t->text, "BlendState") || !strcmp (t->text, "DepthStencilState")
             || !strcmp (t->text, "RasterizerState"));
}

/* BlendState name[n] <annotations> [=] { State[i] = value; … }, …; */
static void
parse_state_object (P *p)
{
  next (p);
  do
    {
      if (!expect_ident (p))
        {
          recover (p);
          return;
        }
      if (accept (p, "["))
        {
          int n;
          parse_const_int_expr (p, &n);
          expect (p, "]");
        }
      skip_annotations (p);
      accept (p, "=");
      if (!is (p, "{"))
        continue;
      Token *open = next (p);
      int depth = 1;
      while (depth && peek (p)->kind != TK_EOF)
        {
          if (is (p, "{"))
            depth++;
          else if (is (p, "}"))
            depth--;
          next (p);
        }
      if (depth)
        {
          error_at (p, open->loc, "unterminated state block");
          return;
        }
    }
  while (accept (p, ","));
  expect (p, ";");
}

/* Skips a parenthesised list after its '(' and returns the number of
 * top-level arguments. */
static int
skip_args (P *p)
{
  int depth = 0, n = 0;
  bool any = false;
  while (peek (p)->kind != TK_EOF)
    {
      if (is (p, "(") || is (p, "{") || is (p, "["))
        depth++;
      else if (is (p, ")") || is (p, "}") || is (p, "]"))
        {
          if (depth == 0)
            break;
          depth--;
        }
      else if (is (p, ",") && depth == 0)
        n++;
      any = true;
      next (p);
    }
  expect (p, ")");
  return any ? n + 1 : 0;
}

/* 'compile PROFILE f(args)' or the inside of CompileShader(PROFILE, f(args)):
 * the arguments bind f's uniform parameters, so there may not be more of
 * them.  @check_names parses them as expressions (outside state blocks,
 * undeclared names are errors). */
static void
parse_compile_target (P *p, bool check_names)
{
  Token *prof = peek (p);
  if (prof->kind == TK_IDENT)
    {
      /* Effects know the profiles of shader models 1 to 5. */
      const char *q = prof->text;
      if (strlen (q) < 4 || !strchr ("pvghdc", q[0]) || q[1] != 's' || q[2] != '_'
          || q[3] < '1' || q[3] > '5')
        error_at (p, prof->loc, "invalid target profile '%s'", q);
      next (p);
    }
  accept (p, ",");
  Token *fn = peek (p);
  if (fn->kind != TK_IDENT)
    {
      error_at (p, fn->loc, "expected a function to compile");
      /* Up to what ends the target, which the caller expects: one
       * message, not one more for each token left over. */
      int depth = 0;
      while (peek (p)->kind != TK_EOF
             && !(depth == 0 && (is (p, ";") || is (p, "}") || is (p, ")"))))
        {
          if (is (p, "(") || is (p, "{") || is (p, "["))
            depth++;
          else if (is (p, ")") || is (p, "}") || is (p, "]"))
            depth--;
          next (p);
        }
      return;
    }
  next (p);
  if (!expect (p, "("))
    return;
  int n;
  if (check_names)
    {
      n = 0;
      if (!is (p, ")"))
        do
          {
            parse_assign (p);
            n++;
          }
        while (accept (p, ","));
      expect (p, ")");
    }
  else
    n = skip_args (p);
  Func *f = g_hash_table_lookup (p->u->funcs, fn->text);
  if (!f)
    {
      error_at (p, fn->loc, "undeclared function '%s'", fn->text);
      return;
    }
  int uniforms = 0;
  for (int i = 0; i < f->n_params; i++)
    uniforms += f->params[i]->uniform_param;
  if (n > uniforms)
    error_at (p, fn->loc, "'%s' has %d uniform parameter(s), not %d", fn->text, uniforms, n);
}

static bool
value_is (Token *t, const char *s)
{
  return t->kind == TK_IDENT && !g_ascii_strcasecmp (t->text, s);
}

static bool
parse_filter (Token *t, SlFilter *out)
{
  if (value_is (t, "POINT"))
    *out = SL_FILTER_POINT;
  else if (value_is (t, "LINEAR") || value_is (t, "ANISOTROPIC"))
    *out = SL_FILTER_LINEAR;
  else if (value_is (t, "NONE"))
    *out = SL_FILTER_NONE;
  else
    return false;
  return true;
}

static bool
parse_address (Token *t, SlAddressMode *out)
{
  if (value_is (t, "WRAP"))
    *out = SL_ADDRESS_WRAP;
  else if (value_is (t, "CLAMP"))
    *out = SL_ADDRESS_CLAMP;
  else if (value_is (t, "MIRROR"))
    *out = SL_ADDRESS_MIRROR;
  else if (value_is (t, "BORDER"))
    *out = SL_ADDRESS_BORDER;
  else if (value_is (t, "MIRRORONCE") || value_is (t, "MIRROR_ONCE"))
    *out = SL_ADDRESS_MIRROR_ONCE;
  else
    return false;
  return true;
}

/* One 'Name = value' entry of a sampler state block, tokens [from, to). */
static void
apply_sampler_entry (P *p, SlSamplerState *st, int from, int to)
{
  if (to - from < 3 || p->toks[from].kind != TK_IDENT)
    return;
  Token *name = &p->toks[from];
  int v0 = from + 1;
  if (!strcmp (p->toks[v0].text, "["))
    return;   /* arrays of state: not sampler state */
  if (strcmp (p->toks[v0].text, "="))
    return;
  Token *val = &p->toks[v0 + 1];
  /* Numbers anywhere in the value (BorderColor = float4(…) or {…}). */
  float nums[4] = { 0 };
  int n_nums = 0;
  for (int i = v0 + 1; i < to && n_nums < 4; i++)
    if (p->toks[i].kind == TK_INT || p->toks[i].kind == TK_FLOAT)
      {
        double d = p->toks[i].kind == TK_INT ? (double) p->toks[i].ival : p->toks[i].fval;
        if (i > v0 + 1 && !strcmp (p->toks[i - 1].text, "-"))
          d = -d;
        nums[n_nums++] = (float) d;
      }
  const char *n = name->text;
  bool ok = true;
  if (!g_ascii_strcasecmp (n, "MinFilter"))
    ok = parse_filter (val, &st->min_filter);
  else if (!g_ascii_strcasecmp (n, "MagFilter"))
    ok = parse_filter (val, &st->mag_filter);
  else if (!g_ascii_strcasecmp (n, "MipFilter"))
    ok = parse_filter (val, &st->mip_filter);
  else if (!g_ascii_strcasecmp (n, "Filter"))
    {
      /* D3D10 names: MIN_MAG_MIP_POINT, MIN_LINEAR_MAG_MIP_POINT, … */
      const char *f = val->text;
      if (val->kind != TK_IDENT)
        ok = false;
      else if (g_ascii_strncasecmp (f, "ANISOTROPIC", 11) == 0 || strstr (f, "ANISOTROPIC"))
        st->min_filter = st->mag_filter = st->mip_filter = SL_FILTER_LINEAR;
      else
        {
          const char *mn = strstr (f, "MIN_"), *mg = strstr (f, "MAG_"), *mp = strstr (f, "MIP_");
          const char *after[3] = { mn, mg, mp };
          SlFilter *dst[3] = { &st->min_filter, &st->mag_filter, &st->mip_filter };
          for (int k = 0; k < 3; k++)
            {
              /* Each stage takes the first POINT/LINEAR after its name. */
              const char *q = after[k];
              if (!q)
                continue;
              const char *pt = strstr (q, "POINT"), *ln = strstr (q, "LINEAR");
              *dst[k] = pt && (!ln || pt < ln) ? SL_FILTER_POINT : SL_FILTER_LINEAR;
            }
        }
    }
  else if (!g_ascii_strcasecmp (n, "AddressU"))
    ok = parse_address (val, &st->address_u);
  else if (!g_ascii_strcasecmp (n, "AddressV"))
    ok = parse_address (val, &st->address_v);
  else if (!g_ascii_strcasecmp (n, "AddressW"))
    ok = parse_address (val, &st->address_w);
  else if (!g_ascii_strcasecmp (n, "BorderColor"))
    for (int k = 0; k < 4; k++)
      st->border_color[k] = n_nums == 1 ? nums[0] : nums[k];
  else if (!g_ascii_strcasecmp (n, "MipLODBias"))
    st->lod_bias = nums[0];
  else if (!g_ascii_strcasecmp (n, "MinLOD"))
    st->min_lod = nums[0];
  else if (!g_ascii_strcasecmp (n, "MaxLOD") || !g_ascii_strcasecmp (n, "MaxMipLevel"))
    st->max_lod = nums[0];
  else if (!g_ascii_strcasecmp (n, "SRGBTexture"))
    st->srgb = value_is (val, "true") || nums[0] != 0;
  if (!ok)
    warn_at (p, val->loc, "unknown value '%s' for sampler state '%s'", val->text, n);
}

static void parse_state_entries_into (P *p, SlSamplerState *st);

/* Entries of a state block or pass, after its '{', up to and including '}'. */
static void
parse_state_entries (P *p)
{
  parse_state_entries_into (p, NULL);
}

static void
parse_state_entries_into (P *p, SlSamplerState *st)
{
  while (!is (p, "}") && peek (p)->kind != TK_EOF)
    {
      Token *t = peek (p);
      if (t->kind == TK_IDENT && peek_at (p, 1)->kind == TK_PUNCT && !strcmp (peek_at (p, 1)->text, "("))
        {
          int k = state_function (t->text);
          next (p);
          next (p);
          int n = skip_args (p);
          if (k < 0)
            error_at (p, t->loc, "unknown state function '%s'", t->text);
          else if (n < state_functions[k].min || n > state_functions[k].max)
            {
              if (state_functions[k].min == state_functions[k].max)
                error_at (p, t->loc, "'%s' takes %d argument%s, not %d", t->text,
                          state_functions[k].min, state_functions[k].min == 1 ? "" : "s", n);
              else
                error_at (p, t->loc, "'%s' takes %d to %d arguments, not %d", t->text,
                          state_functions[k].min, state_functions[k].max, n);
            }
          accept (p, ";");
          continue;
        }
      /* name [index] = value ; */
      int depth = 0, entry_start = p->pos;
      while (peek (p)->kind != TK_EOF)
        {
          Token *c = peek (p);
          if (depth == 0 && (is (p, ";") || is (p, "}")))
            break;
          if (is (p, "(") || is (p, "{") || is (p, "["))
            depth++;
          else if (is (p, ")") || is (p, "}") || is (p, "]"))
            depth--;
          if (c->kind == TK_IDENT && state_function (c->text) >= 0
              && peek_at (p, 1)->kind == TK_PUNCT && !strcmp (peek_at (p, 1)->text, "("))
            error_at (p, c->loc, "'%s' cannot be used as a value", c->text);
          if (c->kind == TK_IDENT && !strcmp (c->text, "compile"))
            {
              next (p);
              parse_compile_target (p, false);
              continue;
            }
          next (p);
        }
      if (st)
        apply_sampler_entry (p, st, entry_start, p->pos);
      accept (p, ";");
    }
  expect (p, "}");
}

static void
skip_annotations (P *p)
{
  if (accept (p, "<"))
    {
      GArray *a = parse_annotations (p);
      g_array_free (a, TRUE);
    }
}

/* technique[10|11] [name] [<…>] { pass [name] [<…>] { … } … }, and
 * fxgroup name { techniques }. */
static void
parse_technique (P *p)
{
  Token *kw = next (p);
  bool group = !strcmp (kw->text, "fxgroup");
  bool pass = !strcmp (kw->text, "pass");
  if (peek (p)->kind == TK_IDENT)
    next (p);
  skip_annotations (p);
  if (!expect (p, "{"))
    {
      recover (p);
      return;
    }
  if (pass)
    {
      parse_state_entries (p);
      accept (p, ";");
      return;
    }
  while (!is (p, "}") && peek (p)->kind != TK_EOF)
    {
      Token *t = peek (p);
      if ((group && t->kind == TK_IDENT && (!g_ascii_strcasecmp (t->text, "technique")
                                             || !strcmp (t->text, "technique10")
                                             || !strcmp (t->text, "technique11")))
          || (!group && is (p, "pass")))
        parse_technique (p);
      else
        {
          error_at (p, t->loc, "expected '%s' before '%s'", group ? "technique" : "pass", tok_desc (t));
          recover (p);
        }
    }
  expect (p, "}");
  accept (p, ";");
}

/* PixelShader ps = CompileShader(…) / compile … / ConstructGSWithSO(…) / {…}; */
static void
parse_shader_object (P *p)
{
  next (p);
  do
    {
      if (!expect_ident (p))
        {
          recover (p);
          return;
        }
      if (accept (p, "["))
        {
          int n;
          parse_const_int_expr (p, &n);
          expect (p, "]");
        }
      if (!accept (p, "="))
        continue;
      Token *v = peek (p);
      if (accept (p, "{"))
        {
          int depth = 1;
          while (depth && peek (p)->kind != TK_EOF)
            {
              if (is (p, "{"))
                depth++;
              else if (is (p, "}"))
                depth--;
              next (p);
            }
        }
      else if (accept (p, "compile"))
        parse_compile_target (p, true);
      else if (v->kind == TK_IDENT && !strcmp (v->text, "CompileShader"))
        {
          next (p);
          expect (p, "(");
          parse_compile_target (p, true);
          expect (p, ")");
        }
      else if (v->kind == TK_IDENT && !strcmp (v->text, "ConstructGSWithSO"))
        {
          next (p);
          expect (p, "(");
          int n = skip_args (p);
          if (n != 2 && n != 6)
            error_at (p, v->loc, "ConstructGSWithSO takes 2 or 6 arguments, not %d", n);
        }
      else
        {
          error_at (p, v->loc, "a shader object needs a compiled shader, not '%s'", tok_desc (v));
          recover (p);
          return;
        }
    }
  while (accept (p, ","));
  expect (p, ";");
}

/* After 'typedef'.  Global typedefs may not redefine built-in type names;
 * local ones may shadow the scalar names but not matrix/vector. */
static void
parse_typedef (P *p, bool global)
{
  unsigned mods = parse_modifiers (p);
  Type *ty = parse_type (p);
  if (!ty)
    {
      error_at (p, peek (p)->loc, "expected a type after 'typedef'");
      recover (p);
      return;
    }
  ty = apply_majority (p, ty, mods);
  do
    {
      Token *nt = peek (p);
      const char *name = expect_ident (p);
      if (!name)
        break;
      Type *full = parse_array_suffix (p, ty, false, NULL);
      if (is_reserved_name (name) || !strcmp (name, "matrix") || !strcmp (name, "vector")
          || (global && (builtin_numeric (p, name) || !strcmp (name, "dword"))))
        error_at (p, nt->loc, "cannot redefine the type name '%s'", name);
      else if (global)
        g_hash_table_insert (p->types, (gpointer) name, full);
      else
        g_hash_table_insert (p->scope->types, (gpointer) name, full);
    }
  while (accept (p, ","));
  expect (p, ";");
}

static void
parse_top_level (P *p)
{
  while (peek (p)->kind != TK_EOF)
    {
      Token *t = peek (p);
      int before = p->pos;
      if (t->kind == TK_PRAGMA)
        {
          next (p);
          parse_pragma (p, t);
          continue;
        }
      if (accept (p, ";"))
        continue;
      Attrs attrs;
      parse_attributes (p, &attrs);
      t = peek (p);
      if ((t->kind == TK_IDENT && !g_ascii_strcasecmp (t->text, "technique"))
          || is (p, "technique9") || is (p, "technique10")
          || is (p, "technique11") || is (p, "pass") || is (p, "fxgroup"))
        {
          parse_technique (p);
          continue;
        }
      if (is_shader_object_type (t))
        {
          parse_shader_object (p);
          continue;
        }
      if (is_state_object_type (t))
        {
          parse_state_object (p);
          continue;
        }
      /* fx_5_0's 'single' modifier on a buffer (not a keyword otherwise). */
      if (is (p, "single") && !g_hash_table_contains (p->types, "single")
          && peek_at (p, 1)->kind == TK_IDENT
          && (!strcmp (peek_at (p, 1)->text, "cbuffer") || !strcmp (peek_at (p, 1)->text, "tbuffer")))
        next (p);
      if (is (p, "cbuffer") || is (p, "tbuffer"))
        {
          next (p);
          expect_ident (p);
          parse_semantics (p, NULL, NULL, NULL);
          skip_annotations (p);
          expect (p, "{");
          while (!is (p, "}") && peek (p)->kind != TK_EOF)
            {
              unsigned mods = parse_modifiers (p);
              Type *ty = parse_type (p);
              if (!ty)
                {
                  error_at (p, peek (p)->loc, "expected a declaration in cbuffer");
                  recover (p);
                  continue;
                }
              ty = apply_majority (p, ty, mods);
              parse_declarators (p, ty, mods & ~MOD_STATIC, true);
            }
          expect (p, "}");
          accept (p, ";");
          continue;
        }
      if (accept (p, "typedef"))
        {
          parse_typedef (p, true);
          continue;
        }
      unsigned mods = parse_modifiers (p);
      Type *ty = parse_type (p);
      if (!ty)
        {
          error_at (p, t->loc, "expected a declaration before '%s'", tok_desc (peek (p)));
          recover (p);
          if (p->pos == before)
            next (p);
          continue;
        }
      if (is (p, ";") && (ty->kind == TY_STRUCT || ty->kind == TY_ERROR))
        {
          next (p);   /* a bad type has its message already */
          continue;
        }
      ty = apply_majority (p, ty, mods);
      Token *name = peek (p);
      if (name->kind == TK_IDENT && peek_at (p, 1)->kind == TK_PUNCT
          && !strcmp (peek_at (p, 1)->text, "("))
        {
          next (p);
          parse_function (p, ty, name, mods);
          continue;
        }
      if (attrs.n)
        error_at (p, attrs.loc, "attributes are not allowed on variable declarations");
      parse_declarators (p, ty, mods, true);
      if (p->pos == before)
        next (p);
    }
}

bool
hlsl_parse (HlslUnit *u, const char *text, const char *filename)
{
  P p = { .u = u, .arena = u->arena };
  int before = sl_diagnostics_count (u->diags);
  p.toks = sl_hlsl_tokenize (u->arena, text, filename, u->diags, &p.n_toks);
  /* The lexer dropped what it could not read: parsing the rest would
   * report the hole (expected ';' before …) as a second error. */
  int lex_errors = sl_diagnostics_count (u->diags) - before;
  if (lex_errors > 0)
    {
      u->n_errors += lex_errors;
      return false;
    }
  p.types = g_hash_table_new (g_str_hash, g_str_equal);
  p.intrinsics = g_hash_table_new (g_str_hash, g_str_equal);
  for (int i = 0; i < INTR_COUNT; i++)
    if (u->reshade || i < INTR_RS_TEX2DFETCH || i > INTR_RS_TEX2DLODOFFSET)
      g_hash_table_insert (p.intrinsics, (gpointer) intrinsic_names[i], GINT_TO_POINTER (i + 1));
  Type *err = SL_NEW (u->arena, Type);
  err->kind = TY_ERROR;
  p.t_error = err;
  Type *v = SL_NEW (u->arena, Type);
  v->kind = TY_VOID;
  p.t_void = v;
  Type *s = SL_NEW (u->arena, Type);
  s->kind = TY_STRING;
  p.t_string = s;
  p.t_float = hlsl_type_num (u->arena, BT_FLOAT, NUM_SCALAR, 1, 1);
  p.t_int = hlsl_type_num (u->arena, BT_INT, NUM_SCALAR, 1, 1);
  p.t_uint = hlsl_type_num (u->arena, BT_UINT, NUM_SCALAR, 1, 1);
  p.t_bool = hlsl_type_num (u->arena, BT_BOOL, NUM_SCALAR, 1, 1);
  push_scope (&p);
  parse_top_level (&p);
  pop_scope (&p);
  g_hash_table_destroy (p.types);
  g_hash_table_destroy (p.intrinsics);
  return u->n_errors == 0 && sl_diagnostics_error_count (u->diags) == 0;
}
