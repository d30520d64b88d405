/* The span program and the interpreter that runs it.
 *
 * A span is SL_SPAN pixels laid out as two rows of SL_SPAN_COLS columns, so
 * every aligned 2×2 quad sits in the span (derivatives) and each register
 * holds one scalar of every pixel (structure of arrays).
 *
 * This header is the whole contract between a producer of span programs
 * and the VM: its op enum (generated from ops.def), its pixel inputs, its
 * description of a texture read, the program layout and the run-time
 * state.  It includes nothing from the IR; the IR includes this instead,
 * and ir/span_emit.c, the one file that sees both, translates IR into this
 * format.  Beyond the public header the VM needs only GLib and, in vm.c,
 * the run-time limits of base/. */
#ifndef SL_VM_H
#define SL_VM_H

#include "shaderlib.h"

#include <glib.h>
#include <stdalign.h>
#include <stdbool.h>
#include <stdint.h>

#ifndef SL_SPAN_COLS   /* overridable only to measure other widths */
#define SL_SPAN_COLS 64
#endif
#define SL_SPAN      (2 * SL_SPAN_COLS)

typedef union
{
  alignas (64) float f[SL_SPAN];
  int32_t  i[SL_SPAN];
  uint32_t u[SL_SPAN];
} SlReg;

/* The VM's ops, numbered in ops.def order.  SPECIAL ops are run by
 * hand-written code in vm.c; every other op loops its scalar helper
 * (scalar_ops.h) over the span. */
typedef enum
{
#define SL_OP(name, shape, doc) SL_VM_OP_##name,
#include "vm/ops.def"
#undef SL_OP
  SL_VM_OP_COUNT
} SlVmOp;

/* Specialised forms of table-driven ops: operand b (and for MAD c) is a
 * constant held in the instruction, not a register, saving a load per
 * vector in the op's loop.  OUTPUT has a form of its own too. */
enum
{
  SL_VM_REGS = 0,     /* all operands in registers */
  SL_VM_KB,           /* b = imm (two-operand ops) */
  SL_VM_KBC,          /* MAD: b = imm, c = jump */
  /* OUTPUT: the register a keeps its value to the end of the program
   * (span_emit.c never reuses it), so the span's store reads it in place
   * instead of a copy. */
  SL_VM_OUT_REF = 1,
  /* Pairs span_fuse.c made one instruction: a SUB or SAT whose result
   * only the next op read.  The VM does the same two IEEE operations, so
   * the bits are the pair's.  MAD: */
  SL_VM_SUB_MAD = 8,  /* d = (a - b) * imm + c */
  SL_VM_SUBK_MAD,     /* d = (a - jump) * imm + c */
  SL_VM_SUBK_MADK,    /* d = (a - b) * imm + jump; b holds float bits */
  SL_VM_MUL_MAD,      /* d = a * imm + b * jump */
  SL_VM_MAD_MAD,      /* d = a * imm + (b * jump + c) */
  SL_VM_MAD_SAT,      /* d = saturate (a * b + c) */
  SL_VM_MADK_SAT,     /* d = saturate (a * imm + c) */
  SL_VM_MADKK_SAT,    /* d = saturate (a * imm + jump) */
  /* POW: */
  SL_VM_SAT_POW,      /* d = saturate (a) ^ b */
  SL_VM_SAT_POWK      /* d = saturate (a) ^ imm */
};

/* Whether an instruction's operand b or c is a register it reads (n_srcs:
 * sl_vm_op_n_srcs of its op, which must be >= 0). */
static inline bool
sl_vm_reads_b (int n_srcs, unsigned variant)
{
  return n_srcs >= 2 && (variant == SL_VM_REGS || variant == SL_VM_SUB_MAD
                         || variant == SL_VM_MUL_MAD || variant == SL_VM_MAD_MAD
                         || variant == SL_VM_MAD_SAT || variant == SL_VM_SAT_POW);
}

static inline bool
sl_vm_reads_c (int n_srcs, unsigned variant)
{
  return n_srcs >= 3 && variant != SL_VM_KBC && variant != SL_VM_SUBK_MADK
         && variant != SL_VM_MUL_MAD && variant != SL_VM_MADKK_SAT;
}

