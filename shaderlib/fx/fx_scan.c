/* Effect files: techniques, passes and render targets over the span VM.
 *
 * Design.  An effect file is HLSL plus a few constructs the HLSL front end
 * does not know: techniques with pass states, ReShade `texture`/`sampler`
 * blocks, untyped annotations and namespaces.  Rather than teaching the
 * compiler these, this file works at the token level: it preprocesses the
 * file (with ReShade's predefined macros and the headers it provides
 * itself), tokenises it, takes out and records what is effect syntax, and
 * writes everything else back as plain HLSL text — textures disappear,
 * samplers become `sampler2D NAME;`, annotations get types, `N::x` becomes
 * `N__x` — keeping each token on its source line (with #line markers) so
 * diagnostics point into the user's files.  Each pass's pixel shader is
 * then compiled from that text with sl_compile(), and its samplers are
 * matched back to the recorded textures by name.
 *
 * Execution (SlEffectRun) binds every pass with the ordinary SlBinding API.
 * All passes before the last one render whole viewports, once, into cached
 * float targets (quantised to the declared format, with mips rebuilt when
 * asked for); the last pass renders only the rectangle the caller wants,
 * so hosts can tile it over threads.  Blending runs after the VM: a pass
 * renders into a scratch buffer filled with a sentinel NaN, and each pixel
 * the shader wrote (not discarded) is blended into the destination.
 * Vertex shaders are never run; a pass sees TEXCOORDn = the pixel centre of
 * its viewport, which is what full-screen-triangle vertex shaders give. */
#include "fx/fx_scan.h"
#include "hlsl/hlsl_sampler_state.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define MAX_TEXTURE_SIDE    16384

/* ------------------------------------------------------------------ */
/* Scanning                                                            */
/* ------------------------------------------------------------------ */

static void
error_at (Scan *s, SlLoc loc, const char *fmt, ...) G_GNUC_PRINTF (3, 4);

static void
error_at (Scan *s, SlLoc loc, const char *fmt, ...)
{
  va_list ap;
  va_start (ap, fmt);
  char *msg = g_strdup_vprintf (fmt, ap);
  va_end (ap);
  sl_diagnostics_add (s->diags, SL_SEVERITY_ERROR, loc.file, loc.line, loc.column, "E-EFFECT", "%s", msg);
  g_free (msg);
}

static void
note_at (Scan *s, SlLoc loc, const char *fmt, ...) G_GNUC_PRINTF (3, 4);

static void
note_at (Scan *s, SlLoc loc, const char *fmt, ...)
{
  va_list ap;
  va_start (ap, fmt);
  char *msg = g_strdup_vprintf (fmt, ap);
  va_end (ap);
  sl_diagnostics_add (s->diags, SL_SEVERITY_NOTE, loc.file, loc.line, loc.column, "N-EFFECT", "%s", msg);
  g_free (msg);
}

static Token *
peek_at (Scan *s, int k)
{
  int i = s->pos + k;
  return &s->t[i < s->n ? i : s->n - 1];
}

static Token *
peek (Scan *s)
{
  return peek_at (s, 0);
}

static bool
tok_is (const Token *t, const char *text)
{
  return (t->kind == TK_IDENT || t->kind == TK_PUNCT) && !strcmp (t->text, text);
}

static bool
is (Scan *s, const char *text)
{
  return tok_is (peek (s), text);
}

static Token *
next (Scan *s)
{
  Token *t = peek (s);
  if (s->pos < s->n - 1)
    s->pos++;
  return t;
}

static bool
accept (Scan *s, const char *text)
{
  if (!is (s, text))
    return false;
  next (s);
  return true;
}

static bool
expect (Scan *s, const char *text)
{
  if (accept (s, text))
    return true;
  Token *t = peek (s);
  error_at (s, t->loc, "expected '%s' before '%s'", text, t->kind == TK_EOF ? "end of file" : t->text);
  return false;
}

static bool
at_eof (Scan *s)
{
  return peek (s)->kind == TK_EOF;
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

static void
out_text (Scan *s, SlLoc loc, const char *text)
{
  out_sync (s, loc);
  g_string_append (s->out, text);
  s->ocol += (int) strlen (text);
}

static void
out_token (Scan *s, const Token *t, const char *spelling)
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
      out_text (s, t->loc, q);
      g_free (q);
      return;
    }
  out_text (s, t->loc, spelling ? spelling : t->text);
}

