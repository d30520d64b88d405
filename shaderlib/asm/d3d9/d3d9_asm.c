/* D3D9 pixel-shader assembly text → D9Shader.
 *
 * The parser works one line at a time (the assembly has one instruction
 * per line) and stores operands in token terms, so that d9_validate
 * (d3d9_validate.c) checks text and bytecode alike and d9_print
 * (d3d9_print.c) writes the same text back.  Register names, modifier
 * spellings and the instruction table are shared with those views
 * (d3d9_shader.c, d3d9_tables.def).
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
  for (size_t i = 0; i < D9_N_REG_NAMES; i++)
    {
      size_t n = strlen (d9_reg_names[i].prefix);
      if ((size_t) (end - q) < n || strncmp (q, d9_reg_names[i].prefix, n))
        continue;
      const char *r = q + n;
      if (d9_reg_names[i].numbered)
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
          out->index = d9_reg_names[i].index;
        }
      out->type = d9_reg_names[i].type;
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
        if (!strcmp (m, d9_compare_names[k]))
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
            for (size_t u = 0; u < D9_N_USAGE_NAMES; u++)
              {
                size_t n = strlen (d9_usage_names[u]);
                if (!strncmp (m, d9_usage_names[u], n) && (!m[n] || g_ascii_isdigit (m[n])))
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