/* The interpreter dispatches on op and variant together. */
#define SL_VM_KEY(op, variant) ((unsigned) (op) | (unsigned) (variant) << 8)
_Static_assert (SL_VM_OP_COUNT <= 256, "an op fits the low byte of a dispatch key");

typedef struct
{
  uint8_t  op;      /* SlVmOp */
  uint8_t  variant; /* SL_VM_REGS, SL_VM_KB, SL_VM_KBC or SL_VM_OUT_REF */
  uint32_t dst;     /* register */
  uint32_t a, b, c; /* registers */
  uint32_t imm;     /* op-specific; SAMPLE/TEXSIZE: index into samples[] */
  uint32_t jump;    /* control flow target pc */
} SlVmInsn;

/* What a pixel provides to INPUT (its imm).  A span program runs one
 * full-screen quad with no vertex data, so these are all the VM knows. */
enum
{
  SL_VM_INPUT_TEXCOORD = 0,     /* + 4*n + component, n < 8 */
  SL_VM_INPUT_COLOR = 32,       /* + 4*n + component, n < 2 (COLOR0 reads 1, COLOR1 0) */
  SL_VM_INPUT_POSITION = 40,    /* + component: x+0.5, y+0.5, 0, 1 */
  SL_VM_INPUT_FACE = 44         /* 1.0 (front facing) */
};

/* How a SAMPLE reads (SlVmSample.mode). */
typedef enum
{
  SL_VM_SAMPLE_IMPLICIT,   /* LOD from derivatives of the coordinates */
  SL_VM_SAMPLE_BIAS,       /* implicit + bias (the source after the coordinates) */
  SL_VM_SAMPLE_LOD,        /* explicit level (same place) */
  SL_VM_SAMPLE_GRAD,       /* explicit derivatives: d/dx then d/dy of the coordinates */
  SL_VM_SAMPLE_LOAD,       /* integer texel fetch; the source after the coordinates is the level */
  SL_VM_SAMPLE_COMPARE     /* compare with the source after the coordinates, level 0 */
} SlVmSampleMode;

/* Registers one SAMPLE may read: up to three coordinates, then what its
 * mode asks for (GRAD: two derivatives per coordinate). */
#define SL_VM_SAMPLE_MAX_SRC 10
/* A destination component nobody reads. */
#define SL_VM_NONE 0xffffffffu

/* What a fused read does with each component t of its texel (span_fuse.c:
 * the sums blurs make of their reads, done as the read lands). */
typedef enum
{
  SL_VM_ACC_NONE,     /* dst = t (or nothing, for SL_VM_NONE) */
  SL_VM_ACC_ADD,      /* dst = acc + t */
  SL_VM_ACC_MAD_IMM,  /* dst = t * weight + acc (MAD's two roundings) */
  SL_VM_ACC_MAD_COMP  /* dst = t * (component comp of the same texel) + acc */
} SlVmAccMode;

/* One texture read (SAMPLE) or size query (TEXSIZE, which uses dst,
 * src[0] = level and texture only). */
typedef struct
{
  uint32_t dst[4];          /* register per component, or SL_VM_NONE */
  uint32_t src[SL_VM_SAMPLE_MAX_SRC];
  int      n_src;
  uint8_t  mode;            /* SlVmSampleMode */
  uint8_t  texture;         /* slot in SlVmEnv.textures */
  uint8_t  sampler;         /* slot in SlVmEnv.samplers */
  uint8_t  dim;             /* SlTextureKind the shader declared */
  int8_t   offset[3];       /* texel offsets, added before addressing */
  /* The coordinates are TEXCOORDn.xy plus the constants pixel_add (often
   * 0) in one float addition each: at run time, when the texture matches
   * the viewport and the constants are whole texels, every lane reads the
   * texel that far from its own (sl_sample_at_pixel). */
  bool     at_pixel;
  float    pixel_add[2];
  /* Bit c set: src[c] is the TEXCOORD component itself, and the read's
   * coordinate is fl(src[c] + pixel_add[c]), which the VM computes only
   * when it cannot take the direct path (span_fuse.c dropped the ADD). */
  uint8_t  relative;
  bool     fused;             /* some component has an SlVmAccMode */
  uint8_t  n_acc;             /* how many; they run in acc_order */
  uint8_t  sums_shape;        /* SlVmSumsShape of those sums */
  uint8_t  acc_order[4];      /* components, in the order of their sums */
  uint8_t  acc_mode[4];       /* SlVmAccMode per component */
  uint8_t  acc_comp[4];       /* SL_VM_ACC_MAD_COMP: the weighing component */
  uint32_t acc_src[4];        /* the register added to */
  uint32_t acc_weight[4];     /* SL_VM_ACC_MAD_IMM: the weight's bits */
  /* On the first of a chain of fused reads at the pixel (span_fuse.c),
   * how many SAMPLE instructions from here form it: the same texture,
   * sampler and sums shape, each summing into what the one before it
   * summed, no intermediate sum read after the chain.  The VM may run
   * them as one (sl_sample_chain_at_pixel); 0 or 1: no chain. */
  uint8_t  chain;
} SlVmSample;

