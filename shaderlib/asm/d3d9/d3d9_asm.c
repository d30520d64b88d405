/* D3D9 pixel-shader assembly: text → D9Shader, the per-version validator,
 * and the canonical printer.
 *
 * The parser works one line at a time (the assembly has one instruction
 * per line) and stores operands in token terms so that d9_validate can
 * check text and bytecode alike.  The rules come from the reference pages'
 * version tables: the instruction table (d3d9_tables.def) gives each
 * instruction's version range; the register, modifier and swizzle rules
 * live in the small tables below.  Every message names the rule and the
 * version the shader declared, e.g. "_bx2 is not allowed on texreg2ar in
 * ps_1_3".  ps_2_a and ps_2_b share the ps_2_x version and differ only in
 * their caps (profiles_2x), which the register, swizzle and instruction
 * checks consult for ps_2_x.  Two rules concern the whole shader and run
 * after the per-instruction checks: the instruction-slot budgets and the
 * dependent-read limit of ps_2_0/ps_2_b.
 *
 * fxc listings start with a comment header that names the constants
 * ("// Registers: … Amount c0 1"); the parser reads it into the same
 * constant table the bytecode's CTAB fills, so listings get named
 * parameters.  d9_print writes that header back, which is what makes the
 * printed text re-assemble to the same program. */
#include "asm/d3d9/d3d9.h"
#include "base/diag.h"
#include "base/readers.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const D9OpInfo d9_ops[D9_N_OPS] = {
#define D9_OP(id, nm, cd, nd, ns, mn, mx, fl, kd, s1, s14, s2, cube) \
  { nm, cd, nd, ns, mn, mx, fl, D9K_##kd, s1, s14, s2, cube },
#include "asm/d3d9/d3d9_tables.def"
#undef D9_OP
};

static const char *const version_names[] = {
  "ps_1_0", "ps_1_1", "ps_1_2", "ps_1_3", "ps_1_4", "ps_2_0", "ps_2_x", "ps_2_sw", "ps_3_0", "ps_3_sw"
};

const char *
d9_version_name (D9Version v)
{
  return version_names[v];
}

void
d9_version_token (D9Version v, int *major, int *minor)
{
  static const int mj[] = { 1, 1, 1, 1, 1, 2, 2, 2, 3, 3 };
  static const int mi[] = { 0, 1, 2, 3, 4, 0, 1, 255, 0, 255 };
  *major = mj[v];
  *minor = mi[v];
}

/* The ps_2_x profiles.  ps_2_a and ps_2_b are the D3DXGetPixelShaderProfile
 * page's lists: ps_2_0 plus, for ps_2_a, at least 22 temporaries,
 * arbitrary swizzle, gradient instructions, predication, no dependent-read
 * limit and no texture-instruction limit; for ps_2_b, 32 temporaries and
 * no texture-instruction limit.  Neither list has flow control, and the
 * Flow Control Limitations page says ps_2_0 has none, so both have static
 * and dynamic depth 0 (the ps_2_x page: a depth of 0 means the
 * instructions are unsupported).  "ps_2_x" on its own keeps everything a
 * ps_2_x device may report (D3DPS20_MAX_*: 32 temporaries, static depth
 * 4, dynamic depth 24, all cap bits), so any ps_2_x listing assembles. */
static const struct
{
  const char *name;
  D9Caps2x    caps;
} profiles_2x[] = {
  { "ps_2_x", { 0x1f, 32, 4, 24 } },
  { "ps_2_a", { D9_CAP_ARBITRARY_SWIZZLE | D9_CAP_GRADIENT | D9_CAP_PREDICATION
                | D9_CAP_NO_DEPENDENT_READ_LIMIT | D9_CAP_NO_TEX_LIMIT, 22, 0, 0 } },
  { "ps_2_b", { D9_CAP_NO_TEX_LIMIT, 32, 0, 0 } },
};

bool
d9_profile_caps (const char *name, D9Caps2x *caps)
{
  for (size_t i = 0; i < G_N_ELEMENTS (profiles_2x); i++)
    if (!g_ascii_strcasecmp (name, profiles_2x[i].name))
      {
        *caps = profiles_2x[i].caps;
        return true;
      }
  return false;
}

D9Shader *
d9_shader_new (const char *file)
{
  D9Shader *s = g_new0 (D9Shader, 1);
  s->arena = sl_arena_new ();
  s->file = sl_arena_strdup (s->arena, file ? file : "<source>");
  s->insns = g_array_new (FALSE, TRUE, sizeof (D9Insn));
  s->constants = g_array_new (FALSE, TRUE, sizeof (D9Constant));
  s->caps = profiles_2x[0].caps;   /* bytecode 2.1 names no profile */
  return s;
}

void
d9_shader_free (D9Shader *s)
{
  if (!s)
    return;
  g_array_free (s->insns, TRUE);
  g_array_free (s->constants, TRUE);
  sl_arena_free (s->arena);
  g_free (s);
}

int
d9_find_op (const char *name, D9Version v, int n_operands)
{
  int best = -1;
  for (int i = 0; i < D9_N_OPS; i++)
    {
      const D9OpInfo *o = &d9_ops[i];
      if (strcmp (o->name, name))
        continue;
      D9Version e = v == V10 ? V11 : v;
      bool in_range = e >= o->min && e <= o->max;
      bool count_ok = n_operands < 0 || n_operands == o->n_dst + o->n_src;
      if (in_range && count_ok)
        return i;
      if (best < 0 || (in_range && !(e >= d9_ops[best].min && e <= d9_ops[best].max)))
        best = i;
    }
  return best;
}

/* ------------------------------------------------------------------ */
/* Register names                                                       */
/* ------------------------------------------------------------------ */

typedef struct
{
  const char *prefix;
  uint8_t     type;
  uint16_t    index;       /* fixed index for named registers */
  bool        numbered;
} RegName;

/* Longest prefixes first so "oC" wins over "o…" and "vPos" over "v". */
static const RegName reg_names[] = {
  { "oDepth", D9_REG_DEPTHOUT, 0, false },
  { "vFace", D9_REG_MISCTYPE, 1, false },
  { "vPos", D9_REG_MISCTYPE, 0, false },
  { "oC", D9_REG_COLOROUT, 0, true },
  { "aL", D9_REG_LOOP, 0, false },
  { "r", D9_REG_TEMP, 0, true },
  { "c", D9_REG_CONST, 0, true },
  { "t", D9_REG_TEXTURE, 0, true },
  { "v", D9_REG_INPUT, 0, true },
  { "s", D9_REG_SAMPLER, 0, true },
  { "i", D9_REG_CONSTINT, 0, true },
  { "b", D9_REG_CONSTBOOL, 0, true },
  { "p", D9_REG_PREDICATE, 0, true },
  { "l", D9_REG_LABEL, 0, true },
};

static void
reg_text (GString *out, const D9Param *p)
{
  for (size_t i = 0; i < G_N_ELEMENTS (reg_names); i++)
    if (reg_names[i].type == p->type && (reg_names[i].numbered || reg_names[i].index == p->index))
      {
        g_string_append (out, reg_names[i].prefix);
        if (reg_names[i].numbered)
          g_string_append_printf (out, "%u", p->index);
        if (p->relative)
          g_string_append (out, "[aL]");
        return;
      }
  g_string_append_printf (out, "?%u", p->type);
}

/* Per-version register counts; 0 = not available.  From the "Registers"
 * tables of the ps_1_1–ps_3_0 reference pages. */
static int
reg_count (const D9Shader *sh, int type, bool as_dst)
{
  D9Version v = sh->version;
  bool v1 = v <= V13;
  switch (type)
    {
    case D9_REG_TEMP:
      return v <= V13 ? 2 : v == V14 ? 6 : v == V20 ? 12 : v == V2X ? sh->caps.num_temps : 32;
    case D9_REG_CONST:
      return v <= V14 ? 8 : v <= V2X ? 32 : v == V30 ? 224 : 8192;
    case D9_REG_TEXTURE:
      return v1 ? 4 : v == V14 ? 6 : v < V30 ? 8 : 0;
    case D9_REG_INPUT:
      return v < V30 ? 2 : 10;
    case D9_REG_SAMPLER:
      return v >= V20 ? 16 : 0;
    case D9_REG_CONSTINT:
    case D9_REG_CONSTBOOL:
      return v >= V2X ? 16 : 0;
    case D9_REG_PREDICATE:
      return v == V2X ? !!(sh->caps.caps & D9_CAP_PREDICATION) : v > V2X;
    case D9_REG_LOOP:
      return v >= V30 ? 1 : 0;
    case D9_REG_COLOROUT:
      return v >= V20 ? 4 : 0;
    case D9_REG_DEPTHOUT:
      return v >= V20 ? 1 : 0;
    case D9_REG_MISCTYPE:
      return v >= V30 ? 2 : 0;
    case D9_REG_LABEL:
      return v >= V2X ? 2048 : 0;
    default:
      (void) as_dst;
      return 0;
    }
}

/* Read ports: how many *different* registers of one type a single
 * instruction may read (the same register read twice uses one port).
 * Columns are D9Version (ps_1_0 … ps_3_sw); 0 = no limit.
 *
 * ps_1_x: the "Read Port Limit" table of the ps_1_X Registers page.
 * ps_2_0, ps_2_x, ps_3_0: the pages' "# Read ports" column says 1 for
 * c# and v#, yet the same pages' worked example (mad r0, c0, c0, c1 valid,
 * mad r0, c1, c2, c3 not) and fxc's own output (mad r0, r0, c0, c1;
 * mad r0, r0, v0, v1 in ps_2_0) read two.  The column that agrees with
 * both is "# Reads/inst", so that is the figure used, as a limit on
 * distinct registers: c# 2 in ps_2_0/ps_2_x, t# s# i# b# p0 1, and r#, v#
 * (and c# in ps_3_0) "Unlimited".  The software versions take their
 * hardware version's limits.  aL, vPos and vFace are single registers,
 * labels are not data, so none has a row. */
typedef struct
{
  uint8_t     type;         /* D9_REG_* */
  const char *what;         /* "constant" in "… different constant registers" */
  uint8_t     ports[V3SW + 1];
} ReadPorts;

static const ReadPorts read_ports[] = {
  /*                              1_0 1_1 1_2 1_3 1_4 2_0 2_x 2sw 3_0 3sw */
  { D9_REG_TEMP,      "temporary", { 2, 2, 2, 2, 3, 0, 0, 0, 0, 0 } },
  { D9_REG_CONST,     "constant",  { 2, 2, 2, 2, 2, 2, 2, 2, 0, 0 } },
  { D9_REG_TEXTURE,   "texture",   { 2, 2, 3, 3, 1, 1, 1, 1, 0, 0 } },
  { D9_REG_INPUT,     "input",     { 2, 2, 2, 2, 2, 0, 0, 0, 0, 0 } },
  { D9_REG_SAMPLER,   "sampler",   { 0, 0, 0, 0, 0, 1, 1, 1, 1, 1 } },
  { D9_REG_CONSTINT,  "integer constant", { 0, 0, 0, 0, 0, 0, 1, 1, 1, 1 } },
  { D9_REG_CONSTBOOL, "boolean constant", { 0, 0, 0, 0, 0, 0, 1, 1, 1, 1 } },
  { D9_REG_PREDICATE, "predicate", { 0, 0, 0, 0, 0, 0, 1, 1, 1, 1 } },
};

