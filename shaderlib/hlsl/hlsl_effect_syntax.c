/* Effect syntax inside HLSL: techniques, passes, fxgroups, state blocks,
 * sampler_state, D3D10 state objects, shader objects with their compile
 * targets, and #pragma lines.
 *
 * These only configure the effect framework (fx/); a pixel shader compile
 * checks their syntax and the rules the D3D compiler enforces, and
 * otherwise ignores them, except for a sampler's declared state, which
 * reflection reports; its names and words are hlsl_sampler_state.c's,
 * shared with the effect layer. */
#include "hlsl/hlsl_parse.h"
#include "hlsl/hlsl_sampler_state.h"

#include <string.h>

void
hlsl_parse_pragma (P *p, Token *t)
{
  const char *s = t->text;
  if (g_str_has_prefix (s, "pack_matrix"))
    {
      if (strstr (s, "row_major"))
        p->row_major_default = true;
      else if (strstr (s, "column_major"))
        p->row_major_default = false;
      else
        hlsl_warning (p, t->loc, SL_DIAG_HLSL_PRAGMA_PACK_MATRIX, "unknown #pragma pack_matrix argument");
    }
  /* #pragma parameter and others: reflection reads them from the source. */
}

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

bool
hlsl_is_shader_object_type (Token *t)
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
bool
hlsl_is_state_object_type (Token *t)
{
  return t->kind == TK_IDENT
         && (!strcmp (t->text, "BlendState") || !strcmp (t->text, "DepthStencilState")
             || !strcmp (t->text, "RasterizerState") || !strcmp (t->text, "stateblock"));
}

/* BlendState name[n] <annotations> [= [stateblock_state]] { State[i] = value; … }, …;
 * and the D3D9 stateblock; an array may give a block per element. */
void
hlsl_parse_state_object (P *p)
{
  next (p);
  do
    {
      if (!expect_ident (p))
        {
          hlsl_recover (p);
          return;
        }
      if (accept (p, "["))
        {
          int n;
          hlsl_parse_const_int_expr (p, &n);
          expect (p, "]");
        }
      hlsl_skip_annotations (p);
      if (accept (p, "="))
        {
          if (accept (p, "NULL"))
            continue;
          accept (p, "stateblock_state");
        }
      if (!is (p, "{"))
        continue;
      next (p);
      if (!hlsl_parse_state_entries_into (p, NULL))
        return;
    }
  while (accept (p, ","));
  expect (p, ";");
}

/* Skips a parenthesised list after its '(' and returns the number of
 * top-level arguments. */
int
hlsl_skip_args (P *p)
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
void
hlsl_parse_compile_target (P *p, bool check_names)
{
  Token *prof = peek (p);
  if (prof->kind == TK_IDENT)
    {
      /* Effects know the profiles of shader models 1 to 5. */
      const char *q = prof->text;
      if (strlen (q) < 4 || !strchr ("pvghdc", q[0]) || q[1] != 's' || q[2] != '_'
          || q[3] < '1' || q[3] > '5')
        hlsl_error (p, prof->loc, SL_DIAG_HLSL_STATE_PROFILE, "invalid target profile '%s'", q);
      next (p);
    }
  accept (p, ",");
  Token *fn = peek (p);
  if (fn->kind != TK_IDENT)
    {
      hlsl_error (p, fn->loc, SL_DIAG_HLSL_STATE_EXPECTED_FUNCTION, "expected a function to compile");
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
            hlsl_parse_assign (p);
            n++;
          }
        while (accept (p, ","));
      expect (p, ")");
    }
  else
    n = hlsl_skip_args (p);
  Func *f = g_hash_table_lookup (p->u->funcs, fn->text);
  if (!f)
    {
      hlsl_error (p, fn->loc, SL_DIAG_HLSL_UNDECLARED_FUNCTION, "undeclared function '%s'", fn->text);
      return;
    }
  int uniforms = 0;
  for (int i = 0; i < f->n_params; i++)
    uniforms += f->params[i]->uniform_param;
  if (n > uniforms)
    hlsl_error (p, fn->loc, SL_DIAG_HLSL_STATE_UNIFORM_COUNT,
                "'%s' has %d uniform parameter(s), not %d", fn->text, uniforms, n);
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
  const HlslSamplerKey *key = hlsl_sampler_key (n);
  if (!key)
    return;   /* not a sampler state the runtime has */
  bool ok = true;
  switch (key->value)
    {
    case HLSL_SAMPLER_FILTER: case HLSL_SAMPLER_FILTER_ALL: case HLSL_SAMPLER_ADDRESS:
      ok = val->kind == TK_IDENT && hlsl_sampler_set_word (st, key, val->text);
      break;
    case HLSL_SAMPLER_BOOL:
      if (val->kind == TK_IDENT)
        ok = hlsl_sampler_set_word (st, key, val->text);
      else
        hlsl_sampler_set_numbers (st, key, nums, n_nums);
      break;
    case HLSL_SAMPLER_NUMBER: case HLSL_SAMPLER_COLOR:
      hlsl_sampler_set_numbers (st, key, nums, n_nums);
      break;
    case HLSL_SAMPLER_TEXTURE:
      break;   /* effects bind textures; a shader reads what the host binds */
    }
  if (!ok)
    hlsl_warning (p, val->loc, SL_DIAG_HLSL_SAMPLER_STATE_VALUE,
                  "unknown value '%s' for sampler state '%s'", val->text, n);
}

