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
 *   log2  x > 0 (subnormals too)            2.46 / 2.5 ulp, or 2^-24
 *                                           absolute where |result| < 1
 *         (over every float: 2.57 ulp, at ten arguments just below
 *         sqrt(2); 2.53 at six with the Taylor series used before)
 *   log   x > 0                             2.07 / 2.5 ulp, same
 *   pow   computed as exp2(b * log2 a), as GPUs do, so the error grows
 *         with the magnitude of log2 of the result: 23 ulp measured for
 *         results within 2^±20 and b in {0.45, 0.8, 2.2, 3, -1.5} / 27
 *         ulp there (2 + 1.25 |log2 result| at its largest).  Through
 *         log2's error it also grows with |b|, so a single result may
 *         exceed 2 + 1.25 |log2 result|: up to 8.7 ulp for b = 10 and
 *         results within 2^±(2..4), with either series.
 * The trigonometric and hyperbolic functions are likewise polynomials,
 * evaluated in double precision (see below), measured by the same test
 * (every 41st–1001st float):
 *   sin, cos, tan  |x| < 1.6e6                   0.50 / 1 ulp
 *                  (beyond, the reduction loses bits: no promise past
 *                  2^20, as on GPUs)
 *   asin, acos     [-1, 1]                       0.50 / 1 ulp
 *   atan, atan2    all floats                    0.50 / 1 ulp
 *   sinh, cosh     |x| < 89                      2.30 / 2.5 ulp (from exp)
 *   tanh           all floats                    1.05 / 2.5 ulp
 * Special values follow C99: log2(0) = -inf, log2(-x) = NaN, exp2(-inf) =
 * 0, pow(a, 0) = pow(1, b) = 1; pow of a negative base is NaN; sin(±inf)
 * = NaN, atan2 of zeros and infinities as C99. */
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
static inline float sl_scalar_SIN (float a);
static inline float sl_scalar_COS (float a);
static inline float sl_scalar_TAN (float a);
static inline float sl_scalar_ASIN (float a);
static inline float sl_scalar_ACOS (float a);
static inline float sl_scalar_ATAN (float a);
static inline float sl_scalar_SINH (float a);
static inline float sl_scalar_COSH (float a);
static inline float sl_scalar_TANH (float a);

static inline float sl_scalar_ADD (float a, float b) { return a + b; }
static inline float sl_scalar_SUB (float a, float b) { return a - b; }
static inline float sl_scalar_MUL (float a, float b) { return a * b; }
static inline float sl_scalar_DIV (float a, float b) { return a / b; }
static inline float sl_scalar_MIN (float a, float b) { return b != b ? a : (a < b ? a : b); }
static inline float sl_scalar_MAX (float a, float b) { return b != b ? a : (a > b ? a : b); }
static inline float sl_scalar_POW (float a, float b);
static inline float sl_scalar_FMOD (float a, float b) { return fmodf (a, b); }
static inline float sl_scalar_ATAN2 (float a, float b);
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
 * (baseline x86-64 has none that vectorises): adding 1.5 2^23 leaves no
 * bits below the units, and subtracting it again gives rint(x). */
#define SL_APPROX_RINT_SHIFT 12582912.0f
static inline float
sl_approx_rint (float x)
{
  return (x + SL_APPROX_RINT_SHIFT) - SL_APPROX_RINT_SHIFT;
}

/* 2^f for f in [-0.5, 0.5]: Taylor series of e^(f ln 2) to degree 7,
 * truncation error below 2^-27 relative on this interval.  Horner's rule
 * in two stages, so that the span VM can run them as separate passes
 * (vm.c pow_span); sl_approx_exp2_poly is the two in a row. */
static inline float
sl_approx_exp2_poly_high (float f)
{
  float p = 1.5252733804059841e-05f;            /* (ln 2)^7 / 7! */
  p = p * f + 1.5403530393381609e-04f;
  p = p * f + 1.3333558146428443e-03f;
  p = p * f + 9.6181291076284772e-03f;
  return p;
}