/* ------------------------------------------------------------------ */
/* Parser                                                               */
/* ------------------------------------------------------------------ */

typedef struct
{
  D9Shader      *sh;
  SlDiagnostics *diags;
  int            line;
  const char    *line_start;
  bool           failed;
  GHashTable    *param_types;   /* fxc header: name → type text */
  bool           in_registers;
} P;

static void G_GNUC_PRINTF (4, 5)
perr (P *p, const char *at, SlDiagKind kind, const char *fmt, ...)
{
  int col = at ? (int) (at - p->line_start) + 1 : 1;
  va_list ap;
  va_start (ap, fmt);
  sl_diag_v (p->diags, kind, p->sh->file, p->line, col, fmt, ap);
  va_end (ap);
  p->failed = true;
}

static const char *
skip_ws (const char *s, const char *end)
{
  while (s < end && (*s == ' ' || *s == '\t' || *s == '\r'))
    s++;
  return s;
}

static int
comp_index (char c)
{
  switch (g_ascii_tolower (c))
    {
    case 'x': case 'r': return 0;
    case 'y': case 'g': return 1;
    case 'z': case 'b': return 2;
    case 'w': case 'a': return 3;
    default: return -1;
    }
}

/* Parses a register name at *s; advances past it. */
static bool
parse_reg (P *p, const char **s, const char *end, D9Param *out)
{
  const char *q = *s;
  for (size_t i = 0; i < G_N_ELEMENTS (reg_names); i++)
    {
      size_t n = strlen (reg_names[i].prefix);
      if ((size_t) (end - q) < n || strncmp (q, reg_names[i].prefix, n))
        continue;
      const char *r = q + n;
      if (reg_names[i].numbered)
        {
          if (r >= end || !g_ascii_isdigit (*r))
            continue;
          unsigned long idx = 0;
          while (r < end && g_ascii_isdigit (*r))
            {
              idx = idx * 10 + (unsigned) (*r - '0');
              if (idx > 0xffff)
                {
                  perr (p, q, SL_DIAG_D3D9_REGISTER_INDEX, "register index is too large");
                  return false;
                }
              r++;
            }
          out->index = (uint16_t) idx;
        }
      else
        {
          if (r < end && (g_ascii_isalnum (*r) || *r == '_') && *r != '_')
            continue;
          out->index = reg_names[i].index;
        }
      out->type = reg_names[i].type;
      if (r < end && *r == '[')
        {
          const char *e = r + 1;
          e = skip_ws (e, end);
          if (end - e >= 2 && !strncmp (e, "aL", 2))
            {
              e = skip_ws (e + 2, end);
              if (end - e >= 2 && !strncmp (e, ".x", 2))
                e = skip_ws (e + 2, end);
              if (e < end && *e == ']')
                {
                  out->relative = true;
                  r = e + 1;
                }
            }
          if (!out->relative)
            {
              perr (p, r, SL_DIAG_D3D9_EXPECTED_AL, "expected '[aL]' after the register");
              return false;
            }
        }
      *s = r;
      return true;
    }
  perr (p, q, SL_DIAG_D3D9_EXPECTED_REGISTER, "expected a register, got '%.*s'", (int) MIN (end - q, 16), q);
  return false;
}

/* Parses ".xyzw"-style text of 1–4 letters; returns letter count. */
static int
parse_components (P *p, const char **s, const char *end, int *comps)
{
  const char *q = *s;
  int n = 0;
  while (q < end && g_ascii_isalpha (*q))
    {
      int c = comp_index (*q);
      if (c < 0 || n == 4)
        {
          perr (p, *s, SL_DIAG_D3D9_COMPONENTS,
                "bad component selector '.%.*s'", (int) MIN (end - *s, 8), *s);
          return 0;
        }
      comps[n++] = c;
      q++;
    }
  if (n == 0)
    perr (p, *s, SL_DIAG_D3D9_EXPECTED_COMPONENTS, "expected components after '.'");
  *s = q;
  return n;
}

static bool
parse_dst (P *p, const char *s, const char *end, D9Param *d)
{
  memset (d, 0, sizeof *d);
  d->mask = 0xf;
  if (!parse_reg (p, &s, end, d))
    return false;
  if (s < end && *s == '.')
    {
      const char *at = ++s;
      int comps[4];
      int n = parse_components (p, &s, end, comps);
      if (!n)
        return false;
      d->mask = 0;
      for (int i = 0; i < n; i++)
        {
          if (i && comps[i] <= comps[i - 1])
            {
              perr (p, at, SL_DIAG_D3D9_WRITE_MASK_ORDER,
                    "write mask components must be in x, y, z, w order");
              return false;
            }
          d->mask |= 1u << comps[i];
        }
    }
  s = skip_ws (s, end);
  if (s != end)
    {
      perr (p, s, SL_DIAG_D3D9_DESTINATION_TRAILING,
            "unexpected '%.*s' after the destination", (int) (end - s), s);
      return false;
    }
  return true;
}

static bool
parse_src (P *p, const char *s, const char *end, D9Param *d)
{
  memset (d, 0, sizeof *d);
  d->swizzle = D9_SWZ_IDENTITY;
  const char *start = s;
  bool neg = false, invert = false, not = false;
  if (s < end && *s == '-')
    {
      neg = true;
      s = skip_ws (s + 1, end);
    }
  if (s < end && *s == '!')
    {
      not = true;
      s = skip_ws (s + 1, end);
    }
  if (s < end && *s == '1')
    {
      const char *q = skip_ws (s + 1, end);
      if (q < end && *q == '-')
        {
          invert = true;
          s = skip_ws (q + 1, end);
        }
    }
  if (neg && invert)
    {
      perr (p, start, SL_DIAG_D3D9_INVERT_NEGATE, "invert (1-x) cannot be combined with negate");
      return false;
    }
  if (!parse_reg (p, &s, end, d))
    return false;
  /* Suffix modifiers: _bias _bx2 _x2 _dz _db _dw _da _abs. */
  int mod = 0;   /* 0 none, else the base code */
  while (s < end && *s == '_')
    {
      const char *q = s + 1, *e = q;
      while (e < end && g_ascii_isalnum (*e))
        e++;
      size_t n = e - q;
      int m = 0;
      if (n == 4 && !strncmp (q, "bias", 4)) m = D9_SRC_BIAS;
      else if (n == 3 && !strncmp (q, "bx2", 3)) m = D9_SRC_SIGN;
      else if (n == 2 && !strncmp (q, "x2", 2)) m = D9_SRC_X2;
      else if (n == 2 && (!strncmp (q, "dz", 2) || !strncmp (q, "db", 2))) m = D9_SRC_DZ;
      else if (n == 2 && (!strncmp (q, "dw", 2) || !strncmp (q, "da", 2))) m = D9_SRC_DW;
      else if (n == 3 && !strncmp (q, "abs", 3)) m = D9_SRC_ABS;
      else
        {
          perr (p, s, SL_DIAG_D3D9_SOURCE_MODIFIER, "unknown source modifier '_%.*s'", (int) n, q);
          return false;
        }
      if (mod)
        {
          perr (p, s, SL_DIAG_D3D9_SOURCE_MODIFIERS, "only one source modifier suffix is allowed");
          return false;
        }
      if (invert)
        {
          perr (p, s, SL_DIAG_D3D9_MODIFIER_INVERT, "%s cannot be combined with invert (1-x)",
                m == D9_SRC_SIGN ? "_bx2" : m == D9_SRC_BIAS ? "_bias" : m == D9_SRC_X2 ? "_x2"
                : m == D9_SRC_ABS ? "_abs" : "a divide modifier");
          return false;
        }
      mod = m;
      s = e;
    }
  if (neg && (mod == D9_SRC_DZ || mod == D9_SRC_DW))
    {
      perr (p, start, SL_DIAG_D3D9_NEGATE_DIVIDE, "negate cannot be combined with _dz/_dw");
      return false;
    }
  if (invert)
    d->srcmod = D9_SRC_COMP;
  else if (not)
    d->srcmod = D9_SRC_NOT;
  else if (mod == D9_SRC_BIAS) d->srcmod = neg ? D9_SRC_BIASNEG : D9_SRC_BIAS;
  else if (mod == D9_SRC_SIGN) d->srcmod = neg ? D9_SRC_SIGNNEG : D9_SRC_SIGN;
  else if (mod == D9_SRC_X2) d->srcmod = neg ? D9_SRC_X2NEG : D9_SRC_X2;
  else if (mod == D9_SRC_ABS) d->srcmod = neg ? D9_SRC_ABSNEG : D9_SRC_ABS;
  else if (mod) d->srcmod = mod;
  else d->srcmod = neg ? D9_SRC_NEG : D9_SRC_NONE;
  if (not && (neg || mod))
    {
      perr (p, start, SL_DIAG_D3D9_NOT_MODIFIERS, "'!' cannot be combined with other modifiers");
      return false;
    }
  if (s < end && *s == '.')
    {
      s++;
      int comps[4];
      int n = parse_components (p, &s, end, comps);
      if (!n)
        return false;
      /* A shorter swizzle repeats its last component. */
      d->swizzle = 0;
      for (int i = 0; i < 4; i++)
        d->swizzle |= comps[MIN (i, n - 1)] << (2 * i);
    }
  s = skip_ws (s, end);
  if (s != end)
    {
      perr (p, s, SL_DIAG_D3D9_SOURCE_TRAILING, "unexpected '%.*s' after the source", (int) (end - s), s);
      return false;
    }
  return true;
}

static bool
parse_number (P *p, const char *s, const char *end, bool integer, uint32_t *word)
{
  char buf[64];
  size_t n = MIN ((size_t) (end - s), sizeof buf - 1);
  memcpy (buf, s, n);
  buf[n] = 0;
  char *e;
  if (integer)
    {
      long v = strtol (buf, &e, 0);
      if (e == buf || *e)
        goto bad;
      *word = (uint32_t) (int32_t) v;
      return true;
    }
  if (!strcmp (buf, "true") || !strcmp (buf, "false"))
    {
      *word = buf[0] == 't';
      return true;
    }
  {
    double d = g_ascii_strtod (buf, &e);
    if (e == buf)
      goto bad;
    if (*e == 'f' || *e == 'F')
      e++;
    if (*e)
      goto bad;
    *word = sl_f2u ((float) d);
    return true;
  }
bad:
  perr (p, s, SL_DIAG_D3D9_EXPECTED_NUMBER, "expected a number, got '%s'", buf);
  return false;
}

