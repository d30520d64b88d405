/* The effect scanner: an effect's tokens written back as plain HLSL text.
 *
 * An effect file is HLSL plus a few constructs the HLSL front end does not
 * know: techniques with pass states, ReShade `texture`/`sampler` blocks,
 * untyped annotations and namespaces.  Rather than teaching the compiler
 * these, the effect layer works at the token level: it takes out and
 * records what is effect syntax (fx_decl.c) and writes everything else
 * back as plain HLSL text — annotations get types, `N::x` becomes `N__x` —
 * keeping each token on its source line (with #line markers) so that the
 * HLSL compiler's diagnostics point into the user's files.
 *
 * This file holds what the declaration parsers are built from: the
 * diagnostics, the output kept in step with the source lines, namespaces
 * and the mangling of names, small constant expressions (texture sizes,
 * state values) and value words, annotations, and the copying of plain
 * HLSL declarations. */
#include "fx/fx_scan.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* ---- diagnostics ---- */

void
fx_error (Scan *s, SlLoc loc, SlDiagKind kind, const char *fmt, ...)
{
  va_list ap;
  va_start (ap, fmt);
  sl_diag_v (s->diags, kind, loc.file, loc.line, loc.column, fmt, ap);
  va_end (ap);
}

void
fx_note (Scan *s, SlLoc loc, SlDiagKind kind, const char *fmt, ...)
{
  va_list ap;
  va_start (ap, fmt);
  sl_diag_v (s->diags, kind, loc.file, loc.line, loc.column, fmt, ap);
  va_end (ap);
}

/* ---- output, kept in step with the source lines ---- */

static void
out_sync (Scan *s, SlLoc loc)
{
  if (!s->ofile || strcmp (s->ofile, loc.file) || loc.line < s->oline || loc.line > s->oline + 8)
    {
      if (s->ocol > 1)
        g_string_append_c (s->out, '\n');
      g_string_append_printf (s->out, "#line %d \"", loc.line);
      for (const char *c = loc.file; *c; c++)
        {
          if (*c == '\\' || *c == '"')
            g_string_append_c (s->out, '\\');
          g_string_append_c (s->out, *c);
        }
      g_string_append (s->out, "\"\n");
      s->ofile = loc.file;
      s->oline = loc.line;
      s->ocol = 1;
    }
  while (s->oline < loc.line)
    {
      g_string_append_c (s->out, '\n');
      s->oline++;
      s->ocol = 1;
    }
  if (s->ocol < loc.column)
    {
      for (; s->ocol < loc.column; s->ocol++)
        g_string_append_c (s->out, ' ');
    }
  else if (s->ocol > loc.column)
    {
      /* text was inserted before: keep tokens apart */
      g_string_append_c (s->out, ' ');
      s->ocol++;
    }
}

void
fx_out_text (Scan *s, SlLoc loc, const char *text)
{
  out_sync (s, loc);
  g_string_append (s->out, text);
  s->ocol += (int) strlen (text);
}

void
fx_out_token (Scan *s, const Token *t, const char *spelling)
{
  if (t->kind == TK_PRAGMA)
    {
      if (s->ocol > 1)
        {
          g_string_append_c (s->out, '\n');
          s->oline++;
          s->ocol = 1;
        }
      out_sync (s, t->loc);
      g_string_append_printf (s->out, "#pragma %s\n", t->text);
      s->oline++;
      s->ocol = 1;
      return;
    }
  if (t->kind == TK_STRING)
    {
      char *q = g_strdup_printf ("\"%s\"", t->text);
      fx_out_text (s, t->loc, q);
      g_free (q);
      return;
    }
  fx_out_text (s, t->loc, spelling ? spelling : t->text);
}

/* ---- namespaces ---- */

/* The mangled spelling of an unqualified name used in the current
 * namespace: the innermost enclosing namespace that declares it wins. */