/* Entries of a state block or pass, after its '{', up to and including '}'. */
static void
parse_state_entries (P *p)
{
  hlsl_parse_state_entries_into (p, NULL);
}

/* After a malformed entry: on to the next ';' of this block (eaten) or
 * its '}' (kept). */
static void
skip_state_entry (P *p)
{
  int depth = 0;
  while (peek (p)->kind != TK_EOF)
    {
      if (depth == 0 && is (p, "}"))
        return;
      if (depth == 0 && is (p, ";"))
        {
          next (p);
          return;
        }
      if (is (p, "(") || is (p, "{") || is (p, "["))
        depth++;
      else if (is (p, ")") || is (p, "}") || is (p, "]"))
        depth--;
      next (p);
    }
}

/* The value of a state assignment, up to its ';' (not eaten): any
 * expression of names the effect framework knows (LINEAR, Wrap, foo),
 * constructors, brace lists, OR-ed tokens, NULL, <var>, compile targets,
 * asm blocks and nested sampler_state/stateblock_state blocks.  Names
 * need not be declared; the shape is checked: something must be there,
 * and a bare '=' means the ';' before it is missing.  False after a
 * diagnostic. */
static bool
parse_state_value (P *p)
{
  Token *first = peek (p);
  if (is (p, ";") || is (p, "}") || first->kind == TK_EOF)
    {
      hlsl_error (p, first->loc, SL_DIAG_HLSL_STATE_EXPECTED_VALUE,
                  "expected a state value before '%s'", tok_desc (first));
      return false;
    }
  int depth = 0;
  Token *prev = NULL;
  while (peek (p)->kind != TK_EOF)
    {
      Token *c = peek (p);
      if (depth == 0 && (is (p, ";") || is (p, "}")))
        return true;
      if (depth == 0 && prev && is (p, "="))
        {
          /* name = value name = value: the first entry lacks its ';'. */
          hlsl_error (p, prev->loc, SL_DIAG_HLSL_EXPECTED_TOKEN,
                      "expected ';' before '%s'", tok_desc (prev));
          return false;
        }
      if (is (p, "(") || is (p, "{") || is (p, "["))
        depth++;
      else if (is (p, ")") || is (p, "}") || is (p, "]"))
        depth--;
      if (c->kind == TK_IDENT && state_function (c->text) >= 0
          && peek_at (p, 1)->kind == TK_PUNCT && !strcmp (peek_at (p, 1)->text, "("))
        hlsl_error (p, c->loc, SL_DIAG_HLSL_NOT_A_VALUE, "'%s' cannot be used as a value", c->text);
      if (c->kind == TK_IDENT && !strcmp (c->text, "compile"))
        {
          next (p);
          hlsl_parse_compile_target (p, false);
          prev = NULL;
          continue;
        }
      prev = c;
      next (p);
    }
  return true;
}

/* Whether the block whose '{' was just read has its '}'. */
static bool
block_terminated (P *p)
{
  int depth = 1;
  for (int i = p->pos; i < p->n_toks && p->toks[i].kind != TK_EOF; i++)
    if (p->toks[i].kind == TK_PUNCT && !strcmp (p->toks[i].text, "{"))
      depth++;
    else if (p->toks[i].kind == TK_PUNCT && !strcmp (p->toks[i].text, "}") && --depth == 0)
      return true;
  return false;
}

