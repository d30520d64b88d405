/* Measures the maximum error, in ulps, of shaderlib's vectorisable
 * transcendental approximations (scalar_ops.h) against double-precision
 * libm over every float of each documented range (a stride keeps the run
 * short), prints the figures and fails if any exceeds the bound that
 * scalar_ops.h documents.  Also checks the special values, and that the
 * short forms the span VM takes for ordinary arguments give the general
 * functions' bits. */
#include "vm/scalar_ops.h"

#include <glib.h>
#include <math.h>
#include <stdio.h>

/* Error of @got against @want in units of the last place of @want as a
 * float (subnormal spacing below FLT_MIN). */
static double
ulps (float got, double want)
{
  if (isnan (want))
    return isnan (got) ? 0.0 : 1e30;
  if (isinf (want) || isinf (got))
    return (double) got == want ? 0.0 : 1e30;
  double aw = fabs (want);
  int e;
  frexp (aw, &e);                 /* aw = f * 2^e, f in [0.5, 1) */
  double ulp = ldexp (1.0, (e - 1) - 23);
  if (ulp < ldexp (1.0, -149))
    ulp = ldexp (1.0, -149);
  return fabs ((double) got - want) / ulp;
}

typedef float (*Fn1) (float);

static void
visit (Fn1 f, double (*ref) (double), float xf, double abs_floor, double *worst, float *worst_x)
{
  double want = ref ((double) xf);
  float got = f (xf);
  double u = ulps (got, want);
  /* Where the result is tiny (log near 1) an absolute bound applies. */
  if (abs_floor > 0.0 && fabs (want) < abs_floor && fabs ((double) got - want) <= 0x1p-24)
    u = 0.0;
  if (u > *worst)
    {
      *worst = u;
      *worst_x = xf;
    }
}

/* Visits every @stride-th float bit pattern in [lo, hi). */
static double
measure (const char *name, Fn1 f, double (*ref) (double), float lo, float hi, uint32_t stride,
         double abs_floor)
{
  double worst = 0.0;
  float worst_x = lo;
  if (lo < 0.0f)
    for (uint32_t b = sl_f2u (lo); b > 0x80000000u; b = b > stride ? b - stride : 0)
      visit (f, ref, sl_u2f (b), abs_floor, &worst, &worst_x);
  for (uint32_t b = lo > 0.0f ? sl_f2u (lo) : 0; b < sl_f2u (hi); b += stride)
    visit (f, ref, sl_u2f (b), abs_floor, &worst, &worst_x);
  printf ("%-9s [%g, %g): max %.2f ulp at %a\n", name, lo, hi, worst, worst_x);
  return worst;
}

static float pow_b;
static float pow_of (float a) { return sl_scalar_POW (a, pow_b); }
static double ref_pow (double a) { return pow (a, (double) pow_b); }
static double ref_exp2 (double a) { return exp2 (a); }
static double ref_log2 (double a) { return log2 (a); }
static double ref_exp (double a) { return exp (a); }
static double ref_log (double a) { return log (a); }
static float atan2_x;
static float atan2_of (float a) { return sl_scalar_ATAN2 (a, atan2_x); }
static double ref_atan2 (double a) { return atan2 (a, (double) atan2_x); }

/* The short forms of exp2, log2 and pow (scalar_ops.h) must give the
 * bits of the general functions wherever the VM takes them: every 97th
 * float of their ranges, and pow over bases of every binade, zero and
 * exponents of both signs.  Returns the number of mismatches. */
static int
check_ordinary (void)
{
  int bad = 0;
  for (uint32_t u = 0; u <= sl_f2u (SL_APPROX_EXP2_ORDINARY); u += 97)
    for (int sign = 0; sign < 2; sign++)
      {
        float x = sl_u2f (u | (sign ? 0x80000000u : 0));
        if (sl_f2u (sl_approx_exp2_ordinary (x)) != sl_f2u (sl_scalar_EXP2 (x)) && bad++ < 5)
          printf ("FAIL: exp2 short form at %a\n", x);
      }
  for (uint32_t u = 0x00800000u; u < 0x7f800000u; u += 97)
    {
      float a = sl_u2f (u);
      bool same = sl_f2u (sl_approx_log2_ordinary (a)) == sl_f2u (sl_scalar_LOG2 (a));
      if ((!sl_approx_is_ordinary (a) || !same) && bad++ < 5)
        printf ("FAIL: log2 short form at %a\n", a);
    }
  static const float bs[] = { 0.45f, 0.8f, 1.0f / 2.2f, 2.2f, 3.0f, 64.0f, -1.5f, -0.0f, 0.0f, 1e-30f };
  for (guint i = 0; i < G_N_ELEMENTS (bs); i++)
    for (uint32_t u = 0; u < 0x7f800000u; u += 4099)
      {
        float a = sl_u2f (u), b = bs[i];
        float x = b * sl_approx_log2_ordinary (a);
        bool zero = a == 0.0f && b > 0.0f;
        if (!zero && !(sl_approx_is_ordinary (a) && fabsf (x) <= SL_APPROX_EXP2_ORDINARY))
          continue;
        float got = zero ? 0.0f : sl_approx_exp2_ordinary (x);
        if (sl_f2u (got) != sl_f2u (sl_scalar_POW (a, b)) && bad++ < 5)
          printf ("FAIL: pow short form at %a^%a\n", a, b);
      }
  /* Special cases stay outside the short forms. */
  static const float odd[] = { -1.0f, -0.0f, 0x1p-140f, INFINITY, NAN };
  for (guint i = 0; i < G_N_ELEMENTS (odd); i++)
    if (sl_approx_is_ordinary (odd[i]) && bad++ < 5)
      printf ("FAIL: %a counted as ordinary\n", odd[i]);
  return bad;
}

