/* DXBC containers ↔ Sm4Shader.
 *
 * Container layout (all little-endian 32-bit words unless noted):
 *   "DXBC", 16-byte checksum, 1, total size, chunk count, chunk offsets[];
 *   each chunk: fourcc, byte size, data.
 * The checksum is never checked when reading (files edited by tools often
 * carry a stale one) and is written as zeros.  Chunks used:
 *   SHDR (ps_4_x) / SHEX (ps_5_0): the tokenised program — a version token
 *     (type << 16 | major << 4 | minor), the length in words, then
 *     instructions: an opcode token (opcode in bits 0-10, controls in
 *     11-23, length in 24-30, extended bit 31), optional extended opcode
 *     tokens, operands (operand token: component count 0-1, selection
 *     mode 2-3, mask/swizzle/select 4-11, type 12-19, index dimension
 *     20-21, index representations 22-30, extended bit 31), index words or
 *     relative operands, immediate values, and per-declaration words.
 *   RDEF: constant buffers with their variables, types and defaults, and
 *     resource bindings; the SM5 variant ("RD11") has larger records.
 *   ISGN / OSGN: signatures (semantic, index, system value, register,
 *     mask).
 * Offsets inside RDEF and signatures are relative to the chunk's data.
 * The reader checks every offset and length against the buffer. */
#include "asm/sm4/sm4.h"
#include "base/diag.h"

#include <string.h>

/* ------------------------------------------------------------------ */
/* Reading                                                              */
/* ------------------------------------------------------------------ */

typedef struct
{
  const uint8_t *data;
  size_t         size;
} Blob;

static bool
rd32 (Blob b, size_t off, uint32_t *v)
{
  if (off > b.size || b.size - off < 4)
    return false;
  memcpy (v, b.data + off, 4);
  *v = GUINT32_FROM_LE (*v);
  return true;
}

static uint16_t
rd16 (Blob b, size_t off)
{
  if (off > b.size || b.size - off < 2)
    return 0;
  return (uint16_t) (b.data[off] | (b.data[off + 1] << 8));
}

static char *
rdstr (Blob b, uint32_t off)
{
  if (off >= b.size)
    return g_strdup ("?");
  const uint8_t *e = memchr (b.data + off, 0, b.size - off);
  if (!e)
    return g_strdup ("?");
  return g_strndup ((const char *) b.data + off, e - (b.data + off));
}

typedef struct
{
  const uint32_t *tok;
  size_t          n, pos;
  bool            bad;
  const char     *why;
} Ts;

static uint32_t
next (Ts *t)
{
  if (t->pos >= t->n)
    {
      t->bad = true;
      t->why = "the token stream ends inside an instruction";
      return 0;
    }
  return GUINT32_FROM_LE (t->tok[t->pos++]);
}

static bool
decode_operand (Ts *t, Sm4Operand *o, int depth)
{
  memset (o, 0, sizeof *o);
  uint32_t tok = next (t);
  int nc = tok & 3;
  o->n_comp = nc == 0 ? 0 : nc == 1 ? 1 : 4;
  if (nc == 3)
    {
      t->bad = true;
      t->why = "N-component operands are not supported";
      return false;
    }
  if (o->n_comp == 4)
    {
      o->sel = (tok >> 2) & 3;
      if (o->sel == SM4_SEL_MASK)
        o->mask = (tok >> 4) & 15;
      else if (o->sel == SM4_SEL_SWIZZLE)
        for (int c = 0; c < 4; c++)
          o->swz[c] = (tok >> (4 + 2 * c)) & 3;
      else
        o->swz[0] = o->swz[1] = o->swz[2] = o->swz[3] = (tok >> 4) & 3;
    }
  o->type = (tok >> 12) & 0xff;
  o->n_idx = (tok >> 20) & 3;
  bool ext = tok >> 31;
  while (ext)
    {
      uint32_t e = next (t);
      if ((e & 0x3f) == 1)
        o->modifier = (e >> 6) & 0xff;
      ext = e >> 31;
    }
  if (o->type == SM4_REG_IMM32)
    {
      for (int c = 0; c < o->n_comp; c++)
        o->imm[c] = next (t);
      return !t->bad;
    }
  for (int k = 0; k < o->n_idx; k++)
    {
      int rep = (tok >> (22 + 3 * k)) & 7;
      if (rep == 0 || rep == 3)
        o->idx[k] = next (t);
      if (rep == 2 || rep == 3)
        {
          Sm4Operand r;
          if (depth > 0 || !decode_operand (t, &r, depth + 1))
            {
              t->bad = true;
              t->why = t->why ? t->why : "bad relative index";
              return false;
            }
          if ((r.type != SM4_REG_TEMP && r.type != SM4_REG_INPUT) || r.n_idx != 1 || r.has_rel[0])
            {
              t->bad = true;
              t->why = "relative indices must be r# or v# components";
              return false;
            }
          o->has_rel[k] = true;
          o->rel[k].type = r.type;
          o->rel[k].index = (uint8_t) r.idx[0];
          o->rel[k].comp = r.swz[0];
        }
      else if (rep != 0)
        {
          t->bad = true;
          t->why = "64-bit operand indices are not supported";
          return false;
        }
    }
  return !t->bad;
}

