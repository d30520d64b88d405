/* D3D9 shader bytecode ↔ D9Shader, and the CTAB constant table.
 *
 * The token stream (version token, instruction tokens with their parameter
 * tokens, comment tokens, end token) maps one to one onto D9Insn because
 * the parsed form already uses the token encodings.  ps_1_x tokens carry
 * no instruction length, so the decoder takes operand counts from the
 * instruction table for every version and cross-checks the length field
 * where ps_2_0+ provides one.  The CTAB comment names constants and
 * samplers and holds defaults; it is read into D9Shader.constants, which
 * the lowering turns into parameters.  Every read is bounds-checked: a
 * truncated or hostile file gives a diagnostic, never a crash. */
#include "asm/d3d9/d3d9.h"
#include "base/diag.h"

#include <string.h>

#define TOK_PARAM 0x80000000u
#define OP_COMMENT 0xfffeu
#define OP_END 0xffffu
#define OP_PHASE 0xfffdu
#define CTAB_TAG 0x42415443u   /* "CTAB" little-endian */

/* ------------------------------------------------------------------ */
/* Encoder                                                              */
/* ------------------------------------------------------------------ */

static void
put (GByteArray *b, uint32_t w)
{
  uint8_t x[4] = { w & 0xff, (w >> 8) & 0xff, (w >> 16) & 0xff, w >> 24 };
  g_byte_array_append (b, x, 4);
}

static uint32_t
reg_bits (const D9Param *p)
{
  return TOK_PARAM | (p->index & 0x7ffu) | ((uint32_t) (p->type & 7) << 28)
         | ((uint32_t) ((p->type >> 3) & 3) << 11) | (p->relative ? 1u << 13 : 0);
}

static uint32_t
dst_token (const D9Param *p)
{
  return reg_bits (p) | ((uint32_t) p->mask << 16) | ((uint32_t) (p->dstmod & 0xf) << 20)
         | ((uint32_t) (p->shift & 0xf) << 24);
}

static uint32_t
src_token (const D9Param *p)
{
  return reg_bits (p) | ((uint32_t) p->swizzle << 16) | ((uint32_t) p->srcmod << 24);
}

static void
put_src (GByteArray *b, const D9Param *p)
{
  put (b, src_token (p));
  if (p->relative)
    {
      D9Param al = { .type = D9_REG_LOOP, .swizzle = 0 };
      put (b, src_token (&al));
    }
}

static void
put_string (GByteArray *blob, const char *s)
{
  g_byte_array_append (blob, (const uint8_t *) s, strlen (s) + 1);
  while (blob->len & 3)
    g_byte_array_append (blob, (const uint8_t *) "", 1);
}

static void
set32 (GByteArray *b, size_t off, uint32_t w)
{
  b->data[off] = w & 0xff;
  b->data[off + 1] = (w >> 8) & 0xff;
  b->data[off + 2] = (w >> 16) & 0xff;
  b->data[off + 3] = w >> 24;
}

static void
set16 (GByteArray *b, size_t off, uint16_t w)
{
  b->data[off] = w & 0xff;
  b->data[off + 1] = w >> 8;
}

static GByteArray *
build_ctab (const D9Shader *sh, uint32_t version_token)
{
  GByteArray *blob = g_byte_array_new ();
  guint n = sh->constants->len;
  /* header */
  for (int i = 0; i < 7; i++)
    put (blob, 0);
  size_t info_off = blob->len;
  for (guint i = 0; i < n * 5; i++)
    put (blob, 0);
  for (guint i = 0; i < n; i++)
    {
      const D9Constant *c = &g_array_index (sh->constants, D9Constant, i);
      size_t ci = info_off + i * 20;
      size_t ti = blob->len;
      put (blob, c->cls | ((uint32_t) c->type << 16));
      put (blob, c->rows | ((uint32_t) c->columns << 16));
      put (blob, c->elements);   /* StructMembers 0 */
      put (blob, 0);             /* StructMemberInfo */
      size_t name_off = blob->len;
      put_string (blob, c->name);
      size_t def_off = 0;
      if (c->defaults)
        {
          def_off = blob->len;
          for (int k = 0; k < c->reg_count * 4; k++)
            put (blob, sl_f2u (c->defaults[k]));
        }
      set32 (blob, ci, (uint32_t) name_off);
      set16 (blob, ci + 4, c->regset);
      set16 (blob, ci + 6, c->reg_index);
      set16 (blob, ci + 8, c->reg_count);
      set32 (blob, ci + 12, (uint32_t) ti);
      set32 (blob, ci + 16, (uint32_t) def_off);
    }
  size_t creator_off = blob->len;
  put_string (blob, sh->creator ? sh->creator : "gegl-shaders");
  size_t target_off = blob->len;
  char target[16];
  int mj, mi;
  d9_version_token (sh->version, &mj, &mi);
  g_snprintf (target, sizeof target, "%s", sh->version_name);
  put_string (blob, target);
  set32 (blob, 0, 28);
  set32 (blob, 4, (uint32_t) creator_off);
  set32 (blob, 8, version_token);
  set32 (blob, 12, n);
  set32 (blob, 16, (uint32_t) info_off);
  set32 (blob, 20, 0);
  set32 (blob, 24, (uint32_t) target_off);
  return blob;
}