int
main (void)
{
  int fails = 0;
#define CHECK(cond) do { if (!(cond)) { printf ("FAIL: %s\n", #cond); fails++; } } while (0)
  CHECK (measure ("exp2", sl_scalar_EXP2, ref_exp2, -126.0f, 128.0f, 37, 0) <= 1.5);
  CHECK (measure ("exp", sl_scalar_EXP, ref_exp, -87.0f, 88.0f, 37, 0) <= 1.5);
  CHECK (measure ("log2", sl_scalar_LOG2, ref_log2, 0x1p-149f, 3e38f, 37, 1.0) <= 2.5);
  CHECK (measure ("log", sl_scalar_LOG, ref_log, 0x1p-149f, 3e38f, 37, 1.0) <= 2.5);
  /* pow: the error grows with |log2 of the result| (the product b*log2 a
   * is rounded before exp2), as on GPUs. */
  static const float bs[] = { 0.45f, 0.8f, 2.2f, 3.0f, -1.5f };
  for (guint i = 0; i < G_N_ELEMENTS (bs); i++)
    {
      pow_b = bs[i];
      char name[32];
      g_snprintf (name, sizeof name, "pow^%g", bs[i]);
      /* bases keep the result within 2^±20 */
      float hi = powf (2.0f, 20.0f / fabsf (bs[i]));
      double bound = 2.0 + 1.25 * 20.0;
      CHECK (measure (name, pow_of, ref_pow, 1.0f / hi, hi, 101, 0) <= bound);
    }

  /* Trigonometric and hyperbolic functions: double-precision internals,
   * so about half an ulp; the bound leaves room for the reduction. */
  CHECK (measure ("sin", sl_scalar_SIN, sin, -65536.0f, 65536.0f, 211, 0) <= 1.0);
  CHECK (measure ("cos", sl_scalar_COS, cos, -65536.0f, 65536.0f, 211, 0) <= 1.0);
  CHECK (measure ("tan", sl_scalar_TAN, tan, -65536.0f, 65536.0f, 211, 0) <= 1.0);
  CHECK (measure ("sin", sl_scalar_SIN, sin, 65536.0f, 1.6e6f, 41, 0) <= 1.0);
  CHECK (measure ("asin", sl_scalar_ASIN, asin, -1.0f, 1.0f, 101, 0) <= 1.0);
  CHECK (measure ("acos", sl_scalar_ACOS, acos, -1.0f, 1.0f, 101, 0) <= 1.0);
  CHECK (measure ("atan", sl_scalar_ATAN, atan, -3e38f, 3e38f, 211, 0) <= 1.0);
  CHECK (measure ("sinh", sl_scalar_SINH, sinh, -89.0f, 89.0f, 101, 0) <= 2.5);
  CHECK (measure ("cosh", sl_scalar_COSH, cosh, -89.0f, 89.0f, 101, 0) <= 2.5);
  CHECK (measure ("tanh", sl_scalar_TANH, tanh, -20.0f, 20.0f, 101, 0) <= 2.5);
  static const float xs[] = { 1.0f, -1.0f, 0.001f, -250.0f, 3e30f };
  for (guint i = 0; i < G_N_ELEMENTS (xs); i++)
    {
      atan2_x = xs[i];
      char name[32];
      g_snprintf (name, sizeof name, "atan2(.,%g)", xs[i]);
      CHECK (measure (name, atan2_of, ref_atan2, -3e38f, 3e38f, 1001, 0) <= 1.0);
    }

  /* Special values. */
  CHECK (signbit (sl_scalar_SIN (-0.0f)) && sl_scalar_SIN (-0.0f) == 0.0f);
  CHECK (signbit (sl_scalar_TAN (-0.0f)));
  CHECK (sl_scalar_COS (0.0f) == 1.0f);
  CHECK (isnan (sl_scalar_SIN (INFINITY)) && isnan (sl_scalar_COS (-INFINITY)));
  CHECK (isnan (sl_scalar_SIN (NAN)) && isnan (sl_scalar_TAN (INFINITY)));
  CHECK (sl_scalar_SIN (1e-30f) == 1e-30f);
  CHECK (sl_scalar_ASIN (1.0f) == (float) (M_PI / 2) && sl_scalar_ASIN (-1.0f) == (float) (-M_PI / 2));
  CHECK (sl_scalar_ACOS (1.0f) == 0.0f && sl_scalar_ACOS (-1.0f) == (float) M_PI);
  CHECK (isnan (sl_scalar_ASIN (1.5f)) && isnan (sl_scalar_ACOS (-1.5f)));
  CHECK (sl_scalar_ATAN (INFINITY) == (float) (M_PI / 2));
  CHECK (sl_scalar_ATAN2 (0.0f, -0.0f) == (float) M_PI);
  CHECK (signbit (sl_scalar_ATAN2 (-0.0f, 1.0f)));
  CHECK (sl_scalar_ATAN2 (-0.0f, -1.0f) == (float) -M_PI);
  CHECK (sl_scalar_ATAN2 (INFINITY, -INFINITY) == (float) (3 * M_PI / 4));
  CHECK (sl_scalar_ATAN2 (1.0f, 0.0f) == (float) (M_PI / 2));
  CHECK (isnan (sl_scalar_ATAN2 (NAN, 1.0f)) && isnan (sl_scalar_ATAN2 (1.0f, NAN)));
  CHECK (sl_scalar_SINH (100.0f) == INFINITY && sl_scalar_COSH (-100.0f) == INFINITY);
  CHECK (sl_scalar_TANH (30.0f) == 1.0f && sl_scalar_TANH (-30.0f) == -1.0f);
  CHECK (sl_scalar_COSH (0.0f) == 1.0f && sl_scalar_SINH (0.0f) == 0.0f);
  CHECK (signbit (sl_scalar_SINH (-0.0f)) && signbit (sl_scalar_TANH (-0.0f)));

  CHECK (sl_scalar_EXP2 (-INFINITY) == 0.0f);
  CHECK (sl_scalar_EXP2 (INFINITY) == INFINITY);
  CHECK (sl_scalar_EXP2 (200.0f) == INFINITY);
  CHECK (sl_scalar_EXP2 (-200.0f) == 0.0f);
  CHECK (isnan (sl_scalar_EXP2 (NAN)));
  CHECK (sl_scalar_EXP2 (0.0f) == 1.0f);
  CHECK (sl_scalar_EXP2 (10.0f) == 1024.0f);
  CHECK (sl_scalar_EXP2 (-149.0f) == 0x1p-149f);
  CHECK (sl_scalar_EXP (0.0f) == 1.0f);
  CHECK (sl_scalar_EXP (-INFINITY) == 0.0f);
  CHECK (sl_scalar_EXP (100.0f) == INFINITY);
  CHECK (sl_scalar_LOG2 (0.0f) == -INFINITY);
  CHECK (sl_scalar_LOG2 (-0.0f) == -INFINITY);
  CHECK (isnan (sl_scalar_LOG2 (-1.0f)));
  CHECK (isnan (sl_scalar_LOG2 (NAN)));
  CHECK (sl_scalar_LOG2 (INFINITY) == INFINITY);
  CHECK (sl_scalar_LOG2 (1.0f) == 0.0f);
  CHECK (sl_scalar_LOG2 (8.0f) == 3.0f);
  CHECK (sl_scalar_LOG2 (0x1p-149f) == -149.0f);
  CHECK (sl_scalar_LOG (1.0f) == 0.0f);
  CHECK (sl_scalar_LOG (0.0f) == -INFINITY);
  CHECK (sl_scalar_POW (2.0f, 3.0f) == 8.0f);
  CHECK (sl_scalar_POW (4.0f, 0.5f) == 2.0f);
  CHECK (sl_scalar_POW (NAN, 0.0f) == 1.0f);
  CHECK (sl_scalar_POW (1.0f, NAN) == 1.0f);
  CHECK (sl_scalar_POW (0.0f, 2.0f) == 0.0f);
  CHECK (sl_scalar_POW (0.0f, -2.0f) == INFINITY);
  CHECK (isnan (sl_scalar_POW (-2.0f, 2.0f)));
  CHECK (sl_scalar_LDEXP (3.0f, 4.0f) == 48.0f);
  CHECK (check_ordinary () == 0);
  return fails ? 1 : 0;
}
