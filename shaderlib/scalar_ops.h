/* Scalar semantics of every non-special op in ops.def.
 *
 * These helpers are the single definition of what an op computes: the VM
 * runs them in loops over spans (written branch-free where possible so the
 * loops vectorise) and the constant folder calls them once.  They must
 * never trap: integer division by zero and overflow have defined results.
 *
 * Arithmetic is IEEE float32 with one rounding per op (MAD rounds twice).
 * exp2, log2, exp, log and pow are branch-free polynomial approximations
 * rather than libm calls, so span loops over them vectorise.  Their
 * maximum errors, measured against double-precision libm by
 * tests/shaderlib/test-approx.c over every 37th float of the ranges below
 * (measured / the bound that test enforces):
 *   exp2  x in [-126, 128)                  1.15 / 1.5 ulp
 *   exp   x in [-87, 88)                    1.21 / 1.5 ulp
 *   log2  x > 0 (subnormals too)            2.38 / 2.5 ulp, or 2^-24
 *                                           absolute where |result| < 1
 *   log   x > 0                             2.07 / 2.5 ulp, same
 *   pow   computed as exp2(b * log2 a), as GPUs do, so the error grows
 *         with the magnitude of log2 of the result: 23 ulp measured for
 *         results within 2^±20 / bound 2 + 1.25 |log2 result| ulp
 * Special values follow C99: log2(0) = -inf, log2(-x) = NaN, exp2(-inf) =
 * 0, pow(a, 0) = pow(1, b) = 1; pow of a negative base is NaN. */
#ifndef SL_SCALAR_OPS_H
#define SL_SCALAR_OPS_H

#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <string.h>

static inline uint32_t sl_f2u (float f) { uint32_t u; memcpy (&u, &f, 4); return u; }
static inline float sl_u2f (uint32_t u) { float f; memcpy (&f, &u, 4); return f; }

#define SL_TRUE 0xffffffffu

static inline uint32_t sl_scalar_MOV (uint32_t a) { return a; }
static inline uint32_t sl_scalar_SELECT (uint32_t c, uint32_t a, uint32_t b) { return (c & a) | (~c & b); }

static inline float sl_scalar_NEG (float a) { return -a; }
static inline float sl_scalar_ABS (float a) { return fabsf (a); }
static inline float sl_scalar_SAT (float a) { return a > 0.0f ? (a < 1.0f ? a : 1.0f) : 0.0f; }
static inline float sl_scalar_RCP (float a) { return 1.0f / a; }
static inline float sl_scalar_RSQ (float a) { return 1.0f / sqrtf (a); }
static inline float sl_scalar_SQRT (float a) { return sqrtf (a); }
static inline float sl_scalar_EXP2 (float a);
static inline float sl_scalar_LOG2 (float a);
static inline float sl_scalar_EXP (float a);
static inline float sl_scalar_LOG (float a);
static inline float sl_scalar_FLOOR (float a) { return floorf (a); }
static inline float sl_scalar_CEIL (float a) { return ceilf (a); }
static inline float sl_scalar_TRUNC (float a) { return truncf (a); }
static inline float sl_scalar_FRC (float a) { return a - floorf (a); }
static inline float sl_scalar_ROUND_NE (float a) { return rintf (a); }
static inline float sl_scalar_ROUND (float a) { return roundf (a); }
static inline float sl_scalar_SIGN (float a) { return a > 0.0f ? 1.0f : (a < 0.0f ? -1.0f : 0.0f); }
static inline float sl_scalar_SIN (float a) { return sinf (a); }
static inline float sl_scalar_COS (float a) { return cosf (a); }
static inline float sl_scalar_TAN (float a) { return tanf (a); }
static inline float sl_scalar_ASIN (float a) { return asinf (a); }
static inline float sl_scalar_ACOS (float a) { return acosf (a); }
static inline float sl_scalar_ATAN (float a) { return atanf (a); }
static inline float sl_scalar_SINH (float a) { return sinhf (a); }
static inline float sl_scalar_COSH (float a) { return coshf (a); }
static inline float sl_scalar_TANH (float a) { return tanhf (a); }

