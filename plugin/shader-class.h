/* The class data of a per-file op (shader:<stem>), shared by the three
 * files that make those ops: shader-registry.c reads a shader file into a
 * ShaderClassData and registers its type, shader-props.c plans and
 * installs its properties, shader-ops.c keeps the instances and renders.
 * Private to the module. */
#ifndef GS_SHADER_CLASS_H
#define GS_SHADER_CLASS_H

#include <gegl.h>
#include <gegl-plugin.h>

#include "shaderlib.h"
#include "draw.h"
#include "host-values.h"

#define MAX_PADS          GS_MAX_PADS
#define MAX_FILE_TEXTURES 8
#define N_LEVELS          GS_N_LEVELS

typedef enum
{
  PROP_KIND_DOUBLE,
  PROP_KIND_INT,
  PROP_KIND_BOOL,
  PROP_KIND_VEC,       /* float2: two doubles, -x and -y */
  PROP_KIND_COLOR,
  PROP_KIND_CHOICE,
  PROP_KIND_SEED
} PropKind;

typedef enum
{
  VEC_PLAIN,
  VEC_POSITION,        /* pixels ↔ texcoord: x / width */
  VEC_DISTANCE         /* pixels ↔ texcoord scale */
} VecUnit;

typedef struct
{
  gchar    *param;        /* name in the shader */
  PropKind  kind;
  VecUnit   unit;
  gint      n_components; /* of the shader parameter */
  guint     prop_id;      /* first property */
  guint     n_props;      /* 2 for VEC */
} PropDesc;

/* A sampler whose texture names an image file: a file-path property
 * instead of a pad. */
typedef struct
{
  gint       slot;
  gchar     *texture;       /* the texture's name in the shader */
  gchar     *default_path;  /* the file next to the shader */
  guint      prop_id;
} FileTexture;

typedef struct
{
  gchar       *op_name;
  gchar       *type_name;
  gchar       *path;
  gchar       *title;
  gchar       *description;
  gchar       *categories;
  gchar       *menu_path;
  gchar       *menu_label;
  gchar       *license;
  gboolean     linear;
  gboolean     gpl;          /* GPL (not LGPL) licence */
  SlMetadata  *metadata;
  SlProgram   *program;      /* NULL when the shader does not compile */
  gchar       *diagnostics;  /* formatted, paths relative to the shader's
                              * folder; "" when clean */
  gint         n_pads;       /* image inputs: 1..3 */
  gint         pad_slot[MAX_PADS];
  GArray      *props;        /* PropDesc */
  guint        n_props;      /* installed property ids 1..n_props */
  guint        prop_error;
  guint        prop_has_errors;
  guint        prop_linear;
  guint        prop_seed;    /* 0 when none */
  GArray      *file_textures; /* FileTexture */
  gint         warned;       /* atomic: failure reported once */
} ShaderClassData;

/* shader-props.c */

/* Decides the pads, the image-file textures, the properties and the host
 * values of a compiled shader (data->program may be NULL). */
void              gs_shader_plan               (ShaderClassData *data);
/* Installs the planned properties on the op's class. */
void              gs_shader_install_properties (GObjectClass    *object_class,
                                                ShaderClassData *data);
/* A text of the shader file translated through the module's domain. */
const gchar      *gs_shader_tr                 (const gchar     *text);
gboolean          gs_ascii_contains_ci         (const gchar     *haystack,
                                                const gchar     *needle);

/* shader-ops.c */

/* The quark under which a type keeps its ShaderClassData and an instance
 * its state. */
GQuark            gs_shader_op_quark           (void);
/* Sets the vfuncs of a new op class. */
void              gs_shader_op_class_init      (GObjectClass    *object_class,
                                                ShaderClassData *data);
void              gs_shader_op_instance_init   (GTypeInstance   *instance,
                                                gpointer         g_class);

#endif