static bool
decode_program (Sm4Shader *sh, Blob b, const char *file, SlDiagnostics *diags)
{
  if (b.size < 8 || b.size % 4)
    {
      sl_diag (diags, SL_DIAG_DXBC_CHUNK_SHORT, file, 0, 0, "the shader chunk is too short");
      return false;
    }
  const uint32_t *tok = (const uint32_t *) b.data;
  uint32_t ver = GUINT32_FROM_LE (tok[0]), len = GUINT32_FROM_LE (tok[1]);
  sh->major = (ver >> 4) & 15;
  sh->minor = ver & 15;
  if ((ver >> 16) != 0)
    {
      sl_diag (diags, SL_DIAG_DXBC_NOT_PIXEL_SHADER, file, 0, 0,
               "only pixel shaders are supported (program type %u)", ver >> 16);
      return false;
    }
  if (!((sh->major == 4 && sh->minor <= 1) || (sh->major == 5 && sh->minor == 0)))
    {
      sl_diag (diags, SL_DIAG_DXBC_SHADER_MODEL, file, 0, 0,
               "unsupported shader model %d.%d (expected 4.0, 4.1 or 5.0)", sh->major, sh->minor);
      return false;
    }
  if (len < 2 || len > b.size / 4)
    {
      sl_diag (diags, SL_DIAG_DXBC_PROGRAM_LENGTH, file, 0, 0,
               "the program length %u does not fit the chunk", len);
      return false;
    }
  Ts t = { .tok = (const uint32_t *) b.data, .n = len, .pos = 2 };
  while (t.pos < t.n)
    {
      size_t start = t.pos;
      uint32_t op = next (&t);
      unsigned opcode = op & 0x7ff;
      size_t ilen = (op >> 24) & 0x7f;
      Sm4Insn in = { 0 };
      in.line = 0;                /* no source lines in bytecode */
      if (opcode == 53)           /* customdata: length in the next word */
        {
          uint32_t cls = op >> 11;
          uint32_t n = next (&t);
          if (t.bad || n < 2 || n - 2 > t.n - t.pos)
            {
              sl_diag (diags, SL_DIAG_DXBC_CUSTOM_DATA, file, 0, 0,
                       "token %zu: bad custom data length", start);
              return false;
            }
          if (cls == 3)
            {
              in.op = SM4_DCL_ICB;
              in.n_data = (int) (n - 2);
              in.data = g_new (uint32_t, MAX (in.n_data, 1));
              for (int k = 0; k < in.n_data; k++)
                in.data[k] = next (&t);
              g_array_append_val (sh->insns, in);
            }
          else
            t.pos += n - 2;       /* comments, debug info */
          continue;
        }
      int row = sm4_op_from_opcode (opcode);
      if (row < 0)
        {
          sl_diag (diags, SL_DIAG_DXBC_OPCODE, file, 0, 0,
                   "token %zu: unsupported opcode %u", start, opcode);
          return false;
        }
      if (ilen < 1 || ilen > t.n - start)
        {
          sl_diag (diags, SL_DIAG_DXBC_INSTRUCTION_LENGTH, file, 0, 0,
                   "token %zu: bad instruction length %zu", start, ilen);
          return false;
        }
      const Sm4OpInfo *info = &sm4_ops[row];
      in.op = row;
      if (info->lower == SM4L_DCL || row == SM4_RESINFO)
        in.ctrl = (op >> 11) & 0x1fff;
      else
        {
          in.sat = (op >> 13) & 1;
          in.test_nz = (op >> 18) & 1;
        }
      bool ext = op >> 31;
      while (ext)
        {
          uint32_t e = next (&t);
          if ((e & 0x3f) == 1)
            {
              for (int c = 0; c < 3; c++)
                {
                  int v = (e >> (9 + 4 * c)) & 15;
                  in.offset[c] = (int8_t) (v >= 8 ? v - 16 : v);
                }
              in.has_offset = in.offset[0] || in.offset[1] || in.offset[2];
            }
          ext = e >> 31;
        }
      uint32_t w[3];
      switch (row)
        {
        case SM4_DCL_TEMPS:
          w[0] = next (&t);
          in.data = g_memdup2 (w, 4);
          in.n_data = 1;
          break;
        case SM4_DCL_INDEXABLE_TEMP:
          for (int k = 0; k < 3; k++)
            w[k] = next (&t);
          in.data = g_memdup2 (w, 12);
          in.n_data = 3;
          break;
        case SM4_DCL_GLOBAL_FLAGS:
          break;
        case SM4_DCL_RESOURCE: case SM4_DCL_INPUT_PS_SIV: case SM4_DCL_INPUT_PS_SGV:
        case SM4_DCL_INPUT_SIV: case SM4_DCL_INPUT_SGV:
          decode_operand (&t, &in.ops[0], 0);
          in.n_ops = 1;
          w[0] = next (&t);
          in.data = g_memdup2 (w, 4);
          in.n_data = 1;
          break;
        default:
          if (info->lower == SM4L_DCL)
            {
              decode_operand (&t, &in.ops[0], 0);
              in.n_ops = 1;
            }
          else
            for (int k = 0; k < info->n_dst + info->n_src && !t.bad; k++)
              {
                decode_operand (&t, &in.ops[k], 0);
                in.n_ops = k + 1;
              }
          break;
        }
      if (t.bad || t.pos != start + ilen)
        {
          sl_diag (diags, SL_DIAG_DXBC_OPERANDS, file, 0, 0,
                   "token %zu: %s: %s", start, info->mnemonic,
                   t.bad ? t.why : "operands do not match the instruction length");
          g_free (in.data);
          return false;
        }
      g_array_append_val (sh->insns, in);
    }
  return true;
}

