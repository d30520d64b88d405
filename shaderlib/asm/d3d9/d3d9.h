/* D3D9 pixel shaders (ps_1_1 … ps_3_sw): one instruction list, four views.
 *
 * The assembler (d3d9_asm.c) and the bytecode decoder (d3d9_bytecode.c)
 * both produce a D9Shader: instructions whose operands are already in the
 * token format's terms (register type numbers, 8-bit swizzles, source
 * modifier codes, shift and result-modifier bits).  Keeping the parsed
 * form identical to the tokens makes the encoder, the decoder and the
 * disassembler near-trivial and lets one validator (d9_validate) apply the
 * per-version rules to both inputs.  d3d9_lower.c turns a validated list
 * into the shared IR.  d3d9_shader.c holds the tables and names every
 * view shares, d3d9_validate.c the validator, d3d9_print.c the printer. */
#ifndef SL_D3D9_H
#define SL_D3D9_H

#include "ir/ir.h"
#include "base/arena.h"
#include "ir/reflect.h"
#include "vm/scalar_ops.h"

/* Versions in order of capability.  ps_1_0 is accepted as ps_1_1 with
 * its own name (the _bx2 rules single it out). */
typedef enum
{
  V10, V11, V12, V13, V14, V20, V2X, V2SW, V30, V3SW
} D9Version;

/* ps_2_x is a family: D3DPSHADERCAPS2_0 says what a device adds to ps_2_0,
 * and the fxc profiles ps_2_a and ps_2_b fix those caps (the
 * D3DXGetPixelShaderProfile page: "same as ps_2_0" plus the listed
 * capabilities).  A shader written as "ps_2_x" names no device, so it gets
 * the most any ps_2_x device may report; bytecode cannot tell the three
 * apart (all are version 2.1) and is read as ps_2_x.  The bits are the
 * D3DPS20CAPS_* values. */
enum
{
  D9_CAP_ARBITRARY_SWIZZLE = 1, D9_CAP_GRADIENT = 2, D9_CAP_PREDICATION = 4,
  D9_CAP_NO_DEPENDENT_READ_LIMIT = 8, D9_CAP_NO_TEX_LIMIT = 16
};

typedef struct
{
  uint8_t  caps;            /* D9_CAP_* */
  uint8_t  num_temps;       /* NumTemps: 12 … 32 */
  uint8_t  static_depth;    /* StaticFlowControlDepth: 0 … 4 */
  uint8_t  dynamic_depth;   /* DynamicFlowControlDepth: 0 or 24 */
} D9Caps2x;

/* Register types: the D3DSPR_* numbers of the token format. */
enum
{
  D9_REG_TEMP = 0, D9_REG_INPUT = 1, D9_REG_CONST = 2, D9_REG_TEXTURE = 3,
  D9_REG_CONSTINT = 7, D9_REG_COLOROUT = 8, D9_REG_DEPTHOUT = 9,
  D9_REG_SAMPLER = 10, D9_REG_CONSTBOOL = 14, D9_REG_LOOP = 15,
  D9_REG_MISCTYPE = 17, D9_REG_LABEL = 18, D9_REG_PREDICATE = 19
};

/* Source modifiers: the D3DSPSM_* numbers. */
enum
{
  D9_SRC_NONE = 0, D9_SRC_NEG, D9_SRC_BIAS, D9_SRC_BIASNEG, D9_SRC_SIGN,
  D9_SRC_SIGNNEG, D9_SRC_COMP, D9_SRC_X2, D9_SRC_X2NEG, D9_SRC_DZ,
  D9_SRC_DW, D9_SRC_ABS, D9_SRC_ABSNEG, D9_SRC_NOT
};

/* Result modifier bits (D3DSPDM_*). */
enum
{
  D9_DST_SAT = 1, D9_DST_PP = 2, D9_DST_CENTROID = 4
};