static const char *
resolve_plain (Scan *s, const char *name)
{
  for (int i = s->n_ns - 1; i >= 0; i--)
    {
      char *m = g_strconcat (s->ns[i], name, NULL);
      bool hit = g_hash_table_contains (s->declared, m);
      const char *r = hit ? sl_arena_strdup (s->arena, m) : NULL;
      g_free (m);
      if (hit)
        return r;
    }
  return sl_arena_strdup (s->arena, name);
}

/* Reads IDENT (:: IDENT)* or ::IDENT… and returns its mangled spelling. */
const char *
fx_read_name (Scan *s, SlLoc *loc)
{
  bool global = false;
  *loc = peek (s)->loc;
  if (is (s, "::"))
    {
      next (s);
      global = true;
    }
  if (peek (s)->kind != TK_IDENT)
    return NULL;
  GString *path = g_string_new (next (s)->text);
  int parts = 1;
  while (is (s, "::") && peek_at (s, 1)->kind == TK_IDENT)
    {
      next (s);
      g_string_append (path, "__");
      g_string_append (path, next (s)->text);
      parts++;
    }
  const char *r;
  if (global)
    r = sl_arena_strdup (s->arena, path->str);
  else if (parts == 1)
    r = resolve_plain (s, path->str);
  else
    {
      r = NULL;
      for (int i = s->n_ns - 1; i >= 0 && !r; i--)
        {
          char *m = g_strconcat (s->ns[i], path->str, NULL);
          if (g_hash_table_contains (s->declared, m))
            r = sl_arena_strdup (s->arena, m);
          g_free (m);
        }
      if (!r)
        r = sl_arena_strdup (s->arena, path->str);
    }
  g_string_free (path, TRUE);
  return r;
}

/* First pass: the names declared at the top level of each namespace (so
 * uses inside it can be mangled even before their declaration). */
void
fx_collect_namespace_names (Scan *s)
{
  const char *stack[MAX_NAMESPACE_DEPTH];
  int depth_at[MAX_NAMESPACE_DEPTH];
  int n = 0, depth = 0, paren = 0;
  for (int i = 0; i < s->n && s->t[i].kind != TK_EOF; i++)
    {
      Token *t = &s->t[i];
      if (tok_is (t, "namespace") && i + 2 < s->n && s->t[i + 1].kind == TK_IDENT && tok_is (&s->t[i + 2], "{"))
        {
          if (n < MAX_NAMESPACE_DEPTH)
            {
              char *name = g_strconcat (n ? stack[n - 1] : "", s->t[i + 1].text, "__", NULL);
              stack[n] = sl_arena_strdup (s->arena, name);
              g_free (name);
              depth_at[n] = depth;
              n++;
            }
          i += 2;
          depth++;
          continue;
        }
      if (tok_is (t, "{"))
        depth++;
      else if (tok_is (t, "}"))
        {
          depth--;
          if (n && depth == depth_at[n - 1])
            n--;
        }
      else if (tok_is (t, "("))
        paren++;
      else if (tok_is (t, ")"))
        paren--;
      else if (n && t->kind == TK_IDENT && depth == depth_at[n - 1] + 1 && paren == 0 && i > 0
               && i + 1 < s->n)
        {
          Token *prev = &s->t[i - 1], *nx = &s->t[i + 1];
          bool decl_prev = prev->kind == TK_IDENT || tok_is (prev, ">");
          bool decl_next = tok_is (nx, "(") || tok_is (nx, ";") || tok_is (nx, "=") || tok_is (nx, "[")
                           || tok_is (nx, ":") || tok_is (nx, "<") || tok_is (nx, "{") || tok_is (nx, ",");
          if (decl_prev && decl_next && !tok_is (prev, "return"))
            {
              char *m = g_strconcat (stack[n - 1], t->text, NULL);
              g_hash_table_add (s->declared, sl_arena_strdup (s->arena, m));
              g_free (m);
            }
        }
    }
}

