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
#include "fx/effect.h"
#include "api/params.h"
#include "api/program.h"
#include "hlsl/hlsl.h"
#include "hlsl/hlsl_sampler_state.h"
#include "preprocess/preprocess.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define MAX_NAMESPACE_DEPTH 32
#define MAX_TEXTURE_SIDE    16384
/* Marks target texels the shader did not write (discard, write mask). */
#define SENTINEL_BITS       0x7fa5e1f1u

/* ------------------------------------------------------------------ */
/* The effect                                                          */
/* ------------------------------------------------------------------ */

typedef struct
{
  const char     *name;          /* mangled, as the HLSL text spells it */
  int             texture;       /* index, -1 = none (the back buffer) */
  SlSamplerState  state;
  bool            state_object;  /* SM4 SamplerState: no texture */
} ESampler;

typedef enum
{
  FMT_R, FMT_RG, FMT_RGBA
} FmtChannels;

struct SlEffect
{
  gint       ref_count;
  SlArena   *arena;
  int        buffer_width, buffer_height;
  GArray    *textures;      /* SlEffectTexture */
  GPtrArray *texture_hlsl;  /* mangled name of each texture */
  GArray    *samplers;      /* ESampler */
  GArray    *techniques;    /* SlEffectTechnique */
  GArray    *params;        /* SlParam (union; strings owned by programs) */
  GPtrArray *programs;      /* SlProgram*, owned */
};

/* ------------------------------------------------------------------ */
/* Scanning                                                            */
/* ------------------------------------------------------------------ */

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

typedef struct
{
  SlEffect      *fx;
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
} Scan;

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
static void
collect_namespace_names (Scan *s)
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

static const char *
display_name (Scan *s, const char *mangled)
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
  tex.name = display_name (s, m);
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

static void
scan_scope (Scan *s, bool in_namespace)
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
          scan_scope (s, true);
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

/* ------------------------------------------------------------------ */
/* Compiling                                                           */
/* ------------------------------------------------------------------ */

static char *
read_with_builtins (void *user, const char *path, size_t *length)
{
  const char *prefix = SL_EFFECT_BUILTIN_DIR G_DIR_SEPARATOR_S;
  if (g_str_has_prefix (path, prefix))
    {
      for (const SlEffectBuiltinFile *f = sl_effect_builtin_files; f->name; f++)
        if (!strcmp (path + strlen (prefix), f->name))
          {
            *length = strlen (f->text);
            return g_strdup (f->text);
          }
      return NULL;
    }
  char *data = NULL;
  gsize n = 0;
  if (!g_file_test (path, G_FILE_TEST_IS_REGULAR) || !g_file_get_contents (path, &data, &n, NULL))
    return NULL;
  *length = n;
  return data;
}

static char *
float_literal (double v)
{
  char buf[G_ASCII_DTOSTR_BUF_SIZE];
  g_ascii_formatd (buf, sizeof buf, "%.9g", v);
  if (!strpbrk (buf, ".eEn"))
    return g_strconcat (buf, ".0", NULL);
  return g_strdup (buf);
}

bool
sl_effect_detect (const char *source, size_t length)
{
  if (!source)
    return false;
  if (length == (size_t) -1)
    length = strlen (source);
  static const char *const words[] = { "technique", "technique9", "technique10", "technique11" };
  for (size_t i = 0; i < length; i++)
    {
      if (source[i] == '/' && i + 1 < length && source[i + 1] == '/')
        {
          while (i < length && source[i] != '\n')
            i++;
          continue;
        }
      if (source[i] == '/' && i + 1 < length && source[i + 1] == '*')
        {
          i += 2;
          while (i + 1 < length && !(source[i] == '*' && source[i + 1] == '/'))
            i++;
          i++;
          continue;
        }
      if (i > 0 && (g_ascii_isalnum (source[i - 1]) || source[i - 1] == '_'))
        continue;
      for (size_t k = 0; k < G_N_ELEMENTS (words); k++)
        {
          size_t n = strlen (words[k]);
          if (i + n < length && !strncmp (source + i, words[k], n)
              && !g_ascii_isalnum (source[i + n]) && source[i + n] != '_')
            {
              /* a technique block: name then '{' or '<' */
              size_t j = i + n;
              while (j < length && (g_ascii_isspace (source[j]) || g_ascii_isalnum (source[j]) || source[j] == '_'))
                j++;
              if (j < length && (source[j] == '{' || source[j] == '<'))
                return true;
            }
        }
    }
  return false;
}

static void
effect_free (SlEffect *fx)
{
  if (fx->programs)
    g_ptr_array_free (fx->programs, TRUE);
  if (fx->techniques)
    g_array_free (fx->techniques, TRUE);
  if (fx->textures)
    g_array_free (fx->textures, TRUE);
  if (fx->texture_hlsl)
    g_ptr_array_free (fx->texture_hlsl, TRUE);
  if (fx->samplers)
    g_array_free (fx->samplers, TRUE);
  if (fx->params)
    g_array_free (fx->params, TRUE);
  sl_arena_free (fx->arena);
  g_free (fx);
}

/* Finds what a sampler name of a compiled pass reads. */
static const ESampler *
find_sampler (const SlEffect *fx, const char *name)
{
  for (guint i = 0; i < fx->samplers->len; i++)
    if (!strcmp (g_array_index (fx->samplers, ESampler, i).name, name))
      return &g_array_index (fx->samplers, ESampler, i);
  return NULL;
}

static int
find_texture_fx (const SlEffect *fx, const char *name)
{
  for (guint i = 0; i < fx->texture_hlsl->len; i++)
    if (!strcmp (g_ptr_array_index (fx->texture_hlsl, i), name))
      return (int) i;
  return -1;
}

/* The texture a sampler slot of @program reads: an effect texture index or
 * -1 for the back buffer. */
