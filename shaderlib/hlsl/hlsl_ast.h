/* The typed AST shared by the parser (hlsl_parse.c and the files named
 * there, which build and check it) and hlsl_lower.c (which turns it into
 * IR).  Every expression node carries its type; implicit conversions
 * appear as explicit N_CAST nodes, so lowering never guesses. */
#ifndef SL_HLSL_AST_H
#define SL_HLSL_AST_H

#include "hlsl/hlsl.h"

typedef enum { BT_BOOL, BT_INT, BT_UINT, BT_FLOAT } BaseType;

typedef enum
{
  TY_VOID,
  TY_NUM,        /* scalar, vector or matrix */
  TY_ARRAY,
  TY_STRUCT,
  TY_SAMPLER,    /* sampler, sampler2D, SamplerState, … */
  TY_TEXTURE,    /* texture, Texture2D, … */
  TY_STRING,
  TY_ERROR       /* after a diagnosed error: accepted everywhere */
} TyKind;

typedef enum { NUM_SCALAR, NUM_VECTOR, NUM_MATRIX } NumClass;

typedef struct Type Type;
typedef struct
{
  const char *name;
  Type       *type;
  const char *semantic;
  int         offset;      /* in components */
} Field;

struct Type
{
  TyKind       kind;
  BaseType     base;
  NumClass     cls;
  int          rows, cols;     /* vector: rows = 1 */
  bool         row_major;      /* matrices: storage order in constants */
  bool         has_major;      /* row_major/column_major given explicitly */
  Type        *elem;           /* arrays */
  int          len;
  Field       *fields;
  int          n_fields;
  const char  *name;           /* structs and typedef'd names */
  int          tex_dim;        /* SlTextureKind for samplers/textures; -1 = any */
  bool         comparison;     /* SamplerComparisonState */
  bool         is_patch;       /* InputPatch/OutputPatch: a const array */
  bool         is_double;      /* double: computed as float, but a distinct
                                  type for overload resolution */
  int          n_comp;         /* number of scalar components */
  int          n_objects;      /* number of sampler/texture objects inside */
  int          nest;           /* arrays/structs inside (SL_MAX_TYPE_DEPTH) */
};

typedef enum
{
  STORE_LOCAL,
  STORE_PARAM,
  STORE_UNIFORM,     /* extern globals: the constant buffer */
  STORE_STATIC       /* static globals: initialised once per pixel */
} Storage;

typedef struct Node Node;

typedef struct
{
  const char   *name;
  Type         *type;
  Storage       storage;
  bool          is_const;
  SlLoc         loc;
  Node         *init;
  const char   *semantic;
  int           reg_kind;       /* 'c', 's', 't', 'b' from register(), 0 = none */
  int           reg_index;
  int           param_mod;      /* 0 in, 1 out, 2 inout */
  bool          uniform_param;  /* entry parameter marked uniform */
  GArray       *annotations;    /* SlAnnotation */
  /* filled by the compiler: */
  int           cb_offset;      /* uniforms: component offset in the constant buffer */
  int           slot;           /* samplers/textures: first slot */
  int           bind_count;     /* SM1 uniforms: registers up to the last one read */
  int           sampled_dim;    /* samplers: the texN* family used (4: CUBE), 0 = none */
  SlSamplerState *declared;     /* samplers: state set in the shader, or NULL */
  int           id;             /* index for per-inline maps */
} Var;

typedef struct Func Func;

typedef enum
{
  N_LIT, N_VAR, N_SWIZZLE, N_MEMBER, N_INDEX, N_UNARY, N_BINARY, N_ASSIGN,
  N_TERNARY, N_COMMA, N_CALL, N_INTRINSIC, N_CTOR, N_CAST, N_INCDEC,
  N_INITLIST,
  S_BLOCK, S_DECL, S_EXPR, S_IF, S_FOR, S_WHILE, S_DO, S_RETURN, S_BREAK,
  S_CONTINUE, S_DISCARD, S_SWITCH, S_EMPTY
} NodeKind;

struct Node
{
  NodeKind  kind;
  SlLoc     loc;
  Type     *type;
  int       op;          /* operator token char(s) packed, intrinsic id, … */
  Node     *a, *b, *c, *d;
  Node    **args;
  int       n_args;
  uint32_t *lit;         /* N_LIT: n_comp raw words */
  Var      *var;         /* N_VAR, S_DECL */
  Func     *func;        /* N_CALL */
  int      *comps;       /* N_SWIZZLE: component indices into a */
  int       n_comps;
  int       offset;      /* N_MEMBER: component offset */
  bool      postfix;     /* N_INCDEC */
  int       loop_cap;    /* loops: [unroll(n)]/[loop] hints; 0 = default */
  int       sampler_obj; /* N_INTRINSIC method calls on objects */
};

struct Func
{
  const char *name;
  Type       *ret;
  const char *semantic;
  Var       **params;
  int         n_params;
  Node      **defaults;  /* default argument values or NULL */
  Node       *body;      /* NULL = declared only */
  SlLoc       loc;
  Func       *next_overload;
  bool        busy;      /* being inlined: recursion check */
};

/* Intrinsic ids (N_INTRINSIC.op) */
typedef enum
{
#define SL_INTRINSIC(id, name, nmin, nmax, kind, sm, params, result, typing, lowering, arg) INTR_##id,
#include "hlsl/hlsl_intrinsics.def"
#undef SL_INTRINSIC
  INTR_COUNT
} IntrinsicId;

/* Everything the parser hands to lowering. */
typedef struct
{
  SlArena       *arena;
  SlDiagnostics *diags;
  GPtrArray     *globals;   /* Var*, in declaration order */
  GHashTable    *funcs;     /* name → Func* (overload chain) */
  Func          *entry;
  int            shader_model;
  bool           reshade;   /* SL_COMPILE_RESHADE_FX leniencies */
  /* The caller named a profile, so fxc's rules for it hold: what each
   * profile offers (intrinsics, bitwise operators) and, below SM 4,
   * integers computed as floats.  Without one the target is ps_3_0's
   * registers and flow control with SM 4's integers and intrinsics, so a
   * filter need not say which Direct3D it was written for. */
  bool           fxc_profile;
  int            n_vars;
  int            n_errors;
} HlslUnit;

Type *hlsl_type_num (SlArena *arena, BaseType base, NumClass cls, int rows, int cols);
int   hlsl_type_is_numeric (const Type *t);
Type *hlsl_scalar_of (SlArena *arena, const Type *t);

bool  hlsl_parse (HlslUnit *unit, const char *text, const char *filename);
SlIr *hlsl_lower (HlslUnit *unit, SlProgramInfo *info);

#endif
