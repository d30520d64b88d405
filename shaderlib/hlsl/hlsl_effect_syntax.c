/* Effect syntax inside HLSL: techniques, passes, fxgroups, state blocks,
 * sampler_state, D3D10 state objects, shader objects with their compile
 * targets, and #pragma lines.
 *
 * These only configure the effect framework (fx/); a pixel shader compile
 * checks their syntax and the rules the D3D compiler enforces, and
 * otherwise ignores them, except for a sampler's declared state, which
 * reflection reports. */
#include "hlsl/hlsl_parse.h"

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
        hlsl_warning (p, t->loc, "unknown #pragma pack_matrix argument");
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
             || !strcmp (t->text, "RasterizerState"));
}

/* BlendState name[n] <annotations> [=] { State[i] = value; … }, …; */
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
          hlsl_error (p, open->loc, "unterminated state block");
          return;
        }
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
        hlsl_error (p, prof->loc, "invalid target profile '%s'", q);
      next (p);
    }
  accept (p, ",");
  Token *fn = peek (p);
  if (fn->kind != TK_IDENT)
    {
      hlsl_error (p, fn->loc, "expected a function to compile");
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
      hlsl_error (p, fn->loc, "undeclared function '%s'", fn->text);
      return;
    }
  int uniforms = 0;
  for (int i = 0; i < f->n_params; i++)
    uniforms += f->params[i]->uniform_param;
  if (n > uniforms)
    hlsl_error (p, fn->loc, "'%s' has %d uniform parameter(s), not %d", fn->text, uniforms, n);
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
    hlsl_warning (p, val->loc, "unknown value '%s' for sampler state '%s'", val->text, n);
}

/* Entries of a state block or pass, after its '{', up to and including '}'. */
static void
parse_state_entries (P *p)
{
  hlsl_parse_state_entries_into (p, NULL);
}

void
hlsl_parse_state_entries_into (P *p, SlSamplerState *st)
{
  while (!is (p, "}") && peek (p)->kind != TK_EOF)
    {
      Token *t = peek (p);
      if (t->kind == TK_IDENT && peek_at (p, 1)->kind == TK_PUNCT && !strcmp (peek_at (p, 1)->text, "("))
        {
          int k = state_function (t->text);
          next (p);
          next (p);
          int n = hlsl_skip_args (p);
          if (k < 0)
            hlsl_error (p, t->loc, "unknown state function '%s'", t->text);
          else if (n < state_functions[k].min || n > state_functions[k].max)
            {
              if (state_functions[k].min == state_functions[k].max)
                hlsl_error (p, t->loc, "'%s' takes %d argument%s, not %d", t->text,
                            state_functions[k].min, state_functions[k].min == 1 ? "" : "s", n);
              else
                hlsl_error (p, t->loc, "'%s' takes %d to %d arguments, not %d", t->text,
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
            hlsl_error (p, c->loc, "'%s' cannot be used as a value", c->text);
          if (c->kind == TK_IDENT && !strcmp (c->text, "compile"))
            {
              next (p);
              hlsl_parse_compile_target (p, false);
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
          hlsl_error (p, t->loc, "expected '%s' before '%s'", group ? "technique" : "pass", tok_desc (t));
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
            hlsl_error (p, v->loc, "ConstructGSWithSO takes 2 or 6 arguments, not %d", n);
        }
      else
        {
          hlsl_error (p, v->loc, "a shader object needs a compiled shader, not '%s'", tok_desc (v));
          hlsl_recover (p);
          return;
        }
    }
  while (accept (p, ","));
  expect (p, ";");
}
