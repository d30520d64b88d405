/* memory-budget — the one memory budget per render the hosts give the
 * library, and how a user sets it.  See memory-budget.c. */
#ifndef GS_MEMORY_BUDGET_H
#define GS_MEMORY_BUDGET_H

#include <glib.h>

#include "shaderlib.h"

G_BEGIN_DECLS

/* The environment variable every host reads (the CLI's --memory-budget
 * overrides it). */
#define GS_MEMORY_BUDGET_ENV "GEGL_SHADERS_MEMORY_BUDGET"

/* Parses a size: a positive whole number of bytes with an optional
 * binary multiple K, M, G or T (case-insensitive, optionally followed by
 * "iB" or "B"): "512M", "2GiB", "1073741824".  FALSE when @text is not
 * one. */
gboolean gs_memory_budget_parse (const gchar *text,
                                 gsize       *bytes);

/* The budget from GS_MEMORY_BUDGET_ENV, or the library's default
 * (SL_EFFECT_DEFAULT_MEMORY_BUDGET) when it is unset.  A value that does
 * not parse gives the default and FALSE, so a host can say so. */
gboolean gs_memory_budget_from_env (gsize *bytes);

/* The bytes of a @width×@height float RGBA image, saturating. */
gsize    gs_image_bytes         (gint64 width,
                                 gint64 height);

/* Adds @bytes (a whole input the host reads for @run) to what the host
 * holds for the run, and checks the run's budget again: FALSE, with the
 * library's located error in @diags, when it no longer fits. */
gboolean gs_effect_run_hold     (SlEffectRun   *run,
                                 gsize          bytes,
                                 SlDiagnostics *diags);

/* @bytes for a message: whole MiB rounded up (KiB below one MiB). */
gchar   *gs_format_bytes        (gsize bytes);

G_END_DECLS

#endif
