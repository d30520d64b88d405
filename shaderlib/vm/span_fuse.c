/* Fusing texture reads with the arithmetic around them.
 *
 * A blur is mostly reads and sums: each tap costs an ADD (or SUB) placing
 * the coordinate, the SAMPLE, then one ADD or MAD per component adding
 * the texel to a running sum.  Each of those is a dispatch and a pass over
 * the span's registers, together several times the read itself once the
 * read is a copy of one texel (sl_sample_at_pixel).  This pass, run on the
 * span program the emitter made, folds them into the SAMPLE:
 *
 *  - sums: a component t of the texel whose only readers are one ADD
 *    (acc + t), or one MAD (t * constant + acc, or t * another component
 *    of the same texel + acc), and which dies there, is added by the read
 *    itself, straight into that instruction's destination
 *    (SlVmSample.acc_*, in the instructions' order), and the
 *    instruction goes;
 *  - coordinates: an ADD or SUB of a constant to a TEXCOORD component
 *    whose only readers are reads at the pixel (SlVmSample.at_pixel) with
 *    that very offset goes too; the reads take the TEXCOORD register and
 *    add the constant themselves if they leave the direct path
 *    (SlVmSample.relative).
 *
 * Both keep every result bit: the VM computes the same IEEE operations on
 * the same operands (a sum's operands swap only where the operation
 * commutes exactly), only earlier, which is allowed because nothing in
 * between reads what they write or writes what they read.  Only
 * straight-line programs are fused (no lane masks, so every instruction
 * runs on every lane), and every question is answered within a window of
 * instructions, so the pass stays linear in the program's length. */
#include "vm/vm.h"

#include <string.h>

enum { READS = 1, WRITES = 2 };

/* How far past a read its consumers and the end of its registers' lives
 * are looked for. */
#define WINDOW 64

/* How @in accesses register @r. */
static unsigned
access (const SlSpanProgram *prog, const SlVmInsn *in, uint32_t r)
{
  unsigned how = 0;
  if (in->op == SL_VM_OP_SAMPLE || in->op == SL_VM_OP_TEXSIZE)
    {
      const SlVmSample *s = &prog->samples[in->imm];
      int n_src = in->op == SL_VM_OP_TEXSIZE ? 1 : s->n_src;
      for (int k = 0; k < n_src; k++)
        if (s->src[k] == r)
          how |= READS;
      for (int k = 0; k < 4; k++)
        {
          if (s->acc_mode[k] != SL_VM_ACC_NONE && s->acc_src[k] == r)
            how |= READS;
          if (s->dst[k] == r)
            how |= WRITES;
        }
      return how;
    }
  int n = sl_vm_op_n_srcs (in->op);
  if (n >= 0)
    {
      if (in->a == r)
        how |= READS;
      if (sl_vm_reads_b (n, in->variant) && in->b == r)
        how |= READS;
      if (sl_vm_reads_c (n, in->variant) && in->c == r)
        how |= READS;
      return how | (in->dst == r ? WRITES : 0);
    }
  switch (in->op)
    {
    case SL_VM_OP_INPUT: case SL_VM_OP_LOADC:
      return in->dst == r ? WRITES : 0;
    case SL_VM_OP_OUTPUT:
      return in->a == r ? READS : 0;
    case SL_VM_OP_MOVM:
      return (in->a == r || in->dst == r ? READS : 0) | (in->dst == r ? WRITES : 0);
    default:
      /* LOADCI, DDX, DDY, and anything else: every field may be read. */
      how = in->a == r || in->b == r || in->c == r ? READS : 0;
      return how | (in->dst == r ? WRITES : 0);
    }
}

/* The component of the read at @pc whose texel register @r is, while it
 * still holds that texel (live[k]), or -1. */
static int
component_of (const uint32_t t[4], const bool live[4], uint32_t r)
{
  for (int k = 0; k < 4; k++)
    if (live[k] && t[k] == r)
      return k;
  return -1;
}