static int
slot_texture (const SlEffect *fx, const SlSamplerInfo *si)
{
  const ESampler *es = find_sampler (fx, si->name);
  if (es && !es->state_object)
    return es->texture;
  int t = find_texture_fx (fx, si->name);
  return t;
}

static void
add_union_params (SlEffect *fx, SlProgram *p)
{
  for (int i = 0; i < sl_program_get_n_params (p); i++)
    {
      const SlParam *prm = sl_program_get_param (p, i);
      bool have = false;
      for (guint k = 0; k < fx->params->len && !have; k++)
        have = !strcmp (g_array_index (fx->params, SlParam, k).name, prm->name);
      if (!have)
        g_array_append_val (fx->params, *prm);
    }
}

SlEffect *
sl_effect_compile (const SlEffectOptions *options, SlDiagnostics *diags)
{
  SlDiagnostics *own = diags ? NULL : sl_diagnostics_new ();
  if (!diags)
    diags = own;
  const char *filename = options->filename ? options->filename : "<source>";
  SlEffect *fx = g_new0 (SlEffect, 1);
  fx->ref_count = 1;
  fx->arena = sl_arena_new ();
  fx->textures = g_array_new (FALSE, TRUE, sizeof (SlEffectTexture));
  fx->texture_hlsl = g_ptr_array_new ();
  fx->samplers = g_array_new (FALSE, TRUE, sizeof (ESampler));
  fx->techniques = g_array_new (FALSE, TRUE, sizeof (SlEffectTechnique));
  fx->params = g_array_new (FALSE, TRUE, sizeof (SlParam));
  fx->programs = g_ptr_array_new_with_free_func ((GDestroyNotify) sl_program_unref);
  int errors_before = sl_diagnostics_error_count (diags);
  char *text = NULL;
  Scan s = { 0 };

  if (!options->source)
    {
      sl_diagnostics_add (diags, SL_SEVERITY_ERROR, filename, 0, 0, "E-API", "no source given");
      goto fail;
    }
  if (options->buffer_width < 1 || options->buffer_height < 1 || options->buffer_width > 65536
      || options->buffer_height > 65536)
    {
      sl_diagnostics_add (diags, SL_SEVERITY_ERROR, filename, 0, 0, "E-API",
                          "effect buffer size %d×%d is out of range", options->buffer_width,
                          options->buffer_height);
      goto fail;
    }
  fx->buffer_width = options->buffer_width;
  fx->buffer_height = options->buffer_height;

  /* ReShade's predefined macros, then the caller's (which may override). */
  GPtrArray *defs = g_ptr_array_new_with_free_func (g_free);
  char *rw = float_literal (1.0 / fx->buffer_width), *rh = float_literal (1.0 / fx->buffer_height);
  g_ptr_array_add (defs, g_strdup_printf ("BUFFER_WIDTH=%d", fx->buffer_width));
  g_ptr_array_add (defs, g_strdup_printf ("BUFFER_HEIGHT=%d", fx->buffer_height));
  g_ptr_array_add (defs, g_strdup_printf ("BUFFER_RCP_WIDTH=(%s)", rw));
  g_ptr_array_add (defs, g_strdup_printf ("BUFFER_RCP_HEIGHT=(%s)", rh));
  g_ptr_array_add (defs, g_strdup_printf ("BUFFER_PIXEL_SIZE=float2(%s, %s)", rw, rh));
  g_ptr_array_add (defs, g_strdup ("BUFFER_COLOR_BIT_DEPTH=8"));
  g_ptr_array_add (defs, g_strdup ("BUFFER_COLOR_SPACE=1"));
  g_ptr_array_add (defs, g_strdup ("__RESHADE__=50900"));
  g_ptr_array_add (defs, g_strdup ("__RESHADE_PERFORMANCE_MODE__=1"));
  g_ptr_array_add (defs, g_strdup ("__RENDERER__=0xb000"));
  g_ptr_array_add (defs, g_strdup ("__VENDOR__=0"));
  g_ptr_array_add (defs, g_strdup ("__DEVICE__=0"));
  g_ptr_array_add (defs, g_strdup ("__APPLICATION__=0"));
  g_ptr_array_add (defs, g_strdup ("__GEGL_SHADERS__=1"));
  g_free (rw);
  g_free (rh);
  for (int i = 0; options->defines && options->defines[i]; i++)
    g_ptr_array_add (defs, g_strdup (options->defines[i]));
  g_ptr_array_add (defs, NULL);
  GPtrArray *dirs = g_ptr_array_new ();
  for (int i = 0; options->include_dirs && options->include_dirs[i]; i++)
    g_ptr_array_add (dirs, (gpointer) options->include_dirs[i]);
  g_ptr_array_add (dirs, (gpointer) SL_EFFECT_BUILTIN_DIR);
  g_ptr_array_add (dirs, NULL);
  SlPreprocessOptions ppo = {
    .filename = filename,
    .include_dirs = (const char *const *) dirs->pdata,
    .defines = (const char *const *) defs->pdata,
    .read_file = read_with_builtins,
    .max_output = SL_MAX_SOURCE_BYTES,   /* as for a single shader */
  };
  size_t length = options->length == (size_t) -1 ? strlen (options->source) : options->length;
  text = sl_preprocess (options->source, length, &ppo, diags);
  g_ptr_array_free (defs, TRUE);
  g_ptr_array_free (dirs, TRUE);
  if (!text || sl_diagnostics_error_count (diags) > errors_before)
    goto fail;

  s.fx = fx;
  s.diags = diags;
  s.arena = fx->arena;
  s.t = sl_hlsl_tokenize (fx->arena, text, filename, diags, &s.n);
  if (!s.t || sl_diagnostics_error_count (diags) > errors_before)
    goto fail;
  s.out = g_string_new (NULL);
  s.declared = g_hash_table_new (g_str_hash, g_str_equal);
  s.techs = g_array_new (FALSE, TRUE, sizeof (TechDraft));
  collect_namespace_names (&s);
  scan_scope (&s, false);
  if (s.techs->len == 0)
    sl_diagnostics_add (diags, SL_SEVERITY_ERROR, filename, 0, 0, "E-EFFECT", "the effect has no technique");
  if (sl_diagnostics_error_count (diags) > errors_before)
    goto fail;

  /* Compile each distinct (entry, profile) once. */
  GHashTable *compiled = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  for (guint ti = 0; ti < s.techs->len; ti++)
    {
      TechDraft *td = &g_array_index (s.techs, TechDraft, ti);
      SlEffectPass *passes = SL_NEW_N (fx->arena, SlEffectPass, td->passes->len);
      for (guint pi = 0; pi < td->passes->len; pi++)
        {
          PassDraft *pd = &g_array_index (td->passes, PassDraft, pi);
          const char *profile = pd->profile;
          bool profile_ok;
          if (profile && (g_str_has_prefix (profile, "vs_") || g_str_has_prefix (profile, "cs_")))
            {
              sl_diagnostics_add (diags, SL_SEVERITY_ERROR, pd->loc.file, pd->loc.line, pd->loc.column,
                                  "E-EFFECT", "pixel shader of pass '%s' is compiled for %s", pd->pub.name,
                                  profile);
              continue;
            }
          /* Checked here, where the technique's position is known:
           * sl_compile can only blame the whole file. */
          sl_profile_model (profile, &profile_ok);
          if (!profile_ok)
            {
              sl_diagnostics_add (diags, SL_SEVERITY_ERROR, pd->profile_loc.file, pd->profile_loc.line,
                                  pd->profile_loc.column, "E-PROFILE",
                                  "unknown profile '%s' (expected ps_2_0, ps_3_0, ps_4_0, …)", profile);
              continue;
            }
          char *key = g_strdup_printf ("%s|%s", pd->entry, profile ? profile : "");
          SlProgram *prog = g_hash_table_lookup (compiled, key);
          if (!prog)
            {
              SlCompileOptions co = {
                .source = s.out->str,
                .length = s.out->len,
                .filename = filename,
                .language = SL_LANGUAGE_HLSL,
                .entry_point = pd->entry,
                .profile = profile ? profile : "ps_4_0",
                .flags = options->flags | SL_COMPILE_RESHADE_FX,
              };
              prog = sl_compile (&co, diags);
              if (prog)
                {
                  g_ptr_array_add (fx->programs, prog);
                  g_hash_table_insert (compiled, key, prog);
                  key = NULL;
                }
            }
          g_free (key);
          if (!prog)
            continue;
          SlEffectPass *p = &passes[pi];
          *p = pd->pub;
          p->program = prog;
          p->pixel_shader = display_name (&s, pd->entry);
          if (p->vertex_shader)
            p->vertex_shader = display_name (&s, p->vertex_shader);
          p->width = fx->buffer_width;
          p->height = fx->buffer_height;
          if (p->n_render_targets > 0)
            {
              int first = -1;
              for (int r = 0; r < p->n_render_targets; r++)
                {
                  int ti2 = p->render_targets[r];
                  if (ti2 < 0)
                    continue;
                  const SlEffectTexture *rt = &g_array_index (fx->textures, SlEffectTexture, ti2);
                  if (first < 0)
                    {
                      first = ti2;
                      p->width = rt->width;
                      p->height = rt->height;
                    }
                  else if (rt->width != p->width || rt->height != p->height)
                    sl_diagnostics_add (diags, SL_SEVERITY_ERROR, pd->loc.file, pd->loc.line, pd->loc.column,
                                        "E-EFFECT", "render targets of pass '%s' differ in size", p->name);
                }
            }
          if (sl_program_get_n_outputs (prog) < MAX (p->n_render_targets, 1) && p->n_render_targets > 1)
            sl_diagnostics_add (diags, SL_SEVERITY_WARNING, pd->loc.file, pd->loc.line, pd->loc.column,
                                "W-EFFECT", "pass '%s' has %d render targets but its shader writes %d",
                                p->name, p->n_render_targets, sl_program_get_n_outputs (prog));
          /* A pass must not read what it writes. */
          for (int k = 0; k < sl_program_get_n_samplers (prog); k++)
            {
              int tex = slot_texture (fx, sl_program_get_sampler (prog, k));
              for (int r = 0; r < p->n_render_targets; r++)
                if (tex >= 0 && tex == p->render_targets[r])
                  sl_diagnostics_add (diags, SL_SEVERITY_ERROR, pd->loc.file, pd->loc.line, pd->loc.column,
                                      "E-EFFECT", "pass '%s' samples texture '%s' it renders to", p->name,
                                      g_array_index (fx->textures, SlEffectTexture, tex).name);
            }
          if (p->vertex_shader && strcmp (p->vertex_shader, "PostProcessVS"))
            sl_diagnostics_add (diags, SL_SEVERITY_NOTE, pd->loc.file, pd->loc.line, pd->loc.column, "N-EFFECT",
                                "vertex shader '%s' is not run: the pass draws a full-screen triangle with "
                                "TEXCOORD = the pixel centre", p->vertex_shader);
          add_union_params (fx, prog);
        }
      SlEffectTechnique tech = {
        .name = td->name,
        .n_passes = (int) td->passes->len,
        .passes = passes,
        .n_annotations = (int) td->annotations->len,
        .annotations = td->annotations->len
                         ? memcpy (SL_NEW_N (fx->arena, SlAnnotation, td->annotations->len),
                                   td->annotations->data, td->annotations->len * sizeof (SlAnnotation))
                         : NULL,
      };
      g_array_append_val (fx->techniques, tech);
    }
  g_hash_table_destroy (compiled);
  if (sl_diagnostics_error_count (diags) > errors_before)
    goto fail;
  goto out;

fail:
  effect_free (fx);
  fx = NULL;
out:
  if (s.techs)
    {
      for (guint i = 0; i < s.techs->len; i++)
        {
          g_array_free (g_array_index (s.techs, TechDraft, i).passes, TRUE);
          g_array_free (g_array_index (s.techs, TechDraft, i).annotations, TRUE);
        }
      g_array_free (s.techs, TRUE);
    }
  if (s.out)
    g_string_free (s.out, TRUE);
  if (s.declared)
    g_hash_table_destroy (s.declared);
  g_free (text);
  sl_diagnostics_free (own);
  return fx;
}

