/* HLSL parser and type checker: tokens → typed AST.  This file is its core.
 *
 * Recursive descent, one function per grammar level, spread over files by
 * job: hlsl_types.c (type names and the conversion rules), hlsl_const.c
 * (constant folding the grammar needs), hlsl_expr.c, hlsl_intrinsics.c,
 * hlsl_stmt.c, hlsl_decl.c and hlsl_effect_syntax.c; hlsl_parse.h shares
 * the parser state (P) and the token cursor between them.  Here are what
 * all of them lean on: diagnostics, recovery, scopes, and the top level
 * that dispatches each global declaration to its parser.
 *
 * Types are assigned while parsing.  After an error the offending
 * expression gets the type TY_ERROR, which every later check accepts
 * silently, so one mistake yields one message; statement-level recovery
 * skips to the next ';' or '}', and the parser gives up after
 * MAX_PARSE_ERRORS messages. */
#include "hlsl/hlsl_parse.h"

#include <string.h>

/* ---- diagnostics and recovery ------------------------------------------ */

void
hlsl_error (P *p, SlLoc loc, SlDiagKind kind, const char *fmt, ...)
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
  sl_diag (p->u->diags, kind, loc.file, loc.line, loc.column, "%s", msg);
  g_free (msg);
  if (++p->u->n_errors == MAX_PARSE_ERRORS)
    {
      sl_diag (p->u->diags, SL_DIAG_HLSL_TOO_MANY_ERRORS, loc.file, loc.line, loc.column,
               "too many errors (%d); the rest is not checked", MAX_PARSE_ERRORS);
      /* Every parsing loop ends at the end of the tokens. */
      p->pos = p->n_toks - 1;
    }
}

void
hlsl_warning (P *p, SlLoc loc, SlDiagKind kind, const char *fmt, ...)
{
  va_list ap;
  va_start (ap, fmt);
  sl_diag_v (p->u->diags, kind, loc.file, loc.line, loc.column, fmt, ap);
  va_end (ap);
}

/* After a malformed operand: drop the rest of the expression (balanced
 * brackets included) up to the ';', ',' or closing bracket that ends it,
 * so that one mistake gives one message. */
void
hlsl_skip_rest_of_expression (P *p)
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

/* Skips to after the next ';' at this nesting level, or before '}'. */
void
hlsl_recover (P *p)
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

/* ---- scopes ------------------------------------------------------------ */

void
hlsl_push_scope (P *p)
{
  Scope *s = g_new0 (Scope, 1);
  s->names = g_hash_table_new (g_str_hash, g_str_equal);
  s->types = g_hash_table_new (g_str_hash, g_str_equal);
  s->up = p->scope;
  p->scope = s;
}

void
hlsl_pop_scope (P *p)
{
  Scope *s = p->scope;
  p->scope = s->up;
  g_hash_table_destroy (s->names);
  g_hash_table_destroy (s->types);
  g_free (s);
}

Var *
hlsl_lookup_var (P *p, const char *name)
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
Type *
hlsl_lookup_local_type (P *p, const char *name)
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
bool
hlsl_is_reserved_name (const char *name)
{
  return !g_ascii_strcasecmp (name, "technique") || !strcmp (name, "technique10")
         || !strcmp (name, "technique11") || !strcmp (name, "fxgroup")
         || !strcmp (name, "vertexshader") || !strcmp (name, "VertexShader")
         || !strcmp (name, "pixelshader") || !strcmp (name, "PixelShader");
}