typedef struct
{
  int      pc;        /* the consuming instruction, -1: none */
  uint8_t  mode;      /* SlVmAccMode */
  uint8_t  comp;
  uint32_t src, weight, dst;
} Consumer;

/* Reads @in as the sum that consumes component k of a texel (t, live):
 * returns k and fills @c, or -1 when @in is anything else. */
static int
as_consumer (const SlVmInsn *in, const uint32_t t[4], const bool live[4], Consumer *c)
{
  if (in->op == SL_VM_OP_ADD && in->variant == SL_VM_REGS)
    {
      int ka = component_of (t, live, in->a), kb = component_of (t, live, in->b);
      if ((ka < 0) == (kb < 0))
        return -1;
      *c = (Consumer) { .mode = SL_VM_ACC_ADD, .src = ka >= 0 ? in->b : in->a,
                        .dst = in->dst };
      return ka >= 0 ? ka : kb;
    }
  if (in->op == SL_VM_OP_MAD && (in->variant == SL_VM_REGS || in->variant == SL_VM_KB))
    {
      int ka = component_of (t, live, in->a);
      if (ka < 0 || component_of (t, live, in->c) >= 0)
        return -1;
      if (in->variant == SL_VM_KB)
        {
          *c = (Consumer) { .mode = SL_VM_ACC_MAD_IMM, .weight = in->imm, .src = in->c,
                            .dst = in->dst };
          return ka;
        }
      int kb = component_of (t, live, in->b);
      if (kb < 0)
        return -1;
      *c = (Consumer) { .mode = SL_VM_ACC_MAD_COMP, .comp = (uint8_t) kb, .src = in->c,
                        .dst = in->dst };
      return ka;
    }
  return -1;
}

/* Whether any instruction in (from, to) other than the consumers accesses
 * @r as @how asks. */
static bool
touched_between (const SlSpanProgram *prog, const bool *gone, const Consumer cons[4],
                 int from, int to, uint32_t r, unsigned how)
{
  for (int j = from + 1; j < to; j++)
    {
      if (gone[j])
        continue;
      bool is_consumer = false;
      for (int k = 0; k < 4; k++)
        is_consumer |= cons[k].pc == j;
      if (!is_consumer && (access (prog, &prog->code[j], r) & how))
        return true;
    }
  return false;
}

/* Which of the sums the VM runs straight from the texels (SlVmSumsShape)
 * the fused read @s makes. */
static uint8_t
sums_shape (const SlVmSample *s)
{
  if (s->n_acc != 4)
    return SL_VM_SUMS_OTHER;
  for (int n = 0; n < 4; n++)
    if (s->acc_order[n] != n)
      return SL_VM_SUMS_OTHER;
  const uint8_t *m = s->acc_mode;
  const uint32_t *w = s->acc_weight;
  if (m[0] == SL_VM_ACC_ADD && m[1] == SL_VM_ACC_ADD && m[2] == SL_VM_ACC_ADD
      && m[3] == SL_VM_ACC_ADD)
    return SL_VM_SUMS_ADD4;
  if (m[0] == SL_VM_ACC_MAD_IMM && m[1] == SL_VM_ACC_MAD_IMM && m[2] == SL_VM_ACC_MAD_IMM
      && m[3] == SL_VM_ACC_MAD_IMM && w[0] == w[1] && w[0] == w[2] && w[0] == w[3])
    return SL_VM_SUMS_WEIGHTED4;
  if (m[0] == SL_VM_ACC_MAD_COMP && m[1] == SL_VM_ACC_MAD_COMP && m[2] == SL_VM_ACC_MAD_COMP
      && m[3] == SL_VM_ACC_ADD && s->acc_comp[0] == 3 && s->acc_comp[1] == 3
      && s->acc_comp[2] == 3)
    return SL_VM_SUMS_PREMULTIPLIED;
  return SL_VM_SUMS_OTHER;
}

