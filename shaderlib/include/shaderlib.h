/* shaderlib — compile Direct3D pixel shaders (HLSL, shader assembly,
 * bytecode) into one IR and run them over float pixel spans.
 *
 * This is the library's only public header.  It knows nothing of GEGL or
 * babl: pixels cross this boundary as interleaved RGBA float32.
 *
 * Life cycle:
 *   SlProgram  — compiled, immutable, reference counted, shareable between
 *                threads.  Reflects parameters and samplers.
 *   SlBinding  — a program plus everything one draw needs: viewport size,
 *                constant values, textures, sampler states.  Mutable until
 *                sl_binding_prepare(); afterwards immutable and safe to
 *                render from several threads at once.
 *   SlScratch  — per-thread working memory reused between render calls.
 *
 * Conventions (shared by the CLI and the GEGL ops):
 *   - pixel (x,y) of a viewport w×h has TEXCOORD0 = ((x+0.5)/w, (y+0.5)/h),
 *     (0,0) is the top-left pixel;
 *   - textures are RGBA float32, row 0 at the top;
 *   - a sampler whose state nobody sets filters bilinearly and clamps to
 *     the edge;
 *   - a parameter nobody sets takes the shader's default, else zero.
 */
#ifndef SHADERLIB_H
#define SHADERLIB_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* ------------------------------------------------------------------ */
/* Diagnostics                                                         */
/* ------------------------------------------------------------------ */

typedef enum
{
  SL_SEVERITY_NOTE,
  SL_SEVERITY_WARNING,
  SL_SEVERITY_ERROR
} SlSeverity;

typedef struct
{
  SlSeverity  severity;
  const char *file;      /* never NULL; "<source>" when unnamed */
  int         line;      /* 1-based; 0 when not tied to a line */
  int         column;    /* 1-based; 0 when not tied to a column */
  const char *code;      /* stable code, e.g. "E-HLSL-UNDECLARED": see below */
  const char *message;   /* one line, no trailing newline */
} SlDiagnostic;

/* Codes.  Every diagnostic has its own stable code: a severity letter
 * (E, W, N), the stage that reports it (API, PP, HLSL, D3D9, SM4, DXBC,
 * FX, VM, INTERNAL, HOST) and a few words.  The table of every code, with
 * its severity and what it means, is shaderlib/base/diag_codes.def.
 * Codes are never renamed, so hosts may compare against them; the ones
 * hosts need are here.  A host that adds its own diagnostic uses a HOST
 * code (or any code of the table, with the table's severity): test runs
 * (SHADERLIB_VALIDATE=1) report any other code as an internal error. */
#define SL_CODE_VM_LOOP          "W-VM-LOOP"       /* a loop hit the iteration cap */
#define SL_CODE_VM_BUDGET        "W-VM-BUDGET"     /* a span hit the loop budget */
#define SL_CODE_VM_BUDGET_STRAIGHT "W-VM-BUDGET-STRAIGHT" /* one pass costs more than the budget */
#define SL_CODE_HOST_IO          "E-HOST-IO"       /* a file could not be read */
#define SL_CODE_HOST_COMPILE     "E-HOST-COMPILE"  /* a compile failed silently */
#define SL_CODE_HOST_INPUT       "E-HOST-INPUT"    /* the host has no usable input */
#define SL_CODE_HOST_PREPARE     "E-HOST-PREPARE"  /* a prepare failed silently */
#define SL_CODE_HOST_MEMORY_BUDGET "E-HOST-MEMORY-BUDGET" /* over the render's budget */
#define SL_CODE_HOST_OUT_OF_MEMORY "E-HOST-OUT-OF-MEMORY" /* an allocation failed */
/* Internal errors (a bug in shaderlib, never an answer to the input) have
 * codes that begin with this. */
#define SL_CODE_INTERNAL_PREFIX  "E-INTERNAL-"

typedef struct SlDiagnostics SlDiagnostics;

SlDiagnostics      *sl_diagnostics_new        (void);
void                sl_diagnostics_free       (SlDiagnostics *diags);
void                sl_diagnostics_clear      (SlDiagnostics *diags);
int                 sl_diagnostics_count      (const SlDiagnostics *diags);
int                 sl_diagnostics_error_count(const SlDiagnostics *diags);
const SlDiagnostic *sl_diagnostics_get        (const SlDiagnostics *diags,
                                               int                  index);
/* Adds one diagnostic (used by hosts that report their own errors in the
 * same list, e.g. a file they cannot read); @code is a code of the table
 * (see Codes above). */
