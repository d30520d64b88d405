/* Scalar semantics of every non-special op in ops.def.
 *
 * These helpers are the single definition of what an op computes: the VM
 * runs them in loops over spans (written branch-free where possible so the
 * loops vectorise) and the constant folder calls them once.  They must
 * never trap: integer division by zero and overflow have defined results. */
#ifndef SL_SCALAR_OPS_H
#define SL_SCALAR_OPS_H

#include <math.h>
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
static inline float sl_scalar_EXP2 (float a) { return exp2f (a); }
static inline float sl_scalar_LOG2 (float a) { return log2f (a); }
static inline float sl_scalar_EXP (float a) { return expf (a); }
static inline float sl_scalar_LOG (float a) { return logf (a); }
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
static inline float sl_scalar_POW (float a, float b) { return a < 0.0f ? NAN : powf (a, b); }
static inline float sl_scalar_FMOD (float a, float b) { return fmodf (a, b); }
static inline float sl_scalar_ATAN2 (float a, float b) { return atan2f (a, b); }
static inline float sl_scalar_STEP (float a, float b) { return b >= a ? 1.0f : 0.0f; }
static inline float sl_scalar_LDEXP (float a, float b) { return a * exp2f (b); }
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

#endif