static void
read_signature (Blob b, GArray *sig)
{
  uint32_t n, off;
  if (!rd32 (b, 0, &n) || !rd32 (b, 4, &off) || n > 256)
    return;
  for (uint32_t i = 0; i < n; i++)
    {
      size_t e = off + 24 * (size_t) i;
      uint32_t name, idx, sv, reg;
      if (!rd32 (b, e, &name) || !rd32 (b, e + 4, &idx) || !rd32 (b, e + 8, &sv) || !rd32 (b, e + 16, &reg)
          || e + 22 > b.size)
        return;
      /* A damaged table's 0xC4000000 must not become a negative index
       * that passes every "< n" check downstream. */
      Sm4SigElem el = { .semantic = rdstr (b, name), .index = (int) MIN (idx, 0xffffu),
                        .sysval = (int) MIN (sv, 0xffffu), .reg = (int) MIN (reg, 0xffffu),
                        .mask = b.data[e + 20] & 15, .used = b.data[e + 21] & 15 };
      g_array_append_val (sig, el);
    }
}

static void
read_rdef (Sm4Shader *sh, Blob b)
{
  uint32_t ncb, cboff, nbind, bindoff, ver;
  if (!rd32 (b, 0, &ncb) || !rd32 (b, 4, &cboff) || !rd32 (b, 8, &nbind) || !rd32 (b, 12, &bindoff)
      || !rd32 (b, 16, &ver) || ncb > 64 || nbind > 256)
    return;
  bool sm5 = ((ver >> 8) & 0xff) >= 5;
  size_t var_size = sm5 ? 40 : 24;
  for (uint32_t i = 0; i < nbind; i++)
    {
      size_t e = bindoff + 32 * (size_t) i;
      uint32_t name, type, dim, point;
      if (!rd32 (b, e, &name) || !rd32 (b, e + 4, &type) || !rd32 (b, e + 12, &dim) || !rd32 (b, e + 20, &point))
        return;
      Sm4Binding bd = { .name = rdstr (b, name), .kind = (int) type, .slot = (int) point, .dim = (int) dim };
      g_array_append_val (sh->bindings, bd);
    }
  for (uint32_t i = 0; i < ncb; i++)
    {
      size_t e = cboff + 24 * (size_t) i;
      uint32_t name, nvar, varoff, size;
      if (!rd32 (b, e, &name) || !rd32 (b, e + 4, &nvar) || !rd32 (b, e + 8, &varoff) || !rd32 (b, e + 12, &size)
          || nvar > 4096)
        return;
      Sm4CBuffer cb = { .name = rdstr (b, name), .slot = (int) i, .size = size,
                        .vars = g_array_new (FALSE, TRUE, sizeof (Sm4Var)) };
      for (guint k = 0; k < sh->bindings->len; k++)
        {
          Sm4Binding *bd = &g_array_index (sh->bindings, Sm4Binding, k);
          if (bd->kind == 0 && !strcmp (bd->name, cb.name))
            cb.slot = bd->slot;
        }
      for (uint32_t k = 0; k < nvar; k++)
        {
          size_t v = varoff + var_size * (size_t) k;
          uint32_t vname, start, vsize, flags, typeoff, defoff;
          if (!rd32 (b, v, &vname) || !rd32 (b, v + 4, &start) || !rd32 (b, v + 8, &vsize)
              || !rd32 (b, v + 12, &flags) || !rd32 (b, v + 16, &typeoff) || !rd32 (b, v + 20, &defoff)
              || typeoff + 12 > b.size || vsize > 65536)
            break;
          Sm4Var var = {
            .name = rdstr (b, vname), .offset = start, .size = vsize,
            .cls = (uint8_t) rd16 (b, typeoff), .type = (uint8_t) rd16 (b, typeoff + 2),
            .rows = (uint8_t) rd16 (b, typeoff + 4), .columns = (uint8_t) rd16 (b, typeoff + 6),
            .elements = rd16 (b, typeoff + 8),
          };
          if (defoff && defoff <= b.size && b.size - defoff >= vsize)
            {
              var.defaults = g_new (uint32_t, MAX (vsize / 4, 1));
              for (uint32_t w = 0; w < vsize / 4; w++)
                rd32 (b, defoff + 4 * (size_t) w, &var.defaults[w]);
            }
          g_array_append_val (cb.vars, var);
        }
      g_array_append_val (sh->cbuffers, cb);
    }
  sh->has_reflection = sh->cbuffers->len || sh->bindings->len;
}

