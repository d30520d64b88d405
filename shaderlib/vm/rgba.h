/* Moving pixels between RGBA rows and span registers.
 *
 * Hosts and textures hold pixels as RGBA quadruples (array of structures);
 * a span register holds one component of every pixel (structure of
 * arrays).  Every pixel the VM reads at its own position and every pixel
 * it writes crosses between the two, which is a 4×N transpose.  Compilers
 * turn the plain loops into element-by-element moves (7 instructions a
 * pixel, measured), so these helpers do the transpose with shuffles: four
 * pixels per step with SSE2 (every x86-64 CPU), eight with AVX, a plain
 * loop for the rest and for other CPUs.  Only data moves: no result bit
 * can change.
 *
 * sl_rgba_merge() can write with non-temporal (streaming) stores, which
 * bypass the caches: for an output far larger than the caches this saves
 * reading every destination line before it is overwritten (a third of
 * the memory traffic), the reason glibc's memcpy streams large copies.
 * Streaming needs 16-byte aligned rows and an _mm_sfence() (sl_rgba_fence)
 * before another thread may read the pixels. */
#ifndef SL_VM_RGBA_H
#define SL_VM_RGBA_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#if defined(__SSE2__)
#include <immintrin.h>
#endif

/* GCC 12 warns that the pixel-at-a-time tails below overflow after
 * inlining with a constant n the vector loops have used up (they then
 * run no iteration at all). */
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Waggressive-loop-optimizations"
#endif

#if defined(__AVX512F__)
/* The components of the sixteen pixels at @q, one register each. */
static inline void
sl_rgba_split16 (const float *q, __m512 c[4])
{
  /* Red and green of pixels 0-7 then 8-15 of each half, blue and alpha
   * likewise; the 128-bit shuffles then put the halves in order. */
  const __m512i lo = _mm512_setr_epi32 (0, 4, 8, 12, 16, 20, 24, 28,
                                        1, 5, 9, 13, 17, 21, 25, 29);
  const __m512i hi = _mm512_setr_epi32 (2, 6, 10, 14, 18, 22, 26, 30,
                                        3, 7, 11, 15, 19, 23, 27, 31);
  __m512 z0 = _mm512_loadu_ps (q), z1 = _mm512_loadu_ps (q + 16);
  __m512 z2 = _mm512_loadu_ps (q + 32), z3 = _mm512_loadu_ps (q + 48);
  __m512 rg0 = _mm512_permutex2var_ps (z0, lo, z1), ba0 = _mm512_permutex2var_ps (z0, hi, z1);
  __m512 rg1 = _mm512_permutex2var_ps (z2, lo, z3), ba1 = _mm512_permutex2var_ps (z2, hi, z3);
  c[0] = _mm512_shuffle_f32x4 (rg0, rg1, 0x44);
  c[1] = _mm512_shuffle_f32x4 (rg0, rg1, 0xee);
  c[2] = _mm512_shuffle_f32x4 (ba0, ba1, 0x44);
  c[3] = _mm512_shuffle_f32x4 (ba0, ba1, 0xee);
}

/* The sixteen pixels whose components are c, as four registers of four
 * pixels each, in order. */
static inline void
sl_rgba_merge16 (const __m512 c[4], __m512 m[4])
{
  /* Interleave red with green and blue with alpha, then the 64-bit
   * pairs of those. */
  const __m512i lo = _mm512_setr_epi32 (0, 16, 1, 17, 2, 18, 3, 19,
                                        4, 20, 5, 21, 6, 22, 7, 23);
  const __m512i hi = _mm512_setr_epi32 (8, 24, 9, 25, 10, 26, 11, 27,
                                        12, 28, 13, 29, 14, 30, 15, 31);
  const __m512i plo = _mm512_setr_epi64 (0, 8, 1, 9, 2, 10, 3, 11);
  const __m512i phi = _mm512_setr_epi64 (4, 12, 5, 13, 6, 14, 7, 15);
  __m512d rg0 = _mm512_castps_pd (_mm512_permutex2var_ps (c[0], lo, c[1]));
  __m512d rg1 = _mm512_castps_pd (_mm512_permutex2var_ps (c[0], hi, c[1]));
  __m512d ba0 = _mm512_castps_pd (_mm512_permutex2var_ps (c[2], lo, c[3]));
  __m512d ba1 = _mm512_castps_pd (_mm512_permutex2var_ps (c[2], hi, c[3]));
  m[0] = _mm512_castpd_ps (_mm512_permutex2var_pd (rg0, plo, ba0));
  m[1] = _mm512_castpd_ps (_mm512_permutex2var_pd (rg0, phi, ba0));
  m[2] = _mm512_castpd_ps (_mm512_permutex2var_pd (rg1, plo, ba1));
  m[3] = _mm512_castpd_ps (_mm512_permutex2var_pd (rg1, phi, ba1));
}
#endif