const char *
fx_display_name (Scan *s, const char *mangled)
{
  GString *d = g_string_new (NULL);
  for (const char *c = mangled; *c; c++)
    if (c[0] == '_' && c[1] == '_' && c > mangled && c[2])
      {
        g_string_append (d, "::");
        c++;
      }
    else
      g_string_append_c (d, *c);
  const char *r = sl_arena_strdup (s->arena, d->str);
  g_string_free (d, TRUE);
  return r;
}

/* ---- small constant expressions (texture sizes, state values) ---- */

typedef struct
{
  Scan *s;
  int   end;    /* exclusive token index */
  bool  ok;
  int   depth;  /* open '(', casts and signs: each one recursion */
  SlLoc deep;   /* where SL_MAX_EXPR_CHAIN was crossed, if it was */
  bool  too_deep;
} Ev;

static double ev_sum (Ev *e);
static double ev_atom_body (Ev *e);

static double
ev_atom (Ev *e)
{
  if (e->depth >= SL_MAX_EXPR_CHAIN)
    {
      if (!e->too_deep)
        e->deep = peek (e->s)->loc;
      e->too_deep = true;
      e->ok = false;
      return 0;
    }
  e->depth++;
  double v = ev_atom_body (e);
  e->depth--;
  return v;
}

static double
ev_atom_body (Ev *e)
{
  Scan *s = e->s;
  if (s->pos >= e->end)
    {
      e->ok = false;
      return 0;
    }
  Token *t = next (s);
  if (t->kind == TK_INT)
    return (double) t->ival;
  if (t->kind == TK_FLOAT)
    return t->fval;
  if (tok_is (t, "true"))
    return 1;
  if (tok_is (t, "false"))
    return 0;
  if (tok_is (t, "-"))
    return -ev_atom (e);
  if (tok_is (t, "+"))
    return ev_atom (e);
  if (tok_is (t, "!"))
    return ev_atom (e) == 0;
  if (tok_is (t, "("))
    {
      /* a cast such as (int) is skipped */
      if (peek (s)->kind == TK_IDENT && tok_is (peek_at (s, 1), ")"))
        {
          const char *ty = peek (s)->text;
          next (s);
          next (s);
          double v = ev_atom (e);
          return !strcmp (ty, "int") || !strcmp (ty, "uint") ? trunc (v) : v;
        }
      double v = ev_sum (e);
      if (!accept (s, ")"))
        e->ok = false;
      return v;
    }
  if (t->kind == TK_IDENT && (!strcmp (t->text, "int") || !strcmp (t->text, "uint") || !strcmp (t->text, "float"))
      && is (s, "("))
    {
      bool integer = strcmp (t->text, "float") != 0;
      next (s);
      double v = ev_sum (e);
      if (!accept (s, ")"))
        e->ok = false;
      return integer ? trunc (v) : v;
    }
  e->ok = false;
  return 0;
}

static double
ev_product (Ev *e)
{
  double v = ev_atom (e);
  while (e->ok && e->s->pos < e->end && (is (e->s, "*") || is (e->s, "/") || is (e->s, "%")))
    {
      char op = next (e->s)->text[0];
      double r = ev_atom (e);
      if (op == '*')
        v *= r;
      else if (r == 0)
        e->ok = false;
      else if (op == '/')
        v /= r;
      else
        v = fmod (v, r);
    }
  return v;
}

static double
ev_sum (Ev *e)
{
  double v = ev_product (e);
  while (e->ok && e->s->pos < e->end && (is (e->s, "+") || is (e->s, "-")))
    {
      char op = next (e->s)->text[0];
      double r = ev_product (e);
      v = op == '+' ? v + r : v - r;
    }
  return v;
}

/* Index of the ';' ending the value at the current position (nesting
 * aware); the value is [pos, end). */