void                sl_diagnostics_add        (SlDiagnostics *diags,
                                               SlSeverity     severity,
                                               const char    *file,
                                               int            line,
                                               int            column,
                                               const char    *code,
                                               const char    *format,
                                               ...)
  __attribute__ ((format (printf, 7, 8)));
/* All diagnostics as "file:line:col: error: message\n" lines; g_free() it. */
char               *sl_diagnostics_format     (const SlDiagnostics *diags);

/* ------------------------------------------------------------------ */
/* Compiling                                                           */
/* ------------------------------------------------------------------ */

typedef enum
{
  SL_LANGUAGE_AUTO = 0,     /* detect from content */
  SL_LANGUAGE_HLSL,
  SL_LANGUAGE_D3D9_ASM,     /* ps_1_1 … ps_3_0 assembly text */
  SL_LANGUAGE_SM4_ASM,      /* ps_4_0 … ps_5_0 assembly text */
  SL_LANGUAGE_D3D9_BYTECODE,/* D3D9 token stream (.ps/.pso/.cso) */
  SL_LANGUAGE_DXBC          /* DXBC container (SM4/SM5) */
} SlLanguage;

/* Bits for SlCompileOptions.flags. */
enum
{
  SL_COMPILE_NO_OPTIMIZE = 1u << 0, /* skip optimisation passes */
  SL_COMPILE_VALIDATE    = 1u << 1, /* re-validate the IR after each pass, the
                                       bindings' too (SHADERLIB_VALIDATE=1 in
                                       the environment does it for every
                                       compile) */
  SL_COMPILE_KEEP_DUMPS  = 1u << 2, /* keep IR text for sl_program_dump() */
  /* HLSL as ReShade FX reads it: one scalar fills a vector constructor
   * (float4(0.0)), and the sampler intrinsics tex2Dfetch, tex2Dsize,
   * tex2Dgather[R|G|B|A], tex2Doffset, tex2Dlodoffset and the offset forms
   * of tex2D/tex2Dlod exist.  Effect files set it; plain HLSL stays as
   * strict as fxc. */
  SL_COMPILE_RESHADE_FX  = 1u << 3,
  /* #include may name any file the process can read.  Without it an
   * include must lie inside the source file's folder or an include folder
   * (after resolving '..' and symbolic links); absolute paths and escapes
   * are errors.  Either way it must be a regular file of at most 4 MiB. */
  SL_COMPILE_ANY_PATH    = 1u << 4
};

typedef struct
{
  const char        *source;        /* text or bytecode */
  size_t             length;        /* bytes; (size_t)-1 = NUL-terminated */
  const char        *filename;      /* used in diagnostics and for
                                       relative #include; may be NULL */
  SlLanguage         language;
  const char        *entry_point;   /* NULL = "main" */
  const char        *profile;       /* NULL/"auto", "ps_2_0", "ps_3_0",
                                       "ps_4_0", … */
  const char *const *include_dirs;  /* NULL-terminated, may be NULL */
  const char *const *defines;       /* NULL-terminated "NAME" or
                                       "NAME=VALUE", may be NULL */
  unsigned           flags;
} SlCompileOptions;

typedef struct SlProgram SlProgram;

/* Compiles.  Returns NULL on error; diagnostics (errors and warnings) are
 * appended to @diags when it is not NULL. */
SlProgram  *sl_compile        (const SlCompileOptions *options,
                               SlDiagnostics          *diags);
SlProgram  *sl_program_ref    (SlProgram *program);
void        sl_program_unref  (SlProgram *program);

/* Prints a shader-assembly or bytecode input as canonical assembly text
 * that sl_compile reads back to the same program.  NULL (with
 * diagnostics) on error or for HLSL; g_free() the result. */
char       *sl_disassemble    (const SlCompileOptions *options,
                               SlDiagnostics          *diags);

/* Detects the language of a source buffer from its content. */
SlLanguage  sl_detect_language(const char *source, size_t length);
const char *sl_language_name  (SlLanguage language);

/* The shader model the program was compiled for, e.g. 20, 30, 40, 14. */
int         sl_program_get_shader_model (const SlProgram *program);
/* Number of colour outputs written (SV_Target0..n-1 / COLOR0..n-1). */
int         sl_program_get_n_outputs    (const SlProgram *program);

/* IR text of the program: stage 0 = before optimisation, 1 = after,
 * 2 = the span program.  Needs SL_COMPILE_KEEP_DUMPS for stages 0/1.
 * g_free() the result; NULL when unavailable. */
