/* Registration of the per-file shader operations (shader-ops.c). */
#ifndef GEGL_SHADERS_SHADER_OPS_H
#define GEGL_SHADERS_SHADER_OPS_H

#include <glib-object.h>
#include <gegl-plugin.h>

/* Registers one operation shader:<stem> per shader file found in the
 * filter folders; returns how many it registered. */
guint gs_shader_ops_register (GTypeModule *module);

/* Lets GEGL cache the node's output only when @whole_input (the shader
 * may read anywhere, so it renders in one go); see shader-ops.c. */
void  gs_operation_set_caching (GeglOperation *operation,
                                gboolean       whole_input);

#endif
