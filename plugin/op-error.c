/* The "error" property of every op of the module: shader:run
 * (shader-run.c), the per-file ops (shader-ops.c) and the effect ops
 * (effect-ops.c) each keep their error text themselves; what the text
 * means to the people who read it is decided here, once.
 *
 * Dialogs.  GIMP builds an op's dialog from its GParamSpecs and copies a
 * property from the node into the dialog only when the node emits notify
 * for it.  The ops learn of an error inside prepare() or process(), and a
 * notify there would go wrong twice: the node's notify handler asks for
 * the bounding box, which prepares the node again from inside its own
 * preparation, and process() runs on GEGL's worker threads while GIMP's
 * widgets live on the main thread.  So a change is notified later, from
 * an idle callback of the main loop, once however often the text changed
 * in between; the callback holds only a weak reference, so an op that is
 * gone by then is simply skipped.  The notify invalidates the node, and
 * the ops publish an unchanged text without a new notify, so the
 * re-render it causes ends there.  A program without a main loop (the
 * gegl tool) reads the property after processing and needs no notify.
 *
 * The box.  GIMP shows a string property with the ui-meta "error" as a
 * message box with its own icon, whether the text is empty or not; its
 * "visible" key (GIMP's ui-meta expressions, the same in 2.10 and 3)
 * takes a boolean property, so every op has "has-errors", TRUE exactly
 * when "error" is not empty, hidden itself by visible = "0".
 *
 * The text.  Paths inside the filter folder are written relative to it,
 * and long lines are broken at spaces, so that a diagnostic fits the
 * dialog's width: GIMP 3's message box clips a wrapping label to the
 * lines it guessed it needs (a run-time error replacing a compile error
 * showed one line of two), and GIMP 2.10's grows as wide as the longest
 * line.  The log gets the unbroken text.
 *
 * The log.  An error is written to the log once per op and text, and not
 * at all while something listens to the node's notify::error: GIMP's
 * dialog does, and shows the error in place, so typing into Shader
 * source prints nothing.  The gegl tool and batch scripts do not listen,
 * so their users still get each error on stderr once.
 */
#include "config.h"

#include "op-error.h"

#include <string.h>
#include <glib/gi18n-lib.h>

/* Distinct texts logged per op before the op stops remembering them:
 * bounds the memory of an op that fails differently forever. */
#define MAX_LOGGED 64

typedef struct
{
  GHashTable *logged;      /* texts already written to the log */
  gboolean    pending;     /* a notify is scheduled */
} ErrorState;

static GMutex lock;

static GQuark
state_quark (void)
{
  static GQuark quark;

  if (! quark)
    quark = g_quark_from_static_string ("gegl-shaders-error-state");
  return quark;
}

static void
state_free (gpointer p)
{
  ErrorState *state = p;

  if (state->logged)
    g_hash_table_unref (state->logged);
  g_free (state);
}

/* Called with the lock held. */
static ErrorState *
state_of (GObject *object)
{
  ErrorState *state = g_object_get_qdata (object, state_quark ());

  if (! state)
    {
      state = g_new0 (ErrorState, 1);
      g_object_set_qdata_full (object, state_quark (), state, state_free);
    }
  return state;
}

void
gs_error_install (GObjectClass *object_class,
                  guint         error_id,
                  guint         has_errors_id,
                  const gchar  *default_text)
{
  GParamFlags  flags = G_PARAM_READWRITE | GEGL_PARAM_PAD_INPUT;
  GParamSpec  *pspec;
  gchar       *shown = gs_error_wrap (default_text);

  pspec = g_param_spec_string ("error", _("Errors"),
                               _("Diagnostics of the shader's compilation "
                                 "and run; empty while it compiles and "
                                 "runs"),
                               shown, flags);
  g_free (shown);
  gegl_param_spec_set_property_key (pspec, "error", "true");
  gegl_param_spec_set_property_key (pspec, "visible", GS_ERROR_VISIBLE);
  g_object_class_install_property (object_class, error_id, pspec);

  pspec = g_param_spec_boolean ("has-errors", _("Has errors"),
                                _("TRUE while \"error\" is not empty"),
                                default_text && default_text[0], flags);
  gegl_param_spec_set_property_key (pspec, "visible", GS_HAS_ERRORS_VISIBLE);
  g_object_class_install_property (object_class, has_errors_id, pspec);
}

gchar *
gs_error_shorten (const gchar *text,
                  const gchar *folder)
{
  GString     *out;
  gchar       *prefix;
  gsize        n;
  const gchar *p;
  const gchar *hit;

  if (! text)
    return g_strdup ("");
  /* "/" and "." would shorten nothing worth it and may mangle text. */
  if (! folder || ! folder[0] || strcmp (folder, "/") == 0 ||
      strcmp (folder, ".") == 0)
    return g_strdup (text);

  prefix = g_str_has_suffix (folder, G_DIR_SEPARATOR_S)
           ? g_strdup (folder) : g_strconcat (folder, G_DIR_SEPARATOR_S, NULL);
  n   = strlen (prefix);
  out = g_string_new (NULL);
  for (p = text; (hit = strstr (p, prefix)); p = hit + n)
    g_string_append_len (out, p, hit - p);
  g_string_append (out, p);
  g_free (prefix);
  return g_string_free (out, FALSE);
}