char       *sl_program_dump   (const SlProgram *program, int stage);

/* ------------------------------------------------------------------ */
/* Reflection                                                          */
/* ------------------------------------------------------------------ */

typedef enum
{
  SL_SCALAR_FLOAT,   /* float, half, double (run as float32) */
  SL_SCALAR_INT,
  SL_SCALAR_UINT,
  SL_SCALAR_BOOL
} SlScalarType;

typedef enum
{
  SL_ANNOTATION_STRING,
  SL_ANNOTATION_FLOAT,
  SL_ANNOTATION_INT,
  SL_ANNOTATION_BOOL
} SlAnnotationType;

typedef struct
{
  const char       *name;
  SlAnnotationType  type;
  const char       *string_value;  /* for SL_ANNOTATION_STRING */
  int               n_values;      /* numeric components, 1..16 */
  double            values[16];
} SlAnnotation;

typedef struct
{
  const char         *name;
  SlScalarType        type;
  int                 rows;          /* 1 for scalars and vectors */
  int                 columns;       /* vector size, or matrix columns */
  int                 array_size;    /* 0 = not an array */
  bool                row_major;
  /* Where the parameter lives in the constant buffer, in 32-bit
   * components (register cN.x = component 4*N), and how many components it
   * spans there (padded per D3D register rules). */
  size_t              offset;
  size_t              size;
  /* Default value, rows*columns*max(array_size,1) components in
   * declaration order (row by row for matrices); NULL when none. */
  const float        *default_value;
  const char         *semantic;      /* NULL when none */
  int                 n_annotations;
  const SlAnnotation *annotations;
} SlParam;

typedef enum
{
  SL_TEXTURE_1D,
  SL_TEXTURE_2D,
  SL_TEXTURE_3D,
  SL_TEXTURE_CUBE
} SlTextureKind;

typedef enum
{
  SL_FILTER_POINT,
  SL_FILTER_LINEAR,
  SL_FILTER_NONE            /* mip filter only: no mipmapping */
} SlFilter;

typedef enum
{
  SL_ADDRESS_CLAMP,
  SL_ADDRESS_WRAP,
  SL_ADDRESS_MIRROR,
  SL_ADDRESS_BORDER,
  SL_ADDRESS_MIRROR_ONCE
} SlAddressMode;

typedef enum
{
  SL_COMPARE_NEVER, SL_COMPARE_LESS, SL_COMPARE_EQUAL, SL_COMPARE_LESS_EQUAL,
  SL_COMPARE_GREATER, SL_COMPARE_NOT_EQUAL, SL_COMPARE_GREATER_EQUAL,
  SL_COMPARE_ALWAYS
} SlCompareFunc;

typedef struct
{
  SlFilter      min_filter, mag_filter, mip_filter;
  SlAddressMode address_u, address_v, address_w;
  float         border_color[4];
  float         lod_bias, min_lod, max_lod;
  SlCompareFunc compare;
  bool          srgb;        /* decode sRGB on read */
} SlSamplerState;

/* Bilinear, no mips, clamp to edge, transparent black border. */
void sl_sampler_state_init_default (SlSamplerState *state);

typedef struct
{
  const char         *name;          /* sampler (or texture) variable */
  int                 slot;          /* sN (combined) / tN (SM4 texture) */
  SlTextureKind       kind;
  bool                is_texture_object; /* SM4 Texture2D etc. */
  /* State written in the shader (sampler_state {…}); NULL when none. */
  const SlSamplerState *declared_state;
  int                 n_annotations;
  const SlAnnotation *annotations;
} SlSamplerInfo;

int                  sl_program_get_n_params   (const SlProgram *program);
const SlParam       *sl_program_get_param      (const SlProgram *program,
                                                int              index);
const SlParam       *sl_program_find_param     (const SlProgram *program,
                                                const char      *name);
int                  sl_program_get_n_samplers (const SlProgram *program);
const SlSamplerInfo *sl_program_get_sampler    (const SlProgram *program,
                                                int              index);
/* Size of the constant buffer the program reads, in 32-bit components. */
size_t               sl_program_get_constants_size (const SlProgram *program);

/* ------------------------------------------------------------------ */
/* Textures                                                            */
/* ------------------------------------------------------------------ */

#define SL_MAX_MIP_LEVELS 16
#define SL_MAX_SLOTS      16   /* texture and sampler slots per program */