SlEffect *
sl_effect_ref (SlEffect *fx)
{
  g_atomic_int_inc (&fx->ref_count);
  return fx;
}

void
sl_effect_unref (SlEffect *fx)
{
  if (fx && g_atomic_int_dec_and_test (&fx->ref_count))
    effect_free (fx);
}

int
sl_effect_get_n_techniques (const SlEffect *fx)
{
  return (int) fx->techniques->len;
}

const SlEffectTechnique *
sl_effect_get_technique (const SlEffect *fx, int i)
{
  if (i < 0 || (guint) i >= fx->techniques->len)
    return NULL;
  return &g_array_index (fx->techniques, SlEffectTechnique, i);
}

int
sl_effect_find_technique (const SlEffect *fx, const char *name)
{
  for (guint i = 0; i < fx->techniques->len; i++)
    if (!strcmp (g_array_index (fx->techniques, SlEffectTechnique, i).name, name))
      return (int) i;
  return -1;
}

int
sl_effect_get_n_textures (const SlEffect *fx)
{
  return (int) fx->textures->len;
}

const SlEffectTexture *
sl_effect_get_texture (const SlEffect *fx, int i)
{
  if (i < 0 || (guint) i >= fx->textures->len)
    return NULL;
  return &g_array_index (fx->textures, SlEffectTexture, i);
}

