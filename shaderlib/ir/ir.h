/* The IR: one typed, scalar representation that every front end produces.
 *
 * Values are numbered scalars (vectors, matrices, arrays and structs are
 * scalarised by the front ends, so swizzles and member access cost nothing
 * at run time).  A value is either
 *   - a temporary: defined exactly once, at control-flow depth where it is
 *     used (SSA-like; passes may move and fold them freely),
 *   - a variable: assigned any number of times (HLSL locals, asm
 *     registers); writes inside divergent control flow are masked per lane,
 *   - a constant: known bits, never written.
 * Instructions form one list with structured control flow (IF/ELSE/ENDIF,
 * LOOP/ENDLOOP, FBEGIN/FEND) whose ops come from ops.def. */
#ifndef SL_IR_H
#define SL_IR_H

#include "shaderlib.h"
#include "base/limits.h"

#include <glib.h>

typedef enum
{
#define SL_OP(name, shape, doc) SL_OP_##name,
#include "vm/ops.def"
#undef SL_OP
  SL_OP_COUNT
} SlOp;

typedef enum
{
  SL_SHAPE_X_X, SL_SHAPE_X_BXX,
  SL_SHAPE_F_F, SL_SHAPE_F_FF, SL_SHAPE_F_FFF,
  SL_SHAPE_B_FF, SL_SHAPE_B_F,
  SL_SHAPE_I_I, SL_SHAPE_I_II, SL_SHAPE_U_U, SL_SHAPE_U_UU,
  SL_SHAPE_B_II, SL_SHAPE_B_UU,
  SL_SHAPE_F_I, SL_SHAPE_F_U, SL_SHAPE_I_F, SL_SHAPE_U_F,
  SL_SHAPE_F_B, SL_SHAPE_I_B, SL_SHAPE_B_I,
  SL_SHAPE_SPECIAL
} SlShape;

extern const char *const sl_op_names[SL_OP_COUNT];
extern const SlShape sl_op_shapes[SL_OP_COUNT];
int sl_shape_n_srcs (SlShape shape);

typedef enum
{
  SL_KIND_FLOAT,
  SL_KIND_INT,
  SL_KIND_UINT,
  SL_KIND_BOOL     /* lane mask: 0 or ~0u */
} SlKind;

typedef enum
{
  SL_VALUE_TEMP,
  SL_VALUE_VAR,
  SL_VALUE_CONST
} SlValueClass;

typedef struct
{
  uint8_t  kind;       /* SlKind */
  uint8_t  cls;        /* SlValueClass */
  uint32_t bits;       /* constants */
} SlValue;

/* Inputs a pixel provides (INPUT's imm). */
enum
{
  SL_INPUT_TEXCOORD = 0,     /* + 4*n + component, n < 8 */
  SL_INPUT_COLOR = 32,       /* + 4*n + component, n < 2 (COLOR0 reads 1, COLOR1 0) */
  SL_INPUT_POSITION = 40,    /* + component: x+0.5, y+0.5, 0, 1 */
  SL_INPUT_FACE = 44,        /* 1.0 (front facing) */
  SL_INPUT_COUNT = 45
};

/* SAMPLE variants (IrSample.mode) */
typedef enum
{
  SL_SAMPLE_IMPLICIT,   /* LOD from derivatives of the coordinates */
  SL_SAMPLE_BIAS,       /* implicit + extra bias */
  SL_SAMPLE_LOD,        /* explicit level */
  SL_SAMPLE_GRAD,       /* explicit derivatives */
  SL_SAMPLE_LOAD,       /* integer texel fetch, extra = level */
  SL_SAMPLE_COMPARE,    /* compare with extra, level 0 */
} SlSampleMode;

typedef struct
{
  uint8_t  mode;         /* SlSampleMode */
  uint8_t  texture;      /* texture slot */
  uint8_t  sampler;      /* sampler slot */
  uint8_t  dim;          /* SlTextureKind */
  uint8_t  projective;   /* divide coords by coord[3] first */
  int8_t   offset[3];    /* texel offsets (Sample(..., offset)) */
} SlSampleInfo;

#define SL_IR_MAX_SRC 10
#define SL_IR_NONE 0xffffffffu