typedef struct
{
  int          width, height, depth;  /* depth 1 for 1D/2D; 6 for cube */
  size_t       row_stride;            /* floats between rows */
  size_t       slice_stride;          /* floats between slices/faces */
  const float *texels;                /* RGBA float32 */
} SlTextureLevel;

typedef struct
{
  SlTextureKind  kind;
  int            n_levels;            /* ≥ 1 */
  SlTextureLevel levels[SL_MAX_MIP_LEVELS];
  /* Optional window: when window_width > 0, level 0 describes a
   * width×height image of which only the texels in the rectangle
   * (window_x, window_y, window_width, window_height) are present, and
   * levels[0].texels points at texel (window_x, window_y).  Reads outside
   * the window return the nearest texel inside it.  Hosts use this to hand
   * a tile plus its sampling margin instead of the whole image. */
  int            window_x, window_y, window_width, window_height;
  /* Optional tiles, for level 0 of a 2D texture without a window: when
   * tiles is set, levels[0].texels is NULL and level 0 lies in tiles of
   * tile_width×tile_height texels (powers of two), each row-major and
   * packed.  With gx = x + tile_x and gy = y + tile_y, texel (x, y) is
   * texel (gx % tile_width, gy % tile_height) of
   * tiles[(gy / tile_height) * tiles_across + gx / tile_width].  Hosts
   * use this to read an image where it already lies (a GeglBuffer's
   * tiles) instead of copying it.  Effect runs take untiled inputs. */
  const float *const *tiles;
  int            tile_width, tile_height, tile_x, tile_y, tiles_across;
} SlTexture;

/* Fills a single-level 2D texture view over caller-owned pixels. */
void sl_texture_init_2d (SlTexture   *texture,
                         int          width,
                         int          height,
                         size_t       row_stride,
                         const float *texels);

/* Fills a single-level 2D texture view over caller-owned tiles (see
 * SlTexture.tiles).  Returns false, leaving @texture empty, unless the
 * tile sizes are powers of two and 0 <= tile_x < tile_width,
 * 0 <= tile_y < tile_height. */
bool sl_texture_init_tiled (SlTexture          *texture,
                            int                 width,
                            int                 height,
                            int                 tile_width,
                            int                 tile_height,
                            int                 tile_x,
                            int                 tile_y,
                            int                 tiles_across,
                            const float *const *tiles);

/* ------------------------------------------------------------------ */
/* Binding and rendering                                               */
/* ------------------------------------------------------------------ */

typedef struct SlBinding SlBinding;
typedef struct SlScratch SlScratch;

SlBinding *sl_binding_new          (SlProgram *program);
void       sl_binding_free         (SlBinding *binding);
SlProgram *sl_binding_get_program  (const SlBinding *binding);

/* The render-target size that TEXCOORD0 and VPOS refer to. */
void       sl_binding_set_viewport (SlBinding *binding,
                                    int        width,
                                    int        height);
/* Sets a parameter by name from @n_values floats (converted to the
 * parameter's type; fewer values than components repeat the last one).
 * Returns false and adds a diagnostic when the name is unknown. */
bool       sl_binding_set_param    (SlBinding     *binding,
                                    const char    *name,
                                    const float   *values,
                                    int            n_values,
                                    SlDiagnostics *diags);
/* Parses "name=value; name=v,v,v" and sets each parameter. */
bool       sl_binding_set_params_string (SlBinding     *binding,
                                         const char    *params,
                                         SlDiagnostics *diags);
/* Writes raw 32-bit words into the constant buffer at @offset (in
 * components); the words are floats or integers as the shader reads them. */
void       sl_binding_set_constants(SlBinding  *binding,
                                    size_t      offset,
                                    const void *words,
                                    size_t      n_words);
/* Textures are views: the pixels must outlive every render call. */
void       sl_binding_set_texture  (SlBinding       *binding,
                                    int              slot,
                                    const SlTexture *texture);
void       sl_binding_set_sampler  (SlBinding            *binding,
                                    int                   slot,
                                    const SlSamplerState *state);
/* Host opt-in for textures given with a single level: when @enable, the
 * first render that samples such a texture (2D, not windowed) through a
 * sampler with a mip filter builds its mip chain (2×2 box filter, odd
 * sizes rounded down as D3D does) and keeps it in the binding, keyed by
 * the pixel pointer and size; renders on other threads share it.  Off by
 * default: D3D clamps the level to those the texture has, which the
 * conformance runner relies on.  The binding assumes the pixels behind a
 * pointer do not change; a host that reuses a buffer for new pixels calls
 * sl_binding_flush_mips(), never while a render runs. */