int
sl_effect_get_n_params (const SlEffect *fx)
{
  return (int) fx->params->len;
}

const SlParam *
sl_effect_get_param (const SlEffect *fx, int i)
{
  if (i < 0 || (guint) i >= fx->params->len)
    return NULL;
  return &g_array_index (fx->params, SlParam, i);
}

const char *
sl_param_get_host_source (const SlParam *param)
{
  for (int i = 0; param && i < param->n_annotations; i++)
    if (!strcmp (param->annotations[i].name, "source")
        && param->annotations[i].type == SL_ANNOTATION_STRING)
      return param->annotations[i].string_value;
  return NULL;
}

void
sl_effect_host_values_init (SlEffectHostValues *v)
{
  v->timer_ms = 0.0;
  v->frametime_ms = 1000.0 / 60.0;
  v->framecount = 0;
  v->seed = 0;
}

/* ------------------------------------------------------------------ */
/* Running                                                             */
/* ------------------------------------------------------------------ */

typedef struct
{
  int       width, height, n_levels;
  float    *level[SL_MAX_MIP_LEVELS];
  SlTexture tex;
} Store;

struct SlEffectRun
{
  SlEffect                *fx;
  const SlEffectTechnique *tech;
  SlBinding              **bindings;      /* per pass */
  unsigned                *color_slots;   /* per pass: slots reading the back buffer */
  SlTexture               *color_views;   /* per pass: the back buffer it reads */
  Store                   *stores;        /* per effect texture */
  bool                    *image_set;
  GHashTable              *user_set;      /* parameter names the caller set */
  SlEffectHostValues       host;
  SlTexture                input;
  bool                     have_input;
  float                    depth_texel[4];
  SlTexture                depth_tex;
  float                   *backbuffer;    /* when earlier passes wrote it */
  SlTexture                bb_tex;
  int                      n_exec;        /* passes rendered in advance */
  bool                     final_pass;    /* the last pass writes the back buffer */
  bool                     prepared, executed, exec_ok;
  GMutex                   lock;
};

static void
store_clear (Store *st)
{
  for (int i = 0; i < SL_MAX_MIP_LEVELS; i++)
    g_free (st->level[i]);
  memset (st, 0, sizeof *st);
}

static void
store_alloc (Store *st, int w, int h, int levels)
{
  store_clear (st);
  st->width = w;
  st->height = h;
  st->n_levels = CLAMP (levels, 1, SL_MAX_MIP_LEVELS);
  st->tex.kind = SL_TEXTURE_2D;
  for (int l = 0; l < st->n_levels; l++)
    {
      int lw = MAX (w >> l, 1), lh = MAX (h >> l, 1);
      st->level[l] = g_new0 (float, (size_t) lw * lh * 4);
      st->tex.levels[l] = (SlTextureLevel) {
        .width = lw, .height = lh, .depth = 1,
        .row_stride = (size_t) lw * 4, .slice_stride = (size_t) lw * lh * 4,
        .texels = st->level[l],
      };
      if (lw == 1 && lh == 1)
        {
          st->n_levels = l + 1;
          break;
        }
    }
  st->tex.n_levels = st->n_levels;
}

/* Each level is the 2×2 box average of the one above (edges clamp). */
static void
store_build_mips (Store *st)
{
  for (int l = 1; l < st->n_levels; l++)
    {
      const SlTextureLevel *a = &st->tex.levels[l - 1], *b = &st->tex.levels[l];
      for (int y = 0; y < b->height; y++)
        for (int x = 0; x < b->width; x++)
          for (int c = 0; c < 4; c++)
            {
              float sum = 0;
              for (int k = 0; k < 4; k++)
                {
                  int sx = MIN (2 * x + (k & 1), a->width - 1), sy = MIN (2 * y + (k >> 1), a->height - 1);
                  sum += a->texels[(size_t) sy * a->row_stride + (size_t) sx * 4 + c];
                }
              st->level[l][(size_t) y * b->row_stride + (size_t) x * 4 + c] = sum * 0.25f;
            }
    }
}