/* Fuses the read at @pc with the sums of its components, when every one
 * of its components that is read at all is read by such a sum alone. */
static void
fuse_sums (SlSpanProgram *prog, bool *gone, int pc)
{
  SlVmSample *s = &prog->samples[prog->code[pc].imm];
  if (s->fused || s->mode == SL_VM_SAMPLE_LOAD)
    return;
  uint32_t t[4];
  bool live[4];
  int n_live = 0;
  for (int k = 0; k < 4; k++)
    {
      t[k] = s->dst[k];
      live[k] = t[k] != SL_VM_NONE;
      n_live += live[k];
      for (int j = 0; j < k; j++)
        if (live[k] && live[j] && t[j] == t[k])
          return;
    }
  Consumer cons[4];
  for (int k = 0; k < 4; k++)
    cons[k] = (Consumer) { .pc = -1 };
  int end = MIN (prog->n_code, pc + 1 + WINDOW);
  int j;
  for (j = pc + 1; j < end && n_live > 0; j++)
    {
      if (gone[j])
        continue;
      const SlVmInsn *in = &prog->code[j];
      bool reads = false;
      for (int k = 0; k < 4; k++)
        reads |= live[k] && (access (prog, in, t[k]) & READS);
      if (reads)
        {
          Consumer c;
          int k = as_consumer (in, t, live, &c);
          if (k < 0 || cons[k].pc >= 0)
            return;           /* read otherwise, or summed twice */
          c.pc = j;
          cons[k] = c;
        }
      for (int k = 0; k < 4; k++)
        if (live[k] && (access (prog, in, t[k]) & WRITES))
          {
            live[k] = false;
            n_live--;
          }
    }
  if (n_live > 0 && j < prog->n_code)
    return;                   /* the texel may still be read past the window */

  int n_cons = 0;
  for (int k = 0; k < 4; k++)
    {
      if (cons[k].pc < 0)
        continue;
      n_cons++;
      /* A weighing component must have been the texel's then, too: its
       * register is still live at the consumer unless written before. */
      for (int i = 0; i < 4; i++)
        {
          if (i == k || cons[i].pc < 0)
            continue;
          /* Destinations are distinct, and no sum reads another's result:
           * the fused read adds in the sums' order, so a sum may only
           * overwrite what an earlier one has read. */
          if (cons[i].dst == cons[k].dst
              || (cons[i].dst == cons[k].src && cons[i].pc < cons[k].pc))
            return;
        }
      /* Hoisting the sum to the read: nothing in between may change what
       * it adds to, or see or change its destination early. */
      if (touched_between (prog, gone, cons, pc, cons[k].pc, cons[k].src, WRITES)
          || touched_between (prog, gone, cons, pc, cons[k].pc, cons[k].dst, READS | WRITES))
        return;
      /* Nor may the read's own coordinates be its destination when the
       * read is redone on the general path after the sum: it is not (the
       * VM reads the coordinates first), but a destination that is the
       * register of a component still to be summed would be. */
      for (int i = 0; i < 4; i++)
        if (cons[i].pc >= 0 && i != k && t[i] == cons[k].dst && cons[i].pc > cons[k].pc)
          return;
    }
  if (n_cons == 0)
    return;
  /* The VM's sums may use restrict: the emitter never gives an
   * instruction a destination that is also its source. */
  for (int k = 0; k < 4; k++)
    if (cons[k].pc >= 0 && cons[k].dst == cons[k].src)
      return;

  int n_ordered = 0;
  for (int at = pc + 1; at < prog->n_code && n_ordered < n_cons; at++)
    for (int k = 0; k < 4; k++)
      if (cons[k].pc == at)
        s->acc_order[n_ordered++] = (uint8_t) k;
  for (int k = 0; k < 4; k++)
    {
      if (cons[k].pc < 0)
        {
          s->dst[k] = SL_VM_NONE;   /* read by nobody */
          continue;
        }
      s->dst[k] = cons[k].dst;
      s->acc_mode[k] = cons[k].mode;
      s->acc_comp[k] = cons[k].comp;
      s->acc_src[k] = cons[k].src;
      s->acc_weight[k] = cons[k].weight;
      gone[cons[k].pc] = true;
    }
  s->n_acc = (uint8_t) n_cons;
  s->fused = true;
  s->sums_shape = sums_shape (s);
}