/* The longest chain span_fuse.c forms. */
#define SL_VM_MAX_CHAIN 64

typedef struct
{
  SlVmInsn   *code;
  int         n_code;
  SlVmSample *samples;
  int         n_samples;
  uint32_t    n_regs;
  uint32_t   *const_regs;      /* registers holding broadcast constants */
  uint32_t   *const_bits;
  int         n_consts;
  int         max_depth;       /* control-flow nesting */
  int         n_outputs;       /* colour targets */
  bool        writes_output[8][4];
  /* No control flow and no DISCARD: every instruction runs once on every
   * lane, so the VM needs no lane masks and every OUTPUT runs. */
  bool        straight;
  /* cost_before[i]: the run-time budget's cost of code[0..i), n_code + 1
   * entries.  A 2D texture read costs SL_VM_SAMPLE_COST, a cube read half
   * as much again and a volume read twice as much (span_emit.c), anything
   * else 1. */
  uint32_t   *cost_before;
} SlSpanProgram;

/* A bilinear read per lane is four gathered texels and their weights:
 * a 200-iteration loop of 2D reads against one of MUL/ADD over a 640x426
 * image (x86-64-v4, one thread) put one read at about 60 arithmetic
 * instructions.  A loop may still read 65536 texels per pixel before the
 * budget stops it. */
#define SL_VM_SAMPLE_COST 64
/* Each iteration's own cost (back edge, masks, counter) on top of its
 * body: without it a one-instruction loop ran 4 million times per span. */
#define SL_VM_LOOP_COST 8

/* The sums of a fused read (SlVmSample.acc_*) with their registers
 * resolved, in the order they run: dst[j] = acc[j] + t[comp[j]], or
 * t[comp[j]] * (weight[j] or t[wcomp[j]]) + acc[j]. */
typedef enum
{
  SL_VM_SUMS_OTHER,
  SL_VM_SUMS_ADD4,            /* dst[k] = acc[k] + t[k], k = 0..3 in order */
  SL_VM_SUMS_WEIGHTED4,       /* dst[k] = t[k] * weight[0] + acc[k] */
  SL_VM_SUMS_PREMULTIPLIED    /* dst[k] = t[k] * t[3] + acc[k] (k < 3), dst[3] = acc[3] + t[3] */
} SlVmSumsShape;

typedef struct
{
  int          n;
  uint8_t      shape;         /* SlVmSumsShape: the common sums, run as such */
  uint8_t      mode[4], comp[4], wcomp[4];
  float        weight[4];
  float       *dst[4];
  const float *acc[4];
} SlVmSums;

/* An instruction as one render call runs it: its dispatch key and the
 * addresses of its registers in that call's register file, so the
 * interpreter does no address arithmetic per instruction and span. */
typedef struct
{
  unsigned     key;     /* SL_VM_KEY (op, variant) */
  uint32_t     imm;
  SlReg       *d;
  const SlReg *a, *b, *c;
} SlVmStep;