static const float *
texel_at (const SlTexture *t, int x, int y)
{
  const SlTextureLevel *l = &t->levels[0];
  if (t->window_width > 0)
    {
      x = CLAMP (x, t->window_x, t->window_x + t->window_width - 1) - t->window_x;
      y = CLAMP (y, t->window_y, t->window_y + MAX (t->window_height, 1) - 1) - t->window_y;
    }
  else
    {
      x = CLAMP (x, 0, l->width - 1);
      y = CLAMP (y, 0, l->height - 1);
    }
  return l->texels + (size_t) y * l->row_stride + (size_t) x * 4;
}

static float
to_half (float v)
{
  if (!isfinite (v))
    return v;
  float a = fabsf (v);
  if (a >= 65520.0f)
    return copysignf (INFINITY, v);
  if (a < 6.103515625e-05f)   /* subnormal halves: steps of 2^-24 */
    return copysignf (nearbyintf (a * 16777216.0f) / 16777216.0f, v);
  int e;
  float m = frexpf (a, &e);   /* a = m · 2^e, m in [0.5, 1) */
  return copysignf (ldexpf (nearbyintf (m * 2048.0f) / 2048.0f, e), v);
}

static float
unorm (float v, float max)
{
  if (isnan (v))
    return 0.0f;
  return nearbyintf (CLAMP (v, 0.0f, 1.0f) * max) / max;
}

/* Stores a texel the way the declared format would hold it. */
static void
quantize (const char *format, float *px)
{
  int n = g_str_has_prefix (format, "RGB") ? 4 : g_str_has_prefix (format, "RG") ? 2 : 1;
  const char *bits = format + (n == 4 ? 4 : n == 2 ? 2 : 1);
  if (!strcmp (format, "RGB10A2"))
    {
      for (int c = 0; c < 3; c++)
        px[c] = unorm (px[c], 1023.0f);
      px[3] = unorm (px[3], 3.0f);
      return;
    }
  for (int c = 0; c < n; c++)
    {
      if (!strcmp (bits, "8"))
        px[c] = unorm (px[c], 255.0f);
      else if (!strcmp (bits, "16"))
        px[c] = unorm (px[c], 65535.0f);
      else if (!strcmp (bits, "16F"))
        px[c] = to_half (px[c]);
      else if (strchr (bits, 'I') || strchr (bits, 'U'))
        px[c] = truncf (px[c]);
    }
  for (int c = n; c < 3; c++)
    px[c] = 0.0f;
  if (n < 4)
    px[3] = 1.0f;
}

static float
srgb_encode (float v)
{
  if (!(v > 0.0f))
    return 0.0f;
  return v <= 0.0031308f ? v * 12.92f : 1.055f * powf (v, 1.0f / 2.4f) - 0.055f;
}

static float
srgb_decode (float v)
{
  return v <= 0.04045f ? v / 12.92f : powf ((v + 0.055f) / 1.055f, 2.4f);
}

static float
factor (SlBlendFactor f, const float *s, const float *d, int c)
{
  switch (f)
    {
    case SL_BLEND_ZERO: return 0.0f;
    case SL_BLEND_ONE: return 1.0f;
    case SL_BLEND_SRC_COLOR: return s[c];
    case SL_BLEND_INV_SRC_COLOR: return 1.0f - s[c];
    case SL_BLEND_SRC_ALPHA: return s[3];
    case SL_BLEND_INV_SRC_ALPHA: return 1.0f - s[3];
    case SL_BLEND_DEST_COLOR: return d[c];
    case SL_BLEND_INV_DEST_COLOR: return 1.0f - d[c];
    case SL_BLEND_DEST_ALPHA: return d[3];
    case SL_BLEND_INV_DEST_ALPHA: return 1.0f - d[3];
    }
  return 1.0f;
}

static float
apply_op (SlBlendOp op, float s, float fs, float d, float fd)
{
  switch (op)
    {
    case SL_BLEND_OP_ADD: return s * fs + d * fd;
    case SL_BLEND_OP_SUBTRACT: return s * fs - d * fd;
    case SL_BLEND_OP_REV_SUBTRACT: return d * fd - s * fs;
    case SL_BLEND_OP_MIN: return MIN (s, d);
    case SL_BLEND_OP_MAX: return MAX (s, d);
    }
  return s;
}

static bool
is_sentinel (float v)
{
  uint32_t u;
  memcpy (&u, &v, 4);
  return u == SENTINEL_BITS;
}

/* Combines what the shader wrote (@src, sentinels where it did not) into
 * @dst per the pass's write mask, blending and sRGB states. */
static void
combine (const SlEffectPass *p, const float *src, float *dst, const char *format)
{
  if (is_sentinel (src[0]) && is_sentinel (src[1]) && is_sentinel (src[2]) && is_sentinel (src[3]))
    return;   /* discarded */
  float s[4], d[4], r[4];
  for (int c = 0; c < 4; c++)
    {
      d[c] = dst[c];
      s[c] = is_sentinel (src[c]) ? dst[c] : src[c];
      if (p->srgb_write && c < 3)
        d[c] = srgb_decode (d[c]);
    }
  for (int c = 0; c < 4; c++)
    {
      if (!p->blend)
        r[c] = s[c];
      else if (c < 3)
        r[c] = apply_op (p->blend_op, s[c], factor (p->src_blend, s, d, c), d[c], factor (p->dest_blend, s, d, c));
      else
        r[c] = apply_op (p->blend_op_alpha, s[c], factor (p->src_blend_alpha, s, d, c), d[c],
                         factor (p->dest_blend_alpha, s, d, c));
    }
  for (int c = 0; c < 4; c++)
    if ((p->write_mask & (1u << c)) && !is_sentinel (src[c]))
      dst[c] = p->srgb_write && c < 3 ? srgb_encode (r[c]) : r[c];
  if (format)
    quantize (format, dst);
}

/* Renders pass @pi over a rectangle into @dst (one per render target,
 * rectangle-relative), blending with what they hold. */