static const char *const compare_names[] = { "", "gt", "eq", "ge", "lt", "ne", "le" };

/* Usage names for dcl_usage (D3DDECLUSAGE order). */
static const char *const usage_names[] = {
  "position", "blendweight", "blendindices", "normal", "psize", "texcoord", "tangent",
  "binormal", "tessfactor", "positiont", "color", "fog", "depth", "sample"
};

/* Reads the fxc listing header: "Parameters:" gives types, "Registers:"
 * gives name → register. */
static void
header_comment (P *p, const char *s, const char *end)
{
  s = skip_ws (s, end);
  while (end > s && (end[-1] == ' ' || end[-1] == '\t' || end[-1] == '\r'))
    end--;
  char *text = g_strndup (s, end - s);
  if (!strcmp (text, "Registers:"))
    p->in_registers = true;
  else if (!strcmp (text, "Parameters:"))
    p->in_registers = false;
  else if (*text && !p->in_registers && text[strlen (text) - 1] == ';')
    {
      /* "float4 Tint;" or "float4x4 M;" or "float w[4];" */
      text[strlen (text) - 1] = 0;
      char **w = g_strsplit_set (text, " \t", -1);
      int nw = 0;
      char *words[4];
      for (int i = 0; w[i] && nw < 4; i++)
        if (*w[i])
          words[nw++] = w[i];
      if (nw == 2)
        {
          char *name = words[1];
          char *br = strchr (name, '[');
          int elements = 0;
          if (br)
            {
              elements = (int) MAX (sl_parse_decimal (br + 1, 65535), 0);
              *br = 0;
            }
          g_hash_table_insert (p->param_types, g_strdup (name),
                               g_strdup_printf ("%s %d", words[0], elements));
        }
      g_strfreev (w);
    }
  else if (*text && p->in_registers)
    {
      char name[256], reg[32];
      int size;
      if (sscanf (text, "%255s %31s %d", name, reg, &size) == 3 && strchr ("cbis", reg[0])
          && g_ascii_isdigit (reg[1]))
        {
          D9Constant c = { 0 };
          c.name = sl_arena_strdup (p->sh->arena, name);
          c.regset = reg[0] == 'b' ? 0 : reg[0] == 'i' ? 1 : reg[0] == 'c' ? 2 : 3;
          c.reg_index = (uint16_t) sl_parse_decimal (reg + 1, 65535);
          c.reg_count = (uint16_t) CLAMP (size, 1, 65535);
          c.cls = c.regset == 3 ? 4 : 1;
          c.type = c.regset == 0 ? 1 : c.regset == 1 ? 2 : c.regset == 2 ? 3 : 12;
          c.rows = 1;
          c.columns = c.regset == 3 ? 1 : 4;
          const char *ty = g_hash_table_lookup (p->param_types, name);
          if (ty)
            {
              char tname[64];
              int el = 0;
              if (sscanf (ty, "%63s %d", tname, &el) >= 1)
                {
                  int r = 1, cl = 1;
                  const char *digits = tname + strcspn (tname, "0123456789");
                  if (!strncmp (tname, "sampler", 7) || !strncmp (tname, "texture", 7))
                    {
                      c.cls = 4;
                      c.type = !g_ascii_strcasecmp (tname, "samplerCUBE") ? 14
                               : !strcmp (tname, "sampler3D") ? 13 : !strcmp (tname, "sampler1D") ? 11
                               : !strcmp (tname, "sampler") ? 10 : 12;
                    }
                  else
                    {
                      c.type = !strncmp (tname, "bool", 4) ? 1 : !strncmp (tname, "int", 3) ? 2 : 3;
                      if (*digits)
                        {
                          cl = digits[0] - '0';
                          if (digits[1] == 'x')
                            {
                              r = cl;
                              cl = digits[2] - '0';
                            }
                        }
                      c.rows = (uint16_t) r;
                      c.columns = (uint16_t) cl;
                      c.cls = r > 1 ? (strstr (tname, "row_major") ? 2 : 3) : *digits ? 1 : 0;
                      c.elements = (uint16_t) el;
                    }
                }
            }
          g_array_append_val (p->sh->constants, c);
        }
    }
  g_free (text);
}

/* Splits on top-level commas (outside brackets). */
static int
split_operands (const char *s, const char *end, const char **starts, const char **ends, int max)
{
  int n = 0, depth = 0;
  const char *cur = s;
  for (const char *q = s; q <= end; q++)
    {
      if (q < end && *q == '[')
        depth++;
      else if (q < end && *q == ']')
        depth--;
      if (q == end || (*q == ',' && depth == 0))
        {
          if (n == max)
            return max + 1;
          const char *a = skip_ws (cur, q), *b = q;
          while (b > a && (b[-1] == ' ' || b[-1] == '\t' || b[-1] == '\r'))
            b--;
          starts[n] = a;
          ends[n] = b;
          n++;
          cur = q + 1;
        }
    }
  if (n == 1 && starts[0] == ends[0])
    return 0;
  return n;
}

static bool
parse_version (P *p, const char *s, const char *e)
{
  char buf[16];
  size_t n = MIN ((size_t) (e - s), sizeof buf - 1);
  memcpy (buf, s, n);
  buf[n] = 0;
  for (char *q = buf; *q; q++)
    if (*q == '.')
      *q = '_';
  static const struct { const char *name; D9Version v; } names[] = {
    { "ps_1_0", V10 }, { "ps_1_1", V11 }, { "ps_1_2", V12 }, { "ps_1_3", V13 }, { "ps_1_4", V14 },
    { "ps_2_0", V20 }, { "ps_2_x", V2X }, { "ps_2_a", V2X }, { "ps_2_b", V2X },
    { "ps_2_sw", V2SW }, { "ps_3_0", V30 }, { "ps_3_sw", V3SW },
  };
  for (size_t i = 0; i < G_N_ELEMENTS (names); i++)
    if (!g_ascii_strcasecmp (buf, names[i].name))
      {
        p->sh->version = names[i].v;
        p->sh->version_name = sl_arena_strdup (p->sh->arena, names[i].name);
        d9_profile_caps (names[i].name, &p->sh->caps);
        return true;
      }
  perr (p, s, SL_DIAG_D3D9_VERSION, "unknown shader version '%s' (expected ps_1_1 … ps_3_0)", buf);
  return false;
}

static void
parse_line (P *p, const char *s, const char *end, bool *have_version)
{
  D9Insn in;
  memset (&in, 0, sizeof in);
  in.line = p->line;
  s = skip_ws (s, end);
  if (s == end)
    return;
  in.column = (int) (s - p->line_start) + 1;
  if (*s == '+')
    {
      in.coissue = true;
      s = skip_ws (s + 1, end);
    }
  if (s < end && *s == '(')
    {
      const char *close = memchr (s, ')', end - s);
      if (!close)
        {
          perr (p, s, SL_DIAG_D3D9_PREDICATE_PAREN, "expected ')' after the predicate");
          return;
        }
      if (!parse_src (p, skip_ws (s + 1, close), close, &in.pred))
        return;
      if (in.pred.type != D9_REG_PREDICATE || in.pred.index != 0)
        {
          perr (p, skip_ws (s + 1, close), SL_DIAG_D3D9_PREDICATE_REGISTER,
                "the instruction predicate must be p0");
          return;
        }
      in.predicated = true;
      s = skip_ws (close + 1, end);
    }
  const char *mn = s;
  while (s < end && (g_ascii_isalnum (*s) || *s == '_' || *s == '.'))
    s++;
  const char *mn_end = s;
  if (mn == mn_end)
    {
      perr (p, mn, SL_DIAG_D3D9_EXPECTED_INSTRUCTION,
            "expected an instruction, got '%.*s'", (int) (end - mn), mn);
      return;
    }
  if (!*have_version)
    {
      if (parse_version (p, mn, mn_end))
        *have_version = true;
      else
        p->sh->version = V30;   /* keep going to report more */
      *have_version = true;
      if (skip_ws (s, end) != end)
        perr (p, skip_ws (s, end), SL_DIAG_D3D9_VERSION_TRAILING, "unexpected text after the version");
      return;
    }
  char *word = g_ascii_strdown (mn, mn_end - mn);
  char **parts = g_strsplit (word, "_", -1);
  g_free (word);
  const char *base = parts[0];
  int shift = 0;
  uint8_t dstmod = 0;
  bool have_compare = false;
  const char *mod_error = NULL;
  bool usage_error = false;
  D9Version v = p->sh->version;
  for (int i = 1; parts[i]; i++)
    {
      const char *m = parts[i];
      int cmp = 0;
      for (int k = 1; k <= 6; k++)
        if (!strcmp (m, compare_names[k]))
          cmp = k;
      if (!strcmp (base, "dcl"))
        {
          bool found = false;
          if (!strcmp (m, "2d")) in.tex_type = 2, found = true;
          else if (!strcmp (m, "cube")) in.tex_type = 3, found = true;
          else if (!strcmp (m, "volume")) in.tex_type = 4, found = true;
          else if (!strcmp (m, "centroid")) dstmod |= D9_DST_CENTROID, found = true;
          else if (!strcmp (m, "pp")) dstmod |= D9_DST_PP, found = true;
          else
            for (size_t u = 0; u < G_N_ELEMENTS (usage_names); u++)
              {
                size_t n = strlen (usage_names[u]);
                if (!strncmp (m, usage_names[u], n) && (!m[n] || g_ascii_isdigit (m[n])))
                  {
                    /* The token holds the usage index in four bits. */
                    long index = m[n] ? sl_parse_decimal (m + n, 1000) : 0;
                    in.usage = (uint8_t) u;
                    in.usage_index = (uint8_t) MIN (index, 15);
                    found = true;
                    if (index > 15)
                      usage_error = true;
                    break;
                  }
              }
          if (!found)
            mod_error = m;
        }
      else if (cmp && (!strcmp (base, "if") || !strcmp (base, "break") || !strcmp (base, "setp")))
        {
          in.compare = (uint8_t) cmp;
          have_compare = true;
        }
      else if (!strcmp (m, "sat")) dstmod |= D9_DST_SAT;
      else if (!strcmp (m, "pp")) dstmod |= D9_DST_PP;
      else if (!strcmp (m, "centroid")) dstmod |= D9_DST_CENTROID;
      else if (!strcmp (m, "x2")) shift = 1;
      else if (!strcmp (m, "x4")) shift = 2;
      else if (!strcmp (m, "x8")) shift = 3;
      else if (!strcmp (m, "d2")) shift = -1;
      else if (!strcmp (m, "d4")) shift = -2;
      else if (!strcmp (m, "d8")) shift = -3;
      else if (!mod_error)
        mod_error = m;
    }
  if (usage_error)
    {
      perr (p, mn, SL_DIAG_D3D9_USAGE_INDEX, "usage index out of range (0 to 15)");
      g_strfreev (parts);
      return;
    }
  if (mod_error)
    {
      perr (p, mn, SL_DIAG_D3D9_INSTRUCTION_MODIFIER,
            "unknown instruction modifier '_%s' on %s", mod_error, base);
      g_strfreev (parts);
      return;
    }
  const char *ops[8], *ope[8];
  int n_ops = split_operands (s, end, ops, ope, 6);
  char *base_name = g_strdup (base);
  g_strfreev (parts);
  if ((!strcmp (base_name, "setp") || (!strcmp (base_name, "if") && n_ops == 2)
       || (!strcmp (base_name, "break") && n_ops == 2)) && !have_compare)
    {
      perr (p, mn, SL_DIAG_D3D9_COMPARISON_SUFFIX,
            "%s needs a comparison suffix (_gt, _lt, _ge, _le, _eq, _ne)", base_name);
      g_free (base_name);
      return;
    }
  int id = d9_find_op (base_name, v, n_ops);
  if (id >= 0 && have_compare && !(d9_ops[id].flags & D9F_C))
    id = d9_find_op (base_name, v, -1), id = (id == D9_IF ? D9_IFC : id == D9_BREAK ? D9_BREAKC : id);
  if (id < 0)
    {
      perr (p, mn, SL_DIAG_D3D9_UNKNOWN_INSTRUCTION, "unknown instruction '%s'", base_name);
      g_free (base_name);
      return;
    }
  const D9OpInfo *oi = &d9_ops[id];
  D9Version ev = v == V10 ? V11 : v;
  if (ev < oi->min || ev > oi->max)
    {
      if (ev < oi->min)
        perr (p, mn, SL_DIAG_D3D9_INSTRUCTION_VERSION,
              "%s needs %s or later (this is %s)", base_name, d9_version_name (oi->min),
              p->sh->version_name);
      else
        perr (p, mn, SL_DIAG_D3D9_INSTRUCTION_REMOVED,
              "%s is not available in %s (only up to %s)", base_name, p->sh->version_name,
              d9_version_name (oi->max));
      g_free (base_name);
      return;
    }
  g_free (base_name);
  in.id = (uint8_t) id;
  int want = oi->n_dst + oi->n_src;
  if (id == D9_DEF || id == D9_DEFI)
    want = 5;
  else if (id == D9_DEFB)
    want = 2;
  if (n_ops != want)
    {
      perr (p, mn, SL_DIAG_D3D9_OPERAND_COUNT,
            "%s takes %d operand%s, got %d", oi->name, want, want == 1 ? "" : "s", n_ops);
      return;
    }
  for (int i = 0; i < n_ops && i < (int) G_N_ELEMENTS (in.op_column); i++)
    in.op_column[i] = (int) (ops[i] - p->line_start) + 1;
  if (oi->n_dst || id == D9_DEF || id == D9_DEFI || id == D9_DEFB)
    {
      if (!parse_dst (p, ops[0], ope[0], &in.dst))
        return;
      in.dst.dstmod = dstmod;
      in.dst.shift = (int8_t) shift;
    }
  else if (dstmod || shift)
    {
      perr (p, mn, SL_DIAG_D3D9_NO_MODIFIERS, "%s takes no instruction modifiers", oi->name);
      return;
    }
  if (id == D9_DEF || id == D9_DEFI || id == D9_DEFB)
    {
      for (int i = 1; i < want; i++)
        if (!parse_number (p, ops[i], ope[i], id == D9_DEFI, &in.lit[i - 1]))
          return;
    }
  else
    for (int i = 0; i < oi->n_src; i++)
      if (!parse_src (p, ops[oi->n_dst + i], ope[oi->n_dst + i], &in.src[i]))
        return;
  g_array_append_val (p->sh->insns, in);
}

