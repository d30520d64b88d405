/* effect-cli — `gegl-shaders check/run` on effect files (.fx, ReShade FX).
 * main.c hands over here when the file holds techniques. */
#ifndef GS_EFFECT_CLI_H
#define GS_EFFECT_CLI_H

#include <glib.h>

#include "shaderlib.h"

G_BEGIN_DECLS

typedef struct
{
  const char  *file;
  const char  *technique;      /* --entry; NULL = the first technique */
  char       **include_dirs;
  char       **defines;
  const char  *input;          /* NULL = blank canvas */
  int          width, height;  /* 0 = the input's size, else 512×512 */
  char       **sets;
  char       **textures;       /* TEXTURE_NAME=IMG */
  char       **sources;        /* --source NAME=V[,V...]: runtime values */
  int          n_probes;
  const int   *probes;         /* x, y pairs */
  const char  *output;
  gboolean     linear;
  int          depth;
  int          jobs;           /* ≤ 0 = one per CPU */
  gboolean     any_path;       /* --allow-any-path: includes and textures anywhere */
  gsize        memory_budget;  /* bytes one render may take (0: the default) */
  guint        compile_flags;  /* more SL_COMPILE_* flags (dump: KEEP_DUMPS) */
} GsEffectArgs;

/* FALSE, with the error printed, when a @width×@height render whose
 * whole images take @need bytes exceeds @budget. */
gboolean gs_check_image_budget (int width, int height, gsize need, gsize budget);

/* TRUE when @path names an effect file (by extension .fx/.fxh is not
 * enough: the file must hold a technique). */
gboolean gs_effect_file_p (const char *path);
/* Applies --source NAME=V[,V...] texts to @values for a @width×@height
 * image (timer=MS, frametime=MS, framecount=N, random=SEED,
 * mousepoint=X,Y in pixels, date=YEAR,MONTH,DAY,SECONDS).  FALSE with a
 * message to show (newly allocated) when one is malformed. */
gboolean gs_effect_apply_sources (char *const        *sources,
                                  int                 width,
                                  int                 height,
                                  SlEffectHostValues *values,
                                  char              **message);
/* Exit codes as main.c's: 0, 1 (errors), 2 (usage). */
int      gs_effect_check  (const GsEffectArgs *args);
int      gs_effect_run    (const GsEffectArgs *args);
/* Prints, for each pass of the technique (--entry, else the first), a
 * header line naming it and the pass's pixel shader, then
 * @print_program's dump of its program. */
int      gs_effect_dump   (const GsEffectArgs *args,
                           void (*print_program) (SlProgram *program));

/* The image textures of @fx, loaded once for every run of it: element i
 * is texture i's image, or NULL when texture i is no image texture or its
 * file is missing (it then reads as zero, as in ReShade).  @overrides are
 * --texture NAME=IMG operands, which win over `source = "…"`; a source
 * outside the effect's folder and @include_dirs is refused unless
 * @any_path.  NULL with @error set when a file is there but is no image
 * of a sane size, or an override names no image texture, or an image's
 * float pixels would take more than what is left of @max_bytes (refused
 * before it is decoded). */
GPtrArray *gs_effect_load_textures_within (SlEffect           *fx,
                                           const char         *effect_file,
                                           const char *const  *include_dirs,
                                           const char *const  *overrides,
                                           gboolean            any_path,
                                           gboolean            linear,
                                           gsize               max_bytes,
                                           GError            **error);
/* The bytes the loaded images of @images hold. */
gsize      gs_effect_images_bytes (GPtrArray *images);
/* Hands every loaded image of @images to @run; FALSE (with the
 * diagnostic) when the run refuses one, e.g. over its memory budget. */
gboolean   gs_effect_bind_textures (SlEffectRun   *run,
                                    GPtrArray     *images,
                                    SlDiagnostics *diags);

G_END_DECLS

#endif