void       sl_binding_set_auto_mips (SlBinding *binding,
                                     bool       enable);
void       sl_binding_flush_mips    (SlBinding *binding);
/* Freezes the binding: specialises the program on the constant values and
 * builds the span program.  Returns false (with diagnostics) on error. */
bool       sl_binding_prepare      (SlBinding     *binding,
                                    SlDiagnostics *diags);

SlScratch *sl_scratch_new          (void);
void       sl_scratch_free         (SlScratch *scratch);

typedef struct
{
  float  *pixels;      /* RGBA float32, pixel (x,y) of the rect at
                          pixels[y*row_stride + 4*x] */
  size_t  row_stride;  /* floats */
} SlTarget;

/* Runs the prepared program for every pixel of the rectangle
 * (x, y, width, height) in viewport coordinates and writes colour output i
 * into targets[i] (i < n_targets).  A discarded pixel keeps whatever the
 * target held, so a filter pre-fills the target with its input.
 * @textures, when not NULL, holds SL_MAX_SLOTS entries that override the
 * binding's textures for this call (NULL entries fall back), so threads
 * can render different tiles with one prepared binding.  Returns false
 * when the run hit a limit (e.g. loop iteration cap) and adds a
 * diagnostic; pixels are still written.  Thread-safe for a prepared
 * binding with one scratch per thread (@diags then must not be shared). */
bool       sl_binding_render       (const SlBinding        *binding,
                                    SlScratch              *scratch,
                                    int                     x,
                                    int                     y,
                                    int                     width,
                                    int                     height,
                                    const SlTexture *const *textures,
                                    const SlTarget         *targets,
                                    int                     n_targets,
                                    SlDiagnostics          *diags);

/* Whether sl_binding_render() writes all four components of every pixel
 * of targets[0]: the program writes each component of colour output 0
 * and never discards, so a host need not pre-fill that target.  False
 * before sl_binding_prepare(). */
bool       sl_binding_writes_every_pixel (const SlBinding *binding);
/* Whether each pixel reads textures only at its own TEXCOORD0 (no
 * offset, no other level) and takes no derivative: then a render of a
 * rectangle from textures of the viewport's size needs only their texels
 * under that rectangle (a window of exactly it will do).  Valid after
 * sl_binding_prepare(). */
bool       sl_binding_needs_only_own_texels (const SlBinding *binding);

/* Names the instruction-set level of the interpreter code that
 * sl_binding_render() runs on this CPU: "baseline", "x86-64-v2",
 * "x86-64-v3" or "x86-64-v4" (always "baseline" where the library was
 * built without per-level copies).  The environment variable SL_VM_LEVEL
 * (0, 2 or 3) holds it at or below that level, never above what the CPU
 * supports, for benchmarks and tests.  A static string, for reports. */
const char *sl_vm_level_name       (void);

/* How far from a pixel the program may sample, in texels of slot 0, when
 * every texture coordinate is the pixel's TEXCOORD0 plus a constant offset;
 * false when sampling is data dependent (the host must provide the whole
 * input).  Valid after sl_binding_prepare(). */
bool       sl_binding_get_sample_reach (const SlBinding *binding,
                                        int             *left,
                                        int             *top,
                                        int             *right,
                                        int             *bottom);

/* ------------------------------------------------------------------ */
/* File metadata (header block, doc comments, #pragma parameter)       */
/* ------------------------------------------------------------------ */

/* What a shader file says about itself outside the language proper; read
 * from the source text without compiling it (see README "Writing a
 * filter").  Binary sources yield empty metadata. */
typedef struct SlMetadata SlMetadata;

typedef struct
{
  const char *name;          /* the uniform's name in the shader */
  const char *label;         /* #pragma parameter label; NULL when none */
  const char *summary;       /* WPF <summary>, whitespace collapsed */
  bool        has_min, has_max, has_step;
  double      min, max, step;
  /* <defaultValue> or the #pragma default; colours written #RRGGBB or
   * #AARRGGBB give r, g, b, a in 0..1.  n_default = 0 when none. */
  int         n_default;
  double      default_value[16];
} SlParamDoc;

SlMetadata       *sl_metadata_parse      (const char *source,
                                          size_t      length);
void              sl_metadata_free       (SlMetadata *metadata);
/* Value of a header key ("title", "description", "categories", "menu",
 * "label", "license", "author", "colorspace", …; case-insensitive), or
 * NULL when the header does not set it. */
const char       *sl_metadata_get        (const SlMetadata *metadata,
                                          const char       *key);
