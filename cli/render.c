/* render — threaded rendering of an image band by band, by a prepared
 * binding (one shader) or a prepared effect run (a technique's passes).
 *
 * The viewport is cut into bands of rows that workers claim from an
 * atomic counter, so a slow band (an expensive region of the shader) does
 * not leave the other threads idle.  Each band is read, rendered and
 * written on its own: where the program's reads are bounded, a band reads
 * its rows of the input plus the margin the reads reach (one texel more,
 * for bilinear filtering's second tap), as the GEGL ops do, into a
 * buffer of its worker's that is handed to the program as a windowed
 * texture; the result goes from the worker's buffer into the target.  So
 * the CLI's input and result can stay tiled, in GEGL's tile cache, and
 * nothing the size of the image is allocated.  A band is tall enough that
 * the re-read margin stays a small part of it.  Reads that cannot be
 * bounded (data-dependent coordinates, an effect that does not render
 * locally, an input of another size than the viewport) need the whole
 * input: it is read once, within the render's memory budget.
 *
 * Each worker owns an SlScratch and an SlDiagnostics, as shaderlib
 * requires; the prepared binding or run is shared (an effect run that
 * does not render locally renders its intermediate passes on the first
 * band's call, the others wait for them).  Every pixel is written by
 * exactly one render call whatever the thread count, and a band's pixels
 * do not depend on how the image was cut (local effects are bit-exact
 * against whole targets), so the result does not depend on -j.
 */
#include "config.h"

#include "render.h"

#include <string.h>
#include <glib/gi18n.h>

#include "memory-budget.h"

#define BAND_ROWS 16
/* 64K pixels: 1 MiB of float RGBA in and out per worker. */
#define BAND_PIXELS 65536
/* What a band's rows may take at most when the reads reach far. */
#define BAND_BYTES ((gsize) 32 << 20)

typedef struct
{
  const GsRenderJob *job;
  GsImage           *target;
  int                width, height;   /* the viewport */
  /* Bands read their part of the input (the reach is known). */
  gboolean           banded;
  int                reach_left, reach_top, reach_right, reach_bottom;
  /* Otherwise the whole input, or NULL without one. */
  const SlTexture   *whole;
  const float       *whole_pixels;
  int                whole_width, whole_height;
  gint               next_band;   /* atomic */
  int                n_bands;
  int                band_rows;
} RenderJob;

typedef struct
{
  RenderJob     *job;
  SlDiagnostics *diags;
  gboolean       ok;
} Worker;

static void
out_of_memory (const RenderJob *job,
               SlDiagnostics   *diags,
               int              width,
               int              height)
{
  sl_diagnostics_add (diags, SL_SEVERITY_ERROR, job->job->name, 0, 0,
                      SL_CODE_HOST_OUT_OF_MEMORY, _("out of memory for a %d×%d band"),
                      width, height);
}

/* The part of the input band (0, @y, width, @rows) reads, within the
 * image. */
static void
fetch_rect (const RenderJob *job,
            int              y,
            int              rows,
            int             *fx,
            int             *fy,
            int             *fw,
            int             *fh)
{
  int x0 = -job->reach_left - 1, y0 = y - job->reach_top - 1;
  int x1 = job->width + job->reach_right + 1, y1 = y + rows + job->reach_bottom + 1;
  int ix, iy, iw, ih;

  /* An effect names each band's own part: its passes may read targets
   * of other sizes, whose texels do not line up with the image's. */
  if (job->job->run != NULL
      && sl_effect_run_get_input_rect (job->job->run, 0, y, job->width, rows,
                                       &ix, &iy, &iw, &ih))
    {
      x0 = ix - 1;
      y0 = iy - 1;
      x1 = ix + iw + 1;
      y1 = iy + ih + 1;
    }
  x0 = MAX (x0, 0);
  y0 = MAX (y0, 0);
  x1 = MIN (x1, job->width);
  y1 = MIN (y1, job->height);
  *fx = x0;
  *fy = y0;
  *fw = MAX (x1 - x0, 1);
  *fh = MAX (y1 - y0, 1);
}

