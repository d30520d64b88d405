/* Private interface of the Shader Model 4/5 front end.
 *
 * Both inputs — assembly text as fxc /Fc prints it, and DXBC containers —
 * are read into one instruction list (Sm4Shader) that mirrors the tokenised
 * program format: an opcode with its controls, and operands with a type,
 * up to three indices, a component selection and a modifier.  The list is
 * the hub of the front end:
 *
 *   sm4_asm.c     text → Sm4Shader, Sm4Shader → canonical text
 *   dxbc.c        DXBC container ↔ Sm4Shader (SHDR/SHEX, RDEF, ISGN/OSGN)
 *   sm4_lower.c   Sm4Shader → IR and reflection (the same IR as HLSL), and
 *                 sm4_to_ir, the compile driver's entry
 *
 * Reflection (constant-buffer variables, resource names, signatures) rides
 * along in the Sm4Shader: from the RDEF/ISGN/OSGN chunks of a container, or
 * from the comment header that fxc writes above a listing. */
#ifndef SL_SM4_H
#define SL_SM4_H

#include "ir/ir.h"
#include "ir/reflect.h"

/* Instruction ids, one per table row of sm4_tables.def. */
typedef enum
{
#define SM4_OP(id, mnem, opc, ndst, nsrc, type, lower, irop) SM4_##id,
#include "asm/sm4/sm4_tables.def"
#undef SM4_OP
  SM4_N_OPS
} Sm4OpId;

/* How sm4_lower.c treats a row (the LOWER column of the table). */
typedef enum
{
  SM4L_MAP,       /* per component: irop on the sources */
  SM4L_MOV, SM4L_MOVC, SM4L_DOT, SM4L_SINCOS, SM4L_MULHL, SM4L_DIVQR,
  SM4L_MAD, SM4L_DERIV,
  SM4L_SAMPLE, SM4L_LD, SM4L_RESINFO,
  SM4L_IF, SM4L_ELSE, SM4L_ENDIF, SM4L_LOOP, SM4L_ENDLOOP, SM4L_BREAK,
  SM4L_BREAKC, SM4L_CONTINUE, SM4L_CONTINUEC, SM4L_DISCARD, SM4L_RET,
  SM4L_RETC, SM4L_NOP,
  SM4L_DCL        /* declarations: handled before lowering */
} Sm4Lower;

/* Operand value types of the table's TYPE column. */
typedef enum { SM4T_F, SM4T_I, SM4T_U, SM4T_X } Sm4Type;

typedef struct
{
  const char *mnemonic;
  uint16_t    opcode;      /* D3D10_SB_OPCODE_TYPE / D3D11 value */
  uint8_t     n_dst, n_src;
  uint8_t     type;        /* Sm4Type of the sources */
  uint8_t     lower;       /* Sm4Lower */
  uint16_t    irop;        /* SlOp for SM4L_MAP etc. */
} Sm4OpInfo;

extern const Sm4OpInfo sm4_ops[SM4_N_OPS];
/* Row of a token-stream opcode number; -1 when unknown. */
int sm4_op_from_opcode (unsigned opcode);

/* Operand types (D3D10_SB_OPERAND_TYPE values). */
enum
{
  SM4_REG_TEMP = 0, SM4_REG_INPUT = 1, SM4_REG_OUTPUT = 2,
  SM4_REG_INDEXABLE_TEMP = 3, SM4_REG_IMM32 = 4, SM4_REG_IMM64 = 5,
  SM4_REG_SAMPLER = 6, SM4_REG_RESOURCE = 7, SM4_REG_CB = 8, SM4_REG_ICB = 9,
  SM4_REG_LABEL = 10, SM4_REG_PRIMITIVEID = 11, SM4_REG_DEPTH = 12,
  SM4_REG_NULL = 13
};

/* Component selection (D3D10_SB_OPERAND_4_COMPONENT_SELECTION_MODE). */
enum { SM4_SEL_MASK = 0, SM4_SEL_SWIZZLE = 1, SM4_SEL_SELECT1 = 2 };

/* Source modifiers (D3D10_SB_OPERAND_MODIFIER). */
enum { SM4_MOD_NONE = 0, SM4_MOD_NEG = 1, SM4_MOD_ABS = 2, SM4_MOD_ABSNEG = 3 };

/* Sampler modes (D3D10_SB_SAMPLER_MODE). */
enum { SM4_SAMPLER_DEFAULT = 0, SM4_SAMPLER_COMPARISON = 1, SM4_SAMPLER_MONO = 2 };

/* Resource dimensions (D3D10_SB_RESOURCE_DIMENSION), the ones we run. */
enum
{
  SM4_DIM_UNKNOWN = 0, SM4_DIM_BUFFER = 1, SM4_DIM_TEXTURE1D = 2,
  SM4_DIM_TEXTURE2D = 3, SM4_DIM_TEXTURE2DMS = 4, SM4_DIM_TEXTURE3D = 5,
  SM4_DIM_TEXTURECUBE = 6
};

/* Declaration kinds with their own syntax; SM4_DCL_* rows of the table. */

