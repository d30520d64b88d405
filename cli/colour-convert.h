/* colour-convert — `apply --convert-to PROFILE` (see colour-convert.c). */
#ifndef GS_COLOUR_CONVERT_H
#define GS_COLOUR_CONVERT_H

#include <glib.h>
#include <babl/babl.h>

#include "image-io.h"

G_BEGIN_DECLS

typedef struct _GsColourTarget GsColourTarget;

/* The target of a conversion: "srgb" (any case) for the built-in sRGB
 * profile, else the path of an RGB ICC profile.  NULL with @error when
 * the file cannot be read or is no RGB output profile. */
GsColourTarget *gs_colour_target_new         (const char *spec,
                                              GError    **error);
void            gs_colour_target_free        (GsColourTarget *t);

/* The profile bytes the outputs embed. */
GBytes         *gs_colour_target_profile     (const GsColourTarget *t);
/* Its description, or NULL. */
const char     *gs_colour_target_description (const GsColourTarget *t);
/* The babl space of the target (NULL: sRGB, or a profile babl cannot
 * describe, such as a LUT profile). */
const Babl     *gs_colour_target_space       (const GsColourTarget *t);
gboolean        gs_colour_target_is_srgb     (const GsColourTarget *t);

/* TRUE when @profile (NULL: none) describes RGB, the only colour model
 * the batch command keeps or converts from. */
gboolean        gs_colour_profile_is_rgb     (GBytes *profile);

/* Converts @image's perceptual R'G'B'A float values, encoded for the
 * profile @source (NULL: sRGB), to @t's encoding, in place, and labels
 * the image with @t's space.  FALSE with @error when Little CMS cannot
 * use the profiles. */
gboolean        gs_colour_convert            (GsImage              *image,
                                              GBytes               *source,
                                              const GsColourTarget *t,
                                              GError              **error);

G_END_DECLS

#endif /* GS_COLOUR_CONVERT_H */