bool
hlsl_parse_state_entries_into (P *p, SlSamplerState *st)
{
  if (!block_terminated (p))
    {
      /* Nothing after an open block can be read as HLSL: one message. */
      hlsl_error (p, p->toks[p->pos - 1].loc, SL_DIAG_HLSL_UNTERMINATED_STATE_BLOCK,
                  "unterminated state block");
      p->pos = p->n_toks - 1;
      return false;
    }
  while (!is (p, "}") && peek (p)->kind != TK_EOF)
    {
      Token *t = peek (p);
      if (accept (p, ";"))
        continue;
      if (is (p, "{"))
        {
          /* An array's blocks, one per element: { … }, { … } */
          next (p);
          hlsl_parse_state_entries_into (p, NULL);
          if (!accept (p, ","))
            accept (p, ";");
          continue;
        }
      if (t->kind == TK_IDENT && peek_at (p, 1)->kind == TK_PUNCT && !strcmp (peek_at (p, 1)->text, "("))
        {
          int k = state_function (t->text);
          next (p);
          next (p);
          int n = hlsl_skip_args (p);
          if (k < 0)
            hlsl_error (p, t->loc, SL_DIAG_HLSL_STATE_FUNCTION, "unknown state function '%s'", t->text);
          else if (n < state_functions[k].min || n > state_functions[k].max)
            {
              if (state_functions[k].min == state_functions[k].max)
                hlsl_error (p, t->loc, SL_DIAG_HLSL_ARGUMENT_COUNT,
                            "'%s' takes %d argument%s, not %d", t->text,
                            state_functions[k].min, state_functions[k].min == 1 ? "" : "s", n);
              else
                hlsl_error (p, t->loc, SL_DIAG_HLSL_ARGUMENT_COUNT,
                            "'%s' takes %d to %d arguments, not %d", t->text,
                            state_functions[k].min, state_functions[k].max, n);
            }
          expect (p, ";");
          continue;
        }
      /* name [index] = value ; */
      int entry_start = p->pos;
      if (t->kind != TK_IDENT)
        {
          hlsl_error (p, t->loc, SL_DIAG_HLSL_STATE_EXPECTED_NAME,
                      "expected a state name before '%s'", tok_desc (t));
          skip_state_entry (p);
          continue;
        }
      next (p);
      if (accept (p, "["))
        {
          int depth = 1;
          while (depth && peek (p)->kind != TK_EOF && !is (p, ";") && !is (p, "}"))
            {
              if (is (p, "["))
                depth++;
              else if (is (p, "]"))
                depth--;
              next (p);
            }
        }
      if (!expect (p, "="))
        {
          skip_state_entry (p);
          continue;
        }
      if (!parse_state_value (p))
        {
          skip_state_entry (p);
          continue;
        }
      if (st)
        apply_sampler_entry (p, st, entry_start, p->pos);
      expect (p, ";");
    }
  return expect (p, "}");
}

void
hlsl_skip_annotations (P *p)
{
  if (accept (p, "<"))
    {
      GArray *a = hlsl_parse_annotations (p);
      g_array_free (a, TRUE);
    }
}

/* technique[10|11] [name] [<…>] { pass [name] [<…>] { … } … }, and
 * fxgroup name { techniques }. */
void
hlsl_parse_technique (P *p)
{
  Token *kw = next (p);
  bool group = !strcmp (kw->text, "fxgroup");
  bool pass = !strcmp (kw->text, "pass");
  if (peek (p)->kind == TK_IDENT)
    next (p);
  hlsl_skip_annotations (p);
  if (!expect (p, "{"))
    {
      hlsl_recover (p);
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
        hlsl_parse_technique (p);
      else
        {
          hlsl_error (p, t->loc, SL_DIAG_HLSL_EXPECTED_TOKEN,
                      "expected '%s' before '%s'", group ? "technique" : "pass", tok_desc (t));
          hlsl_recover (p);
        }
    }
  expect (p, "}");
  accept (p, ";");
}

/* PixelShader ps = CompileShader(…) / compile … / ConstructGSWithSO(…) / {…}; */
void
hlsl_parse_shader_object (P *p)
{
  next (p);
  do
    {
      if (!expect_ident (p))
        {
          hlsl_recover (p);
          return;
        }
      if (accept (p, "["))
        {
          int n;
          hlsl_parse_const_int_expr (p, &n);
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
        hlsl_parse_compile_target (p, true);
      else if (v->kind == TK_IDENT && !strcmp (v->text, "CompileShader"))
        {
          next (p);
          expect (p, "(");
          hlsl_parse_compile_target (p, true);
          expect (p, ")");
        }
      else if (v->kind == TK_IDENT && !strcmp (v->text, "ConstructGSWithSO"))
        {
          next (p);
          expect (p, "(");
          int n = hlsl_skip_args (p);
          if (n != 2 && n != 6)
            hlsl_error (p, v->loc, SL_DIAG_HLSL_GS_SO_ARGUMENTS,
                        "ConstructGSWithSO takes 2 or 6 arguments, not %d", n);
        }
      else
        {
          hlsl_error (p, v->loc, SL_DIAG_HLSL_SHADER_OBJECT,
                      "a shader object needs a compiled shader, not '%s'", tok_desc (v));
          hlsl_recover (p);
          return;
        }
    }
  while (accept (p, ","));
  expect (p, ";");
}