int
fx_value_end (Scan *s)
{
  int depth = 0;
  for (int i = s->pos; i < s->n; i++)
    {
      Token *t = &s->t[i];
      if (t->kind == TK_EOF)
        return i;
      if (tok_is (t, "(") || tok_is (t, "{") || tok_is (t, "["))
        depth++;
      else if (tok_is (t, ")") || tok_is (t, "}") || tok_is (t, "]"))
        {
          if (depth == 0)
            return i;
          depth--;
        }
      else if (depth == 0 && tok_is (t, ";"))
        return i;
    }
  return s->n - 1;
}

bool
fx_eval_value (Scan *s, double *value)
{
  Ev e = { .s = s, .end = fx_value_end (s), .ok = true };
  SlLoc loc = peek (s)->loc;
  *value = ev_sum (&e);
  if (e.too_deep)
    {
      fx_error (s, e.deep, SL_DIAG_FX_EXPRESSION_DEPTH,
                "value nested too deeply (more than %d parentheses, casts and signs)", SL_MAX_EXPR_CHAIN);
      s->pos = e.end;
      return false;
    }
  if (!e.ok || s->pos != e.end)
    {
      fx_error (s, loc, SL_DIAG_FX_EXPECTED_CONSTANT, "expected a constant number");
      s->pos = e.end;
      return false;
    }
  return true;
}

/* The value as one upper-case word with '_' removed ("Src_Alpha" →
 * "SRCALPHA"); NULL when it is not a single identifier or number. */
char *
fx_word_value (Scan *s)
{
  int end = fx_value_end (s);
  GString *w = g_string_new (NULL);
  for (; s->pos < end; next (s))
    {
      Token *t = peek (s);
      if (t->kind == TK_PUNCT && (tok_is (t, "<") || tok_is (t, ">") || tok_is (t, "(") || tok_is (t, ")")))
        continue;
      for (const char *c = t->text; *c; c++)
        if (*c != '_')
          g_string_append_c (w, g_ascii_toupper (*c));
    }
  return g_string_free (w, FALSE);
}

/* ---- annotations ---- */

static bool
is_template_type (const char *name)
{
  return !strcmp (name, "vector") || !strcmp (name, "matrix") || g_str_has_prefix (name, "Texture")
         || g_str_has_prefix (name, "RWTexture") || g_str_has_suffix (name, "Buffer");
}

static bool
known_host_source (const char *src)
{
  return !strcmp (src, "timer") || !strcmp (src, "frametime") || !strcmp (src, "framecount")
         || !strcmp (src, "random");
}

/* Copies `< … >` (current token is '<') giving every untyped entry
 * (`name = value;`, ReShade's style) a type the HLSL parser accepts, and
 * checks host sources (of uniforms) when @host_sources.  When @record is not NULL the entries are also
 * recorded there. */
void
fx_copy_annotations (Scan *s, GArray *record, bool host_sources)
{
  fx_out_token (s, next (s), NULL);
  while (!is (s, ">") && !at_eof (s))
    {
      if (accept (s, ";"))
        continue;
      Token *first = peek (s);
      bool untyped = first->kind == TK_IDENT && tok_is (peek_at (s, 1), "=");
      Token *name = untyped ? first : peek_at (s, 1);
      int vi = untyped ? 2 : 3;
      Token *val = peek_at (s, vi);
      bool neg = false;
      while (tok_is (val, "-") || tok_is (val, "+"))
        {
          neg ^= tok_is (val, "-");
          val = peek_at (s, ++vi);
        }
      if (untyped)
        {
          const char *ty = val->kind == TK_STRING ? "string" : val->kind == TK_FLOAT ? "float"
                           : val->kind == TK_INT ? "int"
                           : tok_is (val, "true") || tok_is (val, "false") ? "bool"
                           : val->kind == TK_IDENT ? val->text : "float";
          fx_out_text (s, first->loc, ty);
        }
      if (host_sources && name->kind == TK_IDENT && !strcmp (name->text, "source") && val->kind == TK_STRING
          && !known_host_source (val->text))
        fx_error (s, val->loc, SL_DIAG_FX_HOST_VALUE_SOURCE,
                  "host value source \"%s\" is not supported (supported: timer, frametime, "
                  "framecount, random)", val->text);
      if (record && name->kind == TK_IDENT)
        {
          SlAnnotation an = { .name = sl_arena_strdup (s->arena, name->text) };
          if (val->kind == TK_STRING)
            {
              an.type = SL_ANNOTATION_STRING;
              an.string_value = sl_arena_strdup (s->arena, val->text);
            }
          else if (val->kind == TK_INT || val->kind == TK_FLOAT)
            {
              an.type = val->kind == TK_INT ? SL_ANNOTATION_INT : SL_ANNOTATION_FLOAT;
              an.n_values = 1;
              an.values[0] = (val->kind == TK_INT ? (double) val->ival : val->fval) * (neg ? -1 : 1);
            }
          else
            {
              an.type = SL_ANNOTATION_BOOL;
              an.n_values = 1;
              an.values[0] = tok_is (val, "true");
            }
          g_array_append_val (record, an);
        }
      while (!is (s, ";") && !is (s, ">") && !at_eof (s))
        fx_out_token (s, next (s), NULL);
      if (is (s, ";"))
        fx_out_token (s, next (s), NULL);
    }
  if (is (s, ">"))
    fx_out_token (s, next (s), NULL);
}