static bool
render_pass (SlEffectRun *run, int pi, SlScratch *scratch, int x, int y, int w, int h,
             const SlTexture *const *textures, const SlTarget *dst, SlDiagnostics *diags)
{
  const SlEffectPass *p = &run->tech->passes[pi];
  int n = MAX (p->n_render_targets, 1);
  SlTarget tmp[SL_EFFECT_MAX_TARGETS];
  float sentinel;
  uint32_t bits = SENTINEL_BITS;
  memcpy (&sentinel, &bits, 4);
  for (int t = 0; t < n; t++)
    {
      tmp[t].row_stride = (size_t) w * 4;
      tmp[t].pixels = g_new (float, (size_t) w * h * 4);
      for (size_t k = 0; k < (size_t) w * h * 4; k++)
        tmp[t].pixels[k] = sentinel;
    }
  bool ok = sl_binding_render (run->bindings[pi], scratch, x, y, w, h, textures, tmp, n, diags);
  for (int t = 0; t < n; t++)
    {
      int ti = p->n_render_targets ? p->render_targets[t] : -1;
      const char *format = ti >= 0 ? g_array_index (run->fx->textures, SlEffectTexture, ti).format : NULL;
      if (p->n_render_targets && ti < 0)
        {
          g_free (tmp[t].pixels);
          continue;
        }
      for (int j = 0; j < h; j++)
        for (int i = 0; i < w; i++)
          combine (p, tmp[t].pixels + (size_t) j * tmp[t].row_stride + (size_t) i * 4,
                   dst[t].pixels + (size_t) j * dst[t].row_stride + (size_t) i * 4, format);
      g_free (tmp[t].pixels);
    }
  return ok;
}

SlEffectRun *
sl_effect_run_new (SlEffect *fx, int technique)
{
  const SlEffectTechnique *tech = sl_effect_get_technique (fx, technique);
  if (!tech)
    return NULL;
  SlEffectRun *run = g_new0 (SlEffectRun, 1);
  run->fx = sl_effect_ref (fx);
  run->tech = tech;
  int np = tech->n_passes;
  run->bindings = g_new0 (SlBinding *, np);
  run->color_slots = g_new0 (unsigned, np);
  run->color_views = g_new0 (SlTexture, np);
  run->stores = g_new0 (Store, MAX (fx->textures->len, 1));
  run->image_set = g_new0 (bool, MAX (fx->textures->len, 1));
  run->user_set = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  g_mutex_init (&run->lock);
  sl_effect_host_values_init (&run->host);
  /* The flat depth: 0 in a reversed depth buffer is the far plane, which
   * ReShade.fxh's linearised depth (1.0) agrees with. */
  run->depth_texel[3] = 1.0f;
  sl_texture_init_2d (&run->depth_tex, 1, 1, 4, run->depth_texel);
  for (int i = 0; i < np; i++)
    {
      run->bindings[i] = sl_binding_new (tech->passes[i].program);
      sl_binding_set_viewport (run->bindings[i], tech->passes[i].width, tech->passes[i].height);
    }
  run->final_pass = tech->passes[np - 1].n_render_targets == 0;
  run->n_exec = run->final_pass ? np - 1 : np;
  return run;
}

void
sl_effect_run_free (SlEffectRun *run)
{
  if (!run)
    return;
  for (int i = 0; i < run->tech->n_passes; i++)
    sl_binding_free (run->bindings[i]);
  for (guint i = 0; i < run->fx->textures->len; i++)
    store_clear (&run->stores[i]);
  g_free (run->bindings);
  g_free (run->color_slots);
  g_free (run->color_views);
  g_free (run->stores);
  g_free (run->image_set);
  g_free (run->backbuffer);
  g_hash_table_destroy (run->user_set);
  g_mutex_clear (&run->lock);
  sl_effect_unref (run->fx);
  g_free (run);
}

bool
sl_effect_run_set_param (SlEffectRun *run, const char *name, const float *values, int n_values,
                         SlDiagnostics *diags)
{
  bool found = false, ok = true;
  for (int i = 0; i < run->tech->n_passes; i++)
    if (sl_program_find_param (run->tech->passes[i].program, name))
      {
        found = true;
        ok &= sl_binding_set_param (run->bindings[i], name, values, n_values, diags);
      }
  if (!found)
    {
      GString *known = g_string_new (NULL);
      for (guint k = 0; k < run->fx->params->len; k++)
        g_string_append_printf (known, "%s%s", k ? ", " : "", g_array_index (run->fx->params, SlParam, k).name);
      sl_diagnostics_add (diags, SL_SEVERITY_ERROR, "<params>", 0, 0, "E-PARAM",
                          "unknown parameter '%s' (known: %s)", name, known->len ? known->str : "none");
      g_string_free (known, TRUE);
      return false;
    }
  g_hash_table_add (run->user_set, g_strdup (name));
  run->prepared = run->executed = false;
  return ok;
}

static bool
set_run_param (void *target, const char *name, const float *values, int n_values,
               SlDiagnostics *diags)
{
  return sl_effect_run_set_param (target, name, values, n_values, diags);
}

bool
sl_effect_run_set_params_string (SlEffectRun *run, const char *params, SlDiagnostics *diags)
{
  return sl_parse_params_string (params, diags, set_run_param, run);
}

void
sl_effect_run_set_host_values (SlEffectRun *run, const SlEffectHostValues *values)
{
  run->host = *values;
  run->prepared = run->executed = false;
}

void
sl_effect_run_set_input (SlEffectRun *run, const SlTexture *input)
{
  run->input = *input;
  run->have_input = true;
  run->executed = false;
}

