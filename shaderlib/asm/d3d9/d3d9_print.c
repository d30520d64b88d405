/* D3D9 pixel shaders: the canonical printer (d9_print).
 *
 * The text it writes is what `gegl-shaders dis` shows and what d9_assemble
 * reads back to the same program: an fxc-style comment header naming the
 * constants (so names and defaults survive the round trip), the version,
 * then one instruction per line with the shortest swizzles. */
#include "asm/d3d9/d3d9.h"

#include <stdio.h>
#include <string.h>

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
  d9_reg_text (out, s);
  if (m != D9_SRC_NEG && m != D9_SRC_COMP && m != D9_SRC_NOT)
    g_string_append (out, d9_srcmod_suffix (m));
  if (s->swizzle != D9_SWZ_IDENTITY && s->type != D9_REG_SAMPLER && s->type != D9_REG_LABEL)
    {
      char txt[8];
      d9_swizzle_text (txt, s->swizzle);
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
        g_string_append_printf (out, "_%s", d9_compare_names[in->compare]);
      if (in->id == D9_DCL)
        {
          if (in->dst.type == D9_REG_SAMPLER)
            g_string_append (out, in->tex_type == 3 ? "_cube" : in->tex_type == 4 ? "_volume" : "_2d");
          else if (sh->version >= V30 && in->dst.type == D9_REG_INPUT)
            {
              g_string_append_printf (out, "_%s", d9_usage_names[MIN (in->usage, D9_N_USAGE_NAMES - 1)]);
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
          d9_reg_text (out, d);
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