static gboolean
render_band (RenderJob     *job,
             SlScratch     *scratch,
             GsBandBuffer  *in,
             GsBandBuffer  *out,
             int            y,
             int            rows,
             SlDiagnostics *diags)
{
  const GsRenderJob *spec = job->job;
  const int          width = job->width;
  SlTexture          band_texture;
  const SlTexture   *input = job->whole;
  const SlTexture   *textures[SL_MAX_SLOTS];
  const float       *source = job->whole_pixels;   /* the input's rows */
  int                src_x = 0, src_y = 0, src_w = job->whole_width, src_h = job->whole_height;
  float             *dst;
  SlTarget           target;
  gboolean           ok;

  if (job->banded)
    {
      fetch_rect (job, y, rows, &src_x, &src_y, &src_w, &src_h);
      if (! gs_band_buffer_reserve (in, (gsize) src_w * src_h))
        {
          out_of_memory (job, diags, src_w, src_h);
          return FALSE;
        }
      gs_image_read (spec->input, src_x, src_y, src_w, src_h, spec->format, in->pixels);
      sl_texture_init_2d (&band_texture, width, job->height, (gsize) src_w * 4, in->pixels);
      band_texture.window_x = src_x;
      band_texture.window_y = src_y;
      band_texture.window_width = src_w;
      band_texture.window_height = src_h;
      input = &band_texture;
      source = in->pixels;
    }

  if (job->target->pixels != NULL)
    dst = job->target->pixels + (gsize) y * width * 4;
  else if ((dst = gs_band_buffer_reserve (out, (gsize) width * rows)) == NULL)
    {
      out_of_memory (job, diags, width, rows);
      return FALSE;
    }
  /* A discarded pixel keeps what the band held: the input where there is
   * one (and the caller wants it), else zero.  An effect fills the band
   * with its back buffer itself; a program that writes every pixel whole
   * needs nothing. */
  if (spec->run == NULL
      && ! (spec->binding != NULL && sl_binding_writes_every_pixel (spec->binding)))
    for (int r = 0; r < rows; r++)
      {
        float *row = dst + (gsize) r * width * 4;
        int    sy = y + r - src_y, n = 0;

        if (spec->prefill && source != NULL && sy >= 0 && sy < src_h)
          {
            n = MIN (width, src_x + src_w);
            memcpy (row, source + (gsize) sy * src_w * 4, (gsize) n * 4 * sizeof (float));
          }
        if (job->target->pixels == NULL || n > 0)
          memset (row + (gsize) n * 4, 0, (gsize) (width - n) * 4 * sizeof (float));
      }

  for (int slot = 0; slot < SL_MAX_SLOTS; slot++)
    textures[slot] = spec->textures[slot] ? spec->textures[slot] : input;
  target.pixels = dst;
  target.row_stride = (gsize) width * 4;
  if (spec->run != NULL)
    ok = sl_effect_render (spec->run, scratch, 0, y, width, rows, input, &target, diags);
  else
    ok = sl_binding_render (spec->binding, scratch, 0, y, width, rows,
                            textures, &target, 1, diags);
  if (job->target->pixels == NULL)
    gs_image_write_rect (job->target, 0, y, width, rows, spec->format, dst);
  return ok;
}