/* Texel runs of one span, split into components (sample.c's bilinear
 * rows): the taps of a filter read the same few texture rows at nearby
 * columns, so each row is split once, with SL_VM_RUN_MARGIN columns to
 * spare on either side, and serves every tap that falls within it.  Runs
 * are kept for one span only: a host may render into memory that later
 * spans read. */
#define SL_VM_RUN_MARGIN 8
#define SL_VM_RUN_COLS   (SL_SPAN_COLS + 1 + 2 * SL_VM_RUN_MARGIN)
#define SL_VM_RUN_SLOTS  8
typedef struct
{
  const float *row;     /* the texels of the run's texture row, or NULL */
  int          x, n;    /* the texels of that row it holds */
  uint32_t     span;    /* SlVmRunCache.span it was split in */
  float        c[4][SL_VM_RUN_COLS];
} SlVmRun;

typedef struct
{
  uint32_t span;        /* counts the spans of one render call */
  int      next;        /* the slot the next miss takes */
  SlVmRun  runs[SL_VM_RUN_SLOTS];
} SlVmRunCache;

/* What a read brings to sl_sample_span() besides its operands. */
typedef struct
{
  SlVmRunCache   *runs;          /* the span's split runs */
  /* A read at the pixel (SlVmSample.at_pixel) places its bilinear
   * footprint along x once per column of a render call, since every row
   * has the same: the index, fraction and 1 - fraction of the span's
   * columns, and 0 until they are placed, then flags of how they lie
   * (sample.c's COLUMNS_; unused by other reads). */
  int32_t        *column_x0;
  float          *column_fx, *column_gx;
  uint8_t        *column_ready;
  const SlVmSums *sums;          /* a fused read's sums, or NULL */
  unsigned        summed_rows;   /* out: bit r, row r summed into sums */
} SlVmSampleAux;

/* Per-thread state for running span programs.  Reused between render
 * calls: fresh memory per call would cost page faults. */
typedef struct
{
  SlReg   *regs;
  uint32_t n_regs;
  SlReg   *stack;       /* control-flow save area */
  int      stack_size;
  SlReg  (*out)[4];     /* [8][4] staged outputs */
  const SlReg *out_src[8][4];   /* where each output of the span is */
  SlReg   *kill;        /* discarded lanes */
  int32_t *iterations;  /* per open loop, max_depth + 1 entries */
  int      n_iterations;
  /* x + 0.5 and (x + 0.5) / viewport width for each column of the last
   * render call's spans (TEXCOORD and VPOS x), from its first span on. */
  float   *column_px, *column_u;
  int      n_columns;
  SlVmStep *steps;      /* the program decoded for these registers */
  int      n_steps;
  /* Per SlVmSample of the program, for the viewport of the last render
   * call: the whole texels its pixel_add moves by, or SL_VM_NOT_WHOLE. */
  int32_t (*texel_offsets)[2];
  int      n_texel_offsets;
  SlVmRunCache *runs;
  /* SlVmSampleAux.column_*: per read of the program, per column of
   * the last render call (n_footprint_columns), and per span of a row */
  int32_t *footprint_x0;
  float   *footprint_fx, *footprint_gx;
  uint8_t *footprint_ready;
  size_t   footprint_size, footprint_ready_size;
  int      n_footprint_columns;
  unsigned stopped;     /* SL_VM_STOPPED_* of the last sl_vm_render() */
  void    *block;       /* one 64-byte aligned allocation holding all of them */
} SlVmState;

typedef struct
{
  const SlTexture      *textures[SL_MAX_SLOTS];
  const SlSamplerState *samplers[SL_MAX_SLOTS];
  const uint32_t       *constants;
  size_t                n_constants;
  int                   viewport_width, viewport_height;
  /* Shared by every render of one binding (may be NULL): the
   * SL_VM_STOPPED_* bits of the first span that ran away.  Once set, later
   * spans run each loop once and report the same bits, so a runaway
   * shader costs one span's budget per binding instead of one per span —
   * hours on a large image otherwise. */
  unsigned             *runaway;
} SlVmEnv;

