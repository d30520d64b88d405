/* SM4/SM5 assembly text ↔ Sm4Shader.
 *
 * The reader takes listings in the form `fxc /Fc` prints: one instruction
 * per line, `//` comments, a version line (ps_4_0, ps_4_1, ps_5_0), then
 * dcl_* declarations and code.  The comment header fxc writes above the
 * code (buffer definitions, resource bindings, input/output signatures) is
 * read too, because it is the only place a listing names its parameters
 * and its inputs' semantics.
 *
 * Literals in l(...) have no type of their own in the text: a literal
 * written with a decimal point or exponent is a float, 0x… is raw bits, and
 * a plain integer is an integer, except in instructions whose sources are
 * floats (add, mul, sample_l …) where `1` means 1.0 as a person writing a
 * listing by hand intends.  The printer writes what the reader reads back
 * to the same bits: floats always carry a decimal point, and float bits
 * that no decimal form reproduces exactly are printed as 0x….
 *
 * `_indexable(...)(...)` suffixes of SM5 listings are accepted and dropped:
 * the resource declaration already says the same. */
#include "asm/sm4/sm4.h"
#include "base/diag.h"
#include "base/readers.h"

#include "vm/scalar_ops.h"

#include <stdlib.h>
#include <string.h>

const Sm4OpInfo sm4_ops[SM4_N_OPS] = {
#define SM4_OP(id, mnem, opc, ndst, nsrc, type, lower, irop) \
  { mnem, opc, ndst, nsrc, SM4T_##type, SM4L_##lower, SL_OP_##irop },
#include "asm/sm4/sm4_tables.def"
#undef SM4_OP
};

int
sm4_op_from_opcode (unsigned opcode)
{
  for (int i = 0; i < SM4_N_OPS; i++)
    if (sm4_ops[i].opcode == opcode)
      return i;
  return -1;
}

Sm4Shader *
sm4_shader_new (void)
{
  Sm4Shader *s = g_new0 (Sm4Shader, 1);
  s->insns = g_array_new (FALSE, TRUE, sizeof (Sm4Insn));
  s->cbuffers = g_array_new (FALSE, TRUE, sizeof (Sm4CBuffer));
  s->bindings = g_array_new (FALSE, TRUE, sizeof (Sm4Binding));
  s->inputs = g_array_new (FALSE, TRUE, sizeof (Sm4SigElem));
  s->outputs = g_array_new (FALSE, TRUE, sizeof (Sm4SigElem));
  return s;
}

static void
free_sig (GArray *a)
{
  for (guint i = 0; i < a->len; i++)
    g_free (g_array_index (a, Sm4SigElem, i).semantic);
  g_array_free (a, TRUE);
}

void
sm4_shader_free (Sm4Shader *s)
{
  if (!s)
    return;
  for (guint i = 0; i < s->insns->len; i++)
    g_free (g_array_index (s->insns, Sm4Insn, i).data);
  g_array_free (s->insns, TRUE);
  for (guint i = 0; i < s->cbuffers->len; i++)
    {
      Sm4CBuffer *cb = &g_array_index (s->cbuffers, Sm4CBuffer, i);
      for (guint k = 0; k < cb->vars->len; k++)
        {
          g_free (g_array_index (cb->vars, Sm4Var, k).name);
          g_free (g_array_index (cb->vars, Sm4Var, k).defaults);
        }
      g_array_free (cb->vars, TRUE);
      g_free (cb->name);
    }
  g_array_free (s->cbuffers, TRUE);
  for (guint i = 0; i < s->bindings->len; i++)
    g_free (g_array_index (s->bindings, Sm4Binding, i).name);
  g_array_free (s->bindings, TRUE);
  free_sig (s->inputs);
  free_sig (s->outputs);
  g_free (s);
}

/* ------------------------------------------------------------------ */
/* Reader                                                               */
/* ------------------------------------------------------------------ */

typedef struct
{
  const char    *p, *end, *line_start;
  int            line;
  const char    *file;
  SlDiagnostics *diags;
  const char    *operand;   /* start of the last operand read: for errors about it */
  bool           failed;
} Rd;

static void rerror (Rd *r, const char *at, SlDiagKind kind, const char *fmt, ...) G_GNUC_PRINTF (4, 5);

static void
rerror (Rd *r, const char *at, SlDiagKind kind, const char *fmt, ...)
{
  int col = at ? (int) (at - r->line_start) + 1 : 1;
  va_list ap;
  va_start (ap, fmt);
  sl_diag_v (r->diags, kind, r->file, r->line, col, fmt, ap);
  va_end (ap);
  r->failed = true;
}

/* Skips blanks and comments, not newlines. */
static void
skip_blank (Rd *r)
{
  for (;;)
    {
      while (r->p < r->end && (*r->p == ' ' || *r->p == '\t' || *r->p == '\r'))
        r->p++;
      if (r->p + 1 < r->end && r->p[0] == '/' && r->p[1] == '/')
        {
          while (r->p < r->end && *r->p != '\n')
            r->p++;
          continue;
        }
      break;
    }
}

/* Skips blanks, comments and newlines (inside braces). */
static void
skip_space (Rd *r)
{
  for (;;)
    {
      skip_blank (r);
      if (r->p < r->end && *r->p == '\n')
        {
          r->p++;
          r->line++;
          r->line_start = r->p;
          continue;
        }
      break;
    }
}

static bool
at_eol (Rd *r)
{
  skip_blank (r);
  return r->p >= r->end || *r->p == '\n';
}

static bool
accept (Rd *r, char c)
{
  skip_blank (r);
  if (r->p < r->end && *r->p == c)
    {
      r->p++;
      return true;
    }
  return false;
}

static bool
expect (Rd *r, char c)
{
  if (accept (r, c))
    return true;
  rerror (r, r->p, SL_DIAG_SM4_EXPECTED_CHARACTER, "expected '%c'", c);
  return false;
}

/* An identifier: letters, digits, '_' and '$'. */
static int
ident (Rd *r, const char **start)
{
  skip_blank (r);
  *start = r->p;
  while (r->p < r->end && (g_ascii_isalnum (*r->p) || *r->p == '_' || *r->p == '$'))
    r->p++;
  return (int) (r->p - *start);
}

static bool
parse_uint (Rd *r, uint32_t *out)
{
  skip_blank (r);
  const char *s = r->p;
  if (s >= r->end || !g_ascii_isdigit (*s))
    {
      rerror (r, s, SL_DIAG_SM4_EXPECTED_NUMBER, "expected a number");
      return false;
    }
  char *e;
  guint64 v = g_ascii_strtoull (s, &e, 10);
  if (v > 0xffffffffu)
    {
      rerror (r, s, SL_DIAG_SM4_NUMBER_RANGE, "number out of range");
      return false;
    }
  r->p = e;
  *out = (uint32_t) v;
  return true;
}

/* A literal: float if it has '.', 'e', inf or nan; 0x… raw bits; else an
 * integer (a float when @float_ctx). */
static bool
parse_literal (Rd *r, bool float_ctx, uint32_t *out)
{
  skip_blank (r);
  const char *s = r->p;
  char buf[64];
  int n = 0;
  while (r->p < r->end && n < 63 && (g_ascii_isalnum (*r->p) || *r->p == '.' || *r->p == '-'
                                     || *r->p == '+' || *r->p == '#'))
    {
      if ((*r->p == '-' || *r->p == '+') && n > 0 && buf[n - 1] != 'e' && buf[n - 1] != 'E')
        break;
      buf[n++] = *r->p++;
    }
  buf[n] = 0;
  if (!n)
    {
      rerror (r, s, SL_DIAG_SM4_EXPECTED_LITERAL, "expected a literal");
      return false;
    }
  const char *b = buf[0] == '-' || buf[0] == '+' ? buf + 1 : buf;
  bool neg = buf[0] == '-';
  if (b[0] == '0' && (b[1] == 'x' || b[1] == 'X'))
    {
      char *e;
      guint64 v = g_ascii_strtoull (b + 2, &e, 16);
      if (*e || v > 0xffffffffu || !b[2])
        goto bad;
      *out = neg ? (uint32_t) -(int64_t) v : (uint32_t) v;
      return true;
    }
  if (!g_ascii_strcasecmp (b, "inf") || !g_ascii_strcasecmp (b, "1.#inf"))
    {
      *out = sl_f2u (neg ? -INFINITY : INFINITY);
      return true;
    }
  if (!g_ascii_strcasecmp (b, "nan") || !g_ascii_strncasecmp (b, "1.#qnan", 7))
    {
      *out = 0x7fc00000u;
      return true;
    }
  bool is_float = strpbrk (b, ".eE") != NULL;
  char *e;
  if (is_float || float_ctx)
    {
      double d = g_ascii_strtod (buf, &e);
      if (*e)
        goto bad;
      *out = sl_f2u ((float) d);
      return true;
    }
  gint64 v = g_ascii_strtoll (buf, &e, 10);
  if (*e || v > 0xffffffffll || v < -0x80000000ll)
    goto bad;
  *out = (uint32_t) v;
  return true;
bad:
  rerror (r, s, SL_DIAG_SM4_NOT_A_NUMBER, "'%s' is not a number", buf);
  return false;
}

static int
comp_of (char c)
{
  switch (c)
    {
    case 'x': case 'r': return 0;
    case 'y': case 'g': return 1;
    case 'z': case 'b': return 2;
    case 'w': case 'a': return 3;
    default: return -1;
    }
}

/* ".xyzw" after a register: a write mask (@dst) or a swizzle. */
static bool
parse_components (Rd *r, Sm4Operand *o, bool dst)
{
  o->n_comp = 4;
  if (r->p >= r->end || *r->p != '.')
    {
      o->sel = dst ? SM4_SEL_MASK : SM4_SEL_SWIZZLE;
      o->mask = 0xf;
      for (int i = 0; i < 4; i++)
        o->swz[i] = i;
      return true;
    }
  const char *s = ++r->p;
  int n = 0, c[4];
  while (r->p < r->end && g_ascii_isalpha (*r->p))
    {
      int k = comp_of (*r->p);
      if (k < 0 || n == 4)
        {
          rerror (r, s, SL_DIAG_SM4_COMPONENTS, "bad component selection '.%.*s'", (int) (r->p - s) + 1, s);
          return false;
        }
      c[n++] = k;
      r->p++;
    }
  if (!n)
    {
      rerror (r, s, SL_DIAG_SM4_EXPECTED_COMPONENTS, "expected components after '.'");
      return false;
    }
  if (dst)
    {
      o->sel = SM4_SEL_MASK;
      o->mask = 0;
      for (int i = 0; i < n; i++)
        {
          if (i && c[i] <= c[i - 1])
            {
              rerror (r, s, SL_DIAG_SM4_WRITE_MASK_ORDER, "write mask components must be in xyzw order");
              return false;
            }
          o->mask |= 1u << c[i];
        }
      return true;
    }
  if (n == 1)
    {
      o->sel = SM4_SEL_SELECT1;
      o->swz[0] = o->swz[1] = o->swz[2] = o->swz[3] = c[0];
      return true;
    }
  o->sel = SM4_SEL_SWIZZLE;
  for (int i = 0; i < 4; i++)
    o->swz[i] = c[i < n ? i : n - 1];
  return true;
}

/* "[5]", "[r0.x + 5]", "[r0.x]" */
static bool
parse_index (Rd *r, Sm4Operand *o, int k)
{
  if (!expect (r, '['))
    return false;
  skip_blank (r);
  const char *s = r->p;
  if (r->p < r->end && g_ascii_isdigit (*r->p))
    {
      if (!parse_uint (r, &o->idx[k]))
        return false;
      return expect (r, ']');
    }
  const char *id;
  int n = ident (r, &id);
  if (n < 2 || (id[0] != 'r' && id[0] != 'v') || !g_ascii_isdigit (id[1]))
    {
      rerror (r, s, SL_DIAG_SM4_RELATIVE_INDEX, "a relative index must be r# or v# with one component");
      return false;
    }
  o->has_rel[k] = true;
  o->rel[k].type = id[0] == 'r' ? SM4_REG_TEMP : SM4_REG_INPUT;
  /* The identifier is n bytes of the source, which need not end in a NUL
   * (fuzz-exec: atoi read past a buffer ending in "v10"). */
  unsigned index = 0;
  for (int i = 1; i < n && g_ascii_isdigit (id[i]); i++)
    index = MIN (index * 10 + (unsigned) (id[i] - '0'), 255u);
  o->rel[k].index = (uint8_t) index;
  if (r->p >= r->end || *r->p != '.' || r->p + 1 >= r->end || comp_of (r->p[1]) < 0
      || (r->p + 2 < r->end && g_ascii_isalpha (r->p[2])))
    {
      rerror (r, s, SL_DIAG_SM4_RELATIVE_INDEX_COMPONENT, "a relative index must select one component");
      return false;
    }
  o->rel[k].comp = comp_of (r->p[1]);
  r->p += 2;
  if (accept (r, '+'))
    {
      if (!parse_uint (r, &o->idx[k]))
        return false;
    }
  return expect (r, ']');
}

static bool
parse_operand (Rd *r, Sm4Operand *o, bool dst, bool float_ctx)
{
  memset (o, 0, sizeof *o);
  skip_blank (r);
  r->operand = r->p;
  o->column = (int) (r->p - r->line_start) + 1;
  if (accept (r, '-'))
    o->modifier |= SM4_MOD_NEG;
  if (accept (r, '|'))
    o->modifier |= SM4_MOD_ABS;
  const char *id;
  const char *start = r->p;
  int n = ident (r, &id);
  if (!n)
    {
      rerror (r, start, SL_DIAG_SM4_EXPECTED_OPERAND, "expected an operand");
      return false;
    }
  char name[16] = "";
  int k = 0;
  while (k < n && k < 15 && !g_ascii_isdigit (id[k]))
    {
      name[k] = id[k];
      k++;
    }
  name[k] = 0;
  bool has_num = k < n && g_ascii_isdigit (id[k]);
  uint32_t num = has_num ? (uint32_t) strtoul (id + k, NULL, 10) : 0;
  if (has_num)
    for (int i = k; i < n; i++)
      if (!g_ascii_isdigit (id[i]))
        has_num = false;

  if (!strcmp (name, "l") && n == 1)
    {
      o->type = SM4_REG_IMM32;
      if (!expect (r, '('))
        return false;
      int c = 0;
      do
        {
          if (c == 4)
            {
              skip_blank (r);   /* at the fifth component */
              rerror (r, r->p, SL_DIAG_SM4_IMMEDIATE_COMPONENTS, "an immediate has 1 or 4 components");
              return false;
            }
          if (!parse_literal (r, float_ctx, &o->imm[c++]))
            return false;
        }
      while (accept (r, ','));
      if (!expect (r, ')'))
        return false;
      if (c != 1 && c != 4)
        {
          rerror (r, start, SL_DIAG_SM4_IMMEDIATE_COMPONENTS,
                  "an immediate has 1 or 4 components, not %d", c);
          return false;
        }
      o->n_comp = c;
      o->sel = SM4_SEL_SWIZZLE;
      for (int i = 0; i < 4; i++)
        o->swz[i] = i;
    }
  else if (!g_ascii_strcasecmp (name, "null") && n == 4)
    o->type = SM4_REG_NULL;
  else if (!g_ascii_strcasecmp (name, "oDepth") && n == 6)
    {
      o->type = SM4_REG_DEPTH;
      o->n_comp = 1;
    }
  else if (!strcmp (name, "icb") && n == 3)
    {
      o->type = SM4_REG_ICB;
      o->n_idx = 1;
      if (!parse_index (r, o, 0) || !parse_components (r, o, dst))
        return false;
    }
  else if (has_num && (!strcmp (name, "r") || !strcmp (name, "v") || !strcmp (name, "o")
                       || !strcmp (name, "t") || !strcmp (name, "s")))
    {
      o->type = name[0] == 'r' ? SM4_REG_TEMP : name[0] == 'v' ? SM4_REG_INPUT
                : name[0] == 'o' ? SM4_REG_OUTPUT : name[0] == 't' ? SM4_REG_RESOURCE
                : SM4_REG_SAMPLER;
      o->n_idx = 1;
      o->idx[0] = num;
      if (o->type == SM4_REG_SAMPLER)
        o->n_comp = 0;
      else if (!parse_components (r, o, dst))
        return false;
    }
  else if (has_num && (!strcmp (name, "x") || !g_ascii_strcasecmp (name, "cb")))
    {
      o->type = name[0] == 'x' ? SM4_REG_INDEXABLE_TEMP : SM4_REG_CB;
      o->n_idx = 2;
      o->idx[0] = num;
      if (!parse_index (r, o, 1) || !parse_components (r, o, dst))
        return false;
    }
  else
    {
      rerror (r, start, SL_DIAG_SM4_UNKNOWN_REGISTER, "unknown register '%.*s'", n, id);
      return false;
    }
  if (o->modifier & SM4_MOD_ABS)
    if (!expect (r, '|'))
      return false;
  if (o->modifier && dst)
    {
      rerror (r, start, SL_DIAG_SM4_DESTINATION_MODIFIER, "a destination takes no modifier");
      return false;
    }
  return true;
}

typedef struct
{
  const char *name;
  uint32_t    value;
} Named;

static const Named global_flags[] = {
  { "refactoringAllowed", 1 }, { "enableDoublePrecisionFloatOps", 2 },
  { "forceEarlyDepthStencil", 4 }, { "enableRawAndStructuredBuffers", 8 },
  { "skipOptimization", 16 }, { "enableMinimumPrecision", 32 },
  { "enable11_1DoubleExtensions", 64 }, { "enable11_1ShaderExtensions", 128 },
  { NULL, 0 }
};

static const Named sysvals[] = {
  { "position", 1 }, { "clip_distance", 2 }, { "cull_distance", 3 },
  { "rendertarget_array_index", 4 }, { "viewport_array_index", 5 }, { "vertex_id", 6 },
  { "primitive_id", 7 }, { "instance_id", 8 }, { "is_front_face", 9 }, { "sampleIndex", 10 },
  { NULL, 0 }
};

static const Named dims[] = {
  { "buffer", SM4_DIM_BUFFER }, { "texture1d", SM4_DIM_TEXTURE1D },
  { "texture2d", SM4_DIM_TEXTURE2D }, { "texture2dms", SM4_DIM_TEXTURE2DMS },
  { "texture3d", SM4_DIM_TEXTURE3D }, { "texturecube", SM4_DIM_TEXTURECUBE },
  { NULL, 0 }
};

static const Named ret_types[] = {
  { "unorm", 1 }, { "snorm", 2 }, { "sint", 3 }, { "uint", 4 }, { "float", 5 },
  { "mixed", 6 }, { NULL, 0 }
};

static const char *const interp_names[] = {
  NULL, "constant", "linear", "linear centroid", "linear noperspective",
  "linear noperspective centroid", "linear sample", "linear noperspective sample"
};

static int
find_named (const Named *t, const char *s, int n)
{
  for (int i = 0; t[i].name; i++)
    if ((int) strlen (t[i].name) == n && !g_ascii_strncasecmp (t[i].name, s, n))
      return (int) t[i].value;
  return -1;
}

static const char *
name_of (const Named *t, uint32_t v)
{
  for (int i = 0; t[i].name; i++)
    if (t[i].value == v)
      return t[i].name;
  return NULL;
}

static void
set_data (Sm4Insn *in, const uint32_t *words, int n)
{
  in->data = g_new (uint32_t, MAX (n, 1));
  if (n > 0)   /* @words may be NULL then */
    memcpy (in->data, words, n * sizeof (uint32_t));
  in->n_data = n;
}

static bool
parse_decl (Rd *r, Sm4Insn *in, const char *suffix, int suffix_len)
{
  const char *id;
  int n;
  switch (in->op)
    {
    case SM4_DCL_GLOBAL_FLAGS:
      do
        {
          n = ident (r, &id);
          int f = find_named (global_flags, id, n);
          if (f < 0)
            {
              rerror (r, id, SL_DIAG_SM4_GLOBAL_FLAG, "unknown global flag '%.*s'", n, id);
              return false;
            }
          in->ctrl |= (uint32_t) f;
        }
      while (accept (r, '|'));
      return true;
    case SM4_DCL_CONSTANT_BUFFER:
      if (!parse_operand (r, &in->ops[0], false, false))
        return false;
      if (in->ops[0].type != SM4_REG_CB || in->ops[0].has_rel[1])
        {
          rerror (r, r->operand, SL_DIAG_SM4_DCL_CONSTANT_BUFFER, "dcl_constantbuffer needs cbN[size]");
          return false;
        }
      in->n_ops = 1;
      if (accept (r, ','))
        {
          n = ident (r, &id);
          if (n == 16 && !g_ascii_strncasecmp (id, "immediateIndexed", n))
            in->ctrl = 0;
          else if (n == 14 && !g_ascii_strncasecmp (id, "dynamicIndexed", n))
            in->ctrl = 1;
          else
            {
              rerror (r, id, SL_DIAG_SM4_DCL_CONSTANT_BUFFER_ACCESS,
                      "expected immediateIndexed or dynamicIndexed");
              return false;
            }
        }
      return true;
    case SM4_DCL_SAMPLER:
      if (!parse_operand (r, &in->ops[0], false, false) || !expect (r, ','))
        return false;
      if (in->ops[0].type != SM4_REG_SAMPLER)
        {
          rerror (r, r->operand, SL_DIAG_SM4_DCL_SAMPLER, "dcl_sampler needs a sampler register sN");
          return false;
        }
      in->n_ops = 1;
      n = ident (r, &id);
      if (n > 5 && !g_ascii_strncasecmp (id, "mode_", 5))
        id += 5, n -= 5;
      if (n == 7 && !g_ascii_strncasecmp (id, "default", 7))
        in->ctrl = SM4_SAMPLER_DEFAULT;
      else if (n == 10 && !g_ascii_strncasecmp (id, "comparison", 10))
        in->ctrl = SM4_SAMPLER_COMPARISON;
      else if (n == 4 && !g_ascii_strncasecmp (id, "mono", 4))
        in->ctrl = SM4_SAMPLER_MONO;
      else
        {
          rerror (r, id, SL_DIAG_SM4_SAMPLER_MODE,
                  "unknown sampler mode '%.*s' (expected mode_default, mode_comparison or mode_mono)", n, id);
          return false;
        }
      return true;
    case SM4_DCL_RESOURCE:
      {
        int d = suffix_len > 1 ? find_named (dims, suffix + 1, suffix_len - 1) : -1;
        if (d < 0)
          {
            rerror (r, suffix, SL_DIAG_SM4_DCL_RESOURCE_KIND,
                    "expected dcl_resource_texture1d, _texture2d, _texture3d or _texturecube");
            return false;
          }
        in->ctrl = (uint32_t) d;
        uint32_t rt = 0;
        if (!expect (r, '('))
          return false;
        for (int c = 0; c < 4; c++)
          {
            n = ident (r, &id);
            int t = find_named (ret_types, id, n);
            if (t < 0)
              {
                rerror (r, id, SL_DIAG_SM4_RETURN_TYPE, "unknown return type '%.*s'", n, id);
                return false;
              }
            rt |= (uint32_t) t << (4 * c);
            if (c < 3 && !expect (r, ','))
              return false;
          }
        if (!expect (r, ')'))
          return false;
        set_data (in, &rt, 1);
        if (!parse_operand (r, &in->ops[0], false, false))
          return false;
        if (in->ops[0].type != SM4_REG_RESOURCE)
          {
            rerror (r, r->operand, SL_DIAG_SM4_DCL_RESOURCE, "dcl_resource needs a resource register tN");
            return false;
          }
        in->ops[0].n_comp = 0;
        in->n_ops = 1;
        return true;
      }
    case SM4_DCL_INPUT_PS: case SM4_DCL_INPUT_PS_SIV: case SM4_DCL_INPUT_PS_SGV:
    case SM4_DCL_INPUT: case SM4_DCL_INPUT_SIV: case SM4_DCL_INPUT_SGV:
      {
        bool lin = false, cent = false, nopersp = false, samp = false, cons = false;
        bool has_sysval = in->op != SM4_DCL_INPUT_PS && in->op != SM4_DCL_INPUT;
        for (;;)
          {
            skip_blank (r);
            const char *save = r->p;
            n = ident (r, &id);
            if (n == 8 && !strncmp (id, "constant", 8)) cons = true;
            else if (n == 6 && !strncmp (id, "linear", 6)) lin = true;
            else if (n == 8 && !strncmp (id, "centroid", 8)) cent = true;
            else if (n == 13 && !strncmp (id, "noperspective", 13)) nopersp = true;
            else if (n == 6 && !strncmp (id, "sample", 6)) samp = true;
            else
              {
                r->p = save;
                break;
              }
          }
        in->ctrl = cons ? 1 : !lin ? 0 : samp ? (nopersp ? 7 : 6)
                   : nopersp ? (cent ? 5 : 4) : cent ? 3 : 2;
        if (!parse_operand (r, &in->ops[0], true, false))
          return false;
        if (in->ops[0].type != SM4_REG_INPUT)
          {
            rerror (r, r->operand, SL_DIAG_SM4_DCL_INPUT,
                    "%s needs an input register vN", sm4_ops[in->op].mnemonic);
            return false;
          }
        in->n_ops = 1;
        if (has_sysval)
          {
            uint32_t w;
            skip_blank (r);
            if ((in->ctrl == 4 || in->ctrl == 5 || in->ctrl == 7) && (r->p >= r->end || *r->p != ','))
              /* Some disassemblers print "dcl_input_sv linear
               * noperspective v0.xy" without the name: the only system
               * value a pixel shader receives interpolated linearly
               * without perspective is the position. */
              w = 1;
            else
              {
                if (!expect (r, ','))
                  return false;
                skip_blank (r);
                const char *name_at = r->p;
                n = ident (r, &id);
                int sv = find_named (sysvals, id, n);
                if (sv < 0)
                  {
                    rerror (r, n ? id : name_at, SL_DIAG_SM4_SYSTEM_VALUE,
                            "unknown system value '%.*s'", n, id);
                    return false;
                  }
                w = (uint32_t) sv;
              }
            set_data (in, &w, 1);
          }
        /* The reference's own spelling puts the interpolation mode last
         * as one word: "dcl_input_sv v0.x, position, linearNoperspective". */
        if (accept (r, ','))
          {
            static const char *const modes[] = {
              NULL, "constant", "linear", "linearCentroid", "linearNoperspective",
              "linearNoperspectiveCentroid", "linearSample", "linearNoperspectiveSample"
            };
            skip_blank (r);
            const char *mode_at = r->p;
            n = ident (r, &id);
            int mode = -1;
            for (int k = 1; k < (int) G_N_ELEMENTS (modes); k++)
              if ((size_t) n == strlen (modes[k]) && !g_ascii_strncasecmp (id, modes[k], (size_t) n))
                mode = k;
            if (mode < 0)
              {
                rerror (r, n ? id : mode_at, SL_DIAG_SM4_INTERPOLATION,
                        "unknown interpolation mode '%.*s'", n, id);
                return false;
              }
            if (in->ctrl && in->ctrl != (uint32_t) mode)
              {
                rerror (r, id, SL_DIAG_SM4_INTERPOLATION_TWICE, "interpolation mode given twice");
                return false;
              }
            in->ctrl = (uint32_t) mode;
          }
        return true;
      }
    case SM4_DCL_OUTPUT:
      if (!parse_operand (r, &in->ops[0], true, false))
        return false;
      if (in->ops[0].type != SM4_REG_OUTPUT && in->ops[0].type != SM4_REG_DEPTH)
        {
          rerror (r, r->operand, SL_DIAG_SM4_DCL_OUTPUT, "dcl_output needs oN or oDepth");
          return false;
        }
      in->n_ops = 1;
      return true;
    case SM4_DCL_TEMPS:
      {
        uint32_t c;
        if (!parse_uint (r, &c))
          return false;
        set_data (in, &c, 1);
        return true;
      }
    case SM4_DCL_INDEXABLE_TEMP:
      {
        skip_blank (r);
        const char *s = r->p;
        n = ident (r, &id);
        uint32_t w[3];
        if (n < 2 || id[0] != 'x' || !g_ascii_isdigit (id[1]))
          {
            rerror (r, s, SL_DIAG_SM4_DCL_INDEXABLE_TEMP, "dcl_indexableTemp needs xN[size], components");
            return false;
          }
        w[0] = 0;   /* digits within the identifier: the source need not end in a NUL */
        for (int i = 1; i < n && g_ascii_isdigit (id[i]); i++)
          w[0] = MIN (w[0] * 10 + (uint32_t) (id[i] - '0'), 65535u);
        if (!expect (r, '[') || !parse_uint (r, &w[1]) || !expect (r, ']') || !expect (r, ',')
            || !parse_uint (r, &w[2]))
          return false;
        if (w[2] < 1 || w[2] > 4 || w[1] < 1 || w[1] > 4096)
          {
            rerror (r, s, SL_DIAG_SM4_DCL_INDEXABLE_TEMP_RANGE,
                    "dcl_indexableTemp: size must be 1..4096 and components 1..4");
            return false;
          }
        set_data (in, w, 3);
        return true;
      }
    case SM4_DCL_ICB:
      {
        GArray *words = g_array_new (FALSE, FALSE, sizeof (uint32_t));
        bool ok = true;
        skip_space (r);
        if (!(ok = expect (r, '{')))
          goto icb_out;
        skip_space (r);
        while (ok && r->p < r->end && *r->p == '{')
          {
            r->p++;
            for (int c = 0; c < 4 && ok; c++)
              {
                skip_space (r);
                uint32_t v;
                ok = parse_literal (r, false, &v);
                g_array_append_val (words, v);
                skip_space (r);
                if (ok && c < 3)
                  ok = expect (r, ',');
              }
            skip_space (r);
            if (ok)
              ok = expect (r, '}');
            skip_space (r);
            if (ok && accept (r, ','))
              skip_space (r);
          }
        skip_space (r);
        if (ok)
          ok = expect (r, '}');
      icb_out:
        if (ok)
          set_data (in, (uint32_t *) words->data, words->len);
        g_array_free (words, TRUE);
        return ok;
      }
    default:
      break;
    }
  return true;
}

/* Parses one instruction line at r->p (after blanks). */
static bool
parse_insn (Rd *r, Sm4Insn *in)
{
  const char *word;
  const char *start = r->p;
  int n = ident (r, &word);
  if (!n)
    {
      rerror (r, start, SL_DIAG_SM4_EXPECTED_INSTRUCTION, "expected an instruction");
      return false;
    }
  int best = -1;
  size_t best_len = 0;
  /* The reference names opcode 97 "dcl_input_sv"; fxc prints it
   * "dcl_input_siv". */
  bool alias = n == 12 && !g_ascii_strncasecmp (word, "dcl_input_sv", 12);
  if (alias)
    best = SM4_DCL_INPUT_SIV, best_len = 12;
  for (int i = 0; i < SM4_N_OPS && !alias; i++)
    {
      size_t l = strlen (sm4_ops[i].mnemonic);
      if (l <= (size_t) n && l > best_len && !g_ascii_strncasecmp (word, sm4_ops[i].mnemonic, l)
          && (l == (size_t) n || word[l] == '_'))
        {
          best = i;
          best_len = l;
        }
    }
  if (best < 0)
    {
      rerror (r, start, SL_DIAG_SM4_UNKNOWN_INSTRUCTION, "unknown instruction '%.*s'", n, word);
      return false;
    }
  memset (in, 0, sizeof *in);
  in->op = best;
  in->line = r->line;
  in->column = (int) (start - r->line_start) + 1;
  const Sm4OpInfo *info = &sm4_ops[best];
  const char *suf = word + best_len;
  int suf_len = n - (int) best_len;
  if (info->lower == SM4L_DCL)
    return parse_decl (r, in, suf, suf_len);

  /* Suffixes: _sat, _z, _nz, _uint, _rcpFloat, _aoffimmi(u,v,w),
   * _indexable(dim)(types). */
  bool tested = best == SM4_IF || best == SM4_BREAKC || best == SM4_CONTINUEC
                || best == SM4_DISCARD || best == SM4_RETC;
  bool have_test = false;
  for (;;)
    {
      if (suf_len == 0 && r->p < r->end && *r->p == '_')
        {
          /* a suffix after a parenthesised group */
          suf = r->p;
          r->p++;
          while (r->p < r->end && (g_ascii_isalnum (*r->p) || *r->p == '_'))
            r->p++;
          suf_len = (int) (r->p - suf);
        }
      if (suf_len == 0)
        break;
      const char *seg = suf + 1;
      int sl = 1;
      while (sl < suf_len && suf[sl] != '_')
        sl++;
      int seg_len = sl - 1;
#define SEG(s) (seg_len == (int) strlen (s) && !g_ascii_strncasecmp (seg, s, seg_len))
      if (SEG ("sat") && info->type == SM4T_F && info->n_dst > 0)
        in->sat = true;
      else if (tested && SEG ("nz"))
        in->test_nz = true, have_test = true;
      else if (tested && SEG ("z"))
        in->test_nz = false, have_test = true;
      else if (best == SM4_RESINFO && SEG ("uint"))
        in->ctrl = 2;
      else if (best == SM4_RESINFO && SEG ("rcpFloat"))
        in->ctrl = 1;
      else if (SEG ("aoffimmi") && (info->lower == SM4L_SAMPLE || info->lower == SM4L_LD)
               && sl == suf_len && r->p < r->end && *r->p == '(')
        {
          r->p++;
          for (int c = 0; c < 3; c++)
            {
              uint32_t v;
              skip_blank (r);
              const char *at = r->p;
              if (!parse_literal (r, false, &v))
                return false;
              if ((int32_t) v < -8 || (int32_t) v > 7)
                {
                  rerror (r, at, SL_DIAG_SM4_OFFSET_RANGE, "texel offsets range from -8 to 7");
                  return false;
                }
              in->offset[c] = (int8_t) (int32_t) v;
              if (c < 2 && !expect (r, ','))
                return false;
            }
          if (!expect (r, ')'))
            return false;
          in->has_offset = true;
        }
      else if (SEG ("indexable") && sl == suf_len && r->p < r->end && *r->p == '(')
        {
          for (int g = 0; g < 2 && r->p < r->end && *r->p == '('; g++)
            {
              while (r->p < r->end && *r->p != ')' && *r->p != '\n')
                r->p++;
              if (!expect (r, ')'))
                return false;
            }
        }
      else
        {
          rerror (r, suf, SL_DIAG_SM4_SUFFIX,
                  "'%.*s' does not take the suffix '_%.*s'", (int) best_len, word, seg_len, seg);
          return false;
        }
#undef SEG
      suf += sl;
      suf_len -= sl;
    }
  if (tested && !have_test)
    {
      rerror (r, start, SL_DIAG_SM4_TEST_SUFFIX, "%s needs _z or _nz", info->mnemonic);
      return false;
    }

  int total = info->n_dst + info->n_src;
  for (int i = 0; i < total; i++)
    {
      if (i && !expect (r, ','))
        return false;
      bool dst = i < info->n_dst;
      bool fl = !dst && info->type == SM4T_F;
      /* sample/ld address and resinfo's level follow their own types */
      if (info->lower == SM4L_LD || info->lower == SM4L_RESINFO)
        fl = false;
      if (!parse_operand (r, &in->ops[i], dst, fl))
        return false;
    }
  in->n_ops = total;
  return true;
}

/* ---- the fxc comment header ------------------------------------------- */

static int
type_code (const char *base)
{
  if (!strcmp (base, "float") || !strcmp (base, "half") || !strcmp (base, "double")
      || !strcmp (base, "min16float") || !strcmp (base, "min10float"))
    return 3;
  if (!strcmp (base, "int") || !strcmp (base, "min16int") || !strcmp (base, "min12int"))
    return 2;
  if (!strcmp (base, "uint") || !strcmp (base, "dword") || !strcmp (base, "min16uint"))
    return 19;
  if (!strcmp (base, "bool"))
    return 1;
  return -1;
}

/* "float4x4 name[3];   // Offset: 16 Size: 4 [unused]" */
static bool
parse_var_line (const char *line, Sm4Var *v)
{
  char **w = g_strsplit_set (line, " \t;", -1);
  int i = 0;
  bool row_major = false;
  memset (v, 0, sizeof *v);
  while (w[i] && !*w[i])
    i++;
  if (w[i] && (!strcmp (w[i], "row_major") || !strcmp (w[i], "column_major")))
    row_major = !strcmp (w[i++], "row_major");
  while (w[i] && !*w[i])
    i++;
  bool ok = false;
  if (w[i])
    {
      char base[32];
      int k = 0;
      const char *t = w[i];
      while (g_ascii_isalpha (t[k]) || (k > 2 && g_ascii_isdigit (t[k]) && !strncmp (t, "min", 3) && k < 6))
        k++;
      g_snprintf (base, sizeof base, "%.*s", k, t);
      int code = type_code (base);
      int rows = 1, cols = 1;
      const char *dims = t + k;
      if (*dims && g_ascii_isdigit (*dims))
        {
          cols = *dims - '0';
          if (dims[1] == 'x' && g_ascii_isdigit (dims[2]))
            {
              rows = cols;
              cols = dims[2] - '0';
            }
        }
      i++;
      while (w[i] && !*w[i])
        i++;
      if (code > 0 && w[i])
        {
          char *nm = w[i];
          char *br = strchr (nm, '[');
          if (br)
            {
              v->elements = (uint16_t) MAX (sl_parse_decimal (br + 1, 65535), 0);
              *br = 0;
            }
          v->name = g_strdup (nm);
          v->type = code;
          v->rows = rows;
          v->columns = cols;
          v->cls = rows > 1 ? (row_major ? 2 : 3) : cols > 1 ? 1 : 0;
          const char *off = strstr (line, "Offset:");
          const char *sz = strstr (line, "Size:");
          if (off && sz)
            {
              long offset = sl_parse_decimal (off + 7, 1 << 20);
              long size = sl_parse_decimal (sz + 5, 1 << 20);
              v->offset = (uint32_t) MAX (offset, 0);
              v->size = (uint32_t) MAX (size, 0);
              /* A constant buffer holds 4096 registers (65536 bytes); the
               * defaults array is sized from this comment, so a hostile
               * size must not reach the allocator.  As in dxbc.c. */
              ok = offset >= 0 && size >= 0 && v->size <= 65536 && v->offset <= 65536;
            }
          if (!ok)
            {
              g_free (v->name);
              v->name = NULL;
            }
        }
    }
  g_strfreev (w);
  return ok;
}

static void
parse_sig_line (const char *line, GArray *sig)
{
  char **w = g_strsplit_set (line, " \t", -1);
  const char *f[8];
  int n = 0;
  for (int i = 0; w[i] && n < 8; i++)
    if (*w[i])
      f[n++] = w[i];
  /* Name Index Mask Register SysValue Format [Used] */
  if (n >= 6 && g_ascii_isdigit (f[1][0]) && g_ascii_isdigit (f[3][0]))
    {
      Sm4SigElem e = { 0 };
      e.semantic = g_strdup (f[0]);
      e.index = (int) sl_parse_decimal (f[1], 65535);
      for (const char *m = f[2]; *m; m++)
        if (comp_of (*m) >= 0)
          e.mask |= 1u << comp_of (*m);
      e.reg = (int) sl_parse_decimal (f[3], 65535);
      e.sysval = !strcmp (f[4], "POS") ? 1 : !strcmp (f[4], "FFACE") ? 9 : !strcmp (f[4], "TARGET") ? 64 : 0;
      if (n >= 7)
        for (const char *m = f[6]; *m; m++)
          if (comp_of (*m) >= 0)
            e.used |= 1u << comp_of (*m);
      g_array_append_val (sig, e);
    }
  g_strfreev (w);
}

/* Reads the reflection comments fxc writes above the code. */
static void
parse_header (Sm4Shader *sh, const char *text, size_t length)
{
  enum { NONE, CBUF, BINDINGS, INSIG, OUTSIG } mode = NONE;
  Sm4CBuffer *cb = NULL;
  Sm4Var *last_var = NULL;
  guint n_defaults = 0;
  const char *p = text, *end = text + length;
  while (p < end)
    {
      const char *nl = memchr (p, '\n', end - p);
      const char *le = nl ? nl : end;
      const char *q = p;
      while (q < le && (*q == ' ' || *q == '\t'))
        q++;
      if (q + 2 > le || q[0] != '/' || q[1] != '/')
        {
          if (q < le && *q != '\r')
            break;      /* the header ends at the first code line */
          p = nl ? nl + 1 : end;
          continue;
        }
      char *line = g_strndup (q + 2, le - q - 2);
      g_strchomp (line);
      char *t = g_strchug (g_strdup (line));
      if (g_str_has_prefix (t, "cbuffer ") || g_str_has_prefix (t, "tbuffer "))
        {
          Sm4CBuffer nb = { .name = g_strdup (g_strstrip (t + 8)), .slot = -1,
                            .vars = g_array_new (FALSE, TRUE, sizeof (Sm4Var)) };
          g_array_append_val (sh->cbuffers, nb);
          cb = &g_array_index (sh->cbuffers, Sm4CBuffer, sh->cbuffers->len - 1);
          mode = CBUF;
          last_var = NULL;
        }
      else if (mode == CBUF && !strcmp (t, "}"))
        mode = NONE;
      else if (mode == CBUF && last_var
               && (t[0] == '=' || (last_var->defaults && g_str_has_prefix (t, "0x"))))
        {
          /* "= 0x3f800000 0x00000000 …" defaults, possibly several lines */
          guint want = last_var->size / 4;
          if (!last_var->defaults)
            {
              last_var->defaults = g_new0 (uint32_t, MAX (want, 1));
              n_defaults = 0;
            }
          /* fxc wraps long defaults (matrices, arrays) over several
             lines, the later ones with or without their own "="; each
             continues where the previous one stopped. */
          char **w = g_strsplit_set (t[0] == '=' ? t + 1 : t, " \t,", -1);
          for (int i = 0; w[i]; i++)
            if (g_str_has_prefix (w[i], "0x") && n_defaults < want)
              last_var->defaults[n_defaults++] = (uint32_t) g_ascii_strtoull (w[i] + 2, NULL, 16);
          g_strfreev (w);
        }
      else if (mode == CBUF && strstr (t, "Offset:"))
        {
          Sm4Var v;
          if (parse_var_line (t, &v))
            {
              g_array_append_val (cb->vars, v);
              last_var = &g_array_index (cb->vars, Sm4Var, cb->vars->len - 1);
            }
        }
      else if (g_str_has_prefix (t, "Resource Bindings:"))
        mode = BINDINGS;
      else if (g_str_has_prefix (t, "Input signature:"))
        mode = INSIG;
      else if (g_str_has_prefix (t, "Output signature:"))
        mode = OUTSIG;
      else if (mode == BINDINGS && *t && t[0] != '-' && !g_str_has_prefix (t, "Name "))
        {
          char **w = g_strsplit_set (t, " \t", -1);
          const char *f[8];
          int n = 0;
          for (int i = 0; w[i] && n < 8; i++)
            if (*w[i])
              f[n++] = w[i];
          if (n >= 4)
            {
              Sm4Binding b = { .slot = -1 };
              b.kind = !strcmp (f[1], "sampler") ? 3 : !strcmp (f[1], "texture") ? 2
                       : !strcmp (f[1], "cbuffer") ? 0 : -1;
              const char *bind = f[n - 2];
              while (*bind && !g_ascii_isdigit (*bind))
                bind++;
              if (*bind)
                b.slot = (int) sl_parse_decimal (bind, 65535);
              b.dim = 4;
              if (n >= 5)
                b.dim = !strcmp (f[3], "1d") ? 2 : !strcmp (f[3], "3d") ? 8 : !strcmp (f[3], "cube") ? 9 : 4;
              if (b.kind >= 0 && b.slot >= 0)
                {
                  b.name = g_strdup (f[0]);
                  g_array_append_val (sh->bindings, b);
                }
            }
          g_strfreev (w);
        }
      else if ((mode == INSIG || mode == OUTSIG) && *t && t[0] != '-' && !g_str_has_prefix (t, "Name "))
        parse_sig_line (t, mode == INSIG ? sh->inputs : sh->outputs);
      g_free (t);
      g_free (line);
      p = nl ? nl + 1 : end;
    }
  /* cbuffer slots come from the binding table */
  for (guint i = 0; i < sh->cbuffers->len; i++)
    {
      Sm4CBuffer *c = &g_array_index (sh->cbuffers, Sm4CBuffer, i);
      for (guint k = 0; k < sh->bindings->len; k++)
        {
          Sm4Binding *b = &g_array_index (sh->bindings, Sm4Binding, k);
          if (b->kind == 0 && !strcmp (b->name, c->name))
            c->slot = b->slot;
        }
      if (c->slot < 0)
        c->slot = (int) i;
      for (guint k = 0; k < c->vars->len; k++)
        {
          Sm4Var *v = &g_array_index (c->vars, Sm4Var, k);
          c->size = MAX (c->size, (v->offset + v->size + 15) & ~15u);
        }
    }
  sh->has_reflection = sh->cbuffers->len || sh->bindings->len || sh->inputs->len || sh->outputs->len;
}

Sm4Shader *
sm4_assemble (const char *text, size_t length, const char *filename, SlDiagnostics *diags)
{
  Rd r = { .p = text, .end = text + length, .line_start = text, .line = 1,
           .file = filename ? filename : "<source>", .diags = diags };
  Sm4Shader *sh = sm4_shader_new ();
  parse_header (sh, text, length);
  skip_space (&r);
  /* A feature-level-9 listing carries its ps_2_0 fallback between the
     header and the SM4 program; the SM4 program is the shader. */
  if (r.end - r.p > 4 && !g_ascii_strncasecmp (r.p, "ps_", 3) && r.p[3] < '4'
      && g_strstr_len (text, r.p - text, "Level9 shader bytecode:"))
    while (r.p < r.end && !(!g_ascii_strncasecmp (r.p, "ps_", 3) && r.p[3] >= '4' && r.p[3] <= '9'))
      {
        while (r.p < r.end && *r.p != '\n')
          r.p++;
        skip_space (&r);
      }
  const char *id;
  const char *vstart = r.p;
  int n = ident (&r, &id);
  if (n == 6 && !g_ascii_strncasecmp (id, "ps_", 3) && g_ascii_isdigit (id[3]) && id[4] == '_'
      && g_ascii_isdigit (id[5]))
    {
      sh->major = id[3] - '0';
      sh->minor = id[5] - '0';
      if (!((sh->major == 4 && sh->minor <= 1) || (sh->major == 5 && sh->minor == 0)))
        rerror (&r, vstart, SL_DIAG_SM4_VERSION,
                "unsupported version %.*s (expected ps_4_0, ps_4_1 or ps_5_0)", n, id);
    }
  else if (n >= 6 && id[2] == '_' && g_ascii_isdigit (id[3]) && id[3] >= '4')
    rerror (&r, vstart, SL_DIAG_SM4_NOT_PIXEL_SHADER, "only pixel shaders are supported, not %.*s", n, id);
  else
    rerror (&r, vstart, SL_DIAG_SM4_EXPECTED_VERSION, "expected a version line such as ps_4_0");
  if (r.failed)
    goto fail;
  if (!at_eol (&r))
    {
      rerror (&r, r.p, SL_DIAG_SM4_VERSION_TRAILING, "unexpected text after the version");
      goto fail;
    }
  for (;;)
    {
      skip_space (&r);
      if (r.p >= r.end)
        break;
      /* fxc /Zi listings interleave "#line N \"file\"" markers that map
         code back to the HLSL; they carry nothing the program needs. */
      if (*r.p == '#' && r.end - r.p >= 5 && !strncmp (r.p + 1, "line", 4)
          && (r.end - r.p == 5 || r.p[5] == ' ' || r.p[5] == '\t' || r.p[5] == '\r' || r.p[5] == '\n'))
        {
          while (r.p < r.end && *r.p != '\n')
            r.p++;
          continue;
        }
      Sm4Insn in = { 0 };
      if (!parse_insn (&r, &in))
        {
          g_free (in.data);   /* a declaration may fail after set_data */
          /* resynchronise at the next line */
          while (r.p < r.end && *r.p != '\n')
            r.p++;
          continue;
        }
      if (!at_eol (&r))
        {
          rerror (&r, r.p, SL_DIAG_SM4_INSTRUCTION_TRAILING, "unexpected text after the instruction");
          g_free (in.data);
          while (r.p < r.end && *r.p != '\n')
            r.p++;
          continue;
        }
      g_array_append_val (sh->insns, in);
    }
  if (r.failed)
    goto fail;
  return sh;
fail:
  sm4_shader_free (sh);
  return NULL;
}

/* ------------------------------------------------------------------ */
/* Printer                                                              */
/* ------------------------------------------------------------------ */

static void
print_float (GString *out, uint32_t bits)
{
  float f = sl_u2f (bits);
  if (!isfinite (f))
    {
      g_string_append_printf (out, "0x%08x", bits);
      return;
    }
  char buf[64];
  g_ascii_formatd (buf, sizeof buf, "%f", f);
  if (sl_f2u ((float) g_ascii_strtod (buf, NULL)) != bits)
    {
      g_ascii_formatd (buf, sizeof buf, "%.9g", f);
      if (!strpbrk (buf, ".e"))
        strcat (buf, ".0");
      if (sl_f2u ((float) g_ascii_strtod (buf, NULL)) != bits)
        {
          g_string_append_printf (out, "0x%08x", bits);
          return;
        }
    }
  g_string_append (out, buf);
}

/* Typeless literals: a float when the bits look like one a person wrote. */
static void
print_literal (GString *out, uint32_t bits, Sm4Type type)
{
  if (type == SM4T_F)
    {
      print_float (out, bits);
      return;
    }
  if (type == SM4T_U)
    {
      g_string_append_printf (out, "%u", bits);
      return;
    }
  if (type == SM4T_X)
    {
      float a = fabsf (sl_u2f (bits));
      if (bits != 0 && isfinite (a) && a >= 1e-6f && a < 1e7f)
        {
          print_float (out, bits);
          return;
        }
    }
  g_string_append_printf (out, "%d", (int32_t) bits);
}

static void
print_comps (GString *out, const Sm4Operand *o)
{
  static const char xyzw[] = "xyzw";
  if (o->n_comp != 4)
    return;
  g_string_append_c (out, '.');
  if (o->sel == SM4_SEL_MASK)
    {
      for (int c = 0; c < 4; c++)
        if (o->mask & (1u << c))
          g_string_append_c (out, xyzw[c]);
    }
  else if (o->sel == SM4_SEL_SELECT1)
    g_string_append_c (out, xyzw[o->swz[0]]);
  else
    for (int c = 0; c < 4; c++)
      g_string_append_c (out, xyzw[o->swz[c]]);
}

static void
print_index (GString *out, const Sm4Operand *o, int k)
{
  static const char xyzw[] = "xyzw";
  g_string_append_c (out, '[');
  if (o->has_rel[k])
    g_string_append_printf (out, "%c%u.%c + %u", o->rel[k].type == SM4_REG_TEMP ? 'r' : 'v',
                            o->rel[k].index, xyzw[o->rel[k].comp], o->idx[k]);
  else
    g_string_append_printf (out, "%u", o->idx[k]);
  g_string_append_c (out, ']');
}

static void
print_operand (GString *out, const Sm4Operand *o, Sm4Type type)
{
  if (o->modifier & SM4_MOD_NEG)
    g_string_append_c (out, '-');
  if (o->modifier & SM4_MOD_ABS)
    g_string_append_c (out, '|');
  switch (o->type)
    {
    case SM4_REG_IMM32:
      g_string_append (out, "l(");
      for (int c = 0; c < o->n_comp; c++)
        {
          if (c)
            g_string_append (out, ", ");
          print_literal (out, o->imm[c], type);
        }
      g_string_append_c (out, ')');
      break;
    case SM4_REG_NULL: g_string_append (out, "null"); break;
    case SM4_REG_DEPTH: g_string_append (out, "oDepth"); break;
    case SM4_REG_ICB:
      g_string_append (out, "icb");
      print_index (out, o, 0);
      print_comps (out, o);
      break;
    case SM4_REG_INDEXABLE_TEMP: case SM4_REG_CB:
      g_string_append_printf (out, "%s%u", o->type == SM4_REG_CB ? "cb" : "x", o->idx[0]);
      print_index (out, o, 1);
      print_comps (out, o);
      break;
    default:
      {
        char c = o->type == SM4_REG_TEMP ? 'r' : o->type == SM4_REG_INPUT ? 'v'
                 : o->type == SM4_REG_OUTPUT ? 'o' : o->type == SM4_REG_RESOURCE ? 't' : 's';
        g_string_append_printf (out, "%c%u", c, o->idx[0]);
        print_comps (out, o);
      }
      break;
    }
  if (o->modifier & SM4_MOD_ABS)
    g_string_append_c (out, '|');
}

static const char *
var_type_name (const Sm4Var *v)
{
  switch (v->type)
    {
    case 1: return "bool";
    case 2: return "int";
    case 19: return "uint";
    default: return "float";
    }
}

static void
print_header (GString *out, const Sm4Shader *sh)
{
  if (!sh->cbuffers->len && !sh->bindings->len && !sh->inputs->len && !sh->outputs->len)
    return;
  g_string_append (out, "//\n// Buffer Definitions: \n//\n");
  for (guint i = 0; i < sh->cbuffers->len; i++)
    {
      const Sm4CBuffer *cb = &g_array_index (sh->cbuffers, Sm4CBuffer, i);
      g_string_append_printf (out, "// cbuffer %s\n// {\n//\n", cb->name);
      for (guint k = 0; k < cb->vars->len; k++)
        {
          const Sm4Var *v = &g_array_index (cb->vars, Sm4Var, k);
          GString *decl = g_string_new ("//   ");
          if (v->cls == 2)
            g_string_append (decl, "row_major ");
          g_string_append (decl, var_type_name (v));
          if (v->rows > 1)
            g_string_append_printf (decl, "%dx%d", v->rows, v->columns);
          else if (v->columns > 1)
            g_string_append_printf (decl, "%d", v->columns);
          g_string_append_printf (decl, " %s", v->name);
          if (v->elements)
            g_string_append_printf (decl, "[%d]", v->elements);
          g_string_append_c (decl, ';');
          g_string_append_printf (out, "%-40s // Offset: %4u Size: %5u\n", decl->str, v->offset, v->size);
          g_string_free (decl, TRUE);
          if (v->defaults)
            {
              for (guint w = 0; w < v->size / 4; w++)
                g_string_append_printf (out, "%s0x%08x%s", w % 4 == 0 ? "//      = " : " ",
                                        v->defaults[w], w % 4 == 3 || w + 1 == v->size / 4 ? "\n" : "");
            }
        }
      g_string_append (out, "//\n// }\n//\n");
    }
  g_string_append (out, "//\n// Resource Bindings:\n//\n"
                        "// Name                                 Type  Format         Dim      HLSL Bind  Count\n"
                        "// ------------------------------ ---------- ------- ----------- -------------- ------\n");
  for (guint i = 0; i < sh->bindings->len; i++)
    {
      const Sm4Binding *b = &g_array_index (sh->bindings, Sm4Binding, i);
      const char *type = b->kind == 3 ? "sampler" : b->kind == 2 ? "texture" : "cbuffer";
      const char *fmt = b->kind == 2 ? "float4" : "NA";
      const char *dim = b->kind != 2 ? "NA" : b->dim == 2 ? "1d" : b->dim == 8 ? "3d" : b->dim == 9 ? "cube" : "2d";
      char bind[16];
      g_snprintf (bind, sizeof bind, "%s%d", b->kind == 3 ? "s" : b->kind == 2 ? "t" : "cb", b->slot);
      g_string_append_printf (out, "// %-30s %10s %7s %11s %14s %6d\n", b->name, type, fmt, dim, bind, 1);
    }
  for (int s = 0; s < 2; s++)
    {
      GArray *sig = s ? sh->outputs : sh->inputs;
      g_string_append_printf (out, "//\n//\n//\n// %s signature:\n//\n"
                                   "// Name                 Index   Mask Register SysValue  Format   Used\n"
                                   "// -------------------- ----- ------ -------- -------- ------- ------\n",
                              s ? "Output" : "Input");
      for (guint i = 0; i < sig->len; i++)
        {
          const Sm4SigElem *e = &g_array_index (sig, Sm4SigElem, i);
          char mask[5] = "    ", used[5] = "    ";
          for (int c = 0; c < 4; c++)
            {
              if (e->mask & (1u << c))
                mask[c] = "xyzw"[c];
              if (e->used & (1u << c))
                used[c] = "xyzw"[c];
            }
          const char *sv = e->sysval == 1 ? "POS" : e->sysval == 9 ? "FFACE" : e->sysval == 64 ? "TARGET" : "NONE";
          g_string_append_printf (out, "// %-20s %5d   %s %8d %8s   float   %s\n", e->semantic, e->index,
                                  mask, e->reg, sv, used);
        }
    }
  g_string_append (out, "//\n");
}

char *
sm4_print (const Sm4Shader *sh)
{
  GString *out = g_string_new (NULL);
  print_header (out, sh);
  g_string_append_printf (out, "ps_%d_%d\n", sh->major, sh->minor);
  int depth = 0;
  for (guint i = 0; i < sh->insns->len; i++)
    {
      const Sm4Insn *in = &g_array_index (sh->insns, Sm4Insn, i);
      const Sm4OpInfo *info = &sm4_ops[in->op];
      if (in->op == SM4_ELSE || in->op == SM4_ENDIF || in->op == SM4_ENDLOOP)
        depth = MAX (depth - 1, 0);
      g_string_append_printf (out, "%*s", 2 * depth, "");
      if (in->op == SM4_IF || in->op == SM4_ELSE || in->op == SM4_LOOP)
        depth++;
      g_string_append (out, info->mnemonic);
      switch (in->op)
        {
        case SM4_DCL_GLOBAL_FLAGS:
          {
            bool first = true;
            for (int k = 0; global_flags[k].name; k++)
              if (in->ctrl & global_flags[k].value)
                {
                  g_string_append_printf (out, "%s%s", first ? " " : " | ", global_flags[k].name);
                  first = false;
                }
          }
          break;
        case SM4_DCL_CONSTANT_BUFFER:
          g_string_append_printf (out, " cb%u[%u], %s", in->ops[0].idx[0], in->ops[0].idx[1],
                                  in->ctrl ? "dynamicIndexed" : "immediateIndexed");
          break;
        case SM4_DCL_SAMPLER:
          g_string_append_printf (out, " s%u, %s", in->ops[0].idx[0],
                                  in->ctrl == SM4_SAMPLER_COMPARISON ? "mode_comparison"
                                  : in->ctrl == SM4_SAMPLER_MONO ? "mode_mono" : "mode_default");
          break;
        case SM4_DCL_RESOURCE:
          {
            const char *d = name_of (dims, in->ctrl);
            g_string_append_printf (out, "_%s (", d ? d : "texture2d");
            for (int c = 0; c < 4; c++)
              {
                const char *t = name_of (ret_types, in->n_data ? (in->data[0] >> (4 * c)) & 15 : 5);
                g_string_append_printf (out, "%s%s", c ? "," : "", t ? t : "float");
              }
            g_string_append_printf (out, ") t%u", in->ops[0].idx[0]);
          }
          break;
        case SM4_DCL_INPUT_PS: case SM4_DCL_INPUT_PS_SIV: case SM4_DCL_INPUT_PS_SGV:
        case SM4_DCL_INPUT: case SM4_DCL_INPUT_SIV: case SM4_DCL_INPUT_SGV:
          if (in->ctrl && in->ctrl < G_N_ELEMENTS (interp_names))
            g_string_append_printf (out, " %s", interp_names[in->ctrl]);
          g_string_append_c (out, ' ');
          print_operand (out, &in->ops[0], SM4T_X);
          if (in->op != SM4_DCL_INPUT_PS && in->op != SM4_DCL_INPUT)
            {
              const char *sv = in->n_data ? name_of (sysvals, in->data[0]) : NULL;
              g_string_append_printf (out, ", %s", sv ? sv : "position");
            }
          break;
        case SM4_DCL_OUTPUT:
          g_string_append_c (out, ' ');
          print_operand (out, &in->ops[0], SM4T_X);
          break;
        case SM4_DCL_TEMPS:
          g_string_append_printf (out, " %u", in->n_data ? in->data[0] : 0);
          break;
        case SM4_DCL_INDEXABLE_TEMP:
          g_string_append_printf (out, " x%u[%u], %u", in->data[0], in->data[1], in->data[2]);
          break;
        case SM4_DCL_ICB:
          g_string_append (out, " {");
          for (int k = 0; k + 3 < in->n_data; k += 4)
            {
              g_string_append (out, k ? ",\n                              { " : " { ");
              for (int c = 0; c < 4; c++)
                {
                  if (c)
                    g_string_append (out, ", ");
                  print_literal (out, in->data[k + c], SM4T_X);
                }
              g_string_append (out, "}");
            }
          g_string_append (out, " }");
          break;
        default:
          {
            if (in->op == SM4_RESINFO && in->ctrl == 1)
              g_string_append (out, "_rcpFloat");
            else if (in->op == SM4_RESINFO && in->ctrl == 2)
              g_string_append (out, "_uint");
            if (in->has_offset)
              g_string_append_printf (out, "_aoffimmi(%d,%d,%d)", in->offset[0], in->offset[1], in->offset[2]);
            if (info->lower == SM4L_IF || info->lower == SM4L_BREAKC || info->lower == SM4L_CONTINUEC
                || info->lower == SM4L_DISCARD || info->lower == SM4L_RETC)
              g_string_append (out, in->test_nz ? "_nz" : "_z");
            if (in->sat)
              g_string_append (out, "_sat");
            for (int k = 0; k < in->n_ops; k++)
              {
                g_string_append (out, k ? ", " : " ");
                Sm4Type t = (Sm4Type) info->type;
                if (info->lower == SM4L_LD || info->lower == SM4L_RESINFO)
                  t = SM4T_I;
                print_operand (out, &in->ops[k], t);
              }
          }
          break;
        }
      g_string_append_c (out, '\n');
    }
  g_string_append_printf (out, "// Approximately %u instruction slots used\n", sh->insns->len);
  return g_string_free (out, FALSE);
}
