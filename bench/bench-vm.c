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

typedef void (*CKernel) (const Image *img, int y0, int rows, const float *params);

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

static inline float
sat (float v)
{
  return v > 0.0f ? (v < 1.0f ? v : 1.0f) : 0.0f;
}

static void
c_point (const Image *img, int y0, int rows, const float *params)
{
  for (int y = y0; y < y0 + rows; y++)
    {
      const float *s = img->in + (size_t) y * img->w * 4;
      float *d = img->out + (size_t) y * img->w * 4;
      for (int x = 0; x < img->w * 4; x++)
        d[x] = sat (s[x] * 1.2f - 0.1f);
    }
}

static void
c_alu (const Image *img, int y0, int rows, const float *params)
{
  float amount = params[0], vig = params[1], contrast = params[2], gamma = params[3];
  for (int y = y0; y < y0 + rows; y++)
    for (int x = 0; x < img->w; x++)
      {
        const float *c = img->in + ((size_t) y * img->w + x) * 4;
        float *o = img->out + ((size_t) y * img->w + x) * 4;
        float sr = c[0] * 0.393f + c[1] * 0.769f + c[2] * 0.189f;
        float sg = c[0] * 0.349f + c[1] * 0.686f + c[2] * 0.168f;
        float sb = c[0] * 0.272f + c[1] * 0.534f + c[2] * 0.131f;
        float col[3] = { c[0] + (sr - c[0]) * amount, c[1] + (sg - c[1]) * amount,
                         c[2] + (sb - c[2]) * amount };
        float dx = ((float) x + 0.5f) / (float) img->w - 0.5f;
        float dy = ((float) y + 0.5f) / (float) img->h - 0.5f;
        float r = sqrtf (dx * dx + dy * dy) * 1.4142135f;
        float v = sat (1.0f - vig * r * r * (3.0f - 2.0f * r));
        for (int k = 0; k < 3; k++)
          col[k] *= v;
        float luma = col[0] * 0.2126f + col[1] * 0.7152f + col[2] * 0.0722f;
        for (int k = 0; k < 3; k++)
          {
            float t = (col[k] - luma) * 1.1f + luma;
            t = (t - 0.5f) * contrast + 0.5f;
            o[k] = powf (sat (t), gamma);
          }
        o[3] = c[3];
      }
}

static inline void
bilinear (const Image *img, float u, float v, float out[4])
{
  float tx = u * (float) img->w - 0.5f, ty = v * (float) img->h - 0.5f;
  float fx0 = floorf (tx), fy0 = floorf (ty);
  float fx = tx - fx0, fy = ty - fy0;
  int x0 = (int) fx0, y0 = (int) fy0;
  int xa = x0 < 0 ? 0 : (x0 >= img->w ? img->w - 1 : x0);
  int xb = x0 + 1 < 0 ? 0 : (x0 + 1 >= img->w ? img->w - 1 : x0 + 1);
  int ya = y0 < 0 ? 0 : (y0 >= img->h ? img->h - 1 : y0);
  int yb = y0 + 1 < 0 ? 0 : (y0 + 1 >= img->h ? img->h - 1 : y0 + 1);
  const float *p00 = img->in + ((size_t) ya * img->w + xa) * 4;
  const float *p10 = img->in + ((size_t) ya * img->w + xb) * 4;
  const float *p01 = img->in + ((size_t) yb * img->w + xa) * 4;
  const float *p11 = img->in + ((size_t) yb * img->w + xb) * 4;
  for (int k = 0; k < 4; k++)
    {
      float top = p00[k] + (p10[k] - p00[k]) * fx;
      float bot = p01[k] + (p11[k] - p01[k]) * fx;
      out[k] = top + (bot - top) * fy;
    }
}

static void
c_sample (const Image *img, int y0, int rows, const float *params)
{
  float strength = params[0];
  float ox = 1.5f / (float) img->w, oy = 1.5f / (float) img->h;
  for (int y = y0; y < y0 + rows; y++)
    for (int x = 0; x < img->w; x++)
      {
        float u = ((float) x + 0.5f) / (float) img->w, v = ((float) y + 0.5f) / (float) img->h;
        float ring[4] = { 0, 0, 0, 0 }, t[4], centre[4];
        for (int j = -1; j <= 1; j++)
          for (int i = -1; i <= 1; i++)
            {
              if (!i && !j)
                continue;
              bilinear (img, u + (float) i * ox, v + (float) j * oy, t);
              for (int k = 0; k < 4; k++)
                ring[k] += t[k];
            }
        bilinear (img, u, v, centre);
        float *o = img->out + ((size_t) y * img->w + x) * 4;
        for (int k = 0; k < 4; k++)
          o[k] = centre[k] * (1.0f + 8.0f * strength) - ring[k] * strength;
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
        job->kernel (job->img, y, rows, job->params);
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
  float *in = g_malloc (n * sizeof (float));
  float *out_vm = g_malloc (n * sizeof (float));
  float *out_c = g_malloc (n * sizeof (float));
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
  g_free (in);
  g_free (out_vm);
  g_free (out_c);
  return status;
}
