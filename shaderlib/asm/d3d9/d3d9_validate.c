/* D3D9 pixel shaders: the per-version validator (d9_validate), shared by
 * assembly text and bytecode.
 *
 * The rules come from the reference pages' version tables: the instruction
 * table (d3d9_tables.def) gives each instruction's version range; the
 * register, modifier, swizzle and read-port rules live in the small tables
 * here and in d3d9_shader.c.  Every message names the rule and the version
 * the shader declared, e.g. "_bx2 is not allowed on texreg2ar in ps_1_3".
 * ps_2_a and ps_2_b share the ps_2_x version and differ only in their caps
 * (d9_profile_caps), which the register, swizzle and instruction checks
 * consult for ps_2_x.  Two rules concern the whole shader and run after
 * the per-instruction checks: the instruction-slot budgets and the
 * dependent-read limit of ps_2_0/ps_2_b. */
#include "asm/d3d9/d3d9.h"
#include "base/diag.h"

#include <stdio.h>
#include <string.h>

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

static void
check_swizzle (V *v, const D9Param *s, uint8_t dst_mask, bool tex_1_4)
{
  D9Version ver = v->sh->version;
  uint8_t w = s->swizzle;
  if (w == D9_SWZ_IDENTITY)
    return;
  char txt[8];
  d9_swizzle_text (txt, w);
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
  int n = d9_reg_count (v->sh, p->type, dst);
  GString *name = g_string_new (NULL);
  D9Param bare = *p;
  bare.relative = false;
  d9_reg_text (name, &bare);
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
          /* The token's four bits hold -8 … 7, but only -3 … 3 name a
           * modifier (_d8 … _x8); the printer and the lowering index
           * tables by it. */
          if (d->shift < -3 || d->shift > 3)
            verr (&v, SL_DIAG_D3D9_SHIFT_RANGE,
                  "result shift %d names no instruction modifier (_d8 … _x8 are -3 … 3)",
                  d->shift);
          else if (d->shift && !v1)
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
          const char *suffix = d9_srcmod_suffix (m);
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