Sm4Shader *
sm4_dxbc_read (const void *data, size_t length, const char *filename, SlDiagnostics *diags)
{
  const char *file = filename ? filename : "<source>";
  Blob all = { data, length };
  uint32_t total, count;
  if (length < 32 || memcmp (data, "DXBC", 4) || !rd32 (all, 24, &total) || !rd32 (all, 28, &count))
    {
      sl_diag (diags, SL_DIAG_DXBC_NOT_CONTAINER, file, 0, 0, "not a DXBC container");
      return NULL;
    }
  if (total > length)
    {
      sl_diag (diags, SL_DIAG_DXBC_TRUNCATED, file, 0, 0,
               "the container is truncated (%zu bytes, header says %u)", length, total);
      return NULL;
    }
  if (count > 64)
    {
      sl_diag (diags, SL_DIAG_DXBC_CHUNK_LIMIT, file, 0, 0,
               "the header lists %u chunks; the limit is 64", count);
      return NULL;
    }
  if (32 + 4 * (size_t) count > length)
    {
      sl_diag (diags, SL_DIAG_DXBC_CHUNK_TABLE, file, 0, 0,
               "the chunk table (%u entries) runs past the end of the file", count);
      return NULL;
    }
  Sm4Shader *sh = sm4_shader_new ();
  Blob shdr = { NULL, 0 };
  for (uint32_t i = 0; i < count; i++)
    {
      uint32_t off = 0, size = 0;
      rd32 (all, 32 + 4 * (size_t) i, &off);
      if (!rd32 (all, off + 4, &size) || (size_t) off + 8 + size > length)
        {
          sl_diag (diags, SL_DIAG_DXBC_CHUNK_RANGE, file, 0, 0, "chunk %u lies outside the file", i);
          sm4_shader_free (sh);
          return NULL;
        }
      Blob c = { (const uint8_t *) data + off + 8, size };
      const char *cc = (const char *) data + off;
      if (!memcmp (cc, "SHDR", 4) || !memcmp (cc, "SHEX", 4))
        shdr = c;
      else if (!memcmp (cc, "RDEF", 4))
        read_rdef (sh, c);
      else if (!memcmp (cc, "ISGN", 4))
        read_signature (c, sh->inputs);
      else if (!memcmp (cc, "OSGN", 4))
        read_signature (c, sh->outputs);
    }
  if (!shdr.data)
    {
      sl_diag (diags, SL_DIAG_DXBC_NO_SHADER_CHUNK, file, 0, 0, "the container has no SHDR or SHEX chunk");
      sm4_shader_free (sh);
      return NULL;
    }
  /* the token stream must be word aligned for decode_program */
  uint32_t *copy = g_memdup2 (shdr.data, shdr.size & ~(size_t) 3);
  Blob aligned = { (const uint8_t *) copy, shdr.size & ~(size_t) 3 };
  bool ok = decode_program (sh, aligned, file, diags);
  g_free (copy);
  if (!ok)
    {
      sm4_shader_free (sh);
      return NULL;
    }
  return sh;
}