/* Instruction ids, from d3d9_tables.def. */
enum
{
  D9F_T = 1, D9F_C = 2, D9F_F = 4, D9F_S = 8
};
typedef enum
{
#define D9_OP(id, name, code, nd, ns, mn, mx, fl, kd, s1, s14, s2, cube) D9_##id,
#include "asm/d3d9/d3d9_tables.def"
#undef D9_OP
  D9_N_OPS
} D9OpId;

/* Which instruction-slot budget an instruction draws on (the kind column
 * of d3d9_tables.def): setup, arithmetic, texture, flow control, and
 * texbeml's one texture plus one arithmetic slot. */
enum
{
  D9K_S, D9K_A, D9K_T, D9K_F, D9K_TA
};

typedef struct
{
  const char *name;
  uint16_t    code;
  uint8_t     n_dst, n_src;
  uint8_t     min, max;
  uint8_t     flags;
  uint8_t     slot_kind;      /* D9K_* */
  uint8_t     slots_1x;       /* ps_1_1 … ps_1_3 */
  uint8_t     slots_14;       /* ps_1_4 */
  uint8_t     slots_2;        /* ps_2_0 and later, texture costs as with NOTEXINSTRUCTIONLIMIT */
  uint8_t     slots_cube;     /* extra for a dcl_cube sampler under that cap */
} D9OpInfo;

extern const D9OpInfo d9_ops[D9_N_OPS];

#define D9_SWZ_IDENTITY 0xe4   /* .xyzw */

typedef struct
{
  uint8_t  type;       /* D9_REG_* */
  uint16_t index;
  uint8_t  mask;       /* destinations: write mask, bit per component */
  uint8_t  swizzle;    /* sources: 2 bits per component, x lowest */
  uint8_t  srcmod;     /* D9_SRC_* */
  uint8_t  dstmod;     /* D9_DST_* bits */
  int8_t   shift;      /* -3 (_d8) … 3 (_x8) */
  bool     relative;   /* indexed by aL (ps_3_0: c#[aL], v#[aL]) */
  uint8_t  rel_comp;   /* component of aL used (always x) */
} D9Param;

typedef struct
{
  uint8_t  id;          /* D9OpId */
  uint8_t  compare;     /* ifc/breakc/setp: 1 gt 2 eq 3 ge 4 lt 5 ne 6 le */
  bool     coissue;     /* ps_1_x '+' prefix */
  bool     predicated;
  D9Param  pred;        /* p0 with swizzle; srcmod NOT for (!p0) */
  D9Param  dst;
  D9Param  src[4];
  uint32_t lit[4];      /* def/defi/defb words */
  uint8_t  usage, usage_index;   /* dcl */
  uint8_t  tex_type;             /* dcl of a sampler: 2 2D, 3 cube, 4 volume */
  int      line, column;
  int      op_column[6];          /* assembly text: column of each operand, else 0 */
} D9Insn;

/* A named constant from the CTAB comment (or an fxc listing header). */
typedef struct
{
  const char *name;
  uint16_t    regset;        /* 0 bool, 1 int4, 2 float4, 3 sampler */
  uint16_t    reg_index, reg_count;
  uint16_t    cls, type;     /* D3DXPC_*, D3DXPT_* */
  uint16_t    rows, columns, elements;
  float      *defaults;      /* reg_count*4 floats or NULL */
} D9Constant;

typedef struct
{
  SlArena    *arena;
  const char *file;
  D9Version   version;
  const char *version_name;  /* "ps_2_a" as written */
  D9Caps2x    caps;          /* meaningful for ps_2_x (V2X) only */
  GArray     *insns;         /* D9Insn */
  GArray     *constants;     /* D9Constant */
  const char *creator;       /* CTAB creator string or NULL */
} D9Shader;

