/* bench-vm — the span VM against hand-written scalar C, in one process.
 *
 * Three reference shaders (point, alu, sample; see *.hlsl here) render a
 * SIZE×SIZE RGBA float image with 1 and 2 threads, and each is followed by
 * the same computation written as plain scalar C and compiled with the
 * project's own flags, so both figures come from the same machine state.
 * Work is cut into bands of rows that threads claim from a counter, the
 * way the CLI renders.  Every figure is the best of a few runs (the first
 * run also pays for page faults of fresh output memory).  The C result is
 * compared with the VM's, so a benchmark that computes the wrong thing
 * fails instead of reporting a fast number.  Like any host it sees the
 * public header alone; SL_VM_LEVEL=0/2/3 in the environment measures a
 * lower instruction-set level (sl_vm_level_name() reports which ran). */
#include "shaderlib.h"

#include <glib.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define BAND_ROWS 16

typedef struct
{
  int          w, h;
  const float *in;
  float       *out;
} Image;

typedef void (*CKernel) (const float *restrict in, float *restrict out, int w, int h,
                         int y0, int rows, const float *params);

typedef struct
{
  const Image     *img;
  const SlBinding *binding;    /* NULL: run the C kernel */
  CKernel          kernel;
  const float     *params;
  gint             next;       /* atomic band counter */
  int              n_bands;
} Job;

/* ---- scalar C references -------------------------------------------- */

/* Written the way a C programmer would write the shader by hand, and the
 * way ../shared/perf/native.c writes its anchors: restrict parameters, one pixel per iteration, the helper of each inner
 * loop inlined.  No intrinsics and no hand vectorisation, so the compiler
 * does with them what it does with ordinary code at the project's -O2. */

static inline float
sat (float v)
{
  return v < 0.0f ? 0.0f : (v > 1.0f ? 1.0f : v);
}

static void
c_point (const float *restrict in, float *restrict out, int w, int h, int y0, int rows,
         const float *params)
{
  size_t a = (size_t) y0 * w * 4, b = (size_t) (y0 + rows) * w * 4;
  for (size_t i = a; i < b; i++)
    out[i] = sat (in[i] * 1.2f - 0.1f);
}

static void
c_alu (const float *restrict in, float *restrict out, int w, int h, int y0, int rows,
       const float *params)
{
  const float amount = params[0], vig = params[1], contrast = params[2], gamma = params[3];
  const float inv_w = 1.0f / (float) w, inv_h = 1.0f / (float) h;
  for (int y = y0; y < y0 + rows; y++)
    {
      float dy = ((float) y + 0.5f) * inv_h - 0.5f;
      for (int x = 0; x < w; x++)
        {
          const float *c = in + ((size_t) y * w + x) * 4;
          float *o = out + ((size_t) y * w + x) * 4;
          float sr = c[0] * 0.393f + c[1] * 0.769f + c[2] * 0.189f;
          float sg = c[0] * 0.349f + c[1] * 0.686f + c[2] * 0.168f;
          float sb = c[0] * 0.272f + c[1] * 0.534f + c[2] * 0.131f;
          float r = c[0] + (sr - c[0]) * amount;
          float g = c[1] + (sg - c[1]) * amount;
          float bl = c[2] + (sb - c[2]) * amount;
          float dx = ((float) x + 0.5f) * inv_w - 0.5f;
          float d = sqrtf (dx * dx + dy * dy) * 1.4142135f;
          float v = sat (1.0f - vig * d * d * (3.0f - 2.0f * d));
          r *= v;
          g *= v;
          bl *= v;
          float luma = r * 0.2126f + g * 0.7152f + bl * 0.0722f;
          r = ((r - luma) * 1.1f + luma - 0.5f) * contrast + 0.5f;
          g = ((g - luma) * 1.1f + luma - 0.5f) * contrast + 0.5f;
          bl = ((bl - luma) * 1.1f + luma - 0.5f) * contrast + 0.5f;
          o[0] = powf (sat (r), gamma);
          o[1] = powf (sat (g), gamma);
          o[2] = powf (sat (bl), gamma);
          o[3] = c[3];
        }
    }
}

/* Bilinear, texel centres at i + 0.5, clamped to the edge; (px, py) in
 * texels. */
static inline void
bilinear (const float *restrict in, int w, int h, float px, float py, float o[4])
{
  float fx = px - 0.5f, fy = py - 0.5f;
  float x0f = floorf (fx), y0f = floorf (fy);
  float ax = fx - x0f, ay = fy - y0f;
  int x0 = (int) x0f, y0 = (int) y0f, x1 = x0 + 1, y1 = y0 + 1;
  x0 = x0 < 0 ? 0 : (x0 > w - 1 ? w - 1 : x0);
  x1 = x1 < 0 ? 0 : (x1 > w - 1 ? w - 1 : x1);
  y0 = y0 < 0 ? 0 : (y0 > h - 1 ? h - 1 : y0);
  y1 = y1 < 0 ? 0 : (y1 > h - 1 ? h - 1 : y1);
  const float *p00 = in + ((size_t) y0 * w + x0) * 4, *p01 = in + ((size_t) y0 * w + x1) * 4;
  const float *p10 = in + ((size_t) y1 * w + x0) * 4, *p11 = in + ((size_t) y1 * w + x1) * 4;
  for (int k = 0; k < 4; k++)
    {
      float top = p00[k] + (p01[k] - p00[k]) * ax;
      float bot = p10[k] + (p11[k] - p10[k]) * ax;
      o[k] = top + (bot - top) * ay;
    }
}

