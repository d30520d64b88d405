/* tsan-glib-shim — tells ThreadSanitizer about GLib's locks.
 *
 * ThreadSanitizer learns that one thread's work happens before another's
 * from the calls it intercepts (pthread_mutex_*, pthread_create/join,
 * atomics in instrumented code).  GLib does not use those for its own
 * primitives: on Linux GMutex, GRecMutex's fast path, GCond and GOnce are
 * futexes and atomics inside libglib, which is not instrumented, so every
 * hand-off made through them (GEGL's worker pool waking a thread and
 * waiting for it, our own mutex-guarded caches in the GEGL module, the
 * CLI's merged diagnostics) is invisible, and TSan reports the data those
 * locks protect as races.  Suppressing them would need patterns that
 * match every frame of our module running on a GEGL worker, hiding real
 * races too; so this shim annotates instead.  Preloaded after the TSan
 * runtime (tools/sanitize.sh, pass 4), it wraps the GLib entry points and
 * reports each as the acquire or release it is:
 *
 *   lock, successful trylock, reader/writer lock  → acquire(lock)
 *   unlock                                         → release(lock)
 *   g_cond_signal/broadcast                        → release(cond)
 *   g_cond_wait/wait_until: release(mutex), wait, acquire(mutex),
 *                           acquire(cond)
 *   g_once_init_leave                              → release(location)
 *     (the fast path of g_once_init_enter is an atomic load in the
 *     caller, which TSan already sees as an acquire of the location)
 *   gegl_parallel_distribute, _range, _area: each piece after the call's
 *     start, the call's return after every piece (below)
 *   g_object_unref: release then acquire of the object, so that whatever
 *     a thread did with an object happens before its finalisation on the
 *     thread that drops the last reference (GObject counts references
 *     with atomics in uninstrumented code)
 *
 * Calls that GLib makes to itself inside libglib (GAsyncQueue's and
 * GThreadPool's own mutexes) do not pass through here; the project does
 * not use those, and GEGL's pool calls GMutex and GCond across the
 * library boundary, which does.  Thread creation and joining need nothing:
 * GThread sits on pthread_create and pthread_join, which TSan intercepts.
 *
 * The annotations are TSan's public interface (__tsan_acquire and
 * __tsan_release, from the runtime); they are weak so that the shim
 * loaded without the runtime (into the shell of a test script) only
 * forwards.  It must make no tail calls: tools/tsan.supp ignores the libc
 * calls made from inside GEGL, TSan judges that by the return address,
 * and a wrapper that jumped into GLib, which jumps on into pthread, would
 * leave GEGL's address there and hide the lock from TSan.  Build:
 *   cc -shared -fPIC -O2 -fno-optimize-sibling-calls \
 *      -o tsan-glib-shim.so tools/tsan-glib-shim.c -ldl
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

void __tsan_acquire (void *addr) __attribute__ ((weak));
void __tsan_release (void *addr) __attribute__ ((weak));

typedef int gboolean;
typedef int64_t gint64;
typedef uintptr_t gsize;
typedef struct GeglRectangle GeglRectangle;

static void
acquire (void *addr)
{
  if (__tsan_acquire)
    __tsan_acquire (addr);
}

static void
release (void *addr)
{
  if (__tsan_release)
    __tsan_release (addr);
}

/* The next definition of @name after this library: GLib's own.  A host
 * that loads GLib with dlopen (Python's gi module does, RTLD_LOCAL) keeps
 * it out of the global scope RTLD_NEXT searches, so look in the library
 * itself then. */
static void *
next (const char *name)
{
  static const char *const libs[] = {
    "libglib-2.0.so.0", "libgobject-2.0.so.0", "libgegl-0.4.so.0",
  };
  void *f = dlsym (RTLD_NEXT, name);

  for (unsigned i = 0; f == NULL && i < sizeof libs / sizeof libs[0]; i++)
    {
      void *lib = dlopen (libs[i], RTLD_NOW);
      if (lib != NULL)
        f = dlsym (lib, name);
    }
  if (f == NULL)
    {
      fprintf (stderr, "tsan-glib-shim: %s not found\n", name);
      abort ();
    }
  return f;
}

#define REAL(ret, name, params)                               \
  static ret (*real) params;                                  \
  if (real == NULL)                                           \
    real = (ret (*) params) next (name)

/* Lock-shaped calls: acquire after a successful lock, release before an
 * unlock. */