D9Shader   *d9_shader_new      (const char *file);
void        d9_shader_free     (D9Shader *shader);
const char *d9_version_name    (D9Version v);
/* The caps of a ps_2_x profile by name ("ps_2_a"); false if @name is none. */
bool        d9_profile_caps    (const char *name, D9Caps2x *caps);
void        d9_version_token   (D9Version v, int *major, int *minor);

/* d3d9_shader.c: names shared by the assembler, validator and printer. */
typedef struct
{
  const char *prefix;
  uint8_t     type;
  uint16_t    index;       /* fixed index for named registers */
  bool        numbered;
} D9RegName;

#define D9_N_REG_NAMES    14
#define D9_N_COMPARE_NAMES 7
#define D9_N_USAGE_NAMES  14
/* Longest prefixes first so "oC" wins over "o…" and "vPos" over "v". */
extern const D9RegName d9_reg_names[D9_N_REG_NAMES];
/* ifc/breakc/setp comparisons by D9Insn.compare ("" for 0). */
extern const char *const d9_compare_names[D9_N_COMPARE_NAMES];
/* dcl usage names in D3DDECLUSAGE order. */
extern const char *const d9_usage_names[D9_N_USAGE_NAMES];
/* Appends a register's name ("r3", "vPos", "c2[aL]"). */
void        d9_reg_text        (GString *out, const D9Param *p);
/* How many registers of @type the shader's version has; 0 = none. */
int         d9_reg_count       (const D9Shader *sh, int type, bool as_dst);
/* The text of a source modifier as messages and the printer spell it. */
const char *d9_srcmod_suffix   (int modifier);
/* Shortest swizzle text that expands to @swz (buf holds 5 bytes). */
void        d9_swizzle_text    (char *buf, uint8_t swz);

/* d3d9_asm.c: text → instructions (validated). */
D9Shader   *d9_assemble        (const char *text, size_t length, const char *file,
                                SlDiagnostics *diags);
/* d3d9_validate.c: per-version rules; reports each violation, returns
 * false if any. */
bool        d9_validate        (D9Shader *shader, SlDiagnostics *diags);
/* d3d9_print.c: canonical assembly text that d9_assemble reads back
 * unchanged. */
char       *d9_print           (const D9Shader *shader);
/* Lookup by mnemonic; -1 when unknown. */
int         d9_find_op         (const char *name, D9Version v, int n_operands);

/* d3d9_bytecode.c: tokens ↔ instructions. */
D9Shader   *d9_decode          (const uint8_t *bytes, size_t length, const char *file,
                                SlDiagnostics *diags);
/* Encodes with a CTAB comment for shader->constants; g_byte_array_free. */
GByteArray *d9_encode          (const D9Shader *shader);
/* Parses one CTAB blob (after the 'CTAB' tag) into shader->constants. */
bool        d9_parse_ctab      (D9Shader *shader, const uint8_t *data, size_t size,
                                SlDiagnostics *diags);

/* d3d9_lower.c: instructions → IR and reflection. */
SlIr       *d9_lower           (const D9Shader *shader, SlProgramInfo *info,
                                SlDiagnostics *diags);

/* The front end's entries (d3d9_lower.c).  The compile driver's to_ir for
 * SL_LANGUAGE_D3D9_ASM and SL_LANGUAGE_D3D9_BYTECODE (options->language):
 * @options with source, length and filename resolved → IR before
 * optimisation, with @info (initialised by the caller) filled; NULL after
 * errors. */
SlIr       *d9_to_ir           (const SlCompileOptions *options, SlProgramInfo *info,
                                SlDiagnostics *diags);
/* The D3D9 half of `gegl-shaders dis`: assembly text or bytecode →
 * canonical assembly text (d9_print); NULL after errors. */
char       *d9_disassemble_asm      (const char *source, size_t length, const char *filename,
                                     SlDiagnostics *diags);
char       *d9_disassemble_bytecode (const char *source, size_t length, const char *filename,
                                     SlDiagnostics *diags);

#endif
