/* Registration of the effect-file operations (effect-ops.c). */
#ifndef GEGL_SHADERS_EFFECT_OPS_H
#define GEGL_SHADERS_EFFECT_OPS_H

#include <glib-object.h>

#include "shaderlib.h"

/* When @path is an effect file (it has techniques), registers its ops —
 * shader:<stem> for one technique, shader:<stem>-<technique> for each of
 * several — and returns how many; 0 when it is not an effect file. */
guint gs_effect_ops_claim (GTypeModule *module,
                           const gchar *path,
                           const gchar *stem);

/* From shader-props.c, for effect files with a filter header: the
 * property a per-file op gives a scalar float or int uniform or a colour
 * (NULL for other uniforms), and a text of the file translated through
 * the module's domain. */
GParamSpec  *gs_shader_uniform_spec (SlMetadata    *metadata,
                                     const SlParam *param,
                                     const gchar   *name,
                                     GParamFlags    flags);
const gchar *gs_shader_tr           (const gchar   *text);

#endif