int               sl_metadata_get_n_params (const SlMetadata *metadata);
const SlParamDoc *sl_metadata_get_param  (const SlMetadata *metadata,
                                          int               index);
/* The documentation of the uniform @name, merged over every source
 * (doc comment and #pragma parameter); NULL when there is none. */
const SlParamDoc *sl_metadata_find_param (const SlMetadata *metadata,
                                          const char       *name);
/* The image file a sampler reads when the texture it names in its
 * sampler_state (or the texture object @name itself) is annotated with
 * `string ResourceName = "file"` or `source = "file"`; the path is as
 * written, relative to the shader file.  @texture, when not NULL, gets
 * the texture's name.  NULL when @name reads no such texture. */
const char       *sl_metadata_texture_file (const SlMetadata *metadata,
                                            const char       *name,
                                            const char      **texture);

/* ------------------------------------------------------------------ */
/* Effect files (.fx, ReShade FX): techniques of several passes        */
/* ------------------------------------------------------------------ */

/* An effect file holds HLSL plus techniques made of passes; each pass runs
 * one pixel shader into the back buffer (the image) or into intermediate
 * render targets that later passes sample.  An effect is compiled for one
 * back-buffer size (BUFFER_WIDTH/BUFFER_HEIGHT and texture sizes derive
 * from it): compile again when the image size changes.  Vertex shaders are
 * not run: every pass draws a full-screen triangle, so TEXCOORDn is the
 * pixel centre of the pass's viewport and SV_Position its pixel position,
 * which is what PostProcessVS-style vertex shaders provide. */

typedef struct SlEffect    SlEffect;
typedef struct SlEffectRun SlEffectRun;

typedef struct
{
  const char        *source;
  size_t             length;        /* (size_t)-1 = NUL-terminated */
  const char        *filename;      /* diagnostics, relative includes */
  const char *const *include_dirs;  /* NULL-terminated, may be NULL */
  const char *const *defines;       /* NULL-terminated, may be NULL */
  int                buffer_width;  /* the image size; ≥ 1 */
  int                buffer_height;
  unsigned           flags;         /* SL_COMPILE_* */
} SlEffectOptions;

typedef enum
{
  SL_BLEND_ZERO, SL_BLEND_ONE,
  SL_BLEND_SRC_COLOR, SL_BLEND_INV_SRC_COLOR,
  SL_BLEND_SRC_ALPHA, SL_BLEND_INV_SRC_ALPHA,
  SL_BLEND_DEST_COLOR, SL_BLEND_INV_DEST_COLOR,
  SL_BLEND_DEST_ALPHA, SL_BLEND_INV_DEST_ALPHA
} SlBlendFactor;

typedef enum
{
  SL_BLEND_OP_ADD, SL_BLEND_OP_SUBTRACT, SL_BLEND_OP_REV_SUBTRACT,
  SL_BLEND_OP_MIN, SL_BLEND_OP_MAX
} SlBlendOp;

typedef enum
{
  SL_EFFECT_TEXTURE_TARGET,  /* render target (or constant zero texture) */
  SL_EFFECT_TEXTURE_IMAGE,   /* loaded from an image file by the host */
  SL_EFFECT_TEXTURE_COLOR,   /* the back buffer: the input image */
  SL_EFFECT_TEXTURE_DEPTH    /* depth: a flat 1×1 texture (no depth) */
} SlEffectTextureKind;

typedef struct
{
  const char          *name;        /* as in the file, "N::T" in namespaces */
  SlEffectTextureKind  kind;
  int                  width, height;
  const char          *format;      /* "RGBA8", "R16F", … */
  int                  mip_levels;  /* ≥ 1 */
  const char          *source_file; /* SL_EFFECT_TEXTURE_IMAGE: the file
                                       name as written in source = "…" */
  const char          *source_path; /* …and the file it names, found next
                                       to the effect, then in the include
                                       folders (in any case, as on
                                       Windows); NULL when there is none:
                                       the texture then reads as zero */
} SlEffectTexture;

#define SL_EFFECT_MAX_TARGETS 8

typedef struct
{
  const char   *name;             /* "" when unnamed */
  SlProgram    *program;          /* the pixel shader */
  const char   *pixel_shader;     /* entry point name */
  const char   *vertex_shader;    /* NULL when none; not run */
  int           n_render_targets; /* 0 = the back buffer */
  int           render_targets[SL_EFFECT_MAX_TARGETS]; /* texture indices */
  int           width, height;    /* viewport */
  bool          clear;            /* ClearRenderTargets */
  bool          blend;            /* BlendEnable */
  SlBlendFactor src_blend, dest_blend, src_blend_alpha, dest_blend_alpha;
  SlBlendOp     blend_op, blend_op_alpha;
  bool          srgb_write;       /* SRGBWriteEnable */
  unsigned      write_mask;       /* bit 0 = R … bit 3 = A */
} SlEffectPass;