/* Keeps @axis_of (per register: the TEXCOORD component, 0 or 1, it
 * holds, or -1) up to date past the instruction @in. */
static void
track_texcoords (const SlSpanProgram *prog, const SlVmInsn *in, int8_t *axis_of)
{
  if (in->op == SL_VM_OP_SAMPLE || in->op == SL_VM_OP_TEXSIZE)
    {
      const SlVmSample *s = &prog->samples[in->imm];
      for (int k = 0; k < 4; k++)
        if (s->dst[k] != SL_VM_NONE)
          axis_of[s->dst[k]] = -1;
      return;
    }
  if (in->op == SL_VM_OP_OUTPUT)
    return;
  axis_of[in->dst] = in->op == SL_VM_OP_INPUT && in->imm < SL_VM_INPUT_COLOR
                     && (in->imm & 3) < 2 ? (int8_t) (in->imm & 3) : -1;
}

/* Drops the ADD or SUB of a constant to a TEXCOORD component at @pc when
 * its only readers are reads at the pixel offset by that constant. */
static void
fold_coordinate (SlSpanProgram *prog, bool *gone, int pc, const int8_t *axis_of)
{
  const SlVmInsn *in = &prog->code[pc];
  if ((in->op != SL_VM_OP_ADD && in->op != SL_VM_OP_SUB) || in->variant != SL_VM_KB
      || in->a == in->dst)
    return;
  int axis = axis_of[in->a];
  if (axis < 0)
    return;
  uint32_t add = in->op == SL_VM_OP_SUB ? in->imm ^ 0x80000000u : in->imm;
  int readers[WINDOW];
  int n_readers = 0;
  int end = MIN (prog->n_code, pc + 1 + WINDOW);
  int j;
  for (j = pc + 1; j < end; j++)
    {
      if (gone[j])
        continue;
      const SlVmInsn *r = &prog->code[j];
      unsigned how = access (prog, r, in->dst);
      if (how & READS)
        {
          if (r->op != SL_VM_OP_SAMPLE)
            return;
          const SlVmSample *s = &prog->samples[r->imm];
          uint32_t bits;
          memcpy (&bits, &s->pixel_add[axis], sizeof bits);
          if (!s->at_pixel || bits != add)
            return;
          for (int k = 0; k < s->n_src; k++)
            if ((s->src[k] == in->dst) != (k == axis))
              return;           /* read as something else too */
          for (int k = 0; k < 4; k++)
            if (s->acc_mode[k] != SL_VM_ACC_NONE && s->acc_src[k] == in->dst)
              return;
          readers[n_readers++] = j;
        }
      if (how & WRITES)
        break;
      if (access (prog, r, in->a) & WRITES)
        {
          /* The TEXCOORD register changes: a later reader would need the
           * value it had here, so there must be none, up to a write of
           * the sum's register, and none past the window either. */
          int k;
          for (k = j + 1; k < end; k++)
            if (!gone[k])
              {
                unsigned later = access (prog, &prog->code[k], in->dst);
                if (later & READS)
                  return;
                if (later & WRITES)
                  break;
              }
          if (k == end && end < prog->n_code)
            return;
          break;
        }
    }
  if (j == end && end < prog->n_code)
    return;                   /* read again past the window, maybe */
  if (n_readers == 0)
    return;
  for (int k = 0; k < n_readers; k++)
    {
      SlVmSample *s = &prog->samples[prog->code[readers[k]].imm];
      s->src[axis] = in->a;
      s->relative |= (uint8_t) (1u << axis);
    }
  gone[pc] = true;
}