static void
c_sample (const float *restrict in, float *restrict out, int w, int h, int y0, int rows,
          const float *params)
{
  const float strength = params[0];
  for (int y = y0; y < y0 + rows; y++)
    for (int x = 0; x < w; x++)
      {
        float acc[4] = { 0, 0, 0, 0 }, t[4];
        for (int j = -1; j <= 1; j++)
          for (int i = -1; i <= 1; i++)
            {
              float wgt = i || j ? -strength : 1.0f + 8.0f * strength;
              bilinear (in, w, h, (float) x + 0.5f + (float) i * 1.5f,
                        (float) y + 0.5f + (float) j * 1.5f, t);
              for (int k = 0; k < 4; k++)
                acc[k] += wgt * t[k];
            }
        float *o = out + ((size_t) y * w + x) * 4;
        for (int k = 0; k < 4; k++)
          o[k] = acc[k];
      }
}

/* ---- running -------------------------------------------------------- */

static gpointer
worker (gpointer data)
{
  Job *job = data;
  SlScratch *scratch = job->binding ? sl_scratch_new () : NULL;
  SlDiagnostics *diags = sl_diagnostics_new ();
  SlTexture tex;
  sl_texture_init_2d (&tex, job->img->w, job->img->h, (size_t) job->img->w * 4, job->img->in);
  const SlTexture *texs[SL_MAX_SLOTS] = { &tex };
  for (;;)
    {
      int band = g_atomic_int_add (&job->next, 1);
      if (band >= job->n_bands)
        break;
      int y = band * BAND_ROWS, rows = MIN (BAND_ROWS, job->img->h - y);
      if (job->binding)
        {
          SlTarget t = { job->img->out + (size_t) y * job->img->w * 4, (size_t) job->img->w * 4 };
          sl_binding_render (job->binding, scratch, 0, y, job->img->w, rows, texs, &t, 1, diags);
        }
      else
        job->kernel (job->img->in, job->img->out, job->img->w, job->img->h, y, rows,
                     job->params);
    }
  sl_diagnostics_free (diags);
  sl_scratch_free (scratch);
  return NULL;
}

static double
cpu_seconds (void)
{
  struct timespec ts;
  clock_gettime (CLOCK_PROCESS_CPUTIME_ID, &ts);
  return ts.tv_sec + ts.tv_nsec / 1e9;
}

/* Best wall time of @reps runs, in seconds; *cpu gets the process CPU
 * time of that run divided by the thread count, which stays meaningful
 * when other processes compete for the cores. */
static double
time_job (const Image *img, const SlBinding *binding, CKernel kernel, const float *params,
          int n_threads, int reps, double *cpu)
{
  double best = 1e30;
  *cpu = 1e30;
  for (int r = 0; r < reps; r++)
    {
      Job job = { img, binding, kernel, params, 0, (img->h + BAND_ROWS - 1) / BAND_ROWS };
      GThread *th[64];
      gint64 t0 = g_get_monotonic_time ();
      double c0 = cpu_seconds ();
      for (int i = 1; i < n_threads; i++)
        th[i] = g_thread_new ("bench", worker, &job);
      worker (&job);
      for (int i = 1; i < n_threads; i++)
        g_thread_join (th[i]);
      double dt = (g_get_monotonic_time () - t0) / 1e6;
      best = MIN (best, dt);
      *cpu = MIN (*cpu, (cpu_seconds () - c0) / n_threads);
    }
  return best;
}

static SlBinding *
load (const char *dir, const char *name, int w, int h)
{
  char *path = g_build_filename (dir, name, NULL), *src = NULL;
  gsize len;
  if (!g_file_get_contents (path, &src, &len, NULL))
    {
      fprintf (stderr, "bench-vm: cannot read %s\n", path);
      exit (2);
    }
  SlDiagnostics *diags = sl_diagnostics_new ();
  SlCompileOptions opt = { .source = src, .length = len, .filename = path };
  SlProgram *p = sl_compile (&opt, diags);
  SlBinding *b = p ? sl_binding_new (p) : NULL;
  if (b)
    {
      sl_binding_set_viewport (b, w, h);
      if (sl_program_find_param (p, "texel"))
        {
          float t[2] = { 1.0f / (float) w, 1.0f / (float) h };
          sl_binding_set_param (b, "texel", t, 2, diags);
        }
    }
  if (!b || !sl_binding_prepare (b, diags))
    {
      char *s = sl_diagnostics_format (diags);
      fprintf (stderr, "bench-vm: %s: %s\n", path, s);
      exit (1);
    }
  sl_program_unref (p);
  sl_diagnostics_free (diags);
  g_free (src);
  g_free (path);
  return b;
}