typedef struct
{
  const char         *name;
  int                 n_passes;
  const SlEffectPass *passes;
  int                 n_annotations;
  const SlAnnotation *annotations;
} SlEffectTechnique;

/* Compiles every pass of every technique.  NULL on error (diagnostics
 * say why); notes list pass states that are ignored. */
SlEffect   *sl_effect_compile (const SlEffectOptions *options,
                               SlDiagnostics         *diags);
SlEffect   *sl_effect_ref     (SlEffect *effect);
void        sl_effect_unref   (SlEffect *effect);
/* True when @source looks like an effect file (it has a technique). */
bool        sl_effect_detect  (const char *source, size_t length);

int                      sl_effect_get_n_techniques (const SlEffect *effect);
const SlEffectTechnique *sl_effect_get_technique    (const SlEffect *effect,
                                                     int             index);
int                      sl_effect_find_technique   (const SlEffect *effect,
                                                     const char     *name);
/* Whether a pass of the technique samples a depth texture (`: DEPTH`,
 * e.g. through ReShade::GetLinearizedDepth), which is flat here. */
bool                     sl_effect_technique_reads_depth (const SlEffect *effect,
                                                          int             technique);
int                      sl_effect_get_n_textures   (const SlEffect *effect);
const SlEffectTexture   *sl_effect_get_texture      (const SlEffect *effect,
                                                     int             index);
/* The union of the parameters of all passes, by name, in declaration
 * order.  offset/size are those of the first pass that has the parameter
 * (passes may lay constants out differently; set values by name). */
int                      sl_effect_get_n_params     (const SlEffect *effect);
const SlParam           *sl_effect_get_param        (const SlEffect *effect,
                                                     int             index);
/* The host value a uniform asks for (its source = "…" annotation), or
 * NULL for an ordinary parameter. */
const char              *sl_param_get_host_source   (const SlParam *param);

/* Values for uniforms with a host source.  A still image is rendered as
 * one frame of a running game would be: sl_effect_host_values_init()
 * gives the first frame a second after start (timer 1000 ms, frame 1,
 * 60 fps), today's date and the pointer at the top-left corner (0, 0),
 * where ReShade without an input device leaves it; they stay
 * fixed unless the host sets them.  The other sources have fixed values:
 * `pingpong` one frame's step from its `min`, `mousewheel` its initial
 * value within `min`..`max`, `mousedelta` (0, 0); `key`, `mousebutton`,
 * `overlay_*`, `ui_*`, `screenshot` and `bufready_depth` (no depth buffer)
 * false or 0 — set those by their uniform's name as parameters.  A
 * source the runtime does not know leaves the uniform at its initial
 * value, as in ReShade. */
typedef struct
{
  double   timer_ms;      /* source = "timer" */
  double   frametime_ms;  /* source = "frametime" */
  int64_t  framecount;    /* source = "framecount" (bools: its parity) */
  uint32_t seed;          /* source = "random": derived from it */
  int      date[4];       /* source = "date": year, month 1-12, day 1-31,
                             seconds since midnight */
  double   mouse_x;       /* source = "mousepoint", as a fraction of the */
  double   mouse_y;       /* image (0..1); the uniform gets pixels */
} SlEffectHostValues;

void sl_effect_host_values_init (SlEffectHostValues *values);

/* One technique with its parameters, images and intermediate targets.
 * Set everything, sl_effect_run_prepare(), then sl_effect_render() from
 * any number of threads: the first call renders every pass before the
 * last into cached targets, later calls reuse them. */
SlEffectRun *sl_effect_run_new      (SlEffect *effect, int technique);
void         sl_effect_run_free     (SlEffectRun *run);
bool         sl_effect_run_set_param (SlEffectRun   *run,
                                      const char    *name,
                                      const float   *values,
                                      int            n_values,
                                      SlDiagnostics *diags);
bool         sl_effect_run_set_params_string (SlEffectRun   *run,
                                              const char    *params,
                                              SlDiagnostics *diags);
void         sl_effect_run_set_host_values   (SlEffectRun              *run,
                                              const SlEffectHostValues *values);