bool
sl_effect_run_set_image (SlEffectRun *run, int texture, int width, int height, size_t row_stride,
                         const float *texels, SlDiagnostics *diags)
{
  const SlEffectTexture *t = sl_effect_get_texture (run->fx, texture);
  if (!t || t->kind != SL_EFFECT_TEXTURE_IMAGE || width < 1 || height < 1)
    {
      sl_diagnostics_add (diags, SL_SEVERITY_ERROR, "<effect>", 0, 0, "E-API",
                          "texture %d does not take an image", texture);
      return false;
    }
  int w = t->width ? t->width : width, h = t->height ? t->height : height;
  Store *st = &run->stores[texture];
  store_alloc (st, w, h, t->mip_levels);
  /* Resample bilinearly (texel centres) when the declared size differs. */
  for (int y = 0; y < h; y++)
    for (int x = 0; x < w; x++)
      {
        float u = ((float) x + 0.5f) * width / w - 0.5f, v = ((float) y + 0.5f) * height / h - 0.5f;
        int x0 = (int) floorf (u), y0 = (int) floorf (v);
        float fx = u - x0, fy = v - y0;
        for (int c = 0; c < 4; c++)
          {
            float acc = 0;
            for (int k = 0; k < 4; k++)
              {
                int sx = CLAMP (x0 + (k & 1), 0, width - 1), sy = CLAMP (y0 + (k >> 1), 0, height - 1);
                float wgt = ((k & 1) ? fx : 1 - fx) * ((k >> 1) ? fy : 1 - fy);
                acc += wgt * texels[(size_t) sy * row_stride + (size_t) sx * 4 + c];
              }
            st->level[0][((size_t) y * w + x) * 4 + c] = acc;
          }
        quantize (t->format, st->level[0] + ((size_t) y * w + x) * 4);
      }
  store_build_mips (st);
  run->image_set[texture] = true;
  run->executed = false;
  return true;
}

static void
set_host_params (SlEffectRun *run, int pi)
{
  SlProgram *prog = run->tech->passes[pi].program;
  for (int i = 0; i < sl_program_get_n_params (prog); i++)
    {
      const SlParam *prm = sl_program_get_param (prog, i);
      const char *src = sl_param_get_host_source (prm);
      if (!src || g_hash_table_contains (run->user_set, prm->name))
        continue;
      float v = 0;
      if (!strcmp (src, "timer"))
        v = (float) run->host.timer_ms;
      else if (!strcmp (src, "frametime"))
        v = (float) run->host.frametime_ms;
      else if (!strcmp (src, "framecount"))
        v = (float) run->host.framecount;
      else if (!strcmp (src, "random"))
        {
          double lo = 0, hi = 32767;
          for (int k = 0; k < prm->n_annotations; k++)
            if (prm->annotations[k].n_values > 0 && !strcmp (prm->annotations[k].name, "min"))
              lo = prm->annotations[k].values[0];
            else if (prm->annotations[k].n_values > 0 && !strcmp (prm->annotations[k].name, "max"))
              hi = prm->annotations[k].values[0];
          /* The same seed gives the same values, so renders repeat. */
          guint32 h = g_str_hash (prm->name) ^ (run->host.seed * 2654435761u);
          h ^= h >> 16;
          h *= 0x7feb352du;
          h ^= h >> 15;
          double span = MAX (hi - lo + 1, 1);
          v = (float) (lo + fmod ((double) h, span));
        }
      sl_binding_set_param (run->bindings[pi], prm->name, &v, 1, NULL);
    }
}

bool
sl_effect_run_prepare (SlEffectRun *run, SlDiagnostics *diags)
{
  SlEffect *fx = run->fx;
  if (!run->have_input)
    {
      sl_diagnostics_add (diags, SL_SEVERITY_ERROR, "<effect>", 0, 0, "E-API", "the effect has no input image");
      return false;
    }
  for (guint i = 0; i < fx->textures->len; i++)
    {
      const SlEffectTexture *t = &g_array_index (fx->textures, SlEffectTexture, i);
      if (t->kind == SL_EFFECT_TEXTURE_IMAGE && !run->image_set[i])
        {
          sl_diagnostics_add (diags, SL_SEVERITY_ERROR, "<effect>", 0, 0, "E-TEXTURE",
                              "texture '%s' needs the image '%s'", t->name, t->source_file);
          return false;
        }
      if (t->kind == SL_EFFECT_TEXTURE_TARGET && !run->stores[i].level[0])
        store_alloc (&run->stores[i], t->width, t->height, t->mip_levels);
    }
  for (int pi = 0; pi < run->tech->n_passes; pi++)
    {
      SlProgram *prog = run->tech->passes[pi].program;
      SlBinding *b = run->bindings[pi];
      run->color_views[pi] = run->input;
      run->color_slots[pi] = 0;
      for (int k = 0; k < sl_program_get_n_samplers (prog); k++)
        {
          const SlSamplerInfo *si = sl_program_get_sampler (prog, k);
          if (si->slot < 0 || si->slot >= SL_MAX_SLOTS)
            continue;
          const ESampler *es = find_sampler (fx, si->name);
          if (es)
            sl_binding_set_sampler (b, si->slot, &es->state);
          if (es && es->state_object)
            continue;
          int ti = slot_texture (fx, si);
          const SlEffectTexture *t = ti >= 0 ? &g_array_index (fx->textures, SlEffectTexture, ti) : NULL;
          if (!t || t->kind == SL_EFFECT_TEXTURE_COLOR)
            {
              sl_binding_set_texture (b, si->slot, &run->color_views[pi]);
              run->color_slots[pi] |= 1u << si->slot;
            }
          else if (t->kind == SL_EFFECT_TEXTURE_DEPTH)
            sl_binding_set_texture (b, si->slot, &run->depth_tex);
          else
            sl_binding_set_texture (b, si->slot, &run->stores[ti].tex);
        }
      set_host_params (run, pi);
      if (!sl_binding_prepare (b, diags))
        return false;
    }
  run->prepared = true;
  run->executed = false;
  return true;
}

static bool
reads_color (const SlEffectRun *run, int pi)
{
  return run->color_slots[pi] != 0;
}