static float *
image_alloc (size_t n_floats)
{
  void *p = NULL;
  if (posix_memalign (&p, 64, n_floats * sizeof (float)) != 0)
    {
      fprintf (stderr, "bench-vm: out of memory\n");
      exit (2);
    }
  return p;
}

int
main (int argc, char **argv)
{
  const char *dir = argc > 1 ? argv[1] : BENCH_DIR;
  int size = argc > 2 ? atoi (argv[2]) : 4096;
  int reps = argc > 3 ? atoi (argv[3]) : 3;
  const char *only = argc > 4 ? argv[4] : NULL;
  if (size < 16 || size > 16384 || reps < 1)
    {
      fprintf (stderr, "usage: bench-vm [SHADER_DIR [SIZE [REPS [SHADER]]]]\n");
      return 2;
    }
  size_t n = (size_t) size * size * 4;
  /* Cache-line aligned, as a tile allocator hands them out (malloc's
   * large blocks start 16 bytes into a page, which splits every vector
   * load of the C loops across two lines). */
  float *in = image_alloc (n), *out_vm = image_alloc (n), *out_c = image_alloc (n);
  /* A smooth pattern plus hash noise: values in [0, 1], no NaN. */
  for (int y = 0; y < size; y++)
    for (int x = 0; x < size; x++)
      for (int k = 0; k < 4; k++)
        {
          uint32_t hsh = (uint32_t) (x * 73856093u) ^ (uint32_t) (y * 19349663u) ^ (uint32_t) (k * 83492791u);
          hsh = hsh * 2654435761u;
          in[((size_t) y * size + x) * 4 + k]
            = 0.5f + 0.3f * sinf ((float) (x + 3 * k) * 0.01f) * cosf ((float) y * 0.013f)
              + 0.2f * ((float) (hsh >> 8) / 16777216.0f - 0.5f);
        }
  memset (out_vm, 0, n * sizeof (float));
  memset (out_c, 0, n * sizeof (float));

  static const float alu_params[4] = { 0.8f, 0.6f, 1.25f, 0.8f };
  static const float sample_params[1] = { 0.4f };
  struct { const char *name, *file; CKernel kernel; const float *params; float tol; } cases[] = {
    { "point", "point.hlsl", c_point, NULL, 0.0f },
    /* pow is an approximation in the VM (see scalar_ops.h). */
    { "alu", "alu.hlsl", c_alu, alu_params, 2e-5f },
    /* Different but equivalent bilinear formulas round differently. */
    { "sample", "sample.hlsl", c_sample, sample_params, 2e-5f },
  };

  printf ("%dx%d RGBA float, best of %d runs, VM code: %s\n", size, size, reps,
          sl_vm_level_name ());
  printf ("Mpix/s from wall time; in brackets from CPU time per thread (robust\n"
          "when other processes share the cores).  ratio = VM / scalar C.\n");
  printf ("%-7s %3s %17s %17s %13s %8s\n", "shader", "thr", "VM", "scalar C", "ratio", "VM 2T/1T");
  double mpix = (double) size * size / 1e6;
  int status = 0;
  for (guint c = 0; c < G_N_ELEMENTS (cases); c++)
    {
      if (only && strcmp (only, cases[c].name))
        continue;
      SlBinding *b = load (dir, cases[c].file, size, size);
      Image img_vm = { size, size, in, out_vm }, img_c = { size, size, in, out_c };
      double vm1 = 0;
      for (int t = 1; t <= 2; t++)
        {
          double cv, cc;
          double tv = time_job (&img_vm, b, NULL, NULL, t, reps, &cv);
          double tc = time_job (&img_c, NULL, cases[c].kernel, cases[c].params, t, reps, &cc);
          double rv = mpix / tv, rc = mpix / tc;
          if (t == 1)
            vm1 = rv;
          printf ("%-7s %3d %7.1f (%7.1f) %7.1f (%7.1f) %5.2f (%5.2f)", cases[c].name, t,
                  rv, mpix / cv, rc, mpix / cc, rv / rc, cc / cv);
          if (t == 2)
            printf (" %8.2f", rv / vm1);
          printf ("\n");
          fflush (stdout);
        }
      float maxd = 0.0f;
      for (size_t i = 0; i < n; i++)
        maxd = MAX (maxd, fabsf (out_vm[i] - out_c[i]));
      if (!(maxd <= cases[c].tol))
        {
          fprintf (stderr, "bench-vm: %s: VM and C differ by %g (tolerance %g)\n",
                   cases[c].name, maxd, cases[c].tol);
          status = 1;
        }
      sl_binding_free (b);
    }
  free (in);
  free (out_vm);
  free (out_c);
  return status;
}