/* ---- namespaces ---- */

static const char *
ns_prefix (Scan *s)
{
  return s->n_ns ? s->ns[s->n_ns - 1] : "";
}

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
static const char *
read_name (Scan *s, SlLoc *loc)
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

/* ---- small constant expressions (texture sizes, state values) ---- */

typedef struct
{
  Scan *s;
  int   end;    /* exclusive token index */
  bool  ok;
} Ev;

static double ev_sum (Ev *e);

static double
ev_atom (Ev *e)
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
static int
value_end (Scan *s)
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

static bool
eval_value (Scan *s, double *value)
{
  Ev e = { .s = s, .end = value_end (s), .ok = true };
  SlLoc loc = peek (s)->loc;
  *value = ev_sum (&e);
  if (!e.ok || s->pos != e.end)
    {
      error_at (s, loc, "expected a constant number");
      s->pos = e.end;
      return false;
    }
  return true;
}

/* The value as one upper-case word with '_' removed ("Src_Alpha" →
 * "SRCALPHA"); NULL when it is not a single identifier or number. */
static char *
word_value (Scan *s)
{
  int end = value_end (s);
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

static bool
bool_word (const char *w, bool *v)
{
  if (!strcmp (w, "TRUE") || !strcmp (w, "1"))
    *v = true;
  else if (!strcmp (w, "FALSE") || !strcmp (w, "0"))
    *v = false;
  else
    return false;
  return true;
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
static void
copy_annotations (Scan *s, GArray *record, bool host_sources)
{
  out_token (s, next (s), NULL);
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
          out_text (s, first->loc, ty);
        }
      if (host_sources && name->kind == TK_IDENT && !strcmp (name->text, "source") && val->kind == TK_STRING
          && !known_host_source (val->text))
        error_at (s, val->loc, "host value source \"%s\" is not supported (supported: timer, frametime, "
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
        out_token (s, next (s), NULL);
      if (is (s, ";"))
        out_token (s, next (s), NULL);
    }
  if (is (s, ">"))
    out_token (s, next (s), NULL);
}

/* Skips `< … >` without output, recording its entries. */
static GArray *
skip_annotations (Scan *s)
{
  GArray *anns = g_array_new (FALSE, TRUE, sizeof (SlAnnotation));
  GString *saved = s->out;
  const char *ofile = s->ofile;
  int oline = s->oline, ocol = s->ocol;
  s->out = g_string_new (NULL);
  copy_annotations (s, anns, false);
  g_string_free (s->out, TRUE);
  s->out = saved;
  s->ofile = ofile;
  s->oline = oline;
  s->ocol = ocol;
  return anns;
}

static const SlAnnotation *
find_annotation (GArray *anns, const char *name)
{
  for (guint i = 0; anns && i < anns->len; i++)
    if (!g_ascii_strcasecmp (g_array_index (anns, SlAnnotation, i).name, name))
      return &g_array_index (anns, SlAnnotation, i);
  return NULL;
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
      copy_annotations (s, NULL, true);
      return;
    }
  if (t->kind == TK_IDENT || tok_is (t, "::"))
    {
      if (prev && (tok_is (prev, ".") || tok_is (prev, "->")))
        {
          out_token (s, next (s), NULL);
          return;
        }
      SlLoc loc;
      const char *name = read_name (s, &loc);
      if (!name)
        {
          out_token (s, next (s), NULL);
          return;
        }
      Token fake = *t;
      fake.loc = loc;
      out_token (s, &fake, name);
      return;
    }
  out_token (s, next (s), NULL);
}

/* Copies one top-level declaration or definition. */
static void
copy_statement (Scan *s)
{
  bool is_struct = is (s, "struct");
  int depth = 0, paren = 0;
  bool init = false;
  while (!at_eof (s))
    {
      Token *t = peek (s);
      if (depth == 0 && paren == 0 && tok_is (t, ";"))
        {
          out_token (s, next (s), NULL);
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
              out_token (s, next (s), NULL);
              return;
            }
        }
      copy_one (s, depth == 0 && paren == 0 && !init);
    }
}

/* ---- texture and sampler declarations ---- */