#define LOCK(name)                                            \
  void name (void *lock)                                      \
  {                                                           \
    REAL (void, #name, (void *));                             \
    real (lock);                                              \
    acquire (lock);                                           \
  }
#define TRYLOCK(name)                                         \
  gboolean name (void *lock)                                  \
  {                                                           \
    REAL (gboolean, #name, (void *));                         \
    gboolean ok = real (lock);                                \
    if (ok)                                                   \
      acquire (lock);                                         \
    return ok;                                                \
  }
#define UNLOCK(name)                                          \
  void name (void *lock)                                      \
  {                                                           \
    REAL (void, #name, (void *));                             \
    release (lock);                                           \
    real (lock);                                              \
  }

LOCK (g_mutex_lock)
TRYLOCK (g_mutex_trylock)
UNLOCK (g_mutex_unlock)
LOCK (g_rec_mutex_lock)
TRYLOCK (g_rec_mutex_trylock)
UNLOCK (g_rec_mutex_unlock)
LOCK (g_rw_lock_writer_lock)
TRYLOCK (g_rw_lock_writer_trylock)
UNLOCK (g_rw_lock_writer_unlock)
LOCK (g_rw_lock_reader_lock)
TRYLOCK (g_rw_lock_reader_trylock)
UNLOCK (g_rw_lock_reader_unlock)

void
g_cond_signal (void *cond)
{
  REAL (void, "g_cond_signal", (void *));
  release (cond);
  real (cond);
}

void
g_cond_broadcast (void *cond)
{
  REAL (void, "g_cond_broadcast", (void *));
  release (cond);
  real (cond);
}

void
g_cond_wait (void *cond, void *mutex)
{
  REAL (void, "g_cond_wait", (void *, void *));
  release (mutex);
  real (cond, mutex);
  acquire (mutex);
  acquire (cond);
}

gboolean
g_cond_wait_until (void *cond, void *mutex, gint64 end_time)
{
  REAL (gboolean, "g_cond_wait_until", (void *, void *, gint64));
  release (mutex);
  gboolean signalled = real (cond, mutex, end_time);
  acquire (mutex);
  acquire (cond);
  return signalled;
}

void
g_once_init_leave (volatile void *location, gsize result)
{
  REAL (void, "g_once_init_leave", (volatile void *, gsize));
  release ((void *) location);
  real (location, result);
}

gboolean
g_once_init_enter (volatile void *location)
{
  REAL (gboolean, "g_once_init_enter", (volatile void *));
  gboolean first = real (location);
  acquire ((void *) location);
  return first;
}

void
g_object_unref (void *object)
{
  REAL (void, "g_object_unref", (void *));
  release (object);
  acquire (object);
  real (object);
}

/* GEGL's worker pool: gegl_parallel_distribute*() call @func on several
 * threads and return when all are done, but the workers report that they
 * are done with atomics inside libgegl.  Each call gets two tokens: the
 * caller releases "start" before the pieces run and each piece acquires
 * it first; each piece releases "done" when it returns and the caller
 * acquires it on return.  So every piece happens after what the caller
 * did before and before what it does after, which is what GEGL
 * guarantees, while two pieces stay unordered (no piece acquires "done"),
 * so a race between pieces is still seen. */
typedef struct
{
  void  *func;
  void  *user_data;
  char   start, done;
} Distribute;

static void
distribute_trampoline (int i, int n, void *data)
{
  Distribute *d = data;
  acquire (&d->start);
  ((void (*) (int, int, void *)) d->func) (i, n, d->user_data);
  release (&d->done);
}

void
gegl_parallel_distribute (int max_n, void *func, void *user_data)
{
  REAL (void, "gegl_parallel_distribute", (int, void *, void *));
  Distribute d = { func, user_data, 0, 0 };
  release (&d.start);
  real (max_n, (void *) distribute_trampoline, &d);
  acquire (&d.done);
}

static void
range_trampoline (gsize offset, gsize size, void *data)
{
  Distribute *d = data;
  acquire (&d->start);
  ((void (*) (gsize, gsize, void *)) d->func) (offset, size, d->user_data);
  release (&d->done);
}

void
gegl_parallel_distribute_range (gsize size, double thread_cost, void *func,
                                void *user_data)
{
  REAL (void, "gegl_parallel_distribute_range", (gsize, double, void *, void *));
  Distribute d = { func, user_data, 0, 0 };
  release (&d.start);
  real (size, thread_cost, (void *) range_trampoline, &d);
  acquire (&d.done);
}

static void
area_trampoline (const GeglRectangle *area, void *data)
{
  Distribute *d = data;
  acquire (&d->start);
  ((void (*) (const GeglRectangle *, void *)) d->func) (area, d->user_data);
  release (&d->done);
}

void
gegl_parallel_distribute_area (const GeglRectangle *area, double thread_cost,
                               int split_strategy, void *func, void *user_data)
{
  REAL (void, "gegl_parallel_distribute_area",
        (const GeglRectangle *, double, int, void *, void *));
  Distribute d = { func, user_data, 0, 0 };
  release (&d.start);
  real (area, thread_cost, split_strategy, (void *) area_trampoline, &d);
  acquire (&d.done);
}