GByteArray *
d9_encode (const D9Shader *sh)
{
  GByteArray *b = g_byte_array_new ();
  int mj, mi;
  d9_version_token (sh->version, &mj, &mi);
  uint32_t vt = 0xffff0000u | ((uint32_t) mj << 8) | (uint32_t) mi;
  put (b, vt);
  if (sh->constants->len)
    {
      GByteArray *ctab = build_ctab (sh, vt);
      put (b, OP_COMMENT | (((ctab->len / 4) + 1) << 16));
      put (b, CTAB_TAG);
      g_byte_array_append (b, ctab->data, ctab->len);
      g_byte_array_free (ctab, TRUE);
    }
  bool v1 = sh->version <= V14;
  for (guint i = 0; i < sh->insns->len; i++)
    {
      const D9Insn *in = &g_array_index (sh->insns, D9Insn, i);
      const D9OpInfo *oi = &d9_ops[in->id];
      if (in->id == D9_PHASE)
        {
          put (b, OP_PHASE);
          continue;
        }
      uint32_t tok = oi->code;
      if (oi->flags & D9F_C)
        tok |= (uint32_t) in->compare << 16;
      if (in->id == D9_TEXLDP)
        tok |= 1u << 16;
      if (in->id == D9_TEXLDB)
        tok |= 2u << 16;
      if (in->coissue)
        tok |= 1u << 30;
      if (in->predicated)
        tok |= 1u << 28;
      size_t at = b->len;
      put (b, tok);
      if (in->id == D9_DCL)
        {
          uint32_t u = TOK_PARAM;
          if (in->dst.type == D9_REG_SAMPLER)
            u |= (uint32_t) in->tex_type << 27;
          else
            u |= in->usage | ((uint32_t) in->usage_index << 16);
          put (b, u);
          put (b, dst_token (&in->dst));
        }
      else if (in->id == D9_DEF || in->id == D9_DEFI || in->id == D9_DEFB)
        {
          put (b, dst_token (&in->dst));
          for (int k = 0; k < (in->id == D9_DEFB ? 1 : 4); k++)
            put (b, in->lit[k]);
        }
      else
        {
          if (oi->n_dst)
            put (b, dst_token (&in->dst));
          if (in->predicated)
            put (b, src_token (&in->pred));
          for (int k = 0; k < oi->n_src; k++)
            put_src (b, &in->src[k]);
        }
      if (!v1)
        set32 (b, at, tok | ((uint32_t) ((b->len - at) / 4 - 1) << 24));
    }
  put (b, OP_END);
  return b;
}

/* ------------------------------------------------------------------ */
/* Decoder                                                              */
/* ------------------------------------------------------------------ */

typedef struct
{
  const uint8_t *data;
  size_t         size;
} Blob;

static bool
rd32 (Blob b, size_t off, uint32_t *w)
{
  if (off > b.size || b.size - off < 4)
    return false;
  *w = b.data[off] | (uint32_t) b.data[off + 1] << 8 | (uint32_t) b.data[off + 2] << 16
       | (uint32_t) b.data[off + 3] << 24;
  return true;
}

static bool
rd16 (Blob b, size_t off, uint16_t *w)
{
  if (off > b.size || b.size - off < 2)
    return false;
  *w = (uint16_t) (b.data[off] | b.data[off + 1] << 8);
  return true;
}

static const char *
rdstr (Blob b, size_t off)
{
  if (off >= b.size)
    return NULL;
  const void *nul = memchr (b.data + off, 0, b.size - off);
  return nul ? (const char *) b.data + off : NULL;
}