/* ------------------------------------------------------------------ */
/* Writing                                                              */
/* ------------------------------------------------------------------ */

static void
put32 (GByteArray *a, uint32_t v)
{
  uint32_t le = GUINT32_TO_LE (v);
  g_byte_array_append (a, (const guint8 *) &le, 4);
}

static void
set32 (GByteArray *a, size_t off, uint32_t v)
{
  uint32_t le = GUINT32_TO_LE (v);
  memcpy (a->data + off, &le, 4);
}

static void
put16 (GByteArray *a, uint16_t v)
{
  guint8 b[2] = { v & 0xff, v >> 8 };
  g_byte_array_append (a, b, 2);
}

static uint32_t
put_str (GByteArray *a, const char *s)
{
  uint32_t off = a->len;
  g_byte_array_append (a, (const guint8 *) s, strlen (s) + 1);
  while (a->len % 4)
    g_byte_array_append (a, (const guint8 *) "\xab", 1);
  return off;
}

static void
encode_operand (GArray *t, const Sm4Operand *o)
{
  uint32_t tok = o->n_comp == 0 ? 0 : o->n_comp == 1 ? 1 : 2;
  if (o->n_comp == 4)
    {
      tok |= (uint32_t) o->sel << 2;
      if (o->sel == SM4_SEL_MASK)
        tok |= (uint32_t) o->mask << 4;
      else if (o->sel == SM4_SEL_SWIZZLE)
        for (int c = 0; c < 4; c++)
          tok |= (uint32_t) o->swz[c] << (4 + 2 * c);
      else
        tok |= (uint32_t) o->swz[0] << 4;
    }
  tok |= (uint32_t) o->type << 12;
  tok |= (uint32_t) o->n_idx << 20;
  for (int k = 0; k < o->n_idx; k++)
    tok |= (uint32_t) (o->has_rel[k] ? 3 : 0) << (22 + 3 * k);
  if (o->modifier)
    tok |= 1u << 31;
  g_array_append_val (t, tok);
  if (o->modifier)
    {
      uint32_t e = 1 | ((uint32_t) o->modifier << 6);
      g_array_append_val (t, e);
    }
  if (o->type == SM4_REG_IMM32)
    {
      for (int c = 0; c < o->n_comp; c++)
        g_array_append_val (t, o->imm[c]);
      return;
    }
  for (int k = 0; k < o->n_idx; k++)
    {
      g_array_append_val (t, o->idx[k]);
      if (o->has_rel[k])
        {
          Sm4Operand r = { .type = o->rel[k].type, .n_comp = 4, .sel = SM4_SEL_SELECT1, .n_idx = 1 };
          r.swz[0] = r.swz[1] = r.swz[2] = r.swz[3] = o->rel[k].comp;
          r.idx[0] = o->rel[k].index;
          encode_operand (t, &r);
        }
    }
}