D9Shader *
d9_assemble (const char *text, size_t length, const char *file, SlDiagnostics *diags)
{
  D9Shader *sh = d9_shader_new (file);
  P p = { .sh = sh, .diags = diags };
  p.param_types = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  bool have_version = false, in_block = false;
  const char *s = text, *end = text + length;
  p.line = 0;
  while (s < end)
    {
      const char *nl = memchr (s, '\n', end - s);
      const char *le = nl ? nl : end;
      p.line++;
      p.line_start = s;
      /* Strip comments: block comments may span lines. */
      GString *code = g_string_new (NULL);
      const char *q = s;
      while (q < le)
        {
          if (in_block)
            {
              if (q + 1 < le && q[0] == '*' && q[1] == '/')
                {
                  in_block = false;
                  g_string_append (code, "  ");
                  q += 2;
                }
              else
                {
                  g_string_append_c (code, ' ');
                  q++;
                }
              continue;
            }
          if (q + 1 < le && q[0] == '/' && q[1] == '*')
            {
              in_block = true;
              g_string_append (code, "  ");
              q += 2;
              continue;
            }
          if (*q == ';' || (q + 1 < le && q[0] == '/' && q[1] == '/'))
            {
              if (!have_version && *q == '/' && (q == s || skip_ws (s, q) == q))
                header_comment (&p, q + 2, le);
              break;
            }
          g_string_append_c (code, *q == '\0' ? ' ' : *q);
          q++;
        }
      /* Column numbers refer to the original line: code keeps offsets. */
      const char *cs = code->str;
      const char *saved = p.line_start;
      p.line_start = cs;
      parse_line (&p, cs, cs + code->len, &have_version);
      p.line_start = saved;
      g_string_free (code, TRUE);
      s = nl ? nl + 1 : end;
    }
  g_hash_table_destroy (p.param_types);
  if (!have_version)
    {
      sl_diag (diags, SL_DIAG_D3D9_MISSING_VERSION, sh->file, 1, 1,
               "missing shader version (e.g. ps_2_0) before the first instruction");
      p.failed = true;
    }
  if (!p.failed && !d9_validate (sh, diags))
    p.failed = true;
  if (p.failed)
    {
      d9_shader_free (sh);
      return NULL;
    }
  return sh;
}

/* ------------------------------------------------------------------ */
/* Validation                                                           */
/* ------------------------------------------------------------------ */

typedef struct
{
  const D9Shader *sh;
  SlDiagnostics  *diags;
  const D9Insn   *in;
  int             operand;   /* operand being checked, or -1: sets the column */
  bool            ok;
} V;

static void G_GNUC_PRINTF (3, 4)
verr (V *v, SlDiagKind kind, const char *fmt, ...)
{
  /* Text knows where each operand starts; bytecode only the instruction. */
  int col = v->operand >= 0 && v->in->op_column[v->operand] ? v->in->op_column[v->operand]
                                                             : v->in->column;
  va_list ap;
  va_start (ap, fmt);
  sl_diag_v (v->diags, kind, v->sh->file, v->in->line, col, fmt, ap);
  va_end (ap);
  v->ok = false;
}

static const char *
srcmod_suffix (int m)
{
  switch (m)
    {
    case D9_SRC_BIAS: case D9_SRC_BIASNEG: return "_bias";
    case D9_SRC_SIGN: case D9_SRC_SIGNNEG: return "_bx2";
    case D9_SRC_X2: case D9_SRC_X2NEG: return "_x2";
    case D9_SRC_DZ: return "_dz";
    case D9_SRC_DW: return "_dw";
    case D9_SRC_ABS: case D9_SRC_ABSNEG: return "_abs";
    case D9_SRC_COMP: return "invert (1-x)";
    case D9_SRC_NEG: return "negate";
    case D9_SRC_NOT: return "'!'";
    default: return "";
    }
}

static void
swizzle_text (char *buf, uint8_t swz)
{
  /* Shortest text that expands to @swz (trailing repeats dropped). */
  int n = 4;
  while (n > 1 && ((swz >> (2 * (n - 1))) & 3) == ((swz >> (2 * (n - 2))) & 3))
    n--;
  for (int i = 0; i < n; i++)
    buf[i] = "xyzw"[(swz >> (2 * i)) & 3];
  buf[n] = 0;
}

static void
check_swizzle (V *v, const D9Param *s, uint8_t dst_mask, bool tex_1_4)
{
  D9Version ver = v->sh->version;
  uint8_t w = s->swizzle;
  if (w == D9_SWZ_IDENTITY)
    return;
  char txt[8];
  swizzle_text (txt, w);
  bool replicate = w == 0x00 || w == 0x55 || w == 0xaa || w == 0xff;
  if (tex_1_4)
    {
      /* texld/texcrd in ps_1_4 select .xyz or .xyw of the coordinates. */
      if (w != 0xa4 && w != 0xf4)
        verr (v, SL_DIAG_D3D9_SWIZZLE_PS14,
              "swizzle .%s is not allowed on %s in ps_1_4 (only .xyz or .xyw)", txt,
              d9_ops[v->in->id].name);
      return;
    }
  if (replicate)
    {
      if (w == 0xff)
        return;
      if (w == 0xaa)
        {
          if (ver <= V13 && dst_mask != 0x8)
            verr (v, SL_DIAG_D3D9_REPLICATE_Z,
                  "replicate swizzle .z needs write mask .w (.a) in %s", v->sh->version_name);
          return;
        }
      if (ver <= V13)
        verr (v, SL_DIAG_D3D9_REPLICATE_VERSION,
              "replicate swizzle .%s needs ps_1_4 or later (this is %s)", txt, v->sh->version_name);
      return;
    }
  if (w == 0xc9 || w == 0xd2 || w == 0x1b)
    {
      if (ver < V20)
        verr (v, SL_DIAG_D3D9_SWIZZLE_PS20,
              "swizzle .%s needs ps_2_0 or later (this is %s)", txt, v->sh->version_name);
      return;
    }
  if (ver < V2X)
    verr (v, SL_DIAG_D3D9_SWIZZLE_PS2X,
          "swizzle .%s needs ps_2_x or later (this is %s)", txt, v->sh->version_name);
  else if (ver == V2X && !(v->sh->caps.caps & D9_CAP_ARBITRARY_SWIZZLE))
    verr (v, SL_DIAG_D3D9_ARBITRARY_SWIZZLE,
          "swizzle .%s needs arbitrary swizzle: ps_2_a, ps_2_x or ps_3_0 (this is %s)", txt,
          v->sh->version_name);
}

static bool
is_tex_14_src (int id)
{
  return id == D9_TEXLD14 || id == D9_TEXCRD;
}

/* The ps_1_x texture instructions whose sources may take _bx2, per the
 * _bx2 reference page: ps_1_0/1_1 only the texm3x2* and texm3x3* family;
 * ps_1_2/1_3 every tex* except texreg2ar, texreg2gb, texbem, texbeml. */
