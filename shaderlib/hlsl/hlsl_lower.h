/* The private interface of HLSL lowering, shared by its files (see
 * hlsl_lower.c): values (RVal), lvalue references, inlining frames,
 * provisional objects, uniform reads and the lowering state L, with the
 * small IR-building helpers inline and what each file offers the others. */
#ifndef SL_HLSL_LOWER_H
#define SL_HLSL_LOWER_H

#include "base/diag.h"
#include "hlsl/hlsl_ast.h"

typedef struct
{
  uint32_t *c;
  int       n;
  int      *o;    /* objects (ObjRef indices, -1 = unbound), or NULL */
  int       no;
} RVal;

typedef struct
{
  uint32_t ref;   /* variable IR value */
  uint32_t cond;  /* bool IR value, or SL_IR_NONE */
  int      comp;  /* component of the lvalue expression */
} LRef;

typedef struct
{
  Func     *func;
  bool      framed;     /* FBEGIN/FEND emitted: returns are masked */
  uint32_t *ret_vals;   /* framed: variables holding the result */
  RVal      ret_rv;     /* unframed: the value of the final return */
  int      *ret_objs;   /* framed: the objects returned */
  bool      returned;
} Frame;

typedef struct
{
  Var *var;
  int  element;
  int  slot;
  int  first_use_order;
  /* Below SM 4 a texture object sampled through a sampler object becomes
   * one combined sampler (D3D9 has nothing else): @svar/@selement name the
   * sampler, @var/@element the texture. */
  Var *svar;
  int  selement;
  /* A static texture or sampler never assigned one: it holds no resource,
   * which is an error only where a sample through it stays live
   * (@use_loc: its first use). */
  bool  no_resource;
  SlLoc use_loc;
} ObjRef;

typedef struct
{
  guint insn;
  Var  *var;
  int   comp;       /* flattened component of the variable */
  bool  indexed;    /* LOADCI: comp is within element 0 */
} URef;

typedef struct
{
  HlslUnit      *u;
  SlIr          *ir;
  SlProgramInfo *info;
  uint32_t     **var_vals;    /* var id → IR variables */
  int          **var_objs;    /* var id → its objects (ObjRef indices), or NULL */
  GArray        *objs;        /* ObjRef */
  GArray        *urefs;       /* URef */
  GHashTable    *refused;     /* Var*: global structs with objects, reported */
  Frame          frames[SL_MAX_INLINE_DEPTH];
  int            n_frames;
  int            loop_depth;
  int            cf_depth;
  bool           failed;
  int            sm;
  /* At a named profile below SM 4 (HlslUnit.fxc_profile): int and uint
   * values are floats, as in D3D9's registers, and compute as fxc's float
   * lowering does; constants fold exactly (@exact) until they meet a
   * run-time value. */
  bool           float_ints;
  GHashTable    *exact;       /* IR value → its exact integer (gint64 *) */
  /* > 0 while lowering a branch that a known condition never takes: fxc
   * checks some rules (constant indices in range) only on live code. */
  int            dead;
} L;

/* ---- small helpers ------------------------------------------------------- */

static inline RVal
rv_new (L *l, int n)
{
  RVal r = { .c = SL_NEW_N (l->u->arena, uint32_t, n > 0 ? n : 1), .n = n };
  return r;
}

static inline SlKind
kind_of (BaseType b)
{
  switch (b)
    {
    case BT_BOOL: return SL_KIND_BOOL;
    case BT_INT: return SL_KIND_INT;
    case BT_UINT: return SL_KIND_UINT;
    default: return SL_KIND_FLOAT;
    }
}

/* The kind of the IR values holding HLSL values of base @b: below SM 4
 * int and uint are floats. */
static inline SlKind
kind_for (const L *l, BaseType b)
{
  return l->float_ints && (b == BT_INT || b == BT_UINT) ? SL_KIND_FLOAT : kind_of (b);
}

/* The base type whose operations compute values of base @b. */
static inline BaseType
op_base (const L *l, BaseType b)
{
  return l->float_ints && (b == BT_INT || b == BT_UINT) ? BT_FLOAT : b;
}