static GArray *
encode_program (const Sm4Shader *sh)
{
  GArray *t = g_array_new (FALSE, FALSE, sizeof (uint32_t));
  uint32_t ver = ((uint32_t) sh->major << 4) | (uint32_t) sh->minor, len = 0;
  g_array_append_val (t, ver);
  g_array_append_val (t, len);
  for (guint i = 0; i < sh->insns->len; i++)
    {
      const Sm4Insn *in = &g_array_index (sh->insns, Sm4Insn, i);
      const Sm4OpInfo *info = &sm4_ops[in->op];
      if (in->op == SM4_DCL_ICB)
        {
          uint32_t w[2] = { 53u | (3u << 11), (uint32_t) in->n_data + 2 };
          g_array_append_vals (t, w, 2);
          g_array_append_vals (t, in->data, in->n_data);
          continue;
        }
      guint start = t->len;
      uint32_t op = info->opcode;
      if (info->lower == SM4L_DCL || in->op == SM4_RESINFO)
        op |= in->ctrl << 11;
      if (in->sat)
        op |= 1u << 13;
      if (in->test_nz)
        op |= 1u << 18;
      if (in->has_offset)
        op |= 1u << 31;
      g_array_append_val (t, op);
      if (in->has_offset)
        {
          uint32_t e = 1;
          for (int c = 0; c < 3; c++)
            e |= ((uint32_t) in->offset[c] & 15) << (9 + 4 * c);
          g_array_append_val (t, e);
        }
      for (int k = 0; k < in->n_ops; k++)
        encode_operand (t, &in->ops[k]);
      g_array_append_vals (t, in->data, in->n_data);
      g_array_index (t, uint32_t, start) |= (uint32_t) (t->len - start) << 24;
    }
  g_array_index (t, uint32_t, 1) = t->len;
  return t;
}

static void
write_signature (GByteArray *c, GArray *sig)
{
  put32 (c, sig->len);
  put32 (c, 8);
  size_t first = c->len;
  for (guint i = 0; i < sig->len; i++)
    for (int k = 0; k < 6; k++)
      put32 (c, 0);
  for (guint i = 0; i < sig->len; i++)
    {
      const Sm4SigElem *e = &g_array_index (sig, Sm4SigElem, i);
      size_t at = first + 24 * (size_t) i;
      set32 (c, at, put_str (c, e->semantic));
      set32 (c, at + 4, (uint32_t) e->index);
      set32 (c, at + 8, (uint32_t) e->sysval);
      set32 (c, at + 12, 3);     /* float32 */
      set32 (c, at + 16, (uint32_t) e->reg);
      set32 (c, at + 20, (uint32_t) e->mask | ((uint32_t) e->used << 8));
    }
}