static inline float sl_scalar_ADD (float a, float b) { return a + b; }
static inline float sl_scalar_SUB (float a, float b) { return a - b; }
static inline float sl_scalar_MUL (float a, float b) { return a * b; }
static inline float sl_scalar_DIV (float a, float b) { return a / b; }
static inline float sl_scalar_MIN (float a, float b) { return b != b ? a : (a < b ? a : b); }
static inline float sl_scalar_MAX (float a, float b) { return b != b ? a : (a > b ? a : b); }
static inline float sl_scalar_POW (float a, float b);
static inline float sl_scalar_FMOD (float a, float b) { return fmodf (a, b); }
static inline float sl_scalar_ATAN2 (float a, float b) { return atan2f (a, b); }
static inline float sl_scalar_STEP (float a, float b) { return b >= a ? 1.0f : 0.0f; }
static inline float sl_scalar_LDEXP (float a, float b);
static inline float sl_scalar_MAD (float a, float b, float c) { float p = a * b; return p + c; }

static inline uint32_t sl_scalar_LT (float a, float b) { return a < b ? SL_TRUE : 0; }
static inline uint32_t sl_scalar_GE (float a, float b) { return a >= b ? SL_TRUE : 0; }
static inline uint32_t sl_scalar_EQ (float a, float b) { return a == b ? SL_TRUE : 0; }
static inline uint32_t sl_scalar_NE (float a, float b) { return a != b ? SL_TRUE : 0; }
static inline uint32_t sl_scalar_ISNAN (float a) { return a != a ? SL_TRUE : 0; }
static inline uint32_t sl_scalar_ISINF (float a) { return (sl_f2u (a) & 0x7fffffffu) == 0x7f800000u ? SL_TRUE : 0; }

static inline int32_t sl_scalar_INEG (int32_t a) { return (int32_t) (0u - (uint32_t) a); }
static inline int32_t sl_scalar_IABS (int32_t a) { return a < 0 ? sl_scalar_INEG (a) : a; }
static inline int32_t sl_scalar_IADD (int32_t a, int32_t b) { return (int32_t) ((uint32_t) a + (uint32_t) b); }
static inline int32_t sl_scalar_ISUB (int32_t a, int32_t b) { return (int32_t) ((uint32_t) a - (uint32_t) b); }
static inline int32_t sl_scalar_IMUL (int32_t a, int32_t b) { return (int32_t) ((uint32_t) a * (uint32_t) b); }
static inline int32_t sl_scalar_IDIV (int32_t a, int32_t b)
{
  if (b == 0) return -1;
  if (b == -1) return sl_scalar_INEG (a);
  return a / b;
}
static inline int32_t sl_scalar_IMOD (int32_t a, int32_t b)
{
  if (b == 0) return -1;
  if (b == -1) return 0;
  return a % b;
}
static inline int32_t sl_scalar_IMIN (int32_t a, int32_t b) { return a < b ? a : b; }
static inline int32_t sl_scalar_IMAX (int32_t a, int32_t b) { return a > b ? a : b; }
static inline int32_t sl_scalar_ISHR (int32_t a, int32_t b)
{
  /* Arithmetic shift written without relying on implementation-defined >>
   * of negative values. */
  uint32_t s = (uint32_t) b & 31, u = (uint32_t) a >> s;
  if (a < 0 && s)
    u |= ~(0xffffffffu >> s);
  return (int32_t) u;
}
static inline uint32_t sl_scalar_UDIV (uint32_t a, uint32_t b) { return b ? a / b : 0xffffffffu; }
static inline uint32_t sl_scalar_UMOD (uint32_t a, uint32_t b) { return b ? a % b : 0xffffffffu; }
static inline uint32_t sl_scalar_UMIN (uint32_t a, uint32_t b) { return a < b ? a : b; }
static inline uint32_t sl_scalar_UMAX (uint32_t a, uint32_t b) { return a > b ? a : b; }
static inline uint32_t sl_scalar_AND (uint32_t a, uint32_t b) { return a & b; }
static inline uint32_t sl_scalar_OR (uint32_t a, uint32_t b) { return a | b; }
static inline uint32_t sl_scalar_XOR (uint32_t a, uint32_t b) { return a ^ b; }
static inline uint32_t sl_scalar_NOT (uint32_t a) { return ~a; }
static inline uint32_t sl_scalar_SHL (uint32_t a, uint32_t b) { return a << (b & 31); }
static inline uint32_t sl_scalar_USHR (uint32_t a, uint32_t b) { return a >> (b & 31); }
static inline uint32_t sl_scalar_ILT (int32_t a, int32_t b) { return a < b ? SL_TRUE : 0; }
static inline uint32_t sl_scalar_IGE (int32_t a, int32_t b) { return a >= b ? SL_TRUE : 0; }
static inline uint32_t sl_scalar_IEQ (int32_t a, int32_t b) { return a == b ? SL_TRUE : 0; }
static inline uint32_t sl_scalar_INE (int32_t a, int32_t b) { return a != b ? SL_TRUE : 0; }
static inline uint32_t sl_scalar_ULT (uint32_t a, uint32_t b) { return a < b ? SL_TRUE : 0; }
static inline uint32_t sl_scalar_UGE (uint32_t a, uint32_t b) { return a >= b ? SL_TRUE : 0; }