/* Skips `< … >` without output, recording its entries. */
GArray *
fx_skip_annotations (Scan *s)
{
  GArray *anns = g_array_new (FALSE, TRUE, sizeof (SlAnnotation));
  GString *saved = s->out;
  const char *ofile = s->ofile;
  int oline = s->oline, ocol = s->ocol;
  s->out = g_string_new (NULL);
  fx_copy_annotations (s, anns, false);
  g_string_free (s->out, TRUE);
  s->out = saved;
  s->ofile = ofile;
  s->oline = oline;
  s->ocol = ocol;
  return anns;
}

/* ---- copying plain HLSL ---- */

/* Copies one token, mangling names and typing annotations. */
static void
copy_one (Scan *s, bool decl_before_init)
{
  Token *t = peek (s);
  Token *prev = s->pos > 0 ? &s->t[s->pos - 1] : NULL;
  if (tok_is (t, "<") && decl_before_init && prev && prev->kind == TK_IDENT && !is_template_type (prev->text))
    {
      fx_copy_annotations (s, NULL, true);
      return;
    }
  if (t->kind == TK_IDENT || tok_is (t, "::"))
    {
      if (prev && (tok_is (prev, ".") || tok_is (prev, "->")))
        {
          fx_out_token (s, next (s), NULL);
          return;
        }
      SlLoc loc;
      const char *name = fx_read_name (s, &loc);
      if (!name)
        {
          fx_out_token (s, next (s), NULL);
          return;
        }
      Token fake = *t;
      fake.loc = loc;
      fx_out_token (s, &fake, name);
      return;
    }
  fx_out_token (s, next (s), NULL);
}

/* Copies one top-level declaration or definition. */
void
fx_copy_statement (Scan *s)
{
  bool is_struct = is (s, "struct");
  int depth = 0, paren = 0;
  bool init = false;
  while (!at_eof (s))
    {
      Token *t = peek (s);
      if (depth == 0 && paren == 0 && tok_is (t, ";"))
        {
          fx_out_token (s, next (s), NULL);
          return;
        }
      if (tok_is (t, "=") && depth == 0 && paren == 0)
        init = true;
      if (tok_is (t, "("))
        paren++;
      else if (tok_is (t, ")"))
        paren--;
      if (tok_is (t, "{"))
        depth++;
      else if (tok_is (t, "}"))
        {
          if (depth == 0)
            return;   /* the enclosing namespace's brace */
          depth--;
          if (depth == 0 && paren == 0 && !is_struct && !init)
            {
              fx_out_token (s, next (s), NULL);
              return;
            }
        }
      copy_one (s, depth == 0 && paren == 0 && !init);
    }
}