static void
write_rdef (GByteArray *c, const Sm4Shader *sh)
{
  bool sm5 = sh->major >= 5;
  size_t hdr = sm5 ? 60 : 28, var_size = sm5 ? 40 : 24, type_size = sm5 ? 36 : 16;
  for (size_t k = 0; k < hdr; k += 4)
    put32 (c, 0);
  set32 (c, 0, sh->cbuffers->len);
  set32 (c, 8, sh->bindings->len);
  set32 (c, 16, (uint32_t) sh->minor | ((uint32_t) sh->major << 8) | 0xffff0000u);
  if (sm5)
    {
      memcpy (c->data + 28, "RD11", 4);
      uint32_t sizes[] = { 60, 24, 32, 40, 36, 12 };
      for (int k = 0; k < 6; k++)
        set32 (c, 32 + 4 * k, sizes[k]);
    }
  /* bindings */
  size_t boff = c->len;
  set32 (c, 12, boff);
  for (guint i = 0; i < sh->bindings->len * 8; i++)
    put32 (c, 0);
  /* constant buffer records */
  size_t cboff = c->len;
  set32 (c, 4, cboff);
  for (guint i = 0; i < sh->cbuffers->len * 6; i++)
    put32 (c, 0);
  for (guint i = 0; i < sh->cbuffers->len; i++)
    {
      const Sm4CBuffer *cb = &g_array_index (sh->cbuffers, Sm4CBuffer, i);
      size_t at = cboff + 24 * (size_t) i;
      size_t voff = c->len;
      for (guint k = 0; k < cb->vars->len * var_size / 4; k++)
        put32 (c, 0);
      set32 (c, at + 4, cb->vars->len);
      set32 (c, at + 8, voff);
      set32 (c, at + 12, cb->size);
      for (guint k = 0; k < cb->vars->len; k++)
        {
          const Sm4Var *v = &g_array_index (cb->vars, Sm4Var, k);
          size_t va = voff + var_size * (size_t) k;
          size_t toff = c->len;
          put16 (c, v->cls);
          put16 (c, v->type);
          put16 (c, v->rows);
          put16 (c, v->columns);
          put16 (c, v->elements);
          put16 (c, 0);
          for (size_t w = 12; w < type_size; w += 4)
            put32 (c, 0);
          set32 (c, va + 4, v->offset);
          set32 (c, va + 8, v->size);
          set32 (c, va + 12, 2);     /* D3D_SVF_USED */
          set32 (c, va + 16, toff);
          if (v->defaults)
            {
              set32 (c, va + 20, c->len);
              for (uint32_t w = 0; w < v->size / 4; w++)
                put32 (c, v->defaults[w]);
            }
          set32 (c, va, put_str (c, v->name));
        }
      set32 (c, at, put_str (c, cb->name));
    }
  for (guint i = 0; i < sh->bindings->len; i++)
    {
      const Sm4Binding *b = &g_array_index (sh->bindings, Sm4Binding, i);
      size_t at = boff + 32 * (size_t) i;
      set32 (c, at + 4, (uint32_t) b->kind);
      set32 (c, at + 8, b->kind == 2 ? 5 : 0);           /* float return type */
      set32 (c, at + 12, b->kind == 2 ? (uint32_t) b->dim : 0);
      set32 (c, at + 16, b->kind == 2 ? 0xffffffffu : 0);
      set32 (c, at + 20, (uint32_t) b->slot);
      set32 (c, at + 24, 1);
      set32 (c, at + 28, b->kind == 2 ? 0xc : 0);         /* 4 components */
      set32 (c, at, put_str (c, b->name));
    }
  set32 (c, 24, put_str (c, "gegl-shaders"));
}

uint8_t *
sm4_dxbc_write (const Sm4Shader *sh, size_t *length)
{
  GByteArray *chunks[4];
  const char *names[4] = { "RDEF", "ISGN", "OSGN", sh->major >= 5 ? "SHEX" : "SHDR" };
  for (int i = 0; i < 4; i++)
    chunks[i] = g_byte_array_new ();
  write_rdef (chunks[0], sh);
  write_signature (chunks[1], sh->inputs);
  write_signature (chunks[2], sh->outputs);
  GArray *prog = encode_program (sh);
  for (guint i = 0; i < prog->len; i++)
    put32 (chunks[3], g_array_index (prog, uint32_t, i));
  g_array_free (prog, TRUE);

  GByteArray *out = g_byte_array_new ();
  g_byte_array_append (out, (const guint8 *) "DXBC", 4);
  for (int i = 0; i < 4; i++)
    put32 (out, 0);               /* checksum: not computed */
  put32 (out, 1);
  put32 (out, 0);                 /* total size, patched */
  put32 (out, 4);
  size_t offs = out->len;
  for (int i = 0; i < 4; i++)
    put32 (out, 0);
  for (int i = 0; i < 4; i++)
    {
      set32 (out, offs + 4 * i, out->len);
      g_byte_array_append (out, (const guint8 *) names[i], 4);
      put32 (out, chunks[i]->len);
      g_byte_array_append (out, chunks[i]->data, chunks[i]->len);
      g_byte_array_free (chunks[i], TRUE);
    }
  set32 (out, 24, out->len);
  *length = out->len;
  return g_byte_array_free (out, FALSE);
}

char *
sl_sm4_disassemble (const char *source, size_t length, const char *filename, SlDiagnostics *diags)
{
  if (length == (size_t) -1)
    length = strlen (source);
  Sm4Shader *sh = length >= 4 && !memcmp (source, "DXBC", 4)
                    ? sm4_dxbc_read (source, length, filename, diags)
                    : sm4_assemble (source, length, filename, diags);
  if (!sh)
    return NULL;
  char *text = sm4_print (sh);
  sm4_shader_free (sh);
  return text;
}