static gpointer
worker_run (gpointer data)
{
  Worker    *worker = data;
  RenderJob *job = worker->job;
  SlScratch *scratch = sl_scratch_new ();
  GsBandBuffer in = { NULL, 0 }, out = { NULL, 0 };

  for (;;)
    {
      int band = g_atomic_int_add (&job->next_band, 1);
      int y, rows;

      if (band >= job->n_bands)
        break;
      y = band * job->band_rows;
      rows = MIN (job->band_rows, job->height - y);
      if (! render_band (job, scratch, &in, &out, y, rows, worker->diags))
        worker->ok = FALSE;
    }
  g_free (in.pixels);
  g_free (out.pixels);
  sl_scratch_free (scratch);
  return NULL;
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

/* How far the program reads around a pixel, when it can tell. */
static gboolean
measure_reach (const GsRenderJob *spec,
               RenderJob         *job)
{
  int x, y, w, h;

  if (spec->binding != NULL)
    return sl_binding_get_sample_reach (spec->binding, &job->reach_left, &job->reach_top,
                                        &job->reach_right, &job->reach_bottom);
  /* An effect's margins vary a little with where a rectangle lies when
   * its passes read targets of other sizes; the band height only needs
   * an idea of them (each band asks for its own part). */
  if (! sl_effect_run_get_input_rect (spec->run, 0, job->height / 2, job->width, BAND_ROWS,
                                      &x, &y, &w, &h))
    return FALSE;
  job->reach_left = job->reach_right = MAX (0, (w - job->width) / 2);
  job->reach_top = MAX (0, job->height / 2 - y);
  job->reach_bottom = MAX (0, y + h - job->height / 2 - BAND_ROWS);
  return TRUE;
}

/* Reads the whole input for reads that cannot be bounded, within the
 * budget; an effect run takes it as its input.  FALSE (with the
 * diagnostic) when it does not fit. */
static gboolean
hold_whole_input (const GsRenderJob *spec,
                  GsImage          **whole,
                  SlTexture         *texture,
                  SlDiagnostics     *diags)
{
  const GsImage *input = spec->input;
  gsize          bytes = gs_image_bytes (input->width, input->height);
  gsize          left = spec->budget - MIN (spec->held, spec->budget);
  GError        *error = NULL;

  if (input->pixels == NULL)
    {
      if (spec->run != NULL)
        {
          /* The library counts its own buffers on top of the copy. */
          if (! gs_effect_run_hold (spec->run, bytes, diags))
            return FALSE;
        }
      else if (bytes > left)
        {
          char *need = gs_format_bytes (bytes), *have = gs_format_bytes (left);

          sl_diagnostics_add (diags, SL_SEVERITY_ERROR, spec->name, 0, 0,
                              SL_CODE_HOST_MEMORY_BUDGET,
                              _("the shader's reads cannot be bounded, so it needs its whole "
                                "%d×%d input: %s, over what the memory budget leaves, %s "
                                "(--memory-budget, %s)"),
                              input->width, input->height, need, have,
                              GS_MEMORY_BUDGET_ENV);
          g_free (need);
          g_free (have);
          return FALSE;
        }
      *whole = gs_image_to_whole (input, spec->format, G_MAXSIZE, &error);
      if (*whole == NULL)
        {
          sl_diagnostics_add (diags, SL_SEVERITY_ERROR, spec->name, 0, 0,
                              SL_CODE_HOST_OUT_OF_MEMORY, "%s", error->message);
          g_error_free (error);
          return FALSE;
        }
      input = *whole;
    }
  sl_texture_init_2d (texture, input->width, input->height, (gsize) input->width * 4,
                      input->pixels);
  if (spec->run != NULL)
    sl_effect_run_set_input (spec->run, texture);
  return TRUE;
}

/* What a worker holds for a band of @rows: the input's rows with their
 * margin and, for a tiled target, the band of the result. */
static gsize
worker_bytes (const RenderJob *job,
              int              rows)
{
  int   fx, fy, fw, fh;
  gsize bytes;

  fetch_rect (job, job->height / 2, MIN (rows, job->height - job->height / 2),
              &fx, &fy, &fw, &fh);
  bytes = gs_image_bytes (fw, MAX (fh, MIN (job->height,
                                            rows + job->reach_top + job->reach_bottom + 2)));
  if (job->target->pixels == NULL)
    bytes += gs_image_bytes (job->width, rows);
  return bytes;
}

/* Bands as tall as the budget leaves room for, down to a 2×2 quad's
 * rows (more of the margin is read again), and as many workers as fit
 * (at least one, else the render is refused, naming the figures). */
static gboolean
fit_band_buffers (RenderJob     *job,
                  int           *n_threads,
                  SlDiagnostics *diags)
{
  const GsRenderJob *spec = job->job;
  gsize              left = spec->budget - MIN (spec->held, spec->budget);
  gsize              per_worker = worker_bytes (job, job->band_rows);

  while (per_worker > left && job->band_rows > 2)
    {
      job->band_rows = MAX (2, (job->band_rows / 2) & ~1);
      per_worker = worker_bytes (job, job->band_rows);
    }
  if (per_worker > left)
    {
      char *need = gs_format_bytes (per_worker), *have = gs_format_bytes (left);

      sl_diagnostics_add (diags, SL_SEVERITY_ERROR, spec->name, 0, 0,
                          SL_CODE_HOST_MEMORY_BUDGET,
                          _("a band of %d rows and the %d rows its reads reach around it "
                            "need %s, over what the memory budget leaves, %s "
                            "(--memory-budget, %s)"),
                          job->band_rows, job->reach_top + job->reach_bottom, need, have,
                          GS_MEMORY_BUDGET_ENV);
      g_free (need);
      g_free (have);
      return FALSE;
    }
  *n_threads = (int) MIN ((gsize) *n_threads, left / per_worker);
  return TRUE;
}

gboolean
gs_render (const GsRenderJob *spec,
           GsImage           *target,
           SlDiagnostics     *diags)
{
  RenderJob  job;
  Worker    *workers;
  GThread  **threads;
  GsImage   *whole = NULL;
  SlTexture  whole_texture;
  gboolean   ok = TRUE;
  int        n_threads;

  memset (&job, 0, sizeof job);
  job.job = spec;
  job.target = target;
  job.width = target->width;
  job.height = target->height;
  job.band_rows = BAND_ROWS;
  if (measure_reach (spec, &job))
    {
      int margin = job.reach_top + job.reach_bottom + 2;

      /* The re-read margin (of the input, and of an effect's earlier
       * passes) stays a small part of each band, as long as a band's
       * buffers stay within BAND_BYTES: a reach of hundreds of rows
       * would otherwise make bands of thousands. */
      job.band_rows = MAX (job.band_rows, 4 * margin);
      job.band_rows = MIN (job.band_rows, MAX (BAND_ROWS, (int) (BAND_BYTES / 16 / 2
                                                                 / MAX (job.width, 1))));
      job.band_rows = MAX (job.band_rows, BAND_PIXELS / MAX (job.width, 1));
      /* Bands read their part of a tiled input that lines up with the
       * viewport (a whole input is its own band buffer); a binding's
       * reach is in texels of slot 0, which must be the input's. */
      job.banded = spec->input != NULL && spec->input->pixels == NULL
                   && spec->input->width == job.width && spec->input->height == job.height
                   && (spec->binding == NULL || spec->textures[0] == NULL
                       || (spec->textures[0]->levels[0].width == job.width
                           && spec->textures[0]->levels[0].height == job.height));
    }
  if (! job.banded && spec->input != NULL)
    {
      if (! hold_whole_input (spec, &whole, &whole_texture, diags))
        return FALSE;
      job.whole = &whole_texture;
      job.whole_pixels = whole_texture.levels[0].texels;
      job.whole_width = whole_texture.levels[0].width;
      job.whole_height = whole_texture.levels[0].height;
    }
  /* Even heights keep the VM's 2×2 quads whole. */
  job.band_rows = MIN (job.band_rows + (job.band_rows & 1), MAX (job.height, 1));
  n_threads = MAX (spec->n_threads, 1);
  if (job.banded && ! fit_band_buffers (&job, &n_threads, diags))
    {
      gs_image_free (whole);
      return FALSE;
    }
  job.n_bands = (job.height + job.band_rows - 1) / job.band_rows;
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
  gs_image_free (whole);
  return ok;
}