#if defined(__AVX__)
/* The components of the eight pixels at @q, one register each. */
static inline void
sl_rgba_split8 (const float *q, __m256 c[4])
{
  /* Pixel k in the low half and 4+k in the high half of register k: a
   * transpose within each half then leaves each component of the eight
   * pixels in order. */
  __m256 m0 = _mm256_insertf128_ps (_mm256_castps128_ps256 (_mm_loadu_ps (q + 0)),
                                    _mm_loadu_ps (q + 16), 1);
  __m256 m1 = _mm256_insertf128_ps (_mm256_castps128_ps256 (_mm_loadu_ps (q + 4)),
                                    _mm_loadu_ps (q + 20), 1);
  __m256 m2 = _mm256_insertf128_ps (_mm256_castps128_ps256 (_mm_loadu_ps (q + 8)),
                                    _mm_loadu_ps (q + 24), 1);
  __m256 m3 = _mm256_insertf128_ps (_mm256_castps128_ps256 (_mm_loadu_ps (q + 12)),
                                    _mm_loadu_ps (q + 28), 1);
  __m256 t0 = _mm256_unpacklo_ps (m0, m1), t1 = _mm256_unpacklo_ps (m2, m3);
  __m256 t2 = _mm256_unpackhi_ps (m0, m1), t3 = _mm256_unpackhi_ps (m2, m3);
  c[0] = _mm256_shuffle_ps (t0, t1, 0x44);
  c[1] = _mm256_shuffle_ps (t0, t1, 0xee);
  c[2] = _mm256_shuffle_ps (t2, t3, 0x44);
  c[3] = _mm256_shuffle_ps (t2, t3, 0xee);
}
#endif

#if defined(__SSE2__)
/* The components of the four pixels at @q, one register each. */
static inline void
sl_rgba_split4 (const float *q, __m128 c[4])
{
  __m128 m0 = _mm_loadu_ps (q), m1 = _mm_loadu_ps (q + 4);
  __m128 m2 = _mm_loadu_ps (q + 8), m3 = _mm_loadu_ps (q + 12);
  _MM_TRANSPOSE4_PS (m0, m1, m2, m3);
  c[0] = m0;
  c[1] = m1;
  c[2] = m2;
  c[3] = m3;
}
#endif

/* r[i], g[i], b[i], a[i] = p[4i], p[4i+1], p[4i+2], p[4i+3] for i < n. */
static inline void
sl_rgba_split (const float *restrict p, size_t n, float *restrict r, float *restrict g,
               float *restrict b, float *restrict a)
{
  size_t i = 0;
  /* Eight pixels a step even where AVX-512 could do sixteen: on a Zen 4,
   * sl_rgba_split16's two-source permutes made the split slower than two
   * of these steps, whose shuffles stay within 128-bit lanes (bench-vm
   * point at 4096², x86-64-v4: 535-600 Mpix/s with it, 670-730
   * without).  sample.c's summing reads still use it, to fill the
   * 512-bit registers their sums live in; that use is not measured. */
#if defined(__AVX__)
  for (; i + 8 <= n; i += 8)
    {
      __m256 c[4];
      sl_rgba_split8 (p + 4 * i, c);
      _mm256_storeu_ps (r + i, c[0]);
      _mm256_storeu_ps (g + i, c[1]);
      _mm256_storeu_ps (b + i, c[2]);
      _mm256_storeu_ps (a + i, c[3]);
    }
#endif
#if defined(__SSE2__)
  for (; i + 4 <= n; i += 4)
    {
      __m128 c[4];
      sl_rgba_split4 (p + 4 * i, c);
      _mm_storeu_ps (r + i, c[0]);
      _mm_storeu_ps (g + i, c[1]);
      _mm_storeu_ps (b + i, c[2]);
      _mm_storeu_ps (a + i, c[3]);
    }
#endif
  for (; i < n; i++)
    {
      r[i] = p[4 * i + 0];
      g[i] = p[4 * i + 1];
      b[i] = p[4 * i + 2];
      a[i] = p[4 * i + 3];
    }
}