static bool
bx2_allowed_on_tex (D9Version ver, int id)
{
  bool matrix = id == D9_TEXM3X2PAD || id == D9_TEXM3X2TEX || id == D9_TEXM3X3PAD
                || id == D9_TEXM3X3TEX || id == D9_TEXM3X3SPEC || id == D9_TEXM3X3VSPEC
                || id == D9_TEXM3X2DEPTH || id == D9_TEXM3X3;
  if (ver <= V11)
    return matrix;
  return id != D9_TEXREG2AR && id != D9_TEXREG2GB && id != D9_TEXBEM && id != D9_TEXBEML;
}

static bool
check_reg (V *v, const D9Param *p, bool dst)
{
  D9Version ver = v->sh->version;
  int n = reg_count (v->sh, p->type, dst);
  GString *name = g_string_new (NULL);
  D9Param bare = *p;
  bare.relative = false;
  reg_text (name, &bare);
  if (n == 0 && ver == V2X && p->type == D9_REG_PREDICATE)
    verr (v, SL_DIAG_D3D9_REGISTER_PREDICATION,
          "register %s needs predication: ps_2_a, ps_2_x or ps_3_0 (this is %s)", name->str,
          v->sh->version_name);
  else if (n == 0)
    verr (v, SL_DIAG_D3D9_REGISTER_UNAVAILABLE,
          "register %s is not available in %s", name->str, v->sh->version_name);
  else if (p->index >= n)
    verr (v, SL_DIAG_D3D9_REGISTER_RANGE,
          "register %s is out of range in %s (%d available)", name->str, v->sh->version_name, n);
  else if (p->relative && (ver < V30 || (p->type != D9_REG_CONST && p->type != D9_REG_INPUT) || dst))
    verr (v, SL_DIAG_D3D9_RELATIVE_ADDRESSING,
          "relative addressing of %s is not allowed in %s", name->str, v->sh->version_name);
  g_string_free (name, TRUE);
  return n > 0 && p->index < n;
}

/* Counts the distinct registers of each type among the sources as
 * written.  The matrix macros (m4x4 r0, v0, c0 reads c0…c3) count their
 * written operand once: the reference describes their expansion as one
 * instruction that names one constant register. */
static void
check_read_ports (V *v, const D9Insn *in)
{
  const D9OpInfo *oi = &d9_ops[in->id];
  for (size_t r = 0; r < G_N_ELEMENTS (read_ports); r++)
    {
      int limit = read_ports[r].ports[v->sh->version];
      if (limit == 0)
        continue;
      int seen[4], n = 0;
      for (int k = 0; k < oi->n_src && k < 4; k++)
        {
          const D9Param *s = &in->src[k];
          if (s->type != read_ports[r].type)
            continue;
          /* c#[aL] is a different read from c# of the same number. */
          int key = s->index | (s->relative ? 0x10000 : 0);
          bool dup = false;
          for (int j = 0; j < n; j++)
            dup = dup || seen[j] == key;
          if (!dup)
            seen[n++] = key;
        }
      if (n > limit)
        verr (v, SL_DIAG_D3D9_READ_PORTS, "instruction reads %d different %s registers; %s allows %d", n,
              read_ports[r].what, v->sh->version_name, limit);
    }
}

/* The capability of the ps_2_x family that @in needs and @sh's profile
 * lacks, or NULL.  Gradient instructions are dsx, dsy and texldd (ps_2_x
 * page, "Gradient Instructions"); setp is the predication instruction.
 * Flow control is split as the Flow Control Limitations page counts it:
 * if_comp, if p0 and break_comp nest dynamically, the rest statically;
 * else/endif/endrep/ret/label/break only exist inside or around those. */
static const char *
missing_cap (const D9Shader *sh, const D9Insn *in)
{
  const D9Caps2x *c = &sh->caps;
  switch (in->id)
    {
    case D9_DSX: case D9_DSY: case D9_TEXLDD:
      return c->caps & D9_CAP_GRADIENT ? NULL : "gradient instructions";
    case D9_SETP:
      return c->caps & D9_CAP_PREDICATION ? NULL : "predication";
    default:
      break;
    }
  if (!(d9_ops[in->id].flags & D9F_F))
    return NULL;
  bool dynamic = in->id == D9_IFC || in->id == D9_BREAKC
                 || (in->id == D9_IF && in->src[0].type == D9_REG_PREDICATE);
  bool is_static = in->id == D9_IF || in->id == D9_REP || in->id == D9_CALL || in->id == D9_CALLNZ
                   || in->id == D9_LOOP;
  int depth = dynamic ? c->dynamic_depth : is_static ? c->static_depth
              : MAX (c->static_depth, c->dynamic_depth);
  return depth ? NULL : "flow control";
}

/* Instruction slots (the "Pixel Shader Differences" page), counted
 * statically: every instruction once, whatever flow control does.
 *   ps_1_1…ps_1_3  4 texture + 8 arithmetic slots;
 *   ps_1_4         6 texture + 8 arithmetic slots in each phase;
 *   ps_2_0         32 texture + 64 arithmetic slots;
 *   ps_2_x         one budget for all kinds, "96 minimum, up to
 *                  NumInstructionSlots", which D3DPSHADERCAPS2_0 bounds by
 *                  D3DPS20_MAX_NUMINSTRUCTIONSLOTS = 512.  ps_2_a and
 *                  ps_2_b are fxc's 512-slot targets, and "ps_2_x" or 2.1
 *                  bytecode gets, as for its other caps, the most a ps_2_x
 *                  device may report: 512 for all three.  All three have
 *                  NOTEXINSTRUCTIONLIMIT, so no separate texture budget.
 *   ps_3_0         "512 minimum, up to MaxPixelShader30InstructionSlots",
 *                  which may be 32768 (D3DMAX30SHADERINSTRUCTIONS).  A
 *                  shader is refused only when no ps_3_0 device could hold
 *                  it, the same rule as ps_2_x, so the limit is 32768.
 *   ps_2_sw/3_sw   no limit (software shaders).
 * The ps_1_x pages say arithmetic instructions "can be paired" by
 * co-issue so that the colour and alpha halves share one slot: a pair of
 * arithmetic instructions takes the slots of the dearer of the two.  The
 * error points at the first instruction past the limit and gives the
 * total, as fxc does ("uses 77 arithmetic instruction slots; ps_2_0
 * allows 64"). */
typedef struct
{
  const char   *what;        /* "arithmetic " or "" before "instruction slots" */
  int           limit, used;
  const D9Insn *over;        /* first instruction past the limit */
} Budget;

static void
spend (Budget *b, int n, const D9Insn *in)
{
  b->used += n;
  if (!b->over && b->used > b->limit)
    b->over = in;
}

static void
report_budgets (V *v, Budget *b, int n, int phase)
{
  /* Each budget past its limit once, in the order the shader crossed them. */
  for (int k = 0; k < n; k++)
    {
      int first = -1;
      for (int j = 0; j < n; j++)
        if (b[j].over && (first < 0 || b[j].over < b[first].over))
          first = j;
      if (first < 0)
        return;
      v->in = b[first].over;
      v->operand = -1;
      char scope[16];
      if (phase)
        g_snprintf (scope, sizeof scope, "phase %d", phase);
      else
        g_strlcpy (scope, "shader", sizeof scope);
      verr (v, SL_DIAG_D3D9_SLOTS,
            "%s uses %d %sinstruction slots; %s allows %d%s", scope, b[first].used, b[first].what,
            v->sh->version_name, b[first].limit, v->sh->version == V14 ? " per phase" : "");
      b[first].over = NULL;
    }
}

static int
slot_cost (const D9Shader *sh, const D9Insn *in, const uint8_t *sampler_type)
{
  const D9OpInfo *oi = &d9_ops[in->id];
  if (sh->version <= V13)
    return oi->slots_1x;
  if (sh->version == V14)
    return oi->slots_14;
  if (oi->slot_kind != D9K_T || in->id == D9_TEXLDD)
    return oi->slots_2;
  bool no_tex_limit = sh->version >= V30
                      || (sh->version == V2X && (sh->caps.caps & D9_CAP_NO_TEX_LIMIT));
  if (!no_tex_limit)
    return 1;
  const D9Param *s = &in->src[1];
  bool cube = s->type == D9_REG_SAMPLER && s->index < 16 && sampler_type[s->index] == 3;
  return oi->slots_2 + (cube ? oi->slots_cube : 0);
}

static void
check_slots (V *v, const uint8_t *sampler_type)
{
  const D9Shader *sh = v->sh;
  D9Version ver = sh->version;
  if (ver == V2SW || ver == V3SW)
    return;
  bool split = ver <= V20;
  Budget b[2] = {
    { "texture ", ver <= V13 ? 4 : ver == V14 ? 6 : 32, 0, NULL },
    { "arithmetic ", ver <= V14 ? 8 : 64, 0, NULL },
  };
  Budget total = { "", ver == V30 ? 32768 : 512, 0, NULL };
  bool has_phase = false;
  for (guint i = 0; i < sh->insns->len && !has_phase; i++)
    has_phase = g_array_index (sh->insns, D9Insn, i).id == D9_PHASE;
  int phase = has_phase ? 1 : 0;
  int pair = 0;   /* slots of the current ps_1_x co-issue pair */
  for (guint i = 0; i < sh->insns->len; i++)
    {
      const D9Insn *in = &g_array_index (sh->insns, D9Insn, i);
      int kind = d9_ops[in->id].slot_kind;
      if (in->id == D9_PHASE)
        {
          report_budgets (v, b, 2, phase++);
          b[0].used = b[1].used = 0;
          continue;
        }
      int cost = slot_cost (sh, in, sampler_type);
      if (kind == D9K_A && ver <= V14)
        {
          if (in->coissue)
            {
              int extra = MAX (cost - pair, 0);
              pair += extra;
              cost = extra;
            }
          else
            pair = cost;
        }
      if (!split)
        spend (&total, cost, in);
      else if (kind == D9K_TA)
        {
          spend (&b[0], 1, in);
          spend (&b[1], cost - 1, in);
        }
      else if (kind == D9K_T)
        spend (&b[0], cost, in);
      else if (kind != D9K_S)
        spend (&b[1], cost, in);
    }
  if (split)
    report_budgets (v, b, 2, phase);
  else
    report_budgets (v, &total, 1, 0);
}

/* The dependent-read limit of the texld page (ps_2_0 and up): without
 * D3DPS20CAPS_NODEPENDENTREADLIMIT a texld, texldp, texldb or texldd may
 * be at most third-order dependent.  First order: src0 is an r#, or dst
 * was written before.  Order n: the instruction reads or writes an r#
 * whose contents depend, perhaps through arithmetic, on an instruction of
 * order n-1.  So each temporary component carries the highest order of
 * the texture instructions its value derives from (-1: none), and a
 * texture instruction's order is one more than the highest it touches,
 * at least 1 under the first-order rules.  Applies to ps_2_0 and ps_2_b;
 * ps_2_a and "ps_2_x" have the cap and ps_3_0 has no such limit.  Neither
 * ps_2_0 nor ps_2_b has flow control or predication, so one pass in
 * program order is exact; write masks keep the unwritten components'
 * history.  The page speaks of registers; following components refuses
 * a subset of what a register-wide reading would, so where the two
 * differ the shader is given the benefit of the doubt.  Components are
 * followed as each instruction reads them:
 * per component for component-wise operations, the first 2, 3 or 4
 * swizzled components for dot products, matrices, nrm and crs, the
 * replicated one for scalar operations, and the coordinates the declared
 * sampler uses (.xy for 2D, .xyz for cube and volume, plus .w for texldp
 * and texldb) for a texture instruction. */