static inline float sl_scalar_ITOF (int32_t a) { return (float) a; }
static inline float sl_scalar_UTOF (uint32_t a) { return (float) a; }
static inline int32_t sl_scalar_FTOI (float a)
{
  if (!(a == a)) return 0;
  if (a >= 2147483648.0f) return INT32_MAX;
  if (a <= -2147483648.0f) return INT32_MIN;
  return (int32_t) a;
}
static inline uint32_t sl_scalar_FTOU (float a)
{
  if (!(a > 0.0f)) return 0;
  if (a >= 4294967296.0f) return 0xffffffffu;
  return (uint32_t) a;
}
static inline float sl_scalar_BTOF (uint32_t a) { return sl_u2f (a & 0x3f800000u); }
static inline int32_t sl_scalar_BTOI (uint32_t a) { return (int32_t) (a & 1u); }
static inline uint32_t sl_scalar_FTOB (float a) { return a != 0.0f ? SL_TRUE : 0; }
static inline uint32_t sl_scalar_ITOB (int32_t a) { return a != 0 ? SL_TRUE : 0; }

static inline uint32_t sl_scalar_F32TOF16 (float f)
{
  uint32_t x = sl_f2u (f), sign = (x >> 16) & 0x8000u;
  uint32_t absx = x & 0x7fffffffu;
  if (absx >= 0x7f800000u)                      /* inf or NaN */
    return sign | 0x7c00u | (absx > 0x7f800000u ? 0x200u : 0);
  if (absx >= 0x477ff000u)                      /* rounds to inf */
    return sign | 0x7c00u;
  if (absx < 0x38800000u)                       /* subnormal half */
    {
      float a = sl_u2f (absx) * 16777216.0f;    /* scale by 2^24 */
      return sign | (uint32_t) rintf (a);
    }
  uint32_t mant_odd = (absx >> 13) & 1u;
  absx += 0xc8000fffu + mant_odd;               /* rebias and round to even */
  return sign | (absx >> 13);
}

static inline float sl_scalar_F16TOF32 (uint32_t h)
{
  uint32_t sign = (h & 0x8000u) << 16, e = (h >> 10) & 0x1f, m = h & 0x3ffu;
  if (e == 0)
    {
      float v = (float) m * (1.0f / 16777216.0f);
      return sign ? -v : v;
    }
  if (e == 31)
    return sl_u2f (sign | 0x7f800000u | (m << 13));
  return sl_u2f (sign | ((e + 112) << 23) | (m << 13));
}

/* ---- vectorisable transcendentals ------------------------------------- */

/* 2^n for integer n in [-151, 129] as a product of two normal powers, so
 * subnormal and overflowing results round once more at most. */
static inline float
sl_approx_scale (float p, int32_t n)
{
  int32_t na = n / 2, nb = n - na;
  return p * sl_u2f ((uint32_t) (na + 127) << 23) * sl_u2f ((uint32_t) (nb + 127) << 23);
}

/* Round to nearest integer for |x| < 2^22 without a rounding instruction
 * (baseline x86-64 has none that vectorises). */
static inline float
sl_approx_rint (float x)
{
  return (x + 12582912.0f) - 12582912.0f;
}

static inline float
sl_scalar_EXP2 (float a)
{
  float x = a == a ? (a < -151.0f ? -151.0f : (a > 129.0f ? 129.0f : a)) : 0.0f;
  float n = sl_approx_rint (x);
  float f = x - n;                              /* [-0.5, 0.5] */
  /* Taylor series of 2^f = e^(f ln 2) to degree 7: truncation error
   * below 2^-27 relative on this interval. */
  float p = 1.5252733804059841e-05f;            /* (ln 2)^7 / 7! */
  p = p * f + 1.5403530393381609e-04f;
  p = p * f + 1.3333558146428443e-03f;
  p = p * f + 9.6181291076284772e-03f;
  p = p * f + 5.5504108664821580e-02f;
  p = p * f + 2.4022650695910071e-01f;
  p = p * f + 6.9314718055994531e-01f;
  p = p * f + 1.0f;
  float r = sl_approx_scale (p, (int32_t) n);
  return a == a ? r : a;
}