bool
d9_parse_ctab (D9Shader *sh, const uint8_t *data, size_t size, SlDiagnostics *diags)
{
  Blob b = { data, size };
  uint32_t hsize, creator, n, info;
  if (!rd32 (b, 0, &hsize) || !rd32 (b, 4, &creator) || !rd32 (b, 12, &n) || !rd32 (b, 16, &info)
      || hsize < 28 || n > 65536)
    goto bad;
  const char *cr = rdstr (b, creator);
  if (cr)
    sh->creator = sl_arena_strdup (sh->arena, cr);
  for (uint32_t i = 0; i < n; i++)
    {
      size_t ci = (size_t) info + (size_t) i * 20;
      uint32_t name_off, type_off, def_off;
      D9Constant c = { 0 };
      if (!rd32 (b, ci, &name_off) || !rd16 (b, ci + 4, &c.regset) || !rd16 (b, ci + 6, &c.reg_index)
          || !rd16 (b, ci + 8, &c.reg_count) || !rd32 (b, ci + 12, &type_off) || !rd32 (b, ci + 16, &def_off))
        goto bad;
      const char *name = rdstr (b, name_off);
      if (!name || c.regset > 3)
        goto bad;
      c.name = sl_arena_strdup (sh->arena, name);
      if (!rd16 (b, type_off, &c.cls) || !rd16 (b, type_off + 2, &c.type) || !rd16 (b, type_off + 4, &c.rows)
          || !rd16 (b, type_off + 6, &c.columns) || !rd16 (b, type_off + 8, &c.elements))
        goto bad;
      if (def_off && c.reg_count <= 4096)
        {
          c.defaults = SL_NEW_N (sh->arena, float, (size_t) c.reg_count * 4 + 1);
          for (int k = 0; k < c.reg_count * 4; k++)
            {
              uint32_t w;
              if (!rd32 (b, def_off + 4 * (size_t) k, &w))
                goto bad;
              c.defaults[k] = sl_u2f (w);
            }
        }
      g_array_append_val (sh->constants, c);
    }
  return true;
bad:
  sl_diag (diags, SL_DIAG_D3D9_BYTECODE_CTAB, sh->file, 0, 0,
           "malformed CTAB constant table");
  return false;
}

static D9Param
parse_param (uint32_t w, bool dst)
{
  D9Param p = { 0 };
  p.index = w & 0x7ff;
  p.type = (uint8_t) (((w >> 28) & 7) | (((w >> 11) & 3) << 3));
  p.relative = (w >> 13) & 1;
  if (dst)
    {
      p.mask = (w >> 16) & 0xf;
      p.dstmod = (w >> 20) & 0xf;
      int s = (w >> 24) & 0xf;
      p.shift = (int8_t) (s >= 8 ? s - 16 : s);
    }
  else
    {
      p.swizzle = (w >> 16) & 0xff;
      p.srcmod = (w >> 24) & 0xf;
    }
  return p;
}

static int
find_by_code (uint32_t code, uint32_t controls, D9Version v)
{
  if (code == 66 && v >= V20)
    return controls & 1 ? D9_TEXLDP : controls & 2 ? D9_TEXLDB : D9_TEXLD;
  D9Version e = v == V10 ? V11 : v;
  for (int i = 0; i < D9_N_OPS; i++)
    if (d9_ops[i].code == code && e >= d9_ops[i].min && e <= d9_ops[i].max)
      return i;
  for (int i = 0; i < D9_N_OPS; i++)
    if (d9_ops[i].code == code)
      return i;   /* out of its versions: the validator names the rule */
  return -1;
}