static inline uint32_t
zero_of (L *l, BaseType b)
{
  return sl_ir_const (l->ir, kind_for (l, b), 0);
}

static inline uint32_t
one_of (L *l, BaseType b)
{
  switch (op_base (l, b))
    {
    case BT_FLOAT: return sl_ir_const_f (l->ir, 1.0f);
    case BT_BOOL: return sl_ir_const_b (l->ir, true);
    default: return sl_ir_const (l->ir, kind_of (b), 1);
    }
}

static inline uint32_t f1 (L *l, SlOp op, uint32_t a) { return sl_ir_op1 (l->ir, op, SL_KIND_FLOAT, a); }
static inline uint32_t f2 (L *l, SlOp op, uint32_t a, uint32_t b) { return sl_ir_op2 (l->ir, op, SL_KIND_FLOAT, a, b); }
static inline uint32_t f3 (L *l, SlOp op, uint32_t a, uint32_t b, uint32_t c) { return sl_ir_op3 (l->ir, op, SL_KIND_FLOAT, a, b, c); }
static inline uint32_t fc (L *l, float v) { return sl_ir_const_f (l->ir, v); }

/* ---- entry point (hlsl_lower.c) ------------------------------------------- */

void hlsl_lower_error (L *l, SlLoc loc, SlDiagKind kind, const char *fmt, ...)
  __attribute__ ((format (printf, 4, 5)));

/* ---- values, variables and stores (hlsl_lower_value.c) -------------------- */

int      *hlsl_objs_at (L *l, RVal v, int first, int n);
int      *hlsl_objs_copy (L *l, const int *src, int n);
BaseType *hlsl_bases_of (L *l, const Type *t);
uint32_t  hlsl_conv (L *l, uint32_t v, BaseType from, BaseType to);
uint32_t  hlsl_real_int (L *l, uint32_t v);
bool      hlsl_exact (L *l, uint32_t v, int64_t *out);
uint32_t  hlsl_exact_value (L *l, int64_t x);
bool      hlsl_const_int (L *l, uint32_t v, int32_t *out);
RVal      hlsl_cast_rval (L *l, RVal v, const Type *from, const Type *to);
uint32_t *hlsl_alloc_var (L *l, Var *v);
RVal      hlsl_var_rval (L *l, Var *v, SlLoc loc);
void      hlsl_store (L *l, Node *lhs, RVal v);

/* ---- samplers and textures (hlsl_lower_object.c) -------------------------- */

int   hlsl_obj_ref (L *l, Var *v, int element);
int   hlsl_combined_ref (L *l, int tex, int samp);
int   hlsl_objects_before_field (const Type *t, int fi);
void  hlsl_refuse_global_struct (L *l, Var *v, SlLoc loc);
bool  hlsl_tracks_objects (L *l, const Var *v);
Node *hlsl_constant_branch (L *l, Node *e);
int   hlsl_lower_object (L *l, Node *e);
void  hlsl_store_objects (L *l, Node *lhs, RVal v);
void  hlsl_allocate_sm1_samplers (HlslUnit *u, Func *f, SlIr *ir, GArray *objs, GHashTable *taken,
                                  bool *unused);

/* ---- expressions (hlsl_lower_expr.c) -------------------------------------- */

uint32_t hlsl_arith (L *l, int op, BaseType b, uint32_t x, uint32_t y);
uint32_t hlsl_fxc_fmod (L *l, uint32_t x, uint32_t y);
RVal     hlsl_lower_initlist (L *l, Node *e, Type *target);
RVal     hlsl_lower_expr (L *l, Node *e);
RVal     hlsl_lower_value (L *l, Node *e);

/* ---- statements (hlsl_lower_stmt.c) and calls (hlsl_lower_call.c) -------- */

void hlsl_init_var (L *l, Var *v);
void hlsl_lower_stmt (L *l, Node *s);
bool hlsl_returns_inside_cf (Node *s, bool top);
RVal hlsl_inline_call (L *l, Node *call);

/* ---- intrinsics (hlsl_lower_intrinsics.c) --------------------------------- */

RVal hlsl_lower_intrinsic (L *l, Node *e);

#endif
