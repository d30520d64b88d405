/* The .shader_test runner's private declarations: a parsed file, the
 * results of one file and the state of one run (one file at one shader
 * model), shared by the files of this folder.
 *
 *   shader-test.c  the command line and the loop over files and models
 *   format.c       the file format: text helpers, conditions, blocks
 *   sections.c     [require], the resource sections and the [test] lines
 *   run.c          one run: compiling, binding and (lazily) drawing
 *   probe.c        probes and the results (pass, fail, skip)
 *
 * A file is parsed into blocks once; each model then interprets the
 * blocks from the start with a fresh Run, so nothing carries over from
 * one model to the next.  The st_ names are private to the runner. */
#ifndef GS_SHADER_TEST_RUNNER_H
#define GS_SHADER_TEST_RUNNER_H

#include <glib.h>

#include "shaderlib.h"

/* vkd3d's render targets: up to 8, 640x480 unless an [rtv] says. */
#define MAX_RTVS     8
#define DEFAULT_RT_W 640
#define DEFAULT_RT_H 480

/* A shader model the files run at (--models). */
typedef struct
{
  int  code;          /* major*10 + minor */
  char name[8];       /* "3.0" */
  char profile[8];    /* "ps_3_0" */
} Model;

typedef enum
{
  BLK_NONE,          /* text before the first header */
  BLK_REQUIRE,
  BLK_PIXEL,
  BLK_PIPELINE,      /* vertex/hull/domain/geometry: changes the draw */
  BLK_OTHER_SHADER,  /* compute, effect, preproc: nothing to draw */
  BLK_SRV,
  BLK_SAMPLER,
  BLK_RTV,
  BLK_IGNORED,       /* uav, vb, dsv, input layout */
  BLK_TEST,
  BLK_BAD
} BlockKind;

/* One section of a file: its header and the lines of its body. */
typedef struct
{
  BlockKind   kind;
  int         header_line;   /* 1-based */
  int         first, end;    /* body lines, 0-based, [first, end) */
  int         slot;
  char       *stage;         /* "pixel shader", "compute shader", … */
  char       *qualifiers;    /* text after the stage name */
  char       *error;
} Block;

typedef struct
{
  char   *path;
  char  **lines;             /* comment lines blanked */
  int     n_lines;
  GArray *blocks;            /* Block */
} TestFile;

/* Skipped checks of one line for one reason, with the models hit. */
typedef struct
{
  int      line;
  char    *reason;
  GString *models;   /* "2.0, 3.0" */
} SkipNote;

/* The counts and the messages of one file over all its models. */
typedef struct
{
  gboolean     verbose;
  const char  *path;
  int          passed, failed, skipped;
  GString     *out;        /* failure lines, in order */
  GArray      *skips;      /* SkipNote */
  GHashTable  *printed;    /* "line:message" of errors already shown */
} FileResult;

typedef struct
{
  gboolean  present;
  char     *unsupported;   /* reason, or NULL */
  float    *texels;
  SlTexture texture;
} SrvState;

typedef struct
{
  gboolean       present;
  SlSamplerState state;
} SamplerSlot;

typedef struct
{
  gboolean present;
  int      width, height;
  gboolean integer;         /* sint/uint formats: exact compares */
  char    *unsupported;
} RtvState;

typedef enum
{
  DRAW_NONE,
  DRAW_OK,
  DRAW_FAILED,
  DRAW_SKIPPED
} DrawStatus;

/* One file at one model: what the blocks read so far have set up. */
typedef struct
{
  FileResult  *res;
  TestFile    *tf;
  const Model *model;

  char        *req_skip;          /* why blocks are skipped, or NULL */
  int          req_line;
  gboolean     backcompat;

  SrvState     srv[SL_MAX_SLOTS];
  SamplerSlot  sampler[SL_MAX_SLOTS];
  RtvState     rtv[MAX_RTVS];

  GArray      *uniforms;          /* guint32 words */
  GArray      *uniform_set;       /* guint8 flags */

  gboolean     have_ps;
  SlProgram   *program;
  gboolean     ps_expect_fail;
  int          ps_line;
  char        *ps_diags;

  char        *pipeline_skip;     /* custom pipeline stage in effect */
  int          pipeline_line;

  DrawStatus   draw;
  int          draw_line;
  char        *draw_msg;
  SlBinding   *binding;
  float       *targets[MAX_RTVS];
  int          n_targets;
  int          target_w, target_h;
  guint8      *band_done;
  GPtrArray   *retired;           /* texel buffers a live draw may read */
  SlScratch   *scratch;
} Run;

/* ---- format.c ------------------------------------------------------ */

const char *st_skip_ws          (const char *p);
gboolean    st_match_word       (const char **p, const char *word);
gboolean    st_match_words      (const char **p, const char *words);
gboolean    st_expect_char      (const char **p, char c);
gboolean    st_at_end           (const char *p);
gboolean    st_parse_long       (const char **p, long long *out);
gboolean    st_parse_ulong      (const char **p, unsigned long long *out);
gboolean    st_parse_double     (const char **p, double *out);
gboolean    st_parse_int        (const char **p, int *out);
gboolean    st_parse_version    (const char **p, int *code);
gboolean    st_parse_condition  (const char **p, int model, gboolean *value,
                                 const char **error);
TestFile   *st_test_file_load   (const char *path, GError **error);
void        st_test_file_free   (TestFile *tf);

/* ---- probe.c ------------------------------------------------------- */

void st_record_pass     (Run *run);
/* A check that failed: shown with --verbose. */
void st_record_fail     (Run *run, int line, const char *format, ...)
  G_GNUC_PRINTF (3, 4);
/* A malformed line: always shown (once per line), counted per model. */
void st_record_error    (Run *run, int line, int column,
                         const char *format, ...) G_GNUC_PRINTF (4, 5);
void st_record_skip     (Run *run, int line, const char *reason);
/* Clears a SkipNote (FileResult.skips' element destructor). */
void st_skip_note_clear (gpointer data);
/* A probe line; @p is after the word "probe" in @line_start. */
void st_run_probe       (Run *run, int line, const char *line_start,
                         const char *p);

/* ---- sections.c ---------------------------------------------------- */

void st_run_require     (Run *run, const Block *b);
void st_run_srv         (Run *run, const Block *b);
void st_run_sampler     (Run *run, const Block *b);
void st_run_rtv         (Run *run, const Block *b);
void st_run_test        (Run *run, const Block *b);
/* A [test] block under an unmet [require]: its probes count as skipped. */
void st_skip_test_block (Run *run, const Block *b);

/* ---- run.c --------------------------------------------------------- */

void     st_run_model      (FileResult *res, TestFile *tf, const Model *model,
                            SlScratch *scratch);

void     st_draw_reset     (Run *run);
/* Sets the draw's status and the message probes of it will report. */
void     st_draw_set       (Run *run, DrawStatus status, const char *format,
                            ...) G_GNUC_PRINTF (3, 4);
/* Releases a texture slot; its texels live on while a draw may read them. */
void     st_srv_clear      (Run *run, SrvState *s);
void     st_run_draw_quad  (Run *run, int line);
/* Renders the bands of rows [y0, y1) not rendered yet; FALSE (with the
 * draw marked failed) when rendering fails. */
gboolean st_ensure_rows    (Run *run, int y0, int y1);

#endif /* GS_SHADER_TEST_RUNNER_H */