static inline float
sl_scalar_EXP (float a)
{
  float x = a == a ? (a < -105.0f ? -105.0f : (a > 90.0f ? 90.0f : a)) : 0.0f;
  float n = sl_approx_rint (x * 1.4426950408889634f);
  /* x - n ln 2 in two steps (Cody and Waite): the first constant has few
   * bits so n times it is exact. */
  float f = x - n * 0.693359375f;
  f = f - n * -2.12194440e-4f;                  /* |f| <= 0.35 */
  float p = 1.9841269841269841e-04f;            /* 1 / 7! */
  p = p * f + 1.3888888888888889e-03f;
  p = p * f + 8.3333333333333333e-03f;
  p = p * f + 4.1666666666666667e-02f;
  p = p * f + 1.6666666666666667e-01f;
  p = p * f + 0.5f;
  p = p * f + 1.0f;
  p = p * f + 1.0f;
  float r = sl_approx_scale (p, (int32_t) n);
  return a == a ? r : a;
}

/* log2 of a positive normal x split as e + log2(m), m in [sqrt(1/2),
 * sqrt(2)), with log2(m) = 2/ln2 * atanh(s), s = (m - 1)/(m + 1), whose
 * odd series converges fast because |s| < 0.172.  Returns log2(m) and
 * the exponent in *e. */
static inline float
sl_approx_log2_parts (float a, float *e)
{
  uint32_t u = sl_f2u (a);
  /* Subnormals: scale by 2^23 first. */
  bool sub = u < 0x00800000u;
  u = sub ? sl_f2u (a * 8388608.0f) : u;
  int32_t ex = (int32_t) (u >> 23) - 127 - (sub ? 23 : 0);
  uint32_t mu = (u & 0x007fffffu) | 0x3f800000u;   /* [1, 2) */
  bool big = mu > 0x3fb504f3u;                      /* > sqrt(2) */
  float m = sl_u2f (big ? mu - 0x00800000u : mu);   /* halved when big */
  ex += big ? 1 : 0;
  float s = (m - 1.0f) / (m + 1.0f);
  float z = s * s;
  float p = 2.6230818379796207e-01f;    /* 2/(11 ln2) */
  p = p * z + 3.2059889797532520e-01f;  /* 2/(9 ln2) */
  p = p * z + 4.1219858311113240e-01f;  /* 2/(7 ln2) */
  p = p * z + 5.7707801635558535e-01f;  /* 2/(5 ln2) */
  p = p * z + 9.6179669392597555e-01f;  /* 2/(3 ln2) */
  /* The leading 2/ln2 term in two parts keeps it exact to 2^-36. */
  float lead = s * 2.8853900432586670f;
  float tail = s * 3.8519261e-08f + s * z * p;
  *e = (float) ex;
  return lead + tail;
}

static inline float
sl_scalar_LOG2 (float a)
{
  float e;
  float lm = sl_approx_log2_parts (a, &e);
  float r = e + lm;
  r = a == 0.0f ? -INFINITY : r;
  r = a < 0.0f ? NAN : r;
  r = a == INFINITY ? a : r;
  return a == a ? r : a;
}

static inline float
sl_scalar_LOG (float a)
{
  float e;
  float lm = sl_approx_log2_parts (a, &e);
  /* e ln2 + log2(m) ln2, with ln 2 split so that e times the first part
   * is exact. */
  float r = e * 0.693359375f + (lm * 0.69314718055994531f + e * -2.12194440e-4f);
  r = a == 0.0f ? -INFINITY : r;
  r = a < 0.0f ? NAN : r;
  r = a == INFINITY ? a : r;
  return a == a ? r : a;
}

static inline float
sl_scalar_POW (float a, float b)
{
  float r = sl_scalar_EXP2 (b * sl_scalar_LOG2 (a));
  r = a < 0.0f ? NAN : r;
  r = a == 1.0f ? 1.0f : r;
  return b == 0.0f ? 1.0f : r;
}

static inline float
sl_scalar_LDEXP (float a, float b)
{
  /* a * 2^b for integral b is exact while the result is representable;
   * non-integral b rounds through exp2. */
  return a * sl_scalar_EXP2 (b);
}

#endif