static int
read_mask (int id, int k, int c, uint8_t swz)
{
  int width;
  switch (id)
    {
    case D9_RCP: case D9_RSQ: case D9_EXP: case D9_LOG: case D9_POW:
    case D9_SINCOS: case D9_SINCOS2:
      return 1 << (swz & 3);
    case D9_DP2ADD:
      if (k == 2)
        return 1 << (swz & 3);
      width = 2;
      break;
    case D9_DP3: case D9_NRM: case D9_CRS: case D9_M3X2: case D9_M3X3: case D9_M3X4:
      width = 3;
      break;
    case D9_DP4: case D9_M4X4: case D9_M4X3:
      width = 4;
      break;
    default:
      return 1 << ((swz >> (2 * c)) & 3);
    }
  int m = 0;
  for (int j = 0; j < width; j++)
    m |= 1 << ((swz >> (2 * j)) & 3);
  return m;
}

enum { DEP_TEMPS = 32 };

static int
level_of (int8_t (*level)[4], const D9Param *p, int mask)
{
  if (p->type != D9_REG_TEMP || p->index >= DEP_TEMPS)
    return -1;
  int l = -1;
  for (int c = 0; c < 4; c++)
    if (mask & (1 << c))
      l = MAX (l, level[p->index][c]);
  return l;
}

static void
check_dependent_reads (V *v, const uint8_t *sampler_type)
{
  const D9Shader *sh = v->sh;
  if (!(sh->version == V20 || (sh->version == V2X && !(sh->caps.caps & D9_CAP_NO_DEPENDENT_READ_LIMIT))))
    return;
  int8_t level[DEP_TEMPS][4];
  uint8_t written[DEP_TEMPS] = { 0 };
  memset (level, -1, sizeof level);
  for (guint i = 0; i < sh->insns->len; i++)
    {
      const D9Insn *in = &g_array_index (sh->insns, D9Insn, i);
      const D9OpInfo *oi = &d9_ops[in->id];
      const D9Param *d = &in->dst;
      if (!oi->n_dst || in->id == D9_TEXKILL || d->type != D9_REG_TEMP || d->index >= DEP_TEMPS)
        continue;
      int mask = d->mask & 0xf;
      if (in->id == D9_TEXLD || in->id == D9_TEXLDP || in->id == D9_TEXLDB || in->id == D9_TEXLDD)
        {
          const D9Param *s1 = &in->src[1];
          int dims = s1->type == D9_REG_SAMPLER && s1->index < 16 ? sampler_type[s1->index] : 0;
          int coords = dims == 2 ? 0x3 : dims == 3 || dims == 4 ? 0x7 : 0xf;
          if (in->id == D9_TEXLDP || in->id == D9_TEXLDB)
            coords |= 0x8;
          int used = 0;
          for (int c = 0; c < 4; c++)
            if (coords & (1 << c))
              used |= 1 << ((in->src[0].swizzle >> (2 * c)) & 3);
          int order = in->src[0].type == D9_REG_TEMP || written[d->index] ? 1 : 0;
          int dep = MAX (level_of (level, &in->src[0], used), level_of (level, d, mask));
          if (in->id == D9_TEXLDD)
            dep = MAX (dep, MAX (level_of (level, &in->src[2], 0xf), level_of (level, &in->src[3], 0xf)));
          order = MAX (order, dep + 1);
          if (order > 3)
            {
              v->in = in;
              v->operand = -1;
              verr (v, SL_DIAG_D3D9_DEPENDENT_READ,
                    "%s is a fourth-order dependent texture read; %s allows at most third-order",
                    oi->name, sh->version_name);
              return;
            }
          for (int c = 0; c < 4; c++)
            if (mask & (1 << c))
              level[d->index][c] = order;
        }
      else
        {
          int8_t next[4];
          for (int c = 0; c < 4; c++)
            {
              next[c] = -1;
              if (!(mask & (1 << c)))
                continue;
              for (int k = 0; k < oi->n_src && k < 4; k++)
                next[c] = MAX (next[c], level_of (level, &in->src[k],
                                                  read_mask (in->id, k, c, in->src[k].swizzle)));
            }
          for (int c = 0; c < 4; c++)
            if (mask & (1 << c))
              level[d->index][c] = next[c];
        }
      written[d->index] |= mask;
    }
}