/* p[4i], p[4i+1], p[4i+2], p[4i+3] = r[i], g[i], b[i], a[i] for i < n;
 * @stream: with non-temporal stores (p 16-byte aligned). */
static inline void
sl_rgba_merge (float *restrict p, size_t n, const float *restrict r, const float *restrict g,
               const float *restrict b, const float *restrict a, bool stream)
{
  size_t i = 0;
#if defined(__AVX512F__)
  /* Whole cache lines: streaming stores need 64-byte alignment here. */
  bool stream64 = stream && ((uintptr_t) p & 63) == 0;
  if (!stream || stream64)
    for (; i + 16 <= n; i += 16)
      {
        __m512 c[4] = { _mm512_loadu_ps (r + i), _mm512_loadu_ps (g + i),
                        _mm512_loadu_ps (b + i), _mm512_loadu_ps (a + i) }, m[4];
        sl_rgba_merge16 (c, m);
        float *q = p + 4 * i;
        for (int k = 0; k < 4; k++)
          if (stream64)
            _mm512_stream_ps (q + 16 * k, m[k]);
          else
            _mm512_storeu_ps (q + 16 * k, m[k]);
      }
#endif
#if defined(__AVX__)
  bool stream32 = stream && ((uintptr_t) p & 31) == 0;
  if (!stream || stream32)
    for (; i + 8 <= n; i += 8)
      {
        __m256 vr = _mm256_loadu_ps (r + i), vg = _mm256_loadu_ps (g + i);
        __m256 vb = _mm256_loadu_ps (b + i), va = _mm256_loadu_ps (a + i);
        __m256 t0 = _mm256_unpacklo_ps (vr, vg), t1 = _mm256_unpacklo_ps (vb, va);
        __m256 t2 = _mm256_unpackhi_ps (vr, vg), t3 = _mm256_unpackhi_ps (vb, va);
        /* Register k holds pixel i+k (low half) and i+4+k (high half);
         * the 128-bit permutes pair them in order. */
        __m256 m0 = _mm256_shuffle_ps (t0, t1, 0x44), m1 = _mm256_shuffle_ps (t0, t1, 0xee);
        __m256 m2 = _mm256_shuffle_ps (t2, t3, 0x44), m3 = _mm256_shuffle_ps (t2, t3, 0xee);
        __m256 q01 = _mm256_permute2f128_ps (m0, m1, 0x20), q23 = _mm256_permute2f128_ps (m2, m3, 0x20);
        __m256 q45 = _mm256_permute2f128_ps (m0, m1, 0x31), q67 = _mm256_permute2f128_ps (m2, m3, 0x31);
        const __m256 m[4] = { q01, q23, q45, q67 };
        float *q = p + 4 * i;
        for (int k = 0; k < 4; k++)
          if (stream32)
            _mm256_stream_ps (q + 8 * k, m[k]);
          else
            _mm256_storeu_ps (q + 8 * k, m[k]);
      }
#endif
#if defined(__SSE2__)
  for (; i + 4 <= n; i += 4)
    {
      __m128 m0 = _mm_loadu_ps (r + i), m1 = _mm_loadu_ps (g + i);
      __m128 m2 = _mm_loadu_ps (b + i), m3 = _mm_loadu_ps (a + i);
      _MM_TRANSPOSE4_PS (m0, m1, m2, m3);
      const __m128 m[4] = { m0, m1, m2, m3 };
      float *q = p + 4 * i;
      for (int k = 0; k < 4; k++)
        if (stream)
          _mm_stream_ps (q + 4 * k, m[k]);
        else
          _mm_storeu_ps (q + 4 * k, m[k]);
    }
#endif
  for (; i < n; i++)
    {
      p[4 * i + 0] = r[i];
      p[4 * i + 1] = g[i];
      p[4 * i + 2] = b[i];
      p[4 * i + 3] = a[i];
    }
}

#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic pop
#endif

/* Orders earlier streaming stores before any later store. */
static inline void
sl_rgba_fence (void)
{
#if defined(__SSE2__)
  _mm_sfence ();
#endif
}

/* Whether @p may take streaming stores. */
static inline bool
sl_rgba_can_stream (const float *p)
{
#if defined(__SSE2__)
  return ((uintptr_t) p & 15) == 0;
#else
  (void) p;
  return false;
#endif
}

#endif