/* Why the last render stopped loops early (SlVmState.stopped bits). */
enum
{
  SL_VM_STOPPED_CAP = 1u << 0,     /* one loop reached its iteration cap */
  SL_VM_STOPPED_BUDGET = 1u << 1,  /* a span used up SL_VM_SPAN_BUDGET */
  SL_VM_STOPPED_STRAIGHT = 1u << 2 /* one pass over the program alone costs
                                      more than SL_VM_SPAN_BUDGET */
};

/* Span programs are built by sl_span_emit() (ir/span_emit.h); freeing
 * and printing them needs nothing but this format (span_program.c). */
void  sl_span_program_free (SlSpanProgram *prog);
char *sl_span_program_dump (const SlSpanProgram *prog);
/* Register operands a table-driven op reads (a, b, c in that order, less
 * those a variant makes immediates count too); -1 for SPECIAL ops. */
int   sl_vm_op_n_srcs      (unsigned op);
/* The whole number of texels *n a constant added to a normalised
 * coordinate over @size texels moves by, for the direct path of reads at
 * the pixel (sample.c says when and why); false when it is not one. */
#define SL_VM_NOT_WHOLE INT32_MIN
bool  sl_vm_whole_texels   (float add, int size, int32_t *n);
/* Folds, in straight-line programs, the adds, multiply-adds and
 * coordinate offsets around texture reads into the reads
 * (span_fuse.c).  Results do not change by a bit. */
void  sl_span_program_fuse (SlSpanProgram *prog);

void sl_vm_state_reserve (SlVmState *state, const SlSpanProgram *prog);
void sl_vm_state_reserve_columns (SlVmState *state, int n_columns);
void sl_vm_state_reserve_footprints (SlVmState *state, int n_samples, int n_columns);
void sl_vm_state_clear   (SlVmState *state);

/* Runs the program over the rectangle (x, y, width, height) of the
 * viewport and stores colour output t into targets[t]; discarded pixels
 * are left as they were.  Picks the code built for the best instruction
 * set level the CPU supports.  Returns false when a loop hit its cap or
 * a span its instruction budget; state->stopped says which. */
bool sl_vm_render (const SlSpanProgram *prog, SlVmState *state, const SlVmEnv *env,
                   int x, int y, int width, int height,
                   const SlTarget *targets, int n_targets);

/* The hot code (vm.c, sample.c) is compiled once per x86-64 level with
 * SL_VM_LEVEL set (0 baseline, 2 x86-64-v2, 3 x86-64-v3, 4 x86-64-v4);
 * SL_LEVEL() gives each build's copy of a function its own name. */
#ifndef SL_VM_LEVEL
#define SL_VM_LEVEL 0
#endif
#if SL_VM_LEVEL == 4
#define SL_LEVEL(name) name##_v4
#elif SL_VM_LEVEL == 3
#define SL_LEVEL(name) name##_v3
#elif SL_VM_LEVEL == 2
#define SL_LEVEL(name) name##_v2
#else
#define SL_LEVEL(name) name##_v0
#endif

#define SL_VM_DECLARE_LEVEL(sfx) \
  bool sl_vm_render_##sfx (const SlSpanProgram *prog, SlVmState *state, const SlVmEnv *env, \
                           int x, int y, int width, int height, \
                           const SlTarget *targets, int n_targets); \
  void sl_sample_span_##sfx (const SlTexture *tex, const SlSamplerState *state, \
                             const SlVmSample *s, const SlReg *const *src, SlReg *out[4], \
                             SlVmSampleAux *extra); \
  bool sl_sample_at_pixel_##sfx (const SlTexture *tex, const SlSamplerState *state, \
                                 const int32_t offset[2], int x0, int y0, \
                                 int viewport_width, int viewport_height, SlReg *out[4], \
                                 const SlVmSums *sums, unsigned *summed_rows); \
  bool sl_sample_chain_at_pixel_##sfx (const SlTexture *tex, const SlSamplerState *state, \
                                       int n, const int32_t (*offsets)[2], \
                                       const float *weights, int x0, int y0, \
                                       int viewport_width, int viewport_height, \
                                       const SlVmSums *sums);
SL_VM_DECLARE_LEVEL (v0)
SL_VM_DECLARE_LEVEL (v2)
SL_VM_DECLARE_LEVEL (v3)
SL_VM_DECLARE_LEVEL (v4)

#endif