typedef struct
{
  uint16_t     op;          /* SlOp */
  uint8_t      n_dst, n_src;
  uint32_t     dst[4];
  uint32_t     src[SL_IR_MAX_SRC];
  uint32_t     imm;
  SlSampleInfo sample;      /* SAMPLE/TEXSIZE only */
  int          line;        /* source line, for dumps */
} SlInsn;

/* A program in IR form.  Plain growable arrays, so passes can copy and
 * rewrite it cheaply. */
typedef struct
{
  GArray *values;      /* SlValue */
  GArray *insns;       /* SlInsn */
  GHashTable *const_cache;   /* (kind<<32|bits) → value id + 1 */
  int     n_outputs;   /* colour targets written */
  bool    overflow;    /* a limit was hit; the builder stopped adding */
} SlIr;

SlIr     *sl_ir_new            (void);
void      sl_ir_free           (SlIr *ir);
SlIr     *sl_ir_copy           (const SlIr *ir);

uint32_t  sl_ir_new_value      (SlIr *ir, SlKind kind, SlValueClass cls);
uint32_t  sl_ir_const          (SlIr *ir, SlKind kind, uint32_t bits);
uint32_t  sl_ir_const_f        (SlIr *ir, float f);
uint32_t  sl_ir_const_i        (SlIr *ir, int32_t i);
uint32_t  sl_ir_const_u        (SlIr *ir, uint32_t u);
uint32_t  sl_ir_const_b        (SlIr *ir, bool b);
static inline SlValue *
sl_ir_value (const SlIr *ir, uint32_t id)
{
  return &g_array_index (ir->values, SlValue, id);
}
static inline SlInsn *
sl_ir_insn (const SlIr *ir, guint i)
{
  return &g_array_index (ir->insns, SlInsn, i);
}

/* Appends an instruction; returns its index. */
guint     sl_ir_emit           (SlIr *ir, const SlInsn *insn);
/* Convenience: emit a one-result op on fresh temporaries of @kind. */
uint32_t  sl_ir_op1            (SlIr *ir, SlOp op, SlKind kind, uint32_t a);
uint32_t  sl_ir_op2            (SlIr *ir, SlOp op, SlKind kind, uint32_t a, uint32_t b);
uint32_t  sl_ir_op3            (SlIr *ir, SlOp op, SlKind kind, uint32_t a, uint32_t b, uint32_t c);
/* d = a, for writing variables. */
void      sl_ir_mov            (SlIr *ir, uint32_t dst, uint32_t src);
void      sl_ir_ctrl           (SlIr *ir, SlOp op, uint32_t cond, uint32_t imm);

/* The kind an op's result has (for non-special ops). */
SlKind    sl_op_result_kind    (SlOp op);

char     *sl_ir_dump           (const SlIr *ir);
/* Checks structural invariants; reports into @diags as internal errors. */
bool      sl_ir_validate       (const SlIr *ir, const char *stage, SlDiagnostics *diags);

/* ---- passes.c ---------------------------------------------------------- */

/* Replaces LOADC of known words by constants (constants[] has n words). */
void      sl_pass_specialise   (SlIr *ir, const uint32_t *constants, size_t n);
/* Clamps the float outputs of colour target @target to [0, 1] (NaN
 * gives 0) in the program itself: SAT before each OUTPUT. */
void      sl_pass_saturate_outputs (SlIr *ir, int target);
/* Whether @ir has an OUTPUT for each of the four components of colour
 * target @target (the span program then stores all four of every pixel
 * it does not discard). */
bool      sl_ir_writes_all_components (const SlIr *ir, int target);
/* Whether @ir may discard a pixel. */
bool      sl_ir_discards       (const SlIr *ir);
/* Whether the program takes ddx/ddy of any value (its pixels then
 * depend on their 2×2 quad's neighbours). */
bool      sl_ir_takes_derivatives (const SlIr *ir);
/* Runs fold, copy propagation, CSE and DCE to a fixed point. */
void      sl_pass_optimise     (SlIr *ir);
/* The same; with @validate, sl_ir_validate runs after every step and the
 * first failure (an internal error in @diags) stops it: false then. */
bool      sl_pass_optimise_checked (SlIr *ir, bool validate, SlDiagnostics *diags);
void      sl_pass_dce          (SlIr *ir);

/* Folds one non-special op on constant bits; false when it cannot. */
bool      sl_fold_op           (SlOp op, const uint32_t *srcs, uint32_t *result);

#endif
