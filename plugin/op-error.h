/* The "error" property of every op of the module, as its users see it:
 * the text, the "has-errors" flag GIMP hides the empty box by, when a
 * dialog hears of a change, and what reaches the log.  See op-error.c. */
#ifndef GS_OP_ERROR_H
#define GS_OP_ERROR_H

#include <gegl.h>
#include <gegl-plugin.h>

/* The ui-meta of the two properties: GIMP (2.10 and 3) shows the error
 * box only while "has-errors" is TRUE and never shows "has-errors"
 * itself. */
#define GS_ERROR_VISIBLE       "has-errors"
#define GS_HAS_ERRORS_VISIBLE  "0"

/* Installs "error" (default @default_text, wrapped) as @error_id and "has-errors"
 * as @has_errors_id on a class that is not a chant op (shader:run
 * declares its own in its chant block). */
void      gs_error_install       (GObjectClass  *object_class,
                                  guint          error_id,
                                  guint          has_errors_id,
                                  const gchar   *default_text);

/* @text as the dialog shows it: every path inside @folder (the filter
 * folder, or the folder of the file the op runs) relative to it, so that
 * a diagnostic fits the dialog's width.  Newly allocated. */
gchar    *gs_error_shorten       (const gchar   *text,
                                  const gchar   *folder);

/* Diagnostics wrap in the dialog at this many characters. */
#define GS_ERROR_COLUMNS 36

/* @text as the "error" property holds it: lines longer than
 * GS_ERROR_COLUMNS broken at spaces, each continuation indented by two
 * spaces.  GIMP's error box (GTK 3) clips a label whose own wrapping it
 * has to guess at; lines that already fit are shown whole, in 2.10 and
 * 3.0 alike.  Newly allocated. */
gchar    *gs_error_wrap          (const gchar   *text);

/* Call after the op's error text changed to @text (from any thread, with
 * or without the op's lock held).  Schedules the notify of "error" and
 * "has-errors" on the main loop: emitting it here could be inside the
 * op's own prepare(), which the node's notify handler would re-enter.
 * @text is the unwrapped text (the property holds gs_error_wrap() of it).
 * Logs @text once as "@name: @text" unless it is empty, this op has
 * logged it before, or something listens to the node's "error" (GIMP's
 * dialog, which shows it). */
void      gs_error_changed       (GeglOperation *operation,
                                  const gchar   *name,
                                  const gchar   *text);

/* Stores gs_error_wrap() of @text in @value (the op's "error" property
 * value) and calls gs_error_changed() when that changed it.  For the ops
 * that keep their properties as GValues. */
void      gs_error_publish       (GeglOperation *operation,
                                  GValue        *value,
                                  const gchar   *name,
                                  const gchar   *text);

/* Whether a warning about @operation would reach nobody but the log:
 * FALSE while a handler is connected to its node's notify::error. */
gboolean  gs_error_nobody_listens (GeglOperation *operation);

#endif
