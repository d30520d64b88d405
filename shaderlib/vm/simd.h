/* Machine vectors for the span loops written by hand.
 *
 * Most of the VM's loops are plain C over SL_SPAN lanes that GCC
 * vectorises.  A few do better written with the x86 vector types
 * directly: saturation (GCC keeps IEEE semantics and turns the selects of
 * sl_scalar_SAT into compares and blends, where one MAXPS and one MINPS
 * give the same bits), and the sums of fused reads, which stay in
 * registers.  SL_VEC_LANES is the widest vector of the level this file is
 * compiled for (16 with AVX-512, 8 with AVX, 4 with SSE2) and divides
 * SL_SPAN_COLS; it is undefined where there is no vector unit, and the
 * callers keep a scalar loop for that case.
 *
 * Every operation is one IEEE float32 operation per lane with one
 * rounding (shaderlib is built with -ffp-contract=off, so a multiply and
 * an add are never contracted into an FMA): each matches the scalar op
 * of scalar_ops.h it stands for, bit for bit. */
#ifndef SL_VM_SIMD_H
#define SL_VM_SIMD_H

#if defined(__SSE2__)
#include <immintrin.h>
#endif

#if defined(__AVX512F__)
typedef __m512 SlVec;
#define SL_VEC_LANES 16
#define sl_vec_load  _mm512_loadu_ps
#define sl_vec_store _mm512_storeu_ps
#define sl_vec_add   _mm512_add_ps
#define sl_vec_sub   _mm512_sub_ps
#define sl_vec_mul   _mm512_mul_ps
#define sl_vec_max   _mm512_max_ps
#define sl_vec_min   _mm512_min_ps
#define sl_vec_set1  _mm512_set1_ps
#elif defined(__AVX__)
typedef __m256 SlVec;
#define SL_VEC_LANES 8
#define sl_vec_load  _mm256_loadu_ps
#define sl_vec_store _mm256_storeu_ps
#define sl_vec_add   _mm256_add_ps
#define sl_vec_sub   _mm256_sub_ps
#define sl_vec_mul   _mm256_mul_ps
#define sl_vec_max   _mm256_max_ps
#define sl_vec_min   _mm256_min_ps
#define sl_vec_set1  _mm256_set1_ps
#elif defined(__SSE2__)
typedef __m128 SlVec;
#define SL_VEC_LANES 4
#define sl_vec_load  _mm_loadu_ps
#define sl_vec_store _mm_storeu_ps
#define sl_vec_add   _mm_add_ps
#define sl_vec_sub   _mm_sub_ps
#define sl_vec_mul   _mm_mul_ps
#define sl_vec_max   _mm_max_ps
#define sl_vec_min   _mm_min_ps
#define sl_vec_set1  _mm_set1_ps
#endif

#ifdef SL_VEC_LANES
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

#endif
