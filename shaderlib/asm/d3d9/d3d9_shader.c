/* D3D9 pixel shaders: the instruction table, versions and profiles, the
 * D9Shader itself, and the register and modifier names every view of it
 * shares.
 *
 * The assembler (d3d9_asm.c), the validator (d3d9_validate.c), the printer
 * (d3d9_print.c), the bytecode reader/writer (d3d9_bytecode.c) and the
 * lowering (d3d9_lower.c) all read these tables, so a register's name, its
 * per-version count and a modifier's spelling are written once. */
#include "asm/d3d9/d3d9.h"

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

/* Longest prefixes first so "oC" wins over "o…" and "vPos" over "v". */
const D9RegName d9_reg_names[D9_N_REG_NAMES] = {
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

void
d9_reg_text (GString *out, const D9Param *p)
{
  for (size_t i = 0; i < D9_N_REG_NAMES; i++)
    if (d9_reg_names[i].type == p->type && (d9_reg_names[i].numbered || d9_reg_names[i].index == p->index))
      {
        g_string_append (out, d9_reg_names[i].prefix);
        if (d9_reg_names[i].numbered)
          g_string_append_printf (out, "%u", p->index);
        if (p->relative)
          g_string_append (out, "[aL]");
        return;
      }
  g_string_append_printf (out, "?%u", p->type);
}

/* Per-version register counts; 0 = not available.  From the "Registers"
 * tables of the ps_1_1–ps_3_0 reference pages. */
int
d9_reg_count (const D9Shader *sh, int type, bool as_dst)
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

const char *const d9_compare_names[D9_N_COMPARE_NAMES] = { "", "gt", "eq", "ge", "lt", "ne", "le" };

/* Usage names for dcl_usage (D3DDECLUSAGE order). */
const char *const d9_usage_names[D9_N_USAGE_NAMES] = {
  "position", "blendweight", "blendindices", "normal", "psize", "texcoord", "tangent",
  "binormal", "tessfactor", "positiont", "color", "fog", "depth", "sample"
};


const char *
d9_srcmod_suffix (int m)
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

void
d9_swizzle_text (char *buf, uint8_t swz)
{
  /* Shortest text that expands to @swz (trailing repeats dropped). */
  int n = 4;
  while (n > 1 && ((swz >> (2 * (n - 1))) & 3) == ((swz >> (2 * (n - 2))) & 3))
    n--;
  for (int i = 0; i < n; i++)
    buf[i] = "xyzw"[(swz >> (2 * i)) & 3];
  buf[n] = 0;
}