/* Whether register @r is written before anything reads it from @from
 * on, or never read again; false when the window does not tell. */
static bool
dead_from (const SlSpanProgram *prog, int from, uint32_t r)
{
  int end = MIN (prog->n_code, from + WINDOW);
  for (int j = from; j < end; j++)
    {
      unsigned how = access (prog, &prog->code[j], r);
      if (how & READS)
        return false;
      if (how & WRITES)
        return true;
    }
  return end == prog->n_code;
}

static bool
chain_shape (const SlVmSample *s)
{
  return s->fused && s->at_pixel
         && (s->sums_shape == SL_VM_SUMS_ADD4 || s->sums_shape == SL_VM_SUMS_WEIGHTED4
             || s->sums_shape == SL_VM_SUMS_PREMULTIPLIED);
}

/* Whether the fused read @b sums on what @a summed, the same way. */
static bool
chains_on (const SlVmSample *a, const SlVmSample *b)
{
  if (!chain_shape (b) || b->texture != a->texture || b->sampler != a->sampler
      || b->sums_shape != a->sums_shape)
    return false;
  for (int k = 0; k < 4; k++)
    if (b->acc_src[k] != a->dst[k])
      return false;
  return true;
}

/* Marks chains of fused reads (SlVmSample.chain): consecutive reads at
 * the pixel of one texture, each summing into the sums of the one
 * before, whose sums before the last are read by nobody after the chain
 * (the VM keeps them in machine registers and stores only the last). */
static void
form_chains (SlSpanProgram *prog)
{
  for (int pc = 0; pc < prog->n_code; pc++)
    {
      if (prog->code[pc].op != SL_VM_OP_SAMPLE)
        continue;
      SlVmSample *first = &prog->samples[prog->code[pc].imm];
      if (!chain_shape (first))
        continue;
      int n = 1;
      while (pc + n < prog->n_code && n < SL_VM_MAX_CHAIN
             && prog->code[pc + n].op == SL_VM_OP_SAMPLE
             && chains_on (&prog->samples[prog->code[pc + n - 1].imm],
                           &prog->samples[prog->code[pc + n].imm]))
        n++;
      for (; n >= 2; n--)
        {
          const SlVmSample *last = &prog->samples[prog->code[pc + n - 1].imm];
          bool ok = true;
          for (int j = 0; j < n - 1 && ok; j++)
            for (int k = 0; k < 4 && ok; k++)
              {
                uint32_t r = prog->samples[prog->code[pc + j].imm].dst[k];
                bool by_last = false;
                for (int i = 0; i < 4; i++)
                  by_last |= last->dst[i] == r;
                ok = by_last || dead_from (prog, pc + n, r);
              }
          if (ok)
            break;
        }
      if (n >= 2)
        {
          first->chain = (uint8_t) n;
          pc += n - 1;
        }
    }
}

void
sl_span_program_fuse (SlSpanProgram *prog)
{
  if (!prog->straight || prog->n_code == 0)
    return;
  bool *gone = g_new0 (bool, prog->n_code);
  for (int pc = 0; pc < prog->n_code; pc++)
    if (!gone[pc] && prog->code[pc].op == SL_VM_OP_SAMPLE)
      fuse_sums (prog, gone, pc);
  int8_t *axis_of = g_new (int8_t, prog->n_regs);
  memset (axis_of, -1, prog->n_regs);
  for (int pc = 0; pc < prog->n_code; pc++)
    if (!gone[pc])
      {
        fold_coordinate (prog, gone, pc, axis_of);
        if (!gone[pc])
          track_texcoords (prog, &prog->code[pc], axis_of);
      }
  g_free (axis_of);
  int n = 0;
  for (int pc = 0; pc < prog->n_code; pc++)
    if (!gone[pc])
      prog->code[n++] = prog->code[pc];
  prog->n_code = n;
  g_free (gone);
  form_chains (prog);
}