/* The back buffer (the image, buffer_width × buffer_height; a windowed
 * texture is fine when sl_effect_run_get_input_rect() allowed it).  A view:
 * the pixels must outlive the renders. */
void         sl_effect_run_set_input (SlEffectRun     *run,
                                      const SlTexture *input);
/* Pixels for an SL_EFFECT_TEXTURE_IMAGE texture (copied, resampled to the
 * declared size when that differs). */
bool         sl_effect_run_set_image (SlEffectRun   *run,
                                      int            texture,
                                      int            width,
                                      int            height,
                                      size_t         row_stride,
                                      const float   *texels,
                                      SlDiagnostics *diags);
bool         sl_effect_run_prepare   (SlEffectRun   *run,
                                      SlDiagnostics *diags);

/* The memory budget of one render (README, "Hostile input"): every
 * buffer whose size comes from the effect or the image — render targets
 * with their mip chains, image textures at their declared size, the
 * copies a pass that reads its own target needs, the intermediate back
 * buffers and scratch images of the passes before the last — is summed
 * before anything is allocated, together with @host_bytes, what the host
 * holds for the render itself (its whole input or output image).  When
 * the sum exceeds @budget, sl_effect_run_set_image() and
 * sl_effect_run_prepare() fail with E-API-EFFECT-MEMORY-BUDGET at the
 * declaration of the texture that tips it over (at the effect file when
 * the images alone do); an allocation that fails within the budget is
 * E-API-EFFECT-OUT-OF-MEMORY, never an abort.  Without a call the budget
 * is SL_EFFECT_DEFAULT_MEMORY_BUDGET and @host_bytes 0. */
#define SL_EFFECT_DEFAULT_MEMORY_BUDGET ((size_t) 2 << 30)
void         sl_effect_run_set_memory_budget (SlEffectRun *run,
                                              size_t       budget,
                                              size_t       host_bytes);
/* Checks the sum now (e.g. after the host learnt, from
 * sl_effect_run_get_input_rect(), that it must hold the whole input, and
 * set the budget again with it); true when it fits. */
bool         sl_effect_run_check_memory      (const SlEffectRun *run,
                                              SlDiagnostics     *diags);
/* The budget and host bytes last set. */
size_t       sl_effect_run_get_memory_budget (const SlEffectRun *run,
                                              size_t            *host_bytes);
/* What the run's own buffers take at their declared sizes, in bytes. */
size_t       sl_effect_run_get_memory        (const SlEffectRun *run);
/* The part of the input the output rectangle needs (it may reach past
 * the image's edges: intersect it with the image); false when it needs
 * the whole input (an earlier pass reads it without local rendering, or
 * sampling is data dependent).  Valid after prepare. */
bool         sl_effect_run_get_input_rect (const SlEffectRun *run,
                                           int x, int y, int width, int height,
                                           int *in_x, int *in_y,
                                           int *in_width, int *in_height);
/* Local rendering.  When every pass reads the back buffer and the render
 * targets at its TEXCOORD (or SV_Position) scaled and offset by
 * constants, through samplers that clamp or use a border, no target has
 * mips and no pass reads the target it renders into, each
 * sl_effect_render() computes, for its own rectangle, just the parts of
 * the earlier passes that the rectangle reads and holds them itself: the
 * run then keeps no whole render targets, calls on several threads work
 * at once, and sl_effect_run_get_input_rect() answers with the part of
 * the input the rectangle reads (earlier passes included).  The pixels
 * are those of a render of whole targets, bit for bit; a rectangle's
 * renders repeat the work its neighbours do on their common margins.  On
 * by default where the technique allows it; @allow false (before
 * sl_effect_run_prepare()) renders whole targets once instead.
 * sl_effect_run_is_local() says which, after prepare. */
void         sl_effect_run_set_local (SlEffectRun *run,
                                      bool         allow);
bool         sl_effect_run_is_local  (const SlEffectRun *run);
/* Writes the technique's result for the rectangle (back-buffer pixels)
 * into @target; @input, when not NULL, replaces the input for the last
 * pass (for every pass when the run renders locally), e.g. a tile plus
 * the margin sl_effect_run_get_input_rect() names.  Thread-safe with one scratch per
 * thread. */
bool         sl_effect_render        (SlEffectRun     *run,
                                      SlScratch       *scratch,
                                      int              x,
                                      int              y,
                                      int              width,
                                      int              height,
                                      const SlTexture *input,
                                      const SlTarget  *target,
                                      SlDiagnostics   *diags);

#ifdef __cplusplus
}
#endif

#endif /* SHADERLIB_H */
