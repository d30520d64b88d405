/* render — threaded rendering of a whole image, by a prepared binding
 * (one shader) or a prepared effect run (a technique's passes).
 *
 * The viewport is cut into bands of a few rows that workers claim from an
 * atomic counter, so a slow band (an expensive region of the shader) does
 * not leave the other threads idle; an effect that renders locally gets
 * taller bands, since each renders its earlier passes again over the
 * margin it reads.  Each worker owns an SlScratch and an
 * SlDiagnostics, as shaderlib requires; the prepared binding or run is
 * shared (an effect run renders its intermediate passes on the first
 * band's call, the others wait for them).  Every pixel is written by exactly one render call whatever
 * the thread count, so the result does not depend on -j.
 */
#include "config.h"

#include "render.h"

#define BAND_ROWS 16

/* One band of rows of the target, rendered by whatever the caller runs. */
typedef gboolean (*BandFunc) (gconstpointer  what,
                              SlScratch     *scratch,
                              int            y,
                              int            width,
                              int            rows,
                              SlTarget      *target,
                              SlDiagnostics *diags);

typedef struct
{
  BandFunc         render_band;
  gconstpointer    what;        /* the SlBinding or SlEffectRun */
  GsImage         *target;
  gint             next_band;   /* atomic */
  int              n_bands;
  int              band_rows;
} RenderJob;

typedef struct
{
  RenderJob     *job;
  SlDiagnostics *diags;
  gboolean       ok;
} Worker;

static gpointer
worker_run (gpointer data)
{
  Worker    *worker = data;
  RenderJob *job = worker->job;
  SlScratch *scratch = sl_scratch_new ();

  for (;;)
    {
      int      band = g_atomic_int_add (&job->next_band, 1);
      int      y, rows;
      SlTarget target;

      if (band >= job->n_bands)
        break;
      y = band * job->band_rows;
      rows = MIN (job->band_rows, job->target->height - y);
      target.row_stride = (size_t) job->target->width * 4;
      target.pixels = job->target->pixels + (size_t) y * target.row_stride;
      if (! job->render_band (job->what, scratch, y, job->target->width,
                              rows, &target, worker->diags))
        worker->ok = FALSE;
    }
  sl_scratch_free (scratch);
  return NULL;
}

static gboolean
binding_band (gconstpointer  what,
              SlScratch     *scratch,
              int            y,
              int            width,
              int            rows,
              SlTarget      *target,
              SlDiagnostics *diags)
{
  return sl_binding_render (what, scratch, 0, y, width, rows,
                            NULL, target, 1, diags);
}

/* sl_effect_render() takes a non-const run: its first call renders the
 * intermediate passes once while later bands wait for them. */
static gboolean
effect_band (gconstpointer  what,
             SlScratch     *scratch,
             int            y,
             int            width,
             int            rows,
             SlTarget      *target,
             SlDiagnostics *diags)
{
  return sl_effect_render ((SlEffectRun *) what, scratch, 0, y, width, rows,
                           NULL, target, diags);
}

static gboolean
same_diagnostic (const SlDiagnostic *a,
                 const SlDiagnostic *b)
{
  return a->severity == b->severity && a->line == b->line
         && a->column == b->column && g_strcmp0 (a->file, b->file) == 0
         && g_strcmp0 (a->code, b->code) == 0
         && g_strcmp0 (a->message, b->message) == 0;
}

/* SlDiagnostics has no merge call, so each entry is re-added field by
 * field; the message text goes through "%s" because it may contain '%'.
 * Every band reports a run-time limit it hits, so a message already
 * present is dropped: the user hears about each limit once. */
static void
merge_diagnostics (SlDiagnostics       *into,
                   const SlDiagnostics *from)
{
  int n = sl_diagnostics_count (from);

  for (int i = 0; i < n; i++)
    {
      const SlDiagnostic *d = sl_diagnostics_get (from, i);
      gboolean            seen = FALSE;

      for (int j = 0; j < sl_diagnostics_count (into) && !seen; j++)
        seen = same_diagnostic (d, sl_diagnostics_get (into, j));
      if (!seen)
        sl_diagnostics_add (into, d->severity, d->file, d->line, d->column,
                            d->code, "%s", d->message);
    }
}

static gboolean
render_bands (BandFunc       render_band,
              gconstpointer  what,
              GsImage       *target,
              int            band_rows,
              int            n_threads,
              SlDiagnostics *diags)
{
  RenderJob job;
  Worker   *workers;
  GThread **threads;
  gboolean  ok = TRUE;

  job.render_band = render_band;
  job.what = what;
  job.target = target;
  job.next_band = 0;
  job.band_rows = band_rows;
  job.n_bands = (target->height + band_rows - 1) / band_rows;
  n_threads = CLAMP (n_threads, 1, MAX (job.n_bands, 1));

  workers = g_new0 (Worker, n_threads);
  threads = g_new0 (GThread *, n_threads);
  for (int i = 0; i < n_threads; i++)
    {
      workers[i].job = &job;
      workers[i].diags = sl_diagnostics_new ();
      workers[i].ok = TRUE;
    }

  /* The calling thread is worker 0; if a thread cannot be created the
   * remaining workers simply claim more bands. */
  for (int i = 1; i < n_threads; i++)
    threads[i] = g_thread_try_new ("gs-render", worker_run, &workers[i], NULL);
  worker_run (&workers[0]);
  for (int i = 1; i < n_threads; i++)
    if (threads[i] != NULL)
      g_thread_join (threads[i]);

  for (int i = 0; i < n_threads; i++)
    {
      if (! workers[i].ok)
        ok = FALSE;
      merge_diagnostics (diags, workers[i].diags);
      sl_diagnostics_free (workers[i].diags);
    }
  g_free (workers);
  g_free (threads);
  return ok;
}

gboolean
gs_render_image (const SlBinding *binding,
                 GsImage         *target,
                 int              n_threads,
                 SlDiagnostics   *diags)
{
  return render_bands (binding_band, binding, target, BAND_ROWS, n_threads, diags);
}

gboolean
gs_render_effect (SlEffectRun   *run,
                  GsImage       *target,
                  int            n_threads,
                  SlDiagnostics *diags)
{
  int x, y, w, h, rows = BAND_ROWS;

  /* A band of an effect that renders locally reads (and renders the
   * passes before the last over) rows above and below it: four times
   * that margin, and some 64K pixels, keep the repeated work small. */
  if (sl_effect_run_get_input_rect (run, 0, target->height / 2, target->width,
                                    BAND_ROWS, &x, &y, &w, &h))
    {
      rows = MAX (rows, 4 * (h - BAND_ROWS));
      rows = MAX (rows, 65536 / MAX (target->width, 1));
      rows = MIN (rows + (rows & 1), MAX (target->height, 1));
    }
  return render_bands (effect_band, run, target, rows, n_threads, diags);
}