/* Appends @line (no newline in it) broken into pieces of at most
 * GS_ERROR_COLUMNS characters at spaces; a word longer than that stays
 * whole. */
static void
wrap_line (GString     *out,
           const gchar *line,
           gsize        length)
{
  const gchar *end   = line + length;
  const gchar *start = line;
  glong        limit = GS_ERROR_COLUMNS;

  while (start < end)
    {
      const gchar *p     = start;
      const gchar *brk   = NULL;
      glong        count = 0;

      while (p < end && count < limit)
        {
          if (*p == ' ')
            brk = p;
          p = g_utf8_next_char (p);
          count++;
        }
      if (p >= end)
        brk = end;
      else if (*p == ' ')
        brk = p;
      else if (! brk || brk == start)
        {
          /* One long word: keep it whole, break after it. */
          while (p < end && *p != ' ')
            p = g_utf8_next_char (p);
          brk = p;
        }
      g_string_append_len (out, start, brk - start);
      start = brk;
      while (start < end && *start == ' ')
        start++;
      if (start < end)
        {
          g_string_append (out, "\n  ");
          limit = GS_ERROR_COLUMNS - 2;
        }
    }
}

gchar *
gs_error_wrap (const gchar *text)
{
  GString     *out = g_string_new (NULL);
  const gchar *line;

  for (line = text ? text : ""; *line; )
    {
      const gchar *nl = strchr (line, '\n');
      gsize        n  = nl ? (gsize) (nl - line) : strlen (line);

      wrap_line (out, line, n);
      if (! nl)
        break;
      g_string_append_c (out, '\n');
      line = nl + 1;
    }
  return g_string_free (out, FALSE);
}

gboolean
gs_error_nobody_listens (GeglOperation *operation)
{
  GeglNode *node = operation->node;
  guint     id   = g_signal_lookup ("notify", G_TYPE_OBJECT);
  GQuark    detail = g_quark_try_string ("error");

  return ! node || ! detail ||
         ! g_signal_has_handler_pending (node, id, detail, TRUE);
}

typedef struct
{
  GWeakRef ref;
} Pending;

static void
pending_free (gpointer p)
{
  Pending *pending = p;

  g_weak_ref_clear (&pending->ref);
  g_free (pending);
}

static gboolean
emit_notify (gpointer p)
{
  Pending *pending = p;
  GObject *object  = g_weak_ref_get (&pending->ref);

  if (! object)
    return G_SOURCE_REMOVE;

  g_mutex_lock (&lock);
  state_of (object)->pending = FALSE;
  g_mutex_unlock (&lock);

  g_object_freeze_notify (object);
  g_object_notify (object, "error");
  g_object_notify (object, "has-errors");
  g_object_thaw_notify (object);
  g_object_unref (object);
  return G_SOURCE_REMOVE;
}

void
gs_error_changed (GeglOperation *operation,
                  const gchar   *name,
                  const gchar   *text)
{
  GObject    *object   = G_OBJECT (operation);
  gboolean    schedule = FALSE;
  gboolean    log      = FALSE;
  ErrorState *state;

  g_mutex_lock (&lock);
  state = state_of (object);
  if (! state->pending)
    state->pending = schedule = TRUE;
  if (text && text[0] && gs_error_nobody_listens (operation))
    {
      if (! state->logged)
        state->logged = g_hash_table_new_full (g_str_hash, g_str_equal,
                                               g_free, NULL);
      if (g_hash_table_size (state->logged) >= MAX_LOGGED)
        g_hash_table_remove_all (state->logged);
      log = g_hash_table_add (state->logged, g_strdup (text));
    }
  g_mutex_unlock (&lock);

  if (schedule)
    {
      Pending *pending = g_new0 (Pending, 1);

      g_weak_ref_init (&pending->ref, object);
      g_idle_add_full (G_PRIORITY_DEFAULT_IDLE, emit_notify, pending,
                       pending_free);
    }
  if (log)
    g_warning ("%s: %s", name, text);
}

void
gs_error_publish (GeglOperation *operation,
                  GValue        *value,
                  const gchar   *name,
                  const gchar   *text)
{
  gchar *shown = gs_error_wrap (text);

  if (g_strcmp0 (g_value_get_string (value), shown) != 0)
    {
      g_value_take_string (value, shown);
      shown = NULL;
      gs_error_changed (operation, name, text);
    }
  g_free (shown);
}
