/* shader-file — what a shader file means to a host: its source read
 * within the library's limit, its annotations, and which image each
 * sampler slot reads.  See shader-file.c. */
#ifndef GS_SHADER_FILE_H
#define GS_SHADER_FILE_H

#include <glib.h>

#include "shaderlib.h"

G_BEGIN_DECLS

/* sl_compile() and sl_effect_compile() refuse a longer source (the
 * library's SL_MAX_SOURCE_BYTES, which its public header does not
 * export); a host stops reading there. */
#define GS_MAX_SOURCE_BYTES (4u << 20)

/* Reads the shader file @path whole, NUL-terminated.  FALSE with @error
 * set (G_FILE_ERROR; the message names the file) when it cannot be read,
 * is a folder, or is longer than GS_MAX_SOURCE_BYTES. */
gboolean            gs_shader_file_read (const gchar  *path,
                                         gchar       **contents,
                                         gsize        *length,
                                         GError      **error);

/* The annotation @name of a parameter, looked up without regard to
 * case: the FX Composer (UIMin) and ReShade (ui_min) dialects are
 * written in every capitalisation in the wild, and no dialect gives two
 * spellings two meanings.  NULL when there is none. */
const SlAnnotation *gs_annotation_find   (const SlParam *param,
                                          const gchar   *name);
/* A string annotation's text, or NULL. */
const gchar        *gs_annotation_string (const SlParam *param,
                                          const gchar   *name);
/* A numeric annotation's first value; FALSE when there is none. */
gboolean            gs_annotation_number (const SlParam *param,
                                          const gchar   *name,
                                          gdouble       *value);

/* What the samplers that read the input see until the host hands each
 * render its real pixels: one transparent texel (@texel, zeroed here)
 * standing for a @width×@height image, a window of one texel, so the
 * binding's sampling reach is measured in the image's texels. */
void                gs_texture_placeholder (SlTexture *texture,
                                            gfloat     texel[4],
                                            gint       width,
                                            gint       height);

/* Binds the images a draw samples: slot 0 and every sampler's slot read
 * @input, except the slots @overrides (SL_MAX_SLOTS entries, may be NULL)
 * gives an image of their own: an aux pad, an image-file texture, the
 * CLI's --texture.  Every host binds its samplers through here, so a
 * shader with several samplers reads the same images everywhere. */
void                gs_bind_samplers     (SlBinding              *binding,
                                          const SlProgram        *program,
                                          const SlTexture        *input,
                                          const SlTexture *const *overrides);

/* TRUE when @path, with '..' and symbolic links resolved, lies inside
 * @file's folder or one of the NULL-terminated @folders (which may be
 * NULL): the confinement rule for the files a shader names (README,
 * "Hostile input").  A path that does not exist is inside nothing. */
gboolean             gs_path_confined    (const gchar         *path,
                                          const gchar         *file,
                                          const gchar * const *folders);

G_END_DECLS

#endif
