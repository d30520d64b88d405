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

/* The sources of ReShade's reference and runtime (ui_* are the older
 * names of the overlay_* ones). */
static bool
known_host_source (const char *src)
{
  static const char *const known[] = {
    "frametime", "framecount", "date", "timer", "pingpong", "random", "key", "mousebutton",
    "mousepoint", "mousedelta", "mousewheel", "bufready_depth", "overlay_open", "overlay_active",
    "overlay_hovered", "ui_open", "ui_active", "ui_hovered", "screenshot",
  };
  for (size_t i = 0; i < G_N_ELEMENTS (known); i++)
    if (!strcmp (src, known[i]))
      return true;
  return false;
}

/* Index of the ';' or '>' that ends an annotation value at @from. */
static int
annotation_value_end (Scan *s, int from)
{
  int depth = 0;
  for (int i = from; i < s->n; i++)
    {
      Token *t = &s->t[i];
      if (t->kind == TK_EOF)
        return i;
      if (tok_is (t, "(") || tok_is (t, "{") || tok_is (t, "["))
        depth++;
      else if (tok_is (t, ")") || tok_is (t, "}") || tok_is (t, "]"))
        depth--;
      else if (depth <= 0 && (tok_is (t, ";") || tok_is (t, ">")))
        return i;
    }
  return s->n - 1;
}

static void
out_number (Scan *s, SlLoc loc, FxNum v)
{
  char buf[G_ASCII_DTOSTR_BUF_SIZE];
  if (v.integer)
    g_snprintf (buf, sizeof buf, "%.0f", v.v);
  else
    {
      g_ascii_formatd (buf, sizeof buf, "%.9g", v.v);
      if (!strpbrk (buf, ".eEn"))
        g_strlcat (buf, ".0", sizeof buf);
    }
  fx_out_text (s, loc, buf);
}

/* Writes the value [pos, end) of an annotation, folded where it is a
 * constant expression rather than one literal (`ui_max = BUFFER_WIDTH *
 * 0.5`), argument by argument inside a scalar or vector constructor
 * (`float2(BUFFER_WIDTH / 2, 1)`), so that every reader sees numbers.
 * Returns the folded scalar in @folded when there is one. */
static bool
copy_annotation_value (Scan *s, int end, FxNum *folded)
{
  int start = s->pos;
  FxNum v;
  bool simple = end - start == 1 || (end - start == 2 && (is (s, "-") || is (s, "+")));
  if (!simple && fx_fold (s, end, &v))
    {
      out_number (s, s->t[start].loc, v);
      *folded = v;
      return true;
    }
  s->pos = start;
  Token *t = peek (s);
  if (!simple && t->kind == TK_IDENT && tok_is (peek_at (s, 1), "(") && tok_is (&s->t[end - 1], ")"))
    {
      /* TYPE ( a, b, … ) with each argument folded when it can be */
      fx_out_token (s, next (s), NULL);
      fx_out_token (s, next (s), NULL);
      while (s->pos < end - 1)
        {
          int arg_end = s->pos;
          for (int depth = 0; arg_end < end - 1; arg_end++)
            {
              Token *a = &s->t[arg_end];
              if (tok_is (a, "(") || tok_is (a, "["))
                depth++;
              else if (tok_is (a, ")") || tok_is (a, "]"))
                depth--;
              else if (depth == 0 && tok_is (a, ","))
                break;
            }
          int arg_start = s->pos;
          if (arg_end - arg_start > 1 && fx_fold (s, arg_end, &v))
            out_number (s, s->t[arg_start].loc, v);
          else
            {
              s->pos = arg_start;
              while (s->pos < arg_end)
                fx_out_token (s, next (s), NULL);
            }
          if (s->pos < end - 1)
            fx_out_token (s, next (s), NULL);   /* ',' */
        }
      fx_out_token (s, next (s), NULL);         /* ')' */
      return false;
    }
  while (s->pos < end)
    fx_out_token (s, next (s), NULL);
  return false;
}