bool
d9_validate (D9Shader *sh, SlDiagnostics *diags)
{
  V v = { .sh = sh, .diags = diags, .ok = true };
  D9Version ver = sh->version;
  bool v1 = ver <= V14;
  /* Structured flow control: a stack of open blocks. */
  int stack[64], depth = 0, loop_depth = 0, phases = 0;
  guint opened_at[64];
  bool nesting_ok = true;
  GHashTable *labels = g_hash_table_new (NULL, NULL);
  for (guint i = 0; i < sh->insns->len; i++)
    {
      const D9Insn *in = &g_array_index (sh->insns, D9Insn, i);
      if (in->id == D9_LABEL)
        g_hash_table_add (labels, GINT_TO_POINTER (in->src[0].index + 1));
    }
  for (guint i = 0; i < sh->insns->len; i++)
    {
      const D9Insn *in = &g_array_index (sh->insns, D9Insn, i);
      const D9OpInfo *oi = &d9_ops[in->id];
      v.in = in;
      v.operand = -1;
      D9Version ev = ver == V10 ? V11 : ver;
      if (ev < oi->min || ev > oi->max)
        {
          if (ev < oi->min)
            verr (&v, SL_DIAG_D3D9_INSTRUCTION_VERSION,
                  "%s needs %s or later (this is %s)", oi->name, d9_version_name (oi->min),
                  sh->version_name);
          else
            verr (&v, SL_DIAG_D3D9_INSTRUCTION_UNAVAILABLE,
                  "%s is not available in %s", oi->name, sh->version_name);
          continue;
        }
      /* What a ps_2_x profile's caps leave out; one message per
       * instruction, as for an instruction of the wrong version. */
      const char *missing = ver == V2X ? missing_cap (sh, in) : NULL;
      if (missing)
        {
          verr (&v, SL_DIAG_D3D9_INSTRUCTION_CAPABILITY,
                "%s needs %s: %s or ps_3_0 (this is %s)", oi->name, missing,
                strcmp (missing, "flow control") ? "ps_2_a, ps_2_x" : "ps_2_x", sh->version_name);
          continue;
        }
      if (in->predicated && ver == V2X && !(sh->caps.caps & D9_CAP_PREDICATION))
        verr (&v, SL_DIAG_D3D9_PREDICATION_VERSION,
              "predication needs ps_2_a, ps_2_x or ps_3_0 (this is %s)", sh->version_name);
      if (in->coissue && !v1)
        verr (&v, SL_DIAG_D3D9_COISSUE_VERSION, "co-issue (+) needs ps_1_x (this is %s)", sh->version_name);
      if (in->coissue && i == 0)
        verr (&v, SL_DIAG_D3D9_COISSUE_PARTNER, "co-issued instruction has no partner");
      if (in->predicated && ver < V2X)
        verr (&v, SL_DIAG_D3D9_PREDICATION_PS2X,
              "predication needs ps_2_x or later (this is %s)", sh->version_name);
      /* The setp page allows any swizzle on the predicate, so there is no
       * swizzle rule to check here. */
      if (in->id == D9_PHASE && ++phases > 1)
        verr (&v, SL_DIAG_D3D9_PHASE_TWICE, "phase may appear only once");

      /* Destination. */
      if (oi->n_dst || in->id == D9_DEF || in->id == D9_DEFI || in->id == D9_DEFB)
        {
          const D9Param *d = &in->dst;
          v.operand = 0;
          check_reg (&v, d, true);
          int want = in->id == D9_DEF ? D9_REG_CONST : in->id == D9_DEFI ? D9_REG_CONSTINT
                     : in->id == D9_DEFB ? D9_REG_CONSTBOOL : -1;
          if (want >= 0 && d->type != want)
            verr (&v, SL_DIAG_D3D9_DEF_REGISTER, "%s defines %s registers", oi->name,
                  want == D9_REG_CONST ? "c#" : want == D9_REG_CONSTINT ? "i#" : "b#");
          bool writable = d->type == D9_REG_TEMP || d->type == D9_REG_COLOROUT || d->type == D9_REG_DEPTHOUT
                          || (d->type == D9_REG_TEXTURE && ver <= V13)
                          || (d->type == D9_REG_PREDICATE && in->id == D9_SETP);
          /* p0 outside setp has its own message below. */
          if (want < 0 && in->id != D9_DCL && in->id != D9_TEXKILL && !writable
              && d->type != D9_REG_PREDICATE)
            verr (&v, SL_DIAG_D3D9_NOT_WRITABLE,
                  "%s cannot be written in %s", d->type == D9_REG_CONST ? "a constant register"
                  : d->type == D9_REG_INPUT ? "an input register" : "this register", sh->version_name);
          if (in->id == D9_SETP && d->type != D9_REG_PREDICATE)
            verr (&v, SL_DIAG_D3D9_SETP_DESTINATION, "setp writes p0");
          if (d->type == D9_REG_PREDICATE && in->id != D9_SETP)
            verr (&v, SL_DIAG_D3D9_P0_WRITE, "only setp writes p0");
          /* Write masks. */
          if (ver <= V13 && want < 0 && d->mask != 0xf && d->mask != 0x7 && d->mask != 0x8)
            verr (&v, SL_DIAG_D3D9_WRITE_MASK_PS1X,
                  "write mask must be .rgba, .rgb or .a in %s", sh->version_name);
          if ((oi->flags & D9F_T) && ver <= V14 && in->id != D9_TEXCRD && d->mask != 0xf)
            verr (&v, SL_DIAG_D3D9_WRITE_MASK_FORBIDDEN,
                  "%s writes all components in %s (no write mask)", oi->name, sh->version_name);
          if (in->id == D9_TEXCRD && d->mask != 0xf && d->mask != 0x7 && d->mask != 0x3)
            verr (&v, SL_DIAG_D3D9_TEXCRD_WRITE_MASK, "texcrd write mask must be .xyzw, .xyz or .xy");
          if ((d->type == D9_REG_COLOROUT || d->type == D9_REG_DEPTHOUT) && in->predicated && ver < V30)
            verr (&v, SL_DIAG_D3D9_PREDICATED_OUTPUT,
                  "output registers cannot be written under predication in %s", sh->version_name);
          if (ver == V20 && (in->id == D9_TEXLD || in->id == D9_TEXLDP || in->id == D9_TEXLDB) && d->mask != 0xf)
            verr (&v, SL_DIAG_D3D9_FULL_WRITE_MASK, "%s needs a full write mask in ps_2_0", oi->name);
          /* Instruction modifiers: written on the mnemonic. */
          v.operand = -1;
          if (d->shift && !v1)
            verr (&v, SL_DIAG_D3D9_SHIFT_PS1X,
                  "instruction modifier _%s%d is only available in ps_1_x (this is %s)",
                  d->shift > 0 ? "x" : "d", 1 << abs (d->shift), sh->version_name);
          else if (d->shift && ver <= V13 && (d->shift == 3 || d->shift < -1))
            verr (&v, SL_DIAG_D3D9_SHIFT_PS14, "instruction modifier _%s%d needs ps_1_4 (this is %s)",
                  d->shift > 0 ? "x" : "d", 1 << abs (d->shift), sh->version_name);
          else if (d->shift && (oi->flags & D9F_T))
            verr (&v, SL_DIAG_D3D9_SHIFT_FORBIDDEN, "instruction modifier _%s%d is not allowed on %s",
                  d->shift > 0 ? "x" : "d", 1 << abs (d->shift), oi->name);
          if ((d->dstmod & D9_DST_PP) && v1)
            verr (&v, SL_DIAG_D3D9_PP_VERSION, "_pp needs ps_2_0 or later (this is %s)", sh->version_name);
          if ((d->dstmod & D9_DST_CENTROID) && (v1 || (in->id != D9_DCL && !(oi->flags & D9F_T))))
            verr (&v, SL_DIAG_D3D9_CENTROID,
                  "_centroid is only allowed on dcl and texture loads in ps_2_0 or later");
          if ((d->dstmod & D9_DST_SAT) && (in->id == D9_DCL || want >= 0 || in->id == D9_TEXKILL))
            verr (&v, SL_DIAG_D3D9_SAT_FORBIDDEN, "_sat is not allowed on %s", oi->name);
          if ((d->dstmod & D9_DST_SAT) && (d->type == D9_REG_DEPTHOUT || d->type == D9_REG_PREDICATE))
            verr (&v, SL_DIAG_D3D9_SAT_DESTINATION, "_sat is not allowed on this destination");
          v.operand = 0;
          if (in->id == D9_DCL)
            {
              bool ok = d->type == D9_REG_SAMPLER || d->type == D9_REG_TEXTURE || d->type == D9_REG_INPUT
                        || d->type == D9_REG_MISCTYPE;
              if (!ok)
                verr (&v, SL_DIAG_D3D9_DCL_REGISTER, "dcl declares t#, v#, s#, vPos or vFace");
              if (d->type == D9_REG_SAMPLER && !in->tex_type)
                verr (&v, SL_DIAG_D3D9_DCL_SAMPLER_KIND, "dcl of a sampler needs _2d, _cube or _volume");
            }
        }

      /* Sources. */
      for (int k = 0; k < oi->n_src; k++)
        {
          const D9Param *s = &in->src[k];
          v.operand = oi->n_dst + k;
          /* A register the version lacks says all there is to say. */
          if (!check_reg (&v, s, false))
            continue;
          int m = s->srcmod;
          const char *suffix = srcmod_suffix (m);
          bool tex_op = (oi->flags & D9F_T) && ver <= V13;
          /* Which source modifiers each version has. */
          if ((m == D9_SRC_BIAS || m == D9_SRC_BIASNEG || m == D9_SRC_SIGN || m == D9_SRC_SIGNNEG
               || m == D9_SRC_COMP) && !v1)
            verr (&v, SL_DIAG_D3D9_MODIFIER_PS1X,
                  "%s is only available in ps_1_x (this is %s)", suffix, sh->version_name);
          else if ((m == D9_SRC_X2 || m == D9_SRC_X2NEG) && ver != V14)
            verr (&v, SL_DIAG_D3D9_X2_VERSION,
                  "_x2 source modifier needs ps_1_4 (this is %s)", sh->version_name);
          else if ((m == D9_SRC_ABS || m == D9_SRC_ABSNEG) && ver < V2X)
            verr (&v, SL_DIAG_D3D9_ABS_VERSION,
                  "_abs source modifier needs ps_2_x or later (this is %s)", sh->version_name);
          else if ((m == D9_SRC_DZ || m == D9_SRC_DW) && !is_tex_14_src (in->id))
            verr (&v, SL_DIAG_D3D9_DIVIDE_MODIFIER,
                  "%s is only allowed on texld and texcrd in ps_1_4", suffix);
          else if (m == D9_SRC_NOT && !(in->id == D9_IF || in->id == D9_CALLNZ || in->id == D9_BREAKP))
            verr (&v, SL_DIAG_D3D9_NOT_MODIFIER_PLACE,
                  "'!' is only allowed on the condition of if, callnz and breakp");
          else if (tex_op && (m == D9_SRC_SIGN) && !bx2_allowed_on_tex (ver, in->id))
            verr (&v, SL_DIAG_D3D9_BX2_FORBIDDEN,
                  "_bx2 is not allowed on %s in %s", oi->name, sh->version_name);
          else if (tex_op && m != D9_SRC_NONE && m != D9_SRC_SIGN)
            verr (&v, SL_DIAG_D3D9_MODIFIER_FORBIDDEN,
                  "%s is not allowed on %s in %s", suffix, oi->name, sh->version_name);
          if (ver == V14 && s->type == D9_REG_CONST && m != D9_SRC_NONE)
            verr (&v, SL_DIAG_D3D9_CONSTANT_MODIFIER,
                  "source modifiers are not allowed on constants in ps_1_4 (%s on c%u)", suffix, s->index);
          if (ver == V14 && in->id == D9_TEXLD14 && m == D9_SRC_DW)
            verr (&v, SL_DIAG_D3D9_DW_MODIFIER, "_dw is only allowed on texcrd in ps_1_4");
          /* Operand kinds. */
          bool is_sampler_pos = (in->id == D9_TEXLD || in->id == D9_TEXLDP || in->id == D9_TEXLDB
                                 || in->id == D9_TEXLDL || in->id == D9_TEXLDD) && k == 1;
          if (is_sampler_pos != (s->type == D9_REG_SAMPLER))
            {
              if (is_sampler_pos)
                verr (&v, SL_DIAG_D3D9_SAMPLER_EXPECTED, "%s takes a sampler (s#) here", oi->name);
              else
                verr (&v, SL_DIAG_D3D9_SAMPLER_MISPLACED, "%s cannot read a sampler here", oi->name);
            }
          if ((s->type == D9_REG_LABEL) != ((in->id == D9_CALL || in->id == D9_CALLNZ || in->id == D9_LABEL) && k == 0))
            verr (&v, SL_DIAG_D3D9_LABEL_OPERAND,
                  "%s: labels (l#) appear only as the first operand of call, callnz and label", oi->name);
          if (s->type == D9_REG_COLOROUT || s->type == D9_REG_DEPTHOUT)
            verr (&v, SL_DIAG_D3D9_OUTPUT_READ, "output registers cannot be read");
          if (ver == V14 && s->type == D9_REG_TEXTURE && !is_tex_14_src (in->id))
            verr (&v, SL_DIAG_D3D9_TEXTURE_REGISTER_PS14,
                  "t# registers are read only by texld and texcrd in ps_1_4");
          if (ver <= V13 && (oi->flags & D9F_T) && s->type != D9_REG_TEXTURE
              && !(in->id == D9_TEXM3X3SPEC && k == 1))
            verr (&v, SL_DIAG_D3D9_TEXTURE_REGISTER_READ,
                  "%s reads a t# register in %s", oi->name, sh->version_name);
          if (in->id == D9_TEXM3X3SPEC && k == 1 && s->type != D9_REG_CONST)
            verr (&v, SL_DIAG_D3D9_TEXM3X3SPEC_EYE,
                  "texm3x3spec takes the eye-ray vector from a constant register");
          if (s->type == D9_REG_LOOP && !(in->id == D9_LOOP && k == 0))
            verr (&v, SL_DIAG_D3D9_AL_READ, "aL is read only as an index or by loop");
          if ((s->type == D9_REG_CONSTINT) != ((in->id == D9_REP && k == 0) || (in->id == D9_LOOP && k == 1)))
            {
              if (s->type == D9_REG_CONSTINT)
                verr (&v, SL_DIAG_D3D9_INT_READ, "i# registers are read only by rep and loop");
              else
                verr (&v, SL_DIAG_D3D9_REP_OPERAND, "rep and loop take an i# register");
            }
          if (s->type == D9_REG_CONSTBOOL && !(in->id == D9_IF || (in->id == D9_CALLNZ && k == 1)))
            verr (&v, SL_DIAG_D3D9_BOOL_READ, "b# registers are read only by if and callnz");
          if (in->id == D9_IF && s->type != D9_REG_CONSTBOOL && s->type != D9_REG_PREDICATE)
            verr (&v, SL_DIAG_D3D9_IF_OPERAND, "if takes b# or p0 (use if_gt etc. to compare values)");
          if (s->type == D9_REG_PREDICATE && !(in->id == D9_IF || in->id == D9_CALLNZ || in->id == D9_BREAKP))
            verr (&v, SL_DIAG_D3D9_P0_READ,
                  "p0 is read only by if, callnz, breakp and as an instruction predicate");
          /* Swizzles. */
          if (s->type != D9_REG_SAMPLER && s->type != D9_REG_LABEL)
            {
              uint8_t mask = oi->n_dst ? in->dst.mask : 0xf;
              check_swizzle (&v, s, mask, ver == V14 && is_tex_14_src (in->id));
              if ((oi->flags & D9F_S) && k == 0 && ver >= V20 && in->id != D9_POW
                  && !(s->swizzle == 0 || s->swizzle == 0x55 || s->swizzle == 0xaa || s->swizzle == 0xff))
                verr (&v, SL_DIAG_D3D9_REPLICATE_NEEDED,
                      "%s needs a replicate swizzle (.x, .y, .z or .w) on its source", oi->name);
              if (in->id == D9_POW && !(s->swizzle == 0 || s->swizzle == 0x55 || s->swizzle == 0xaa
                                        || s->swizzle == 0xff))
                verr (&v, SL_DIAG_D3D9_POW_REPLICATE, "pow needs replicate swizzles on its sources");
            }
        }
      v.operand = -1;
      check_read_ports (&v, in);
      v.operand = oi->n_dst;
      if (in->id == D9_CND && ver <= V13 && !(in->src[0].type == D9_REG_TEMP && in->src[0].index == 0
                                               && in->src[0].swizzle == 0xff))
        verr (&v, SL_DIAG_D3D9_CND_R0, "cnd compares r0.a in %s", sh->version_name);
      v.operand = 0;
      if ((in->id == D9_SINCOS || in->id == D9_SINCOS2) && (in->dst.mask & ~3u || !in->dst.mask))
        verr (&v, SL_DIAG_D3D9_SINCOS_MASK, "sincos writes .x, .y or .xy");
      if (in->id == D9_CRS && (in->dst.mask & 8))
        verr (&v, SL_DIAG_D3D9_CRS_MASK, "crs writes only x, y and z");
      v.operand = oi->n_dst;
      if ((in->id == D9_CALL || in->id == D9_CALLNZ)
          && !g_hash_table_contains (labels, GINT_TO_POINTER (in->src[0].index + 1)))
        verr (&v, SL_DIAG_D3D9_UNDEFINED_LABEL, "call of undefined label l%u", in->src[0].index);
      v.operand = 0;
      if (in->id == D9_BEM && (in->dst.mask != 0x3))
        verr (&v, SL_DIAG_D3D9_BEM_MASK, "bem writes .rg (.xy)");
      v.operand = -1;

      /* Nesting; past the limit the structure is unknown, so checking
       * it further would only report unmatched ends. */
      if (!nesting_ok)
        continue;
      switch (in->id)
        {
        case D9_IF: case D9_IFC: case D9_REP: case D9_LOOP:
          if (depth == 64)
            {
              verr (&v, SL_DIAG_D3D9_FLOW_DEPTH, "flow control is nested too deeply");
              nesting_ok = false;
            }
          else
            {
              opened_at[depth] = i;
              stack[depth++] = in->id;
            }
          if (in->id == D9_REP || in->id == D9_LOOP)
            {
              if (++loop_depth > 4)
                verr (&v, SL_DIAG_D3D9_LOOP_NESTING,
                      "rep and loop nest at most 4 deep in %s", sh->version_name);
            }
          break;
        case D9_ELSE:
          if (!depth || (stack[depth - 1] != D9_IF && stack[depth - 1] != D9_IFC))
            verr (&v, SL_DIAG_D3D9_ELSE_WITHOUT_IF, "else without if");
          else
            stack[depth - 1] = -stack[depth - 1] - 1;   /* an if that has seen its else */
          break;
        case D9_ENDIF:
          if (!depth || (stack[depth - 1] != D9_IF && stack[depth - 1] != D9_IFC
                         && stack[depth - 1] != -D9_IF - 1 && stack[depth - 1] != -D9_IFC - 1))
            verr (&v, SL_DIAG_D3D9_ENDIF_WITHOUT_IF, "endif without if");
          else
            depth--;
          break;
        case D9_ENDREP: case D9_ENDLOOP:
          if (!depth || stack[depth - 1] != (in->id == D9_ENDREP ? D9_REP : D9_LOOP))
            verr (&v, SL_DIAG_D3D9_END_WITHOUT_BEGIN,
                  "%s without %s", oi->name, in->id == D9_ENDREP ? "rep" : "loop");
          else
            {
              depth--;
              loop_depth--;
            }
          break;
        case D9_BREAK: case D9_BREAKC: case D9_BREAKP:
          if (!loop_depth)
            verr (&v, SL_DIAG_D3D9_OUTSIDE_LOOP, "%s outside rep or loop", oi->name);
          break;
        case D9_LABEL:
          if (depth)
            verr (&v, SL_DIAG_D3D9_LABEL_IN_BLOCK, "label inside a flow-control block");
          break;
        default:
          break;
        }
    }
  if (depth && nesting_ok)
    {
      /* Reported at the innermost block left open. */
      v.in = &g_array_index (sh->insns, D9Insn, opened_at[depth - 1]);
      v.operand = -1;
      int open = stack[depth - 1] < 0 ? -stack[depth - 1] - 1 : stack[depth - 1];
      verr (&v, SL_DIAG_D3D9_UNCLOSED_BLOCK,
            "%s is not closed by %s before the end of the shader", d9_ops[open].name,
            open == D9_REP ? "endrep" : open == D9_LOOP ? "endloop" : "endif");
    }
  /* Both whole-shader rules need the samplers' declared types. */
  uint8_t sampler_type[16] = { 0 };
  for (guint i = 0; i < sh->insns->len; i++)
    {
      const D9Insn *in = &g_array_index (sh->insns, D9Insn, i);
      if (in->id == D9_DCL && in->dst.type == D9_REG_SAMPLER && in->dst.index < 16)
        sampler_type[in->dst.index] = in->tex_type;
    }
  check_slots (&v, sampler_type);
  check_dependent_reads (&v, sampler_type);
  g_hash_table_destroy (labels);
  return v.ok;
}