typedef struct
{
  uint8_t  type;        /* SM4_REG_* */
  uint8_t  index;       /* register number of a relative index */
  uint8_t  comp;        /* selected component */
} Sm4RelIndex;

typedef struct
{
  uint8_t     type;         /* SM4_REG_* */
  uint8_t     n_comp;       /* 0, 1 or 4 */
  uint8_t     sel;          /* SM4_SEL_* (4-component operands) */
  uint8_t     mask;         /* SM4_SEL_MASK: bit c = component c */
  uint8_t     swz[4];       /* SM4_SEL_SWIZZLE; swz[0] for SELECT1 */
  uint8_t     modifier;     /* SM4_MOD_* */
  uint8_t     n_idx;        /* 0..3 */
  uint32_t    idx[3];       /* immediate part of each index */
  bool        has_rel[3];   /* index i adds a register value */
  Sm4RelIndex rel[3];
  uint32_t    imm[4];       /* SM4_REG_IMM32 values */
  int         column;       /* of the operand in the listing; 0 from bytecode */
} Sm4Operand;

#define SM4_MAX_OPERANDS 6

typedef struct
{
  uint16_t   op;          /* Sm4OpId */
  bool       sat;
  bool       test_nz;     /* _nz (true) or _z */
  uint32_t   ctrl;        /* opcode-specific controls, bits 11..23 >> 11 */
  int8_t     offset[3];   /* _aoffimmi(u,v,w) */
  bool       has_offset;
  int        n_ops;
  Sm4Operand ops[SM4_MAX_OPERANDS];
  /* Extra tokens of declarations: dcl_temps count, dcl_indexableTemp
   * (index, size, components), dcl_resource return types, the system
   * value of dcl_*_siv/sgv, dcl_immediateConstantBuffer data. */
  uint32_t  *data;
  int        n_data;
  int        line, column;
} Sm4Insn;

/* Reflection. */
typedef struct
{
  char    *name;
  uint32_t offset, size;        /* bytes within the buffer */
  uint8_t  cls;                 /* D3D_SHADER_VARIABLE_CLASS */
  uint8_t  type;                /* D3D_SHADER_VARIABLE_TYPE: 1 bool, 2 int, 3 float, 19 uint */
  uint8_t  rows, columns;
  uint16_t elements;
  uint32_t *defaults;           /* size/4 words, or NULL */
} Sm4Var;

typedef struct
{
  char   *name;
  int     slot;                 /* cbN */
  uint32_t size;                /* bytes */
  GArray *vars;                 /* Sm4Var */
} Sm4CBuffer;

typedef struct
{
  char *name;
  int   kind;                   /* 0 cbuffer, 2 texture, 3 sampler (D3D_SHADER_INPUT_TYPE) */
  int   slot;
  int   dim;                    /* SRV dimension: 4 = 2D … (D3D_SRV_DIMENSION) */
} Sm4Binding;

typedef struct
{
  char    *semantic;
  int      index;
  int      sysval;              /* D3D_NAME */
  int      reg;
  uint8_t  mask, used;
} Sm4SigElem;

typedef struct
{
  int     major, minor;
  GArray *insns;          /* Sm4Insn */
  GArray *cbuffers;       /* Sm4CBuffer */
  GArray *bindings;       /* Sm4Binding */
  GArray *inputs;         /* Sm4SigElem */
  GArray *outputs;        /* Sm4SigElem */
  bool    has_reflection; /* names came with the program */
} Sm4Shader;

Sm4Shader *sm4_shader_new  (void);
void       sm4_shader_free (Sm4Shader *shader);

/* sm4_asm.c */
Sm4Shader *sm4_assemble    (const char *text, size_t length, const char *filename,
                            SlDiagnostics *diags);
char      *sm4_print       (const Sm4Shader *shader);

/* dxbc.c */
Sm4Shader *sm4_dxbc_read   (const void *data, size_t length, const char *filename,
                            SlDiagnostics *diags);
/* Encodes a container with SHDR (ps_4_x) or SHEX (ps_5_0), RDEF, ISGN and
 * OSGN chunks; g_free() the result. */
uint8_t   *sm4_dxbc_write  (const Sm4Shader *shader, size_t *length);

/* sm4_lower.c */
SlIr      *sm4_lower       (const Sm4Shader *shader, const char *filename,
                            SlProgramInfo *info, SlDiagnostics *diags);

/* The compile driver's to_ir for SL_LANGUAGE_SM4_ASM and SL_LANGUAGE_DXBC
 * (options->language): @options with source, length and filename resolved
 * → IR before optimisation, with @info (initialised by the caller) filled;
 * NULL after errors. */
SlIr      *sm4_to_ir       (const SlCompileOptions *options, SlProgramInfo *info,
                            SlDiagnostics *diags);

/* The SM4 half of `gegl-shaders dis`: SM4 assembly text or a DXBC
 * container → canonical assembly text that sm4_assemble reads back to the
 * same program.  NULL (with diagnostics) on error; g_free() the result. */
char      *sl_sm4_disassemble (const char *source, size_t length, const char *filename,
                               SlDiagnostics *diags);

#endif