bool
sl_effect_run_get_input_rect (const SlEffectRun *run, int x, int y, int width, int height, int *in_x,
                              int *in_y, int *in_width, int *in_height)
{
  if (!run->prepared)
    return false;
  for (int pi = 0; pi < run->n_exec; pi++)
    if (reads_color (run, pi))
      return false;
  int l = 0, t = 0, r = 0, b = 0;
  if (run->final_pass && reads_color (run, run->tech->n_passes - 1))
    {
      int last = run->tech->n_passes - 1;
      if (!sl_binding_get_sample_reach (run->bindings[last], &l, &t, &r, &b))
        return false;
      /* The reach is in texels of slot 0; scale it to back-buffer pixels. */
      const SlEffectPass *p = &run->tech->passes[last];
      int w0 = run->fx->buffer_width, h0 = run->fx->buffer_height;
      SlProgram *prog = p->program;
      for (int k = 0; k < sl_program_get_n_samplers (prog); k++)
        {
          const SlSamplerInfo *si = sl_program_get_sampler (prog, k);
          if (si->slot == 0 && !(run->color_slots[last] & 1u))
            {
              int ti = slot_texture (run->fx, si);
              const SlEffectTexture *tx = ti >= 0 ? &g_array_index (run->fx->textures, SlEffectTexture, ti) : NULL;
              if (tx && tx->width > 0)
                {
                  w0 = tx->width;
                  h0 = tx->height;
                }
            }
        }
      double sx = (double) run->fx->buffer_width / w0, sy = (double) run->fx->buffer_height / h0;
      l = (int) ceil (l * sx) + 1;
      r = (int) ceil (r * sx) + 1;
      t = (int) ceil (t * sy) + 1;
      b = (int) ceil (b * sy) + 1;
    }
  *in_x = x - l;
  *in_y = y - t;
  *in_width = width + l + r;
  *in_height = height + t + b;
  return true;
}

/* Renders the passes before the last (all of them when the last one
 * writes a texture) over whole viewports. */
static bool
execute (SlEffectRun *run, SlScratch *scratch, SlDiagnostics *diags)
{
  int W = run->fx->buffer_width, H = run->fx->buffer_height;
  const SlTexture *current = &run->input;
  bool ok = true;
  g_free (run->backbuffer);
  run->backbuffer = NULL;
  for (guint i = 0; i < run->fx->textures->len; i++)
    {
      const SlEffectTexture *t = &g_array_index (run->fx->textures, SlEffectTexture, i);
      Store *st = &run->stores[i];
      if (t->kind == SL_EFFECT_TEXTURE_TARGET && st->level[0])
        memset (st->level[0], 0, (size_t) st->width * st->height * 4 * sizeof (float));
    }
  for (int pi = 0; pi < run->n_exec; pi++)
    {
      const SlEffectPass *p = &run->tech->passes[pi];
      run->color_views[pi] = *current;
      if (p->n_render_targets == 0)
        {
          float *nb = g_new (float, (size_t) W * H * 4);
          for (int y = 0; y < H; y++)
            for (int x = 0; x < W; x++)
              memcpy (nb + ((size_t) y * W + x) * 4, texel_at (current, x, y), 4 * sizeof (float));
          SlTarget dst = { .pixels = nb, .row_stride = (size_t) W * 4 };
          ok &= render_pass (run, pi, scratch, 0, 0, W, H, NULL, &dst, diags);
          g_free (run->backbuffer);
          run->backbuffer = nb;
          sl_texture_init_2d (&run->bb_tex, W, H, (size_t) W * 4, nb);
          current = &run->bb_tex;
        }
      else
        {
          SlTarget dst[SL_EFFECT_MAX_TARGETS];
          for (int r = 0; r < p->n_render_targets; r++)
            {
              int ti = p->render_targets[r];
              Store *st = ti >= 0 ? &run->stores[ti] : NULL;
              if (st && p->clear)
                memset (st->level[0], 0, (size_t) st->width * st->height * 4 * sizeof (float));
              dst[r].pixels = st ? st->level[0] : NULL;
              dst[r].row_stride = st ? (size_t) st->width * 4 : 0;
            }
          ok &= render_pass (run, pi, scratch, 0, 0, p->width, p->height, NULL, dst, diags);
          for (int r = 0; r < p->n_render_targets; r++)
            if (p->render_targets[r] >= 0)
              store_build_mips (&run->stores[p->render_targets[r]]);
        }
    }
  if (run->final_pass)
    run->color_views[run->tech->n_passes - 1] = *current;
  return ok;
}

bool
sl_effect_render (SlEffectRun *run, SlScratch *scratch, int x, int y, int width, int height,
                  const SlTexture *input, const SlTarget *target, SlDiagnostics *diags)
{
  if (!run->prepared)
    {
      sl_diagnostics_add (diags, SL_SEVERITY_ERROR, "<render>", 0, 0, "E-API",
                          "effect rendered before sl_effect_run_prepare()");
      return false;
    }
  g_mutex_lock (&run->lock);
  if (!run->executed)
    {
      run->exec_ok = execute (run, scratch, diags);
      run->executed = true;
    }
  bool ok = run->exec_ok;
  g_mutex_unlock (&run->lock);
  if (width <= 0 || height <= 0)
    return ok;

  /* What the back buffer holds before the last pass. */
  const SlTexture *bb = run->backbuffer ? &run->bb_tex : input ? input : &run->input;
  for (int j = 0; j < height; j++)
    for (int i = 0; i < width; i++)
      memcpy (target->pixels + (size_t) j * target->row_stride + (size_t) i * 4, texel_at (bb, x + i, y + j),
              4 * sizeof (float));
  if (!run->final_pass)
    return ok;
  int last = run->tech->n_passes - 1;
  const SlTexture *over[SL_MAX_SLOTS] = { NULL };
  if (!run->backbuffer && input)
    for (int k = 0; k < SL_MAX_SLOTS; k++)
      if (run->color_slots[last] & (1u << k))
        over[k] = input;
  ok &= render_pass (run, last, scratch, x, y, width, height, over, target, diags);
  return ok;
}