/* ------------------------------------------------------------------ */
/* Printing                                                             */
/* ------------------------------------------------------------------ */

static void
print_src (GString *out, const D9Param *s)
{
  int m = s->srcmod;
  if (m == D9_SRC_NEG || m == D9_SRC_BIASNEG || m == D9_SRC_SIGNNEG || m == D9_SRC_X2NEG || m == D9_SRC_ABSNEG)
    g_string_append_c (out, '-');
  if (m == D9_SRC_COMP)
    g_string_append (out, "1-");
  if (m == D9_SRC_NOT)
    g_string_append_c (out, '!');
  reg_text (out, s);
  if (m != D9_SRC_NEG && m != D9_SRC_COMP && m != D9_SRC_NOT)
    g_string_append (out, srcmod_suffix (m));
  if (s->swizzle != D9_SWZ_IDENTITY && s->type != D9_REG_SAMPLER && s->type != D9_REG_LABEL)
    {
      char txt[8];
      swizzle_text (txt, s->swizzle);
      g_string_append_printf (out, ".%s", txt);
    }
}

static void
print_float (GString *out, uint32_t bits)
{
  char buf[G_ASCII_DTOSTR_BUF_SIZE];
  float f = sl_u2f (bits);
  /* The shortest text that reads back to the same float. */
  for (int prec = 1; prec <= 9; prec++)
    {
      g_ascii_formatd (buf, sizeof buf, prec == 9 ? "%.9g" : (char[]) { '%', '.', (char) ('0' + prec), 'g', 0 }, f);
      if (sl_f2u ((float) g_ascii_strtod (buf, NULL)) == bits || prec == 9)
        break;
    }
  g_string_append (out, buf);
}

static const char *
type_text (const D9Constant *c, char *buf, size_t size)
{
  static const char *const scal[] = { "void", "bool", "int", "float" };
  if (c->cls == 4)
    return c->type == 14 ? "samplerCUBE" : c->type == 13 ? "sampler3D" : c->type == 11 ? "sampler1D"
           : c->type == 10 ? "sampler" : "sampler2D";
  const char *b = c->type <= 3 ? scal[c->type] : "float";
  if (c->cls == 0)
    g_snprintf (buf, size, "%s", b);
  else if (c->cls == 1)
    g_snprintf (buf, size, "%s%u", b, c->columns);
  else
    g_snprintf (buf, size, "%s%s%ux%u", c->cls == 2 ? "row_major " : "", b, c->rows, c->columns);
  return buf;
}

char *
d9_print (const D9Shader *sh)
{
  GString *out = g_string_new (NULL);
  if (sh->constants->len)
    {
      g_string_append (out, "//\n// Parameters:\n//\n");
      for (guint i = 0; i < sh->constants->len; i++)
        {
          const D9Constant *c = &g_array_index (sh->constants, D9Constant, i);
          char buf[64];
          g_string_append_printf (out, "//   %s %s", type_text (c, buf, sizeof buf), c->name);
          if (c->elements > 1)
            g_string_append_printf (out, "[%u]", c->elements);
          g_string_append (out, ";\n");
        }
      g_string_append (out, "//\n// Registers:\n//\n//   Name Reg Size\n");
      for (guint i = 0; i < sh->constants->len; i++)
        {
          const D9Constant *c = &g_array_index (sh->constants, D9Constant, i);
          g_string_append_printf (out, "//   %s %c%u %u\n", c->name, "bics"[c->regset & 3], c->reg_index,
                                  c->reg_count);
        }
      g_string_append (out, "//\n");
    }
  g_string_append_printf (out, "%s\n", sh->version_name);
  for (guint i = 0; i < sh->insns->len; i++)
    {
      const D9Insn *in = &g_array_index (sh->insns, D9Insn, i);
      const D9OpInfo *oi = &d9_ops[in->id];
      if (in->coissue)
        g_string_append (out, "+");
      if (in->predicated)
        {
          g_string_append_c (out, '(');
          print_src (out, &in->pred);
          g_string_append (out, ") ");
        }
      g_string_append (out, oi->name);
      if (in->compare)
        g_string_append_printf (out, "_%s", compare_names[in->compare]);
      if (in->id == D9_DCL)
        {
          if (in->dst.type == D9_REG_SAMPLER)
            g_string_append (out, in->tex_type == 3 ? "_cube" : in->tex_type == 4 ? "_volume" : "_2d");
          else if (sh->version >= V30 && in->dst.type == D9_REG_INPUT)
            {
              g_string_append_printf (out, "_%s", usage_names[MIN (in->usage, G_N_ELEMENTS (usage_names) - 1)]);
              if (in->usage_index)
                g_string_append_printf (out, "%u", in->usage_index);
            }
        }
      const D9Param *d = &in->dst;
      bool has_dst = oi->n_dst || in->id == D9_DEF || in->id == D9_DEFI || in->id == D9_DEFB;
      if (has_dst)
        {
          static const char *const shifts[] = { "_d8", "_d4", "_d2", "", "_x2", "_x4", "_x8" };
          g_string_append (out, shifts[d->shift + 3]);
          if (d->dstmod & D9_DST_SAT)
            g_string_append (out, "_sat");
          if (d->dstmod & D9_DST_PP)
            g_string_append (out, "_pp");
          if (d->dstmod & D9_DST_CENTROID)
            g_string_append (out, "_centroid");
          g_string_append_c (out, ' ');
          reg_text (out, d);
          if (d->mask != 0xf)
            {
              g_string_append_c (out, '.');
              for (int c = 0; c < 4; c++)
                if (d->mask & (1u << c))
                  g_string_append_c (out, "xyzw"[c]);
            }
        }
      if (in->id == D9_DEF)
        for (int k = 0; k < 4; k++)
          {
            g_string_append (out, ", ");
            print_float (out, in->lit[k]);
          }
      else if (in->id == D9_DEFI)
        for (int k = 0; k < 4; k++)
          g_string_append_printf (out, ", %d", (int32_t) in->lit[k]);
      else if (in->id == D9_DEFB)
        g_string_append (out, in->lit[0] ? ", true" : ", false");
      else
        for (int k = 0; k < oi->n_src; k++)
          {
            g_string_append (out, k || has_dst ? ", " : " ");
            print_src (out, &in->src[k]);
          }
      g_string_append_c (out, '\n');
    }
  return g_string_free (out, FALSE);
}
