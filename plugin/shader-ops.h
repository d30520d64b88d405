/* Registration of the per-file shader operations (shader-registry.c). */
#ifndef GEGL_SHADERS_SHADER_OPS_H
#define GEGL_SHADERS_SHADER_OPS_H

#include <glib-object.h>
#include <gegl-plugin.h>

/* Registers one operation shader:<stem> per shader file found in the
 * filter folders; returns how many it registered. */
guint gs_shader_ops_register (GTypeModule *module);

#endif