static inline float
sl_approx_exp2_poly_low (float p, float f)
{
  p = p * f + 5.5504108664821580e-02f;
  p = p * f + 2.4022650695910071e-01f;
  p = p * f + 6.9314718055994531e-01f;
  p = p * f + 1.0f;
  return p;
}

static inline float
sl_approx_exp2_poly (float f)
{
  return sl_approx_exp2_poly_low (sl_approx_exp2_poly_high (f), f);
}

static inline float
sl_scalar_EXP2 (float a)
{
  float x = a == a ? (a < -151.0f ? -151.0f : (a > 129.0f ? 129.0f : a)) : 0.0f;
  float n = sl_approx_rint (x);
  float f = x - n;                              /* [-0.5, 0.5] */
  float r = sl_approx_scale (sl_approx_exp2_poly (f), (int32_t) n);
  return a == a ? r : a;
}

/* sl_scalar_EXP2 where |a| <= 125, to the bit: no clamp or NaN can
 * apply, and p 2^n (p within [2^-0.5, 2^0.5]) is a normal float, so one
 * exact scaling equals the two of sl_approx_scale.  The span VM uses it
 * when every lane of a span is in range (it is about half the work).
 *
 * In stages: t = sl_approx_exp2_round (a) holds n = rint(a) in the low
 * bits of its significand (a + 1.5 2^23 rounds a to an integer and keeps
 * it there), so p 2^n is p's bits plus n << 23, which is t's bits << 23:
 * the high bits of t's pattern shift out.  An integer add in place of a
 * float product, exact while p 2^n is normal, so the bits are those of
 * the multiplication. */
#define SL_APPROX_EXP2_ORDINARY 125.0f
static inline float
sl_approx_exp2_round (float a)
{
  return a + SL_APPROX_RINT_SHIFT;
}

static inline float
sl_approx_exp2_fraction (float a, float t)
{
  return a - (t - SL_APPROX_RINT_SHIFT);        /* a - rint(a) */
}

static inline float
sl_approx_exp2_place (float p, float t)
{
  return sl_u2f (sl_f2u (p) + (sl_f2u (t) << 23));
}