D9Shader *
d9_decode (const uint8_t *bytes, size_t length, const char *file, SlDiagnostics *diags)
{
  D9Shader *sh = d9_shader_new (file);
  Blob b = { bytes, length };
  uint32_t vt;
  size_t pos = 0;
  const char *why = NULL;
  if (length % 4 || !rd32 (b, 0, &vt) || (vt >> 16) != 0xffff)
    {
      why = "not a D3D9 pixel shader (no ps version token)";
      goto fail;
    }
  {
    int mj = (vt >> 8) & 0xff, mi = vt & 0xff;
    static const struct { int mj, mi; D9Version v; } vers[] = {
      { 1, 0, V10 }, { 1, 1, V11 }, { 1, 2, V12 }, { 1, 3, V13 }, { 1, 4, V14 }, { 2, 0, V20 },
      { 2, 1, V2X }, { 2, 255, V2SW }, { 3, 0, V30 }, { 3, 255, V3SW },
    };
    bool found = false;
    for (size_t i = 0; i < G_N_ELEMENTS (vers); i++)
      if (vers[i].mj == mj && vers[i].mi == mi)
        {
          sh->version = vers[i].v;
          sh->version_name = d9_version_name (vers[i].v);
          found = true;
        }
    if (!found)
      {
        why = "unsupported pixel shader version";
        goto fail;
      }
  }
  pos = 4;
  bool v1 = sh->version <= V14;
  bool ended = false;
  int n_insn = 0;
  while (!ended)
    {
      uint32_t tok;
      if (!rd32 (b, pos, &tok))
        {
          why = "truncated token stream (no end token)";
          goto fail;
        }
      size_t at = pos;
      pos += 4;
      uint32_t code = tok & 0xffff;
      if (code == OP_END)
        {
          ended = true;
          break;
        }
      if (code == OP_COMMENT)
        {
          size_t n = (tok >> 16) & 0x7fff;
          uint32_t tag;
          if (n * 4 > length - pos)
            {
              why = "comment runs past the end";
              goto fail;
            }
          if (n >= 1 && rd32 (b, pos, &tag) && tag == CTAB_TAG
              && !d9_parse_ctab (sh, bytes + pos + 4, n * 4 - 4, diags))
            goto fail_quiet;
          pos += n * 4;
          continue;
        }
      D9Insn in;
      memset (&in, 0, sizeof in);
      in.line = ++n_insn;
      in.column = (int) at / 4 + 1;
      if (code == OP_PHASE)
        {
          in.id = D9_PHASE;
          g_array_append_val (sh->insns, in);
          continue;
        }
      int id = find_by_code (code, (tok >> 16) & 0xff, sh->version);
      if (id < 0)
        {
          sl_diag (diags, SL_DIAG_D3D9_BYTECODE_OPCODE, sh->file, in.line, in.column,
                   "unknown opcode %u", code);
          goto fail_quiet;
        }
      in.id = (uint8_t) id;
      const D9OpInfo *oi = &d9_ops[id];
      if (oi->flags & D9F_C)
        in.compare = (tok >> 16) & 7;
      in.coissue = (tok >> 30) & 1;
      in.predicated = (tok >> 28) & 1;
      size_t len = (tok >> 24) & 0xf;
      uint32_t w;
#define NEXT(var) do { if (!rd32 (b, pos, &(var))) { why = "truncated instruction"; goto fail; } pos += 4; } while (0)
      if (id == D9_DCL)
        {
          uint32_t u, d;
          NEXT (u);
          NEXT (d);
          in.dst = parse_param (d, true);
          if (in.dst.type == D9_REG_SAMPLER)
            in.tex_type = (u >> 27) & 0xf;
          else
            {
              in.usage = u & 0x1f;
              in.usage_index = (u >> 16) & 0xf;
            }
        }
      else if (id == D9_DEF || id == D9_DEFI || id == D9_DEFB)
        {
          NEXT (w);
          in.dst = parse_param (w, true);
          for (int k = 0; k < (id == D9_DEFB ? 1 : 4); k++)
            NEXT (in.lit[k]);
        }
      else
        {
          if (oi->n_dst)
            {
              NEXT (w);
              in.dst = parse_param (w, true);
            }
          if (in.predicated)
            {
              NEXT (w);
              in.pred = parse_param (w, false);
            }
          for (int k = 0; k < oi->n_src; k++)
            {
              NEXT (w);
              in.src[k] = parse_param (w, false);
              if (in.src[k].relative && !v1)
                NEXT (w);   /* the aL address token */
            }
        }
#undef NEXT
      if (!v1 && len != (pos - at) / 4 - 1)
        {
          sl_diag (diags, SL_DIAG_D3D9_BYTECODE_LENGTH, sh->file, in.line, in.column,
                   "%s: length field says %zu tokens, the operands take %zu", oi->name, len,
                   (pos - at) / 4 - 1);
          goto fail_quiet;
        }
      g_array_append_val (sh->insns, in);
    }
  if (!d9_validate (sh, diags))
    goto fail_quiet;
  return sh;
fail:
  sl_diag (diags, SL_DIAG_D3D9_BYTECODE_MALFORMED, sh->file, 0, 0, "%s (at byte %zu)", why, pos);
fail_quiet:
  d9_shader_free (sh);
  return NULL;
}