/* Copies `< … >` (current token is '<') giving every untyped entry
 * (`name = value;`, ReShade's style) a type the HLSL parser accepts and
 * folding values that are constant expressions.  For the annotations of
 * uniforms (@host_sources) an unknown `source` gets a warning: ReShade
 * leaves such a uniform at its initial value, and so does this runtime.
 * When @record is not NULL the entries are also recorded there. */
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
      if (!untyped && !tok_is (peek_at (s, 2), "="))
        {
          /* not `type name = value`: copy up to the next ';' as it is */
          while (!is (s, ";") && !is (s, ">") && !at_eof (s))
            fx_out_token (s, next (s), NULL);
          if (is (s, ";"))
            fx_out_token (s, next (s), NULL);
          continue;
        }
      int value_start = s->pos + vi, value_end = annotation_value_end (s, value_start);
      Token *val = peek_at (s, vi);
      bool neg = false;
      while (tok_is (val, "-") || tok_is (val, "+"))
        {
          neg ^= tok_is (val, "-");
          val = peek_at (s, ++vi);
        }
      /* A folded value decides the type of an untyped entry. */
      FxNum folded = { 0 };
      bool is_folded = false;
      if (val->kind != TK_STRING && value_end - value_start > 1)
        {
          int saved = s->pos;
          s->pos = value_start;
          is_folded = value_end - value_start > 2 || !(tok_is (&s->t[value_start], "-")
                                                       || tok_is (&s->t[value_start], "+"));
          is_folded = is_folded && fx_fold (s, value_end, &folded);
          s->pos = saved;
        }
      if (untyped)
        {
          const char *ty = is_folded ? (folded.integer ? "int" : "float")
                           : val->kind == TK_STRING ? "string" : val->kind == TK_FLOAT ? "float"
                           : val->kind == TK_INT ? "int"
                           : tok_is (val, "true") || tok_is (val, "false") ? "bool"
                           : val->kind == TK_IDENT ? val->text : "float";
          fx_out_text (s, first->loc, ty);
        }
      if (host_sources && name->kind == TK_IDENT && !strcmp (name->text, "source") && val->kind == TK_STRING
          && !known_host_source (val->text))
        fx_note (s, val->loc, SL_DIAG_FX_HOST_VALUE_SOURCE_UNKNOWN,
                 "unknown source \"%s\": the uniform keeps its initial value", val->text);
      if (record && name->kind == TK_IDENT)
        {
          SlAnnotation an = { .name = sl_arena_strdup (s->arena, name->text) };
          if (val->kind == TK_STRING)
            {
              an.type = SL_ANNOTATION_STRING;
              an.string_value = sl_arena_strdup (s->arena, val->text);
            }
          else if (is_folded || val->kind == TK_INT || val->kind == TK_FLOAT)
            {
              bool integer = is_folded ? folded.integer : val->kind == TK_INT;
              an.type = integer ? SL_ANNOTATION_INT : SL_ANNOTATION_FLOAT;
              an.n_values = 1;
              an.values[0] = is_folded ? folded.v
                             : (val->kind == TK_INT ? (double) val->ival : val->fval) * (neg ? -1 : 1);
            }
          else
            {
              an.type = SL_ANNOTATION_BOOL;
              an.n_values = 1;
              an.values[0] = tok_is (val, "true");
            }
          g_array_append_val (record, an);
        }
      /* the type (typed entries), the name and '=' */
      while (s->pos < value_start)
        fx_out_token (s, next (s), NULL);
      FxNum ignored;
      copy_annotation_value (s, value_end, &ignored);
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

/* The T of a read through a sampler2D<T> at the cursor, `tex2D(S, …)`
 * and the other tex* reads (not the sizes and gathers, which give what
 * they give for every sampler), or NULL. */
static const char *
typed_read (Scan *s)
{
  Token *t = peek (s);
  if (t->kind != TK_IDENT || !g_str_has_prefix (t->text, "tex") || strstr (t->text, "size")
      || strstr (t->text, "gather") || !tok_is (peek_at (s, 1), "(") || !g_hash_table_size (s->typed))
    return NULL;
  int saved = s->pos;
  SlLoc loc;
  s->pos += 2;
  const char *name = fx_read_name (s, &loc);
  bool arg_ends = is (s, ",") || is (s, ")");
  s->pos = saved;
  return name && arg_ends ? g_hash_table_lookup (s->typed, name) : NULL;
}

/* Copies one top-level declaration or definition.  A read through a
 * sampler2D<T> becomes ((T) read), as ReShade types it. */
void
fx_copy_statement (Scan *s)
{
  bool is_struct = is (s, "struct");
  int depth = 0, paren = 0;
  bool init = false;
  int closes[32], n_closes = 0;   /* paren levels whose ')' ends a cast read */
  while (!at_eof (s))
    {
      Token *t = peek (s);
      const char *cast = typed_read (s);
      if (cast && n_closes < (int) G_N_ELEMENTS (closes))
        {
          char *open = g_strdup_printf ("((%s)", cast);
          fx_out_text (s, t->loc, open);
          g_free (open);
          closes[n_closes++] = paren + 1;
        }
      if (depth == 0 && paren == 0 && tok_is (t, ";"))
        {
          fx_out_token (s, next (s), NULL);
          return;
        }
      if (tok_is (t, "=") && depth == 0 && paren == 0)
        init = true;
      bool close_cast = false;
      if (tok_is (t, "("))
        paren++;
      else if (tok_is (t, ")"))
        {
          close_cast = n_closes > 0 && paren == closes[n_closes - 1];
          paren--;
        }
      if (close_cast)
        {
          copy_one (s, false);
          fx_out_text (s, t->loc, ")");
          n_closes--;
          continue;
        }
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
