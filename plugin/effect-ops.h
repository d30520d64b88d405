/* Registration of the effect-file operations (effect-ops.c). */
#ifndef GEGL_SHADERS_EFFECT_OPS_H
#define GEGL_SHADERS_EFFECT_OPS_H

#include <glib-object.h>

/* When @path is an effect file (it has techniques), registers its ops —
 * shader:<stem> for one technique, shader:<stem>-<technique> for each of
 * several — and returns how many; 0 when it is not an effect file. */
guint gs_effect_ops_claim (GTypeModule *module,
                           const gchar *path,
                           const gchar *stem);

#endif
