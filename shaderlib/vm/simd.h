/* Machine vectors for the span loops written by hand.
 *
 * Most of the VM's loops are plain C over SL_SPAN lanes that GCC
 * vectorises.  A few do better written with the x86 vector types
 * directly: saturation (GCC keeps IEEE semantics and turns the selects of
 * sl_scalar_SAT into compares and blends, where one MAXPS and one MINPS
 * give the same bits), and the sums of fused reads, which stay in
 * registers.  SL_VEC_LANES is the widest vector of the level this file is
 * compiled for (16 with AVX-512, 8 with AVX, 4 with SSE2) and divides
 * SL_SPAN_COLS; where there is no vector unit it is 1, and the
 * operations are plain C on floats.
 *
 * Every operation is one IEEE float32 operation per lane with one
 * rounding (shaderlib is built with -ffp-contract=off, so a multiply and
 * an add are never contracted into an FMA): each matches the scalar op
 * of scalar_ops.h it stands for, bit for bit. */
#ifndef SL_VM_SIMD_H
#define SL_VM_SIMD_H

#include <stdbool.h>

#if defined(__SSE2__)
#include <immintrin.h>
#endif

/* Besides arithmetic, lane masks: sl_vec_nonzero (w) is set where
 * w != 0 (NaN included, as C's w != 0), sl_vec_select (m, a, b) takes a
 * where m is set, else b, and sl_vec_mask_all (m) is whether m is set in
 * every lane. */
#if defined(__AVX512F__)
typedef __m512 SlVec;
typedef __mmask16 SlVecMask;
#define SL_VEC_LANES 16
#define sl_vec_load  _mm512_loadu_ps
#define sl_vec_store _mm512_storeu_ps
#define sl_vec_add   _mm512_add_ps
#define sl_vec_sub   _mm512_sub_ps
#define sl_vec_mul   _mm512_mul_ps
#define sl_vec_max   _mm512_max_ps
#define sl_vec_min   _mm512_min_ps
#define sl_vec_set1  _mm512_set1_ps
#define sl_vec_nonzero(w) _mm512_cmp_ps_mask ((w), _mm512_setzero_ps (), _CMP_NEQ_UQ)
#define sl_vec_select(m, a, b) _mm512_mask_blend_ps ((m), (b), (a))
#define sl_vec_mask_all(m) ((m) == 0xffff)
#elif defined(__AVX__)
typedef __m256 SlVec;
typedef __m256 SlVecMask;
#define SL_VEC_LANES 8
#define sl_vec_load  _mm256_loadu_ps
#define sl_vec_store _mm256_storeu_ps
#define sl_vec_add   _mm256_add_ps
#define sl_vec_sub   _mm256_sub_ps
#define sl_vec_mul   _mm256_mul_ps
#define sl_vec_max   _mm256_max_ps
#define sl_vec_min   _mm256_min_ps
#define sl_vec_set1  _mm256_set1_ps
#define sl_vec_nonzero(w) _mm256_cmp_ps ((w), _mm256_setzero_ps (), _CMP_NEQ_UQ)
#define sl_vec_select(m, a, b) _mm256_blendv_ps ((b), (a), (m))
#define sl_vec_mask_all(m) (_mm256_movemask_ps (m) == 0xff)
#elif defined(__SSE2__)
typedef __m128 SlVec;
typedef __m128 SlVecMask;
#define SL_VEC_LANES 4
#define sl_vec_load  _mm_loadu_ps
#define sl_vec_store _mm_storeu_ps
#define sl_vec_add   _mm_add_ps
#define sl_vec_sub   _mm_sub_ps
#define sl_vec_mul   _mm_mul_ps
#define sl_vec_max   _mm_max_ps
#define sl_vec_min   _mm_min_ps
#define sl_vec_set1  _mm_set1_ps
#define sl_vec_nonzero(w) _mm_cmpneq_ps ((w), _mm_setzero_ps ())
#define sl_vec_mask_all(m) (_mm_movemask_ps (m) == 0xf)
static inline __m128
sl_vec_select (__m128 m, __m128 a, __m128 b)
{
  return _mm_or_ps (_mm_and_ps (m, a), _mm_andnot_ps (m, b));
}
#else
/* No vector unit: one lane in plain C, which the compiler may still
 * vectorise across a loop.  max and min have MAXPS's and MINPS's
 * semantics. */
typedef float SlVec;
typedef bool SlVecMask;
#define SL_VEC_LANES 1
static inline SlVec sl_vec_load (const float *p) { return *p; }
static inline void sl_vec_store (float *p, SlVec a) { *p = a; }
static inline SlVec sl_vec_add (SlVec a, SlVec b) { return a + b; }
static inline SlVec sl_vec_sub (SlVec a, SlVec b) { return a - b; }
static inline SlVec sl_vec_mul (SlVec a, SlVec b) { return a * b; }
static inline SlVec sl_vec_max (SlVec a, SlVec b) { return a > b ? a : b; }
static inline SlVec sl_vec_min (SlVec a, SlVec b) { return a < b ? a : b; }
static inline SlVec sl_vec_set1 (float a) { return a; }
static inline SlVecMask sl_vec_nonzero (SlVec w) { return w != 0.0f; }
static inline SlVec sl_vec_select (SlVecMask m, SlVec a, SlVec b) { return m ? a : b; }
static inline bool sl_vec_mask_all (SlVecMask m) { return m; }
#endif

/* sl_scalar_SAT in every lane: MAXPS and MINPS return their second
 * operand when either is NaN or both are zeros, so max (a, 0) is
 * a > 0 ? a : 0 and min (t, 1) is t < 1 ? t : 1, the selects of
 * sl_scalar_SAT (NaN and -0 give +0). */
static inline SlVec
sl_vec_sat (SlVec a)
{
  return sl_vec_min (sl_vec_max (a, sl_vec_set1 (0.0f)), sl_vec_set1 (1.0f));
}

#endif