void
hlsl_declare_var (P *p, Var *v)
{
  if (hlsl_is_reserved_name (v->name))
    hlsl_error (p, v->loc, SL_DIAG_HLSL_RESERVED_WORD, "'%s' is a reserved word", v->name);
  else if (!p->scope->up && hlsl_builtin_numeric (p, v->name))
    hlsl_error (p, v->loc, SL_DIAG_HLSL_TYPE_NAME, "'%s' is a type name", v->name);
  Var *old = g_hash_table_lookup (p->scope->names, v->name);
  /* The body's outermost block shares its names with the parameters. */
  if (!old && p->param_scope && p->scope->up == p->param_scope)
    old = g_hash_table_lookup (p->param_scope->names, v->name);
  /* Globals share their names with functions. */
  if (old || (!p->scope->up && g_hash_table_lookup (p->u->funcs, v->name)))
    hlsl_error (p, v->loc, SL_DIAG_HLSL_REDEFINED, "redefinition of '%s'", v->name);
  g_hash_table_insert (p->scope->names, (gpointer) v->name, v);
  v->id = p->u->n_vars++;
}

/* ---- the top level ----------------------------------------------------- */

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
          hlsl_parse_pragma (p, t);
          continue;
        }
      if (accept (p, ";"))
        continue;
      Attrs attrs;
      hlsl_parse_attributes (p, &attrs);
      t = peek (p);
      if ((t->kind == TK_IDENT && !g_ascii_strcasecmp (t->text, "technique"))
          || is (p, "technique9") || is (p, "technique10")
          || is (p, "technique11") || is (p, "pass") || is (p, "fxgroup"))
        {
          hlsl_parse_technique (p);
          continue;
        }
      if (hlsl_is_shader_object_type (t))
        {
          hlsl_parse_shader_object (p);
          continue;
        }
      if (hlsl_is_state_object_type (t))
        {
          hlsl_parse_state_object (p);
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
          hlsl_parse_semantics (p, NULL, NULL, NULL);
          hlsl_skip_annotations (p);
          expect (p, "{");
          while (!is (p, "}") && peek (p)->kind != TK_EOF)
            {
              unsigned mods = hlsl_parse_modifiers (p);
              Type *ty = hlsl_parse_type (p);
              if (!ty)
                {
                  hlsl_error (p, peek (p)->loc, SL_DIAG_HLSL_EXPECTED_CBUFFER_DECLARATION,
                              "expected a declaration in cbuffer");
                  hlsl_recover (p);
                  continue;
                }
              ty = hlsl_apply_majority (p, ty, mods);
              hlsl_parse_declarators (p, ty, mods & ~MOD_STATIC, true);
            }
          expect (p, "}");
          accept (p, ";");
          continue;
        }
      if (accept (p, "typedef"))
        {
          hlsl_parse_typedef (p, true);
          continue;
        }
      unsigned mods = hlsl_parse_modifiers (p);
      Type *ty = hlsl_parse_type (p);
      if (!ty)
        {
          hlsl_error (p, t->loc, SL_DIAG_HLSL_EXPECTED_DECLARATION,
                      "expected a declaration before '%s'", tok_desc (peek (p)));
          hlsl_recover (p);
          if (p->pos == before)
            next (p);
          continue;
        }
      if (is (p, ";") && (ty->kind == TY_STRUCT || ty->kind == TY_ERROR))
        {
          next (p);   /* a bad type has its message already */
          continue;
        }
      ty = hlsl_apply_majority (p, ty, mods);
      Token *name = peek (p);
      if (name->kind == TK_IDENT && peek_at (p, 1)->kind == TK_PUNCT
          && !strcmp (peek_at (p, 1)->text, "("))
        {
          next (p);
          hlsl_parse_function (p, ty, name, mods);
          continue;
        }
      if (attrs.n)
        hlsl_error (p, attrs.loc, SL_DIAG_HLSL_VARIABLE_ATTRIBUTES,
                    "attributes are not allowed on variable declarations");
      hlsl_parse_declarators (p, ty, mods, true);
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
  p.intrinsics = hlsl_intrinsic_table_new (u->reshade);
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
  hlsl_push_scope (&p);
  parse_top_level (&p);
  hlsl_pop_scope (&p);
  g_hash_table_destroy (p.types);
  g_hash_table_destroy (p.intrinsics);
  return u->n_errors == 0 && sl_diagnostics_error_count (u->diags) == 0;
}