static inline float
sl_approx_exp2_ordinary (float a)
{
  float t = sl_approx_exp2_round (a);
  float f = sl_approx_exp2_fraction (a, t);
  return sl_approx_exp2_place (sl_approx_exp2_poly (f), t);
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

/* log2 of a positive normal x split as e + log2(m), m in (sqrt(1/2),
 * sqrt(2)], with log2(m) = 2/ln2 * atanh(s), s = (m - 1)/(m + 1), whose
 * odd series converges fast because |s| < 0.172.  In stages, which the
 * span VM runs as separate passes (vm.c pow_span):
 *
 * sl_approx_log2_reduce: m from the bits @u of x, and e in *e.  Taking
 * the bits of sqrt(1/2) (rounded up) off u and back onto the
 * significand moves the split from 1 to sqrt(2) with no compare: the
 * borrow out of the significand lowers the exponent exactly when m would
 * be above sqrt(2), and the arithmetic shift then gives e. */
static inline float
sl_approx_log2_reduce (uint32_t u, float *e)
{
  uint32_t v = u - 0x3f3504f4u;
  *e = (float) ((int32_t) v >> 23);
  return sl_u2f ((v & 0x007fffffu) + 0x3f3504f4u);
}

static inline float
sl_approx_log2_ratio (float m)
{
  return (m - 1.0f) / (m + 1.0f);
}

/* The terms of the series past the first: s z P(z), z = s^2, for |s| <
 * 0.1716 (m within (sqrt(1/2), sqrt(2)]).  P is a near-minimax
 * (Chebyshev) fit of degree 2 to the odd series' remaining terms, not its
 * Taylor terms: with the first term exact it leaves log2(m) a relative
 * error below 2^-28.3, which the Taylor series needs five terms (to s^11)
 * for.  Two fewer steps of Horner's rule made pow's passes about a tenth
 * faster (vm.c pow_span). */
static inline float
sl_approx_log2_series (float s)
{
  float z = s * s;
  float p = 0.42674845457077026f;       /* near 2/(7 ln2) */
  p = p * z + 0.5769161581993103f;      /* near 2/(5 ln2) */
  p = p * z + 0.9617969393730164f;      /* near 2/(3 ln2) */
  return s * z * p;
}

/* log2(m) from s and its series.  The leading 2/ln2 term in two parts
 * keeps it exact to 2^-36. */
static inline float
sl_approx_log2_sum (float s, float series)
{
  float lead = s * 2.8853900432586670f;
  float tail = s * 3.8519261e-08f + series;
  return lead + tail;
}

/* The stages in a row.  @ex: a power of two to add to the exponent
 * (subnormals come scaled).  Returns log2(m) and the exponent in *e. */
static inline float
sl_approx_log2_normal_parts (uint32_t u, int32_t ex, float *e)
{
  float m = sl_approx_log2_reduce (u, e);
  *e += (float) ex;
  float s = sl_approx_log2_ratio (m);
  return sl_approx_log2_sum (s, sl_approx_log2_series (s));
}

/* The same for any positive x: subnormals are scaled by 2^23 first. */
static inline float
sl_approx_log2_parts (float a, float *e)
{
  uint32_t u = sl_f2u (a);
  bool sub = u < 0x00800000u;
  u = sub ? sl_f2u (a * 8388608.0f) : u;
  return sl_approx_log2_normal_parts (u, sub ? -23 : 0, e);
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

/* Whether a is a positive normal float, where the special cases of
 * sl_scalar_LOG2 do not apply. */
static inline bool
sl_approx_is_ordinary (float a)
{
  return sl_f2u (a) - 0x00800000u < 0x7f000000u;
}

/* sl_scalar_LOG2 for a positive normal a, to the bit. */
static inline float
sl_approx_log2_ordinary (float a)
{
  float e;
  float lm = sl_approx_log2_normal_parts (sl_f2u (a), 0, &e);
  return e + lm;
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

/* sl_scalar_POW (a, b) is sl_approx_exp2_ordinary (x), x = b ·
 * sl_approx_log2_ordinary (a), to the bit, whenever a is a positive
 * normal float and |x| <= SL_APPROX_EXP2_ORDINARY: then log2 and exp2
 * take their ordinary paths, and for a = 1 or b = 0 x is ±0, whose exp2
 * is exactly 1, the value the special cases select.  For a = ±0 and
 * b > 0 it is +0.  tests/shaderlib/test-approx.c checks both. */

static inline float
sl_scalar_LDEXP (float a, float b)
{
  /* a * 2^b for integral b is exact while the result is representable;
   * non-integral b rounds through exp2. */
  return a * sl_scalar_EXP2 (b);
}

/* ---- trigonometric and hyperbolic functions ----------------------------
 *
 * Evaluated in double precision: the argument reduction and the short
 * Taylor polynomials then carry about 50 bits, so the one rounding to
 * float dominates the error, and double arithmetic vectorises as well as
 * float (at half the lanes) where a libm call does not vectorise at all. */

/* Taylor series of sin(r) and cos(r) for |r| <= pi/4: the first omitted
 * terms are below 2^-33 relative. */
static inline double
sl_approx_sin_kernel (double r)
{
  double z = r * r;
  double p = -2.5052108385441720e-08;          /* -1/11! */
  p = p * z + 2.7557319223985893e-06;          /* 1/9! */
  p = p * z - 1.9841269841269841e-04;          /* -1/7! */
  p = p * z + 8.3333333333333333e-03;          /* 1/5! */
  p = p * z - 1.6666666666666667e-01;          /* -1/3! */
  return r + r * z * p;
}

static inline double
sl_approx_cos_kernel (double r)
{
  double z = r * r;
  double p = 2.0876756987868099e-09;           /* 1/12! */
  p = p * z - 2.7557319223985891e-07;          /* -1/10! */
  p = p * z + 2.4801587301587302e-05;          /* 1/8! */
  p = p * z - 1.3888888888888889e-03;          /* -1/6! */
  p = p * z + 4.1666666666666667e-02;          /* 1/4! */
  p = p * z - 0.5;
  return 1.0 + z * p;
}

/* x - n pi/2 with n = rint(x 2/pi), returning n mod 4 in *q.  pi/2 is
 * split into two 33-bit parts and a tail, so n times each part is exact
 * while |n| < 2^20 (|x| < 1.6e6); beyond that the reduction loses bits
 * gradually, and past 2^30 it is meaningless (GPUs promise nothing there
 * either; D3D's tolerance covers [-100 pi, 100 pi]). */
static inline double
sl_approx_reduce_pio2 (float a, int32_t *q)
{
  double x = (double) a;
  x = x == x ? (x < -0x1p30 ? -0x1p30 : (x > 0x1p30 ? 0x1p30 : x)) : 0.0;
  double n = (x * 0.63661977236758138 + 0x1.8p52) - 0x1.8p52;
  double r = x - n * 1.5707963267341256;
  r = r - n * 6.0771005063039660e-11;
  r = r - n * 2.0222662487959506e-21;
  *q = (int32_t) n & 3;
  return r;
}

static inline float
sl_scalar_SIN (float a)
{
  int32_t q;
  double r = sl_approx_reduce_pio2 (a, &q);
  double s = sl_approx_sin_kernel (r), c = sl_approx_cos_kernel (r);
  double v = (q & 1) ? c : s;
  v = (q & 2) ? -v : v;
  v = a == 0.0f ? (double) a : v;               /* keeps sin(-0) = -0 */
  return a - a == 0.0f ? (float) v : NAN;
}

static inline float
sl_scalar_COS (float a)
{
  int32_t q;
  double r = sl_approx_reduce_pio2 (a, &q);
  double s = sl_approx_sin_kernel (r), c = sl_approx_cos_kernel (r);
  double v = (q & 1) ? s : c;
  v = ((q + 1) & 2) ? -v : v;
  return a - a == 0.0f ? (float) v : NAN;
}

static inline float
sl_scalar_TAN (float a)
{
  int32_t q;
  double r = sl_approx_reduce_pio2 (a, &q);
  double s = sl_approx_sin_kernel (r), c = sl_approx_cos_kernel (r);
  double v = (q & 1) ? -c / s : s / c;
  v = a == 0.0f ? (double) a : v;
  return a - a == 0.0f ? (float) v : NAN;
}

/* atan(t) for t >= 0 (t may be +inf): t > 1 folds to pi/2 - atan(1/t),
 * then two halvings atan(t) = 2 atan(t / (1 + sqrt(1 + t^2))) bring t
 * below tan(pi/16) ~ 0.199, where the odd Taylor series to t^15 is
 * exact to 2^-40. */
static inline double
sl_approx_atan_pos (double t)
{
  bool inv = t > 1.0;
  t = inv ? 1.0 / t : t;
  t = t / (1.0 + sqrt (1.0 + t * t));
  t = t / (1.0 + sqrt (1.0 + t * t));
  double z = t * t;
  double p = -1.0 / 15.0;
  p = p * z + 1.0 / 13.0;
  p = p * z - 1.0 / 11.0;
  p = p * z + 1.0 / 9.0;
  p = p * z - 1.0 / 7.0;
  p = p * z + 1.0 / 5.0;
  p = p * z - 1.0 / 3.0;
  double v = 4.0 * (t + t * z * p);
  return inv ? 1.5707963267948966 - v : v;
}

static inline float
sl_scalar_ATAN (float a)
{
  double v = sl_approx_atan_pos (fabs ((double) a));
  return a == a ? copysignf ((float) v, a) : a;
}

static inline float
sl_scalar_ASIN (float a)
{
  /* asin x = atan(x / sqrt((1 - x)(1 + x))); |x| = 1 divides by zero and
   * gives atan(inf) = pi/2; |x| > 1 gives NaN through the sqrt. */
  double x = fabs ((double) a);
  double v = sl_approx_atan_pos (x / sqrt ((1.0 - x) * (1.0 + x)));
  return copysignf ((float) v, a);
}

static inline float
sl_scalar_ACOS (float a)
{
  /* acos x = 2 atan(sqrt((1 - x)/(1 + x))), accurate near x = 1 where
   * pi/2 - asin x would cancel. */
  double x = (double) a;
  double v = 2.0 * sl_approx_atan_pos (sqrt ((1.0 - x) / (1.0 + x)));
  return (float) v;
}

/* atan2(a, b) = the angle of the point (x = b, y = a), with C99's results
 * for zeros and infinities. */
static inline float
sl_scalar_ATAN2 (float a, float b)
{
  double y = fabs ((double) a), x = fabs ((double) b);
  bool steep = y > x;
  double num = steep ? x : y, den = steep ? y : x;
  double t = den == 0.0 ? 0.0 : num / den;
  t = num == INFINITY ? 1.0 : t;                 /* both infinite */
  double v = sl_approx_atan_pos (t);
  v = steep ? 1.5707963267948966 - v : v;
  v = signbit (b) ? 3.1415926535897932 - v : v;
  float r = copysignf ((float) v, a);
  return a == a && b == b ? r : a + b;
}

/* sinh x for |x| < 1 by its Taylor series to x^13 (exact to 2^-33); above,
 * from exp.  Past 88, where e^|x| overflows a float but sinh x does not
 * yet, e^|x|/2 is formed as (e^(|x|/2) / 2) e^(|x|/2). */
static inline double
sl_approx_sinh_pos (float x)
{
  double d = (double) x, z = d * d;
  double p = 1.6059043836821613e-10;           /* 1/13! */
  p = p * z + 2.5052108385441720e-08;          /* 1/11! */
  p = p * z + 2.7557319223985893e-06;          /* 1/9! */
  p = p * z + 1.9841269841269841e-04;          /* 1/7! */
  p = p * z + 8.3333333333333333e-03;          /* 1/5! */
  p = p * z + 1.6666666666666667e-01;          /* 1/3! */
  double small = d + d * z * p;
  double e = (double) sl_scalar_EXP (x);
  double mid = 0.5 * (e - 1.0 / e);
  double h = (double) sl_scalar_EXP (x * 0.5f);
  double big = (0.5 * h) * h;
  return x < 1.0f ? small : (x < 88.0f ? mid : big);
}

static inline float
sl_scalar_SINH (float a)
{
  float v = (float) sl_approx_sinh_pos (fabsf (a));
  return a == a ? copysignf (v, a) : a;
}

static inline float
sl_scalar_COSH (float a)
{
  float x = fabsf (a);
  double e = (double) sl_scalar_EXP (x);
  double mid = 0.5 * (e + 1.0 / e);
  double h = (double) sl_scalar_EXP (x * 0.5f);
  double big = (0.5 * h) * h;
  float v = (float) (x < 88.0f ? mid : big);
  return a == a ? v : a;
}

static inline float
sl_scalar_TANH (float a)
{
  /* tanh = sinh / cosh = s / sqrt(1 + s^2): the error of s is damped by
   * 1/(1 + s^2).  tanh rounds to 1 for |x| >= 9. */
  float x = fabsf (a);
  x = x < 10.0f ? x : 10.0f;
  double s = sl_approx_sinh_pos (x);
  float v = (float) (s / sqrt (1.0 + s * s));
  return a == a ? copysignf (v, a) : a;
}

#endif