static int
find_texture (Scan *s, const char *mangled)
{
  for (guint i = 0; i < s->fx->texture_hlsl->len; i++)
    if (!strcmp (g_ptr_array_index (s->fx->texture_hlsl, i), mangled))
      return (int) i;
  return -1;
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

static bool
parse_format (const char *w)
{
  static const char *const ok[] = {
    "R8", "R16", "R16F", "R32F", "RG8", "RG16", "RG16F", "RG32F", "RGBA8", "RGBA16", "RGBA16F",
    "RGBA32F", "RGB10A2", "R32I", "R32U", "RG32I", "RG32U", "RGBA32I", "RGBA32U", "R8I", "R8U",
    "R16I", "R16U", NULL
  };
  for (int i = 0; ok[i]; i++)
    if (!strcmp (w, ok[i]))
      return true;
  return false;
}

/* texture NAME [: SEMANTIC] [< … >] [{ Width = …; … }] ; */
static void
parse_texture (Scan *s)
{
  SlLoc kw = next (s)->loc;
  SlLoc loc = peek (s)->loc;
  if (peek (s)->kind != TK_IDENT)
    {
      error_at (s, loc, "expected a texture name");
      copy_statement (s);
      return;
    }
  const char *plain = next (s)->text;
  char *m = g_strconcat (ns_prefix (s), plain, NULL);
  SlEffectTexture tex = {
    .kind = SL_EFFECT_TEXTURE_TARGET,
    .width = 1, .height = 1, .format = "RGBA8", .mip_levels = 1,
  };
  bool sized = false, has_body = false, semantic = false;
  const char *sem = NULL;
  if (accept (s, ":"))
    {
      if (peek (s)->kind == TK_IDENT)
        sem = next (s)->text;
      semantic = true;
      if (sem && is (s, "("))   /* register(tN): ignored */
        while (!is (s, ")") && !at_eof (s))
          next (s);
      accept (s, ")");
    }
  GArray *anns = is (s, "<") ? skip_annotations (s) : NULL;
  if (accept (s, "{"))
    {
      has_body = true;
      while (!is (s, "}") && !at_eof (s))
        {
          if (accept (s, ";"))
            continue;
          Token *key = next (s);
          if (!expect (s, "="))
            {
              s->pos = value_end (s);
              continue;
            }
          double v;
          if (tok_is (key, "Width") || tok_is (key, "Height") || tok_is (key, "MipLevels")
              || tok_is (key, "Depth"))
            {
              if (eval_value (s, &v))
                {
                  int iv = (int) v;
                  if (!tok_is (key, "Depth") && (iv < 1 || iv > MAX_TEXTURE_SIDE))
                    error_at (s, key->loc, "texture '%s': %s %d is out of range (1 to %d)", plain, key->text,
                              iv, MAX_TEXTURE_SIDE);
                  else if (tok_is (key, "Width"))
                    tex.width = iv, sized = true;
                  else if (tok_is (key, "Height"))
                    tex.height = iv, sized = true;
                  else if (tok_is (key, "MipLevels"))
                    tex.mip_levels = MIN (iv, SL_MAX_MIP_LEVELS);
                }
            }
          else if (tok_is (key, "Format"))
            {
              char *w = word_value (s);
              if (!parse_format (w))
                error_at (s, key->loc, "texture '%s': unknown format '%s'", plain, w);
              else
                tex.format = sl_arena_strdup (s->arena, w);
              g_free (w);
            }
          else
            {
              note_at (s, key->loc, "texture state '%s' is ignored", key->text);
              s->pos = value_end (s);
            }
          accept (s, ";");
        }
      expect (s, "}");
    }
  accept (s, ";");
  if (sem && (!g_ascii_strcasecmp (sem, "COLOR") || !g_ascii_strcasecmp (sem, "SV_Target")))
    tex.kind = SL_EFFECT_TEXTURE_COLOR;
  else if (sem && !g_ascii_strcasecmp (sem, "DEPTH"))
    tex.kind = SL_EFFECT_TEXTURE_DEPTH;
  const SlAnnotation *src = find_annotation (anns, "source");
  if (!src)
    src = find_annotation (anns, "ResourceName");
  if (!src)
    src = find_annotation (anns, "Name");
  if (src && src->type == SL_ANNOTATION_STRING && tex.kind == SL_EFFECT_TEXTURE_TARGET)
    {
      tex.kind = SL_EFFECT_TEXTURE_IMAGE;
      tex.source_file = sl_arena_strdup (s->arena, src->string_value);
      if (!sized)
        tex.width = tex.height = 0;   /* the image's own size */
    }
  else if (!has_body && !semantic && tex.kind == SL_EFFECT_TEXTURE_TARGET)
    /* A plain D3D9 `texture T;` the application would bind: by this
     * project's convention, the input image. */
    tex.kind = SL_EFFECT_TEXTURE_COLOR;
  if (tex.kind == SL_EFFECT_TEXTURE_COLOR || tex.kind == SL_EFFECT_TEXTURE_DEPTH)
    {
      tex.width = tex.kind == SL_EFFECT_TEXTURE_COLOR ? s->fx->buffer_width : 1;
      tex.height = tex.kind == SL_EFFECT_TEXTURE_COLOR ? s->fx->buffer_height : 1;
      tex.format = "RGBA32F";
    }
  (void) kw;
  if (anns)
    g_array_free (anns, TRUE);
  if (find_texture (s, m) >= 0)
    {
      error_at (s, loc, "texture '%s' is declared twice", plain);
      g_free (m);
      return;
    }
  tex.name = fx_display_name (s, m);
  g_array_append_val (s->fx->textures, tex);
  g_ptr_array_add (s->fx->texture_hlsl, sl_arena_strdup (s->arena, m));
  g_free (m);
}

/* The body of a sampler state block, current token after '{'. */
static void
parse_sampler_body (Scan *s, ESampler *es, const char *plain)
{
  while (!is (s, "}") && !at_eof (s))
    {
      if (accept (s, ";"))
        continue;
      Token *key = next (s);
      if (!expect (s, "="))
        {
          s->pos = value_end (s);
          continue;
        }
      const char *k = key->text;
      const HlslSamplerKey *sk = hlsl_sampler_key (k);
      if (sk && sk->value == HLSL_SAMPLER_TEXTURE)
        {
          int end = value_end (s);
          while (s->pos < end && (is (s, "<") || is (s, "(")))
            next (s);
          SlLoc nloc;
          const char *tn = read_name (s, &nloc);
          while (s->pos < end)
            next (s);
          int idx = tn ? find_texture (s, tn) : -1;
          if (idx < 0)
            error_at (s, nloc, "sampler '%s': unknown texture '%s'", plain, tn ? tn : "?");
          es->texture = idx;
        }
      else if (sk && sk->value == HLSL_SAMPLER_NUMBER)
        {
          double v;
          if (eval_value (s, &v))
            {
              float f = (float) v;
              hlsl_sampler_set_numbers (&es->state, sk, &f, 1);
            }
        }
      else
        {
          /* Filters, address modes and SRGBTexture are words; a border
           * colour is not read here. */
          char *w = word_value (s);
          if (!sk || sk->value == HLSL_SAMPLER_COLOR)
            note_at (s, key->loc, "sampler state '%s' is ignored", k);
          else if (!hlsl_sampler_set_word (&es->state, sk, w))
            error_at (s, key->loc, "sampler '%s': invalid %s value '%s'", plain, k, w);
          g_free (w);
        }
      accept (s, ";");
    }
  expect (s, "}");
}

/* sampler NAME { … };   sampler2D NAME = sampler_state { … };
 * SamplerState NAME { … };   and plain `sampler2D NAME : register(s0);` */
static void
parse_sampler (Scan *s)
{
  Token *kw = peek (s);
  bool state_object = tok_is (kw, "SamplerState") || tok_is (kw, "SamplerComparisonState");
  Token *nt = peek_at (s, 1);
  Token *after = peek_at (s, 2);
  if (nt->kind != TK_IDENT || tok_is (after, "["))
    {
      copy_statement (s);
      return;
    }
  const char *type = state_object ? kw->text : tok_is (kw, "sampler") ? "sampler2D" : kw->text;
  next (s);
  next (s);
  char *m = g_strconcat (ns_prefix (s), nt->text, NULL);
  ESampler es = { .name = sl_arena_strdup (s->arena, m), .texture = -1, .state_object = state_object };
  g_free (m);
  sl_sampler_state_init_default (&es.state);
  out_text (s, kw->loc, type);
  out_text (s, nt->loc, es.name);
  /* keep register() and semantics; drop the state block */
  while (is (s, ":"))
    {
      out_token (s, next (s), NULL);
      while (!is (s, ":") && !is (s, ";") && !is (s, "=") && !is (s, "{") && !is (s, "<") && !at_eof (s))
        out_token (s, next (s), NULL);
    }
  if (is (s, "<"))
    copy_annotations (s, NULL, true);
  if (accept (s, "="))
    {
      if (!accept (s, "sampler_state"))
        error_at (s, peek (s)->loc, "expected sampler_state after '='");
    }
  if (accept (s, "{"))
    {
      s->reshade = true;
      parse_sampler_body (s, &es, nt->text);
    }
  out_text (s, peek (s)->loc, ";");
  accept (s, ";");
  g_array_append_val (s->fx->samplers, es);
}

/* ---- techniques ---- */

static bool
blend_factor (const char *w, SlBlendFactor *f)
{
  static const struct { const char *n; SlBlendFactor f; } t[] = {
    { "ZERO", SL_BLEND_ZERO }, { "ONE", SL_BLEND_ONE },
    { "SRCCOLOR", SL_BLEND_SRC_COLOR }, { "INVSRCCOLOR", SL_BLEND_INV_SRC_COLOR },
    { "SRCALPHA", SL_BLEND_SRC_ALPHA }, { "INVSRCALPHA", SL_BLEND_INV_SRC_ALPHA },
    { "DESTCOLOR", SL_BLEND_DEST_COLOR }, { "INVDESTCOLOR", SL_BLEND_INV_DEST_COLOR },
    { "DESTALPHA", SL_BLEND_DEST_ALPHA }, { "INVDESTALPHA", SL_BLEND_INV_DEST_ALPHA },
    { "DSTCOLOR", SL_BLEND_DEST_COLOR }, { "INVDSTCOLOR", SL_BLEND_INV_DEST_COLOR },
    { "DSTALPHA", SL_BLEND_DEST_ALPHA }, { "INVDSTALPHA", SL_BLEND_INV_DEST_ALPHA },
  };
  for (const char *pre = w; pre; pre = NULL)
    {
      /* D3D10BLEND_, D3D11BLEND_, BLEND_ prefixes */
      if (g_str_has_prefix (w, "D3D10BLEND") || g_str_has_prefix (w, "D3D11BLEND"))
        w += 10;
      else if (g_str_has_prefix (w, "BLEND"))
        w += 5;
    }
  for (size_t i = 0; i < G_N_ELEMENTS (t); i++)
    if (!strcmp (w, t[i].n))
      {
        *f = t[i].f;
        return true;
      }
  return false;
}

static bool
blend_op (const char *w, SlBlendOp *op)
{
  if (g_str_has_prefix (w, "D3D10BLENDOP") || g_str_has_prefix (w, "D3D11BLENDOP"))
    w += 12;
  else if (g_str_has_prefix (w, "BLENDOP"))
    w += 7;
  if (!strcmp (w, "ADD"))
    *op = SL_BLEND_OP_ADD;
  else if (!strcmp (w, "SUBTRACT"))
    *op = SL_BLEND_OP_SUBTRACT;
  else if (!strcmp (w, "REVSUBTRACT"))
    *op = SL_BLEND_OP_REV_SUBTRACT;
  else if (!strcmp (w, "MIN"))
    *op = SL_BLEND_OP_MIN;
  else if (!strcmp (w, "MAX"))
    *op = SL_BLEND_OP_MAX;
  else
    return false;
  return true;
}

/* A shader value: `compile ps_3_0 F()`, `CompileShader(ps_4_0, F())`,
 * `F` or NULL.  Returns the mangled entry or NULL. */
static const char *
shader_value (Scan *s, const char **profile, SlLoc *profile_loc, SlLoc *loc)
{
  int end = value_end (s);
  const char *entry = NULL;
  *profile = NULL;
  *loc = peek (s)->loc;
  *profile_loc = *loc;
  if (accept (s, "compile"))
    {
      *profile_loc = peek (s)->loc;
      if (peek (s)->kind == TK_IDENT)
        *profile = sl_arena_strdup (s->arena, next (s)->text);
    }
  else if (accept (s, "CompileShader"))
    {
      expect (s, "(");
      *profile_loc = peek (s)->loc;
      if (peek (s)->kind == TK_IDENT)
        *profile = sl_arena_strdup (s->arena, next (s)->text);
      expect (s, ",");
    }
  if (is (s, "NULL") || is (s, "0"))
    {
      s->pos = end;
      return NULL;
    }
  *loc = peek (s)->loc;
  entry = read_name (s, loc);
  if (accept (s, "("))
    {
      if (!is (s, ")"))
        error_at (s, peek (s)->loc, "arguments to the entry point of a pass are not supported");
    }
  s->pos = end;
  return entry;
}

static void
parse_pass (Scan *s, TechDraft *td)
{
  PassDraft pd = { 0 };
  SlLoc loc = next (s)->loc;   /* 'pass' */
  pd.loc = loc;
  pd.pub.name = "";
  if (peek (s)->kind == TK_IDENT)
    pd.pub.name = sl_arena_strdup (s->arena, next (s)->text);
  if (is (s, "<"))
    g_array_free (skip_annotations (s), TRUE);
  pd.pub.src_blend = pd.pub.src_blend_alpha = SL_BLEND_ONE;
  pd.pub.dest_blend = pd.pub.dest_blend_alpha = SL_BLEND_ZERO;
  pd.pub.write_mask = 0xf;
  for (int i = 0; i < SL_EFFECT_MAX_TARGETS; i++)
    pd.pub.render_targets[i] = -1;
  /* D3D9 blends alpha with the colour factors unless told otherwise. */
  bool d3d9_blend = false, separate_alpha = false;
  if (!expect (s, "{"))
    return;
  while (!is (s, "}") && !at_eof (s))
    {
      if (accept (s, ";"))
        continue;
      Token *key = next (s);
      if (tok_is (key, "AlphaBlendEnable"))
        d3d9_blend = true;
      if (tok_is (key, "SeparateAlphaBlendEnable"))
        {
          accept (s, "=");
          char *w = word_value (s);
          bool_word (w, &separate_alpha);
          g_free (w);
          accept (s, ";");
          continue;
        }
      if (key->kind != TK_IDENT)
        {
          error_at (s, key->loc, "expected a pass state, got '%s'", key->text);
          s->pos = value_end (s);
          accept (s, ";");
          continue;
        }
      const char *k = key->text;
      if (is (s, "("))
        {
          /* D3D10 style: SetPixelShader(CompileShader(ps_4_0, F())) */
          if (!strcmp (k, "SetPixelShader") || !strcmp (k, "SetVertexShader"))
            {
              next (s);
              const char *profile = NULL;
              SlLoc el = key->loc, pl = key->loc;
              int close = value_end (s);
              const char *e = NULL;
              if (!is (s, ")"))
                {
                  /* stop the value at the call's ')' */
                  e = shader_value (s, &profile, &pl, &el);
                }
              (void) close;
              accept (s, ")");
              if (!strcmp (k, "SetPixelShader"))
                {
                  pd.entry = e;
                  pd.profile = profile;
                  pd.profile_loc = pl;
                  pd.loc = el;
                }
              else if (e)
                pd.pub.vertex_shader = e;
            }
          else
            {
              if (strcmp (k, "SetGeometryShader") && strcmp (k, "SetHullShader") && strcmp (k, "SetDomainShader"))
                note_at (s, key->loc, "pass state '%s' is ignored", k);
              s->pos = value_end (s);
            }
          accept (s, ";");
          continue;
        }
      int index = -1;
      if (accept (s, "["))
        {
          if (peek (s)->kind == TK_INT)
            index = (int) next (s)->ival;
          expect (s, "]");
        }
      if (!expect (s, "="))
        {
          s->pos = value_end (s);
          accept (s, ";");
          continue;
        }
      if (!g_ascii_strcasecmp (k, "PixelShader") || !g_ascii_strcasecmp (k, "VertexShader"))
        {
          const char *profile;
          SlLoc el, pl;
          const char *e = shader_value (s, &profile, &pl, &el);
          if (!g_ascii_strcasecmp (k, "PixelShader"))
            {
              pd.entry = e;
              pd.profile = profile;
              pd.profile_loc = pl;
              pd.loc = el;
            }
          else
            pd.pub.vertex_shader = e;
        }
      else if (!g_ascii_strncasecmp (k, "RenderTarget", 12)
               && (k[12] == 0 || (g_ascii_isdigit (k[12]) && k[13] == 0)))
        {
          int slot = k[12] ? k[12] - '0' : MAX (index, 0);
          SlLoc nloc;
          const char *tn = read_name (s, &nloc);
          int idx = tn ? find_texture (s, tn) : -1;
          if (idx < 0)
            error_at (s, nloc, "pass render target '%s' is not a declared texture", tn ? tn : "?");
          else if (slot >= SL_EFFECT_MAX_TARGETS)
            error_at (s, key->loc, "at most %d render targets are supported", SL_EFFECT_MAX_TARGETS);
          else if (g_array_index (s->fx->textures, SlEffectTexture, idx).kind != SL_EFFECT_TEXTURE_TARGET)
            error_at (s, nloc, "texture '%s' cannot be a render target", tn);
          else
            {
              pd.pub.render_targets[slot] = idx;
              pd.pub.n_render_targets = MAX (pd.pub.n_render_targets, slot + 1);
            }
          s->pos = value_end (s);
        }
      else if (!g_ascii_strcasecmp (k, "BlendOp") || !g_ascii_strcasecmp (k, "BlendOpAlpha"))
        {
          char *w = word_value (s);
          if (!blend_op (w, !g_ascii_strcasecmp (k, "BlendOp") ? &pd.pub.blend_op : &pd.pub.blend_op_alpha))
            error_at (s, key->loc, "unknown blend operation '%s'", w);
          g_free (w);
        }
      else if (!g_ascii_strcasecmp (k, "SrcBlend") || !g_ascii_strcasecmp (k, "DestBlend")
               || !g_ascii_strcasecmp (k, "SrcBlendAlpha") || !g_ascii_strcasecmp (k, "DestBlendAlpha"))
        {
          char *w = word_value (s);
          SlBlendFactor *f = !g_ascii_strcasecmp (k, "SrcBlend") ? &pd.pub.src_blend
                             : !g_ascii_strcasecmp (k, "DestBlend") ? &pd.pub.dest_blend
                             : !g_ascii_strcasecmp (k, "SrcBlendAlpha") ? &pd.pub.src_blend_alpha
                             : &pd.pub.dest_blend_alpha;
          if (!blend_factor (w, f))
            error_at (s, key->loc, "unknown blend factor '%s'", w);
          g_free (w);
        }
      else if (!g_ascii_strcasecmp (k, "BlendEnable") || !g_ascii_strcasecmp (k, "AlphaBlendEnable")
               || !g_ascii_strcasecmp (k, "ClearRenderTargets") || !g_ascii_strcasecmp (k, "SRGBWriteEnable"))
        {
          char *w = word_value (s);
          bool b;
          if (!bool_word (w, &b))
            error_at (s, key->loc, "%s expects true or false, got '%s'", k, w);
          else if (!g_ascii_strcasecmp (k, "ClearRenderTargets"))
            pd.pub.clear = b;
          else if (!g_ascii_strcasecmp (k, "SRGBWriteEnable"))
            pd.pub.srgb_write = b;
          else
            pd.pub.blend = b;
          g_free (w);
        }
      else if (!g_ascii_strcasecmp (k, "RenderTargetWriteMask") || !g_ascii_strcasecmp (k, "ColorWriteMask")
               || !g_ascii_strcasecmp (k, "ColorWriteEnable"))
        {
          double v;
          if (eval_value (s, &v))
            pd.pub.write_mask = (unsigned) v & 0xf;
        }
      else
        {
          if (g_ascii_strcasecmp (k, "VertexCount") && g_ascii_strcasecmp (k, "PrimitiveTopology"))
            note_at (s, key->loc, "pass state '%s' is ignored", k);
          else if (!g_ascii_strcasecmp (k, "PrimitiveTopology") || !g_ascii_strcasecmp (k, "VertexCount"))
            note_at (s, key->loc, "pass state '%s' is ignored: every pass draws one full-screen triangle", k);
          s->pos = value_end (s);
        }
      accept (s, ";");
    }
  expect (s, "}");
  if (d3d9_blend && !separate_alpha)
    {
      static const SlBlendFactor as_alpha[] = {
        [SL_BLEND_ZERO] = SL_BLEND_ZERO, [SL_BLEND_ONE] = SL_BLEND_ONE,
        [SL_BLEND_SRC_COLOR] = SL_BLEND_SRC_ALPHA, [SL_BLEND_INV_SRC_COLOR] = SL_BLEND_INV_SRC_ALPHA,
        [SL_BLEND_SRC_ALPHA] = SL_BLEND_SRC_ALPHA, [SL_BLEND_INV_SRC_ALPHA] = SL_BLEND_INV_SRC_ALPHA,
        [SL_BLEND_DEST_COLOR] = SL_BLEND_DEST_ALPHA, [SL_BLEND_INV_DEST_COLOR] = SL_BLEND_INV_DEST_ALPHA,
        [SL_BLEND_DEST_ALPHA] = SL_BLEND_DEST_ALPHA, [SL_BLEND_INV_DEST_ALPHA] = SL_BLEND_INV_DEST_ALPHA,
      };
      pd.pub.src_blend_alpha = as_alpha[pd.pub.src_blend];
      pd.pub.dest_blend_alpha = as_alpha[pd.pub.dest_blend];
      pd.pub.blend_op_alpha = pd.pub.blend_op;
    }
  if (!pd.entry)
    {
      error_at (s, loc, "pass '%s' has no pixel shader", pd.pub.name);
      return;
    }
  pd.pub.pixel_shader = pd.entry;
  g_array_append_val (td->passes, pd);
}

static void
parse_technique (Scan *s)
{
  SlLoc loc = next (s)->loc;
  TechDraft td = { .name = "" };
  if (peek (s)->kind == TK_IDENT)
    td.name = sl_arena_strdup (s->arena, next (s)->text);
  td.annotations = is (s, "<") ? skip_annotations (s) : g_array_new (FALSE, TRUE, sizeof (SlAnnotation));
  td.passes = g_array_new (FALSE, TRUE, sizeof (PassDraft));
  if (expect (s, "{"))
    {
      while (!is (s, "}") && !at_eof (s))
        {
          if (is (s, "pass"))
            parse_pass (s, &td);
          else
            {
              error_at (s, peek (s)->loc, "expected 'pass' in technique '%s'", td.name);
              next (s);
            }
        }
      expect (s, "}");
    }
  accept (s, ";");
  if (td.passes->len == 0)
    error_at (s, loc, "technique '%s' has no passes", td.name);
  g_array_append_val (s->techs, td);
}

static bool
is_texture_keyword (Scan *s)
{
  Token *t = peek (s);
  return (tok_is (t, "texture") || tok_is (t, "texture2D") || tok_is (t, "texture1D")
          || tok_is (t, "texture3D") || tok_is (t, "textureCUBE") || tok_is (t, "Texture"))
         && peek_at (s, 1)->kind == TK_IDENT;
}

static bool
is_sampler_keyword (Scan *s)
{
  Token *t = peek (s);
  return (tok_is (t, "sampler") || tok_is (t, "sampler2D") || tok_is (t, "sampler1D")
          || tok_is (t, "sampler3D") || tok_is (t, "samplerCUBE") || tok_is (t, "SamplerState")
          || tok_is (t, "SamplerComparisonState"))
         && peek_at (s, 1)->kind == TK_IDENT;
}

void
fx_scan_scope (Scan *s, bool in_namespace)
{
  while (!at_eof (s))
    {
      int before = s->pos;
      Token *t = peek (s);
      if (tok_is (t, "}"))
        {
          if (in_namespace)
            return;
          error_at (s, t->loc, "unexpected '}'");
          next (s);
          continue;
        }
      if (tok_is (t, "namespace") && peek_at (s, 1)->kind == TK_IDENT)
        {
          next (s);
          Token *nt = next (s);
          if (!expect (s, "{"))
            continue;
          if (s->n_ns >= MAX_NAMESPACE_DEPTH)
            {
              error_at (s, nt->loc, "namespaces are nested too deeply");
              return;
            }
          char *m = g_strconcat (ns_prefix (s), nt->text, "__", NULL);
          s->ns[s->n_ns++] = sl_arena_strdup (s->arena, m);
          g_free (m);
          s->reshade = true;
          fx_scan_scope (s, true);
          s->n_ns--;
          expect (s, "}");
          accept (s, ";");
          continue;
        }
      if (tok_is (t, "technique") || tok_is (t, "technique9") || tok_is (t, "technique10")
          || tok_is (t, "technique11"))
        parse_technique (s);
      else if (is_texture_keyword (s))
        parse_texture (s);
      else if (is_sampler_keyword (s))
        parse_sampler (s);
      else if (t->kind == TK_PRAGMA || tok_is (t, ";"))
        out_token (s, next (s), NULL);
      else
        copy_statement (s);
      if (s->pos == before)
        next (s);
    }
}
