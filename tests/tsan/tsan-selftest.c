/* tsan-selftest — shows that the ThreadSanitizer pass sees what it must.
 *
 * tools/sanitize.sh's pass 4 runs the threaded tests under TSan with
 * tools/tsan-glib-shim.so preloaded and tools/tsan.supp, which teach it
 * GLib's and GEGL's hand-offs.  Annotations that said too much would hide
 * real races, too little would report false ones; this program checks
 * both ways by running itself in child processes, one case each:
 *
 *   race         two GThreads bump one counter with no lock: reported
 *   mutex        the same under a GMutex: clean (GMutex is a futex TSan
 *                cannot see; the shim tells it)
 *   cond         a result handed over through GMutex + GCond: clean
 *   pieces-race  gegl_parallel_distribute pieces all write one variable:
 *                reported (pieces stay unordered among themselves)
 *   pieces       each piece writes its own slot, the caller reads them
 *                all after the call: clean (GEGL's completion is atomics
 *                inside libgegl; the shim tells TSan)
 *
 * "Reported" means the child exits with TSan's exit code 66 and printed a
 * data race; "clean" means exit 0.  Only built with -Db_sanitize=thread.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <gegl.h>

static int     counter;
static GMutex  lock;
static GCond   cond;
static int     ready, result;
static int     slots[64];

static gpointer
bump (gpointer locked)
{
  for (int i = 0; i < 1000; i++)
    {
      if (locked)
        g_mutex_lock (&lock);
      counter++;
      if (locked)
        g_mutex_unlock (&lock);
    }
  return NULL;
}

static gpointer
produce (gpointer unused)
{
  (void) unused;
  result = 42;
  g_mutex_lock (&lock);
  ready = 1;
  g_cond_signal (&cond);
  g_mutex_unlock (&lock);
  return NULL;
}

static void
piece_shared (gint i, gint n, gpointer data)
{
  (void) n;
  (void) data;
  g_usleep (2000);
  counter += i + 1;
}

static void
piece_own (gint i, gint n, gpointer data)
{
  (void) n;
  (void) data;
  slots[i] = i + 1;
}

static int
run_case (const char *name)
{
  if (!strcmp (name, "race") || !strcmp (name, "mutex"))
    {
      gpointer  locked = GINT_TO_POINTER (!strcmp (name, "mutex"));
      GThread  *a = g_thread_new ("a", bump, locked);
      GThread  *b = g_thread_new ("b", bump, locked);
      g_thread_join (a);
      g_thread_join (b);
      return counter > 0 ? 0 : 1;
    }
  if (!strcmp (name, "cond"))
    {
      GThread *t = g_thread_new ("p", produce, NULL);
      g_mutex_lock (&lock);
      while (!ready)
        g_cond_wait (&cond, &lock);
      g_mutex_unlock (&lock);
      int r = result;
      g_thread_join (t);
      return r == 42 ? 0 : 1;
    }
  gegl_init (NULL, NULL);
  g_object_set (gegl_config (), "threads", 4, NULL);
  if (!strcmp (name, "pieces-race"))
    {
      gegl_parallel_distribute (4, piece_shared, NULL);
      return 0;
    }
  if (!strcmp (name, "pieces"))
    {
      int sum = 0;
      gegl_parallel_distribute (4, piece_own, NULL);
      for (int i = 0; i < 4; i++)
        sum += slots[i];
      return sum > 0 ? 0 : 1;
    }
  fprintf (stderr, "unknown case %s\n", name);
  return 2;
}

int
main (int argc, char **argv)
{
  static const struct { const char *name; gboolean race; } cases[] = {
    { "race", TRUE }, { "mutex", FALSE }, { "cond", FALSE },
    { "pieces-race", TRUE }, { "pieces", FALSE },
  };
  int failures = 0;

  if (argc == 2)
    return run_case (argv[1]);
  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      gchar  *child_argv[] = { argv[0], (gchar *) cases[i].name, NULL };
      gchar  *err = NULL;
      gint    status = 0;
      GError *error = NULL;

      if (!g_spawn_sync (NULL, child_argv, NULL, G_SPAWN_DEFAULT, NULL, NULL,
                         NULL, &err, &status, &error))
        {
          printf ("not ok: %s: %s\n", cases[i].name, error->message);
          g_error_free (error);
          failures++;
          continue;
        }
      gint     code = WIFEXITED (status) ? WEXITSTATUS (status) : -1;
      gboolean reported = strstr (err, "ThreadSanitizer: data race") != NULL;
      gboolean ok = cases[i].race ? code == 66 && reported : code == 0 && !reported;
      printf ("%s: %s: exit %d, %s\n", ok ? "ok" : "not ok", cases[i].name,
              code, reported ? "race reported" : "no report");
      if (!ok)
        {
          fputs (err, stdout);
          failures++;
        }
      g_free (err);
    }
  return failures ? 1 : 0;
}
