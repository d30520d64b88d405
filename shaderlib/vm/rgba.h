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
#if defined(__AVX__)
  for (; i + 8 <= n; i += 8)
    {
      __m256 vr = _mm256_loadu_ps (r + i), vg = _mm256_loadu_ps (g + i);
      __m256 vb = _mm256_loadu_ps (b + i), va = _mm256_loadu_ps (a + i);
      __m256 t0 = _mm256_unpacklo_ps (vr, vg), t1 = _mm256_unpacklo_ps (vb, va);
      __m256 t2 = _mm256_unpackhi_ps (vr, vg), t3 = _mm256_unpackhi_ps (vb, va);
      /* Register k holds pixel i+k (low half) and i+4+k (high half). */
      __m256 m0 = _mm256_shuffle_ps (t0, t1, 0x44), m1 = _mm256_shuffle_ps (t0, t1, 0xee);
      __m256 m2 = _mm256_shuffle_ps (t2, t3, 0x44), m3 = _mm256_shuffle_ps (t2, t3, 0xee);
      float *q = p + 4 * i;
      if (stream)
        {
          _mm_stream_ps (q + 0, _mm256_castps256_ps128 (m0));
          _mm_stream_ps (q + 4, _mm256_castps256_ps128 (m1));
          _mm_stream_ps (q + 8, _mm256_castps256_ps128 (m2));
          _mm_stream_ps (q + 12, _mm256_castps256_ps128 (m3));
          _mm_stream_ps (q + 16, _mm256_extractf128_ps (m0, 1));
          _mm_stream_ps (q + 20, _mm256_extractf128_ps (m1, 1));
          _mm_stream_ps (q + 24, _mm256_extractf128_ps (m2, 1));
          _mm_stream_ps (q + 28, _mm256_extractf128_ps (m3, 1));
        }
      else
        {
          _mm_storeu_ps (q + 0, _mm256_castps256_ps128 (m0));
          _mm_storeu_ps (q + 4, _mm256_castps256_ps128 (m1));
          _mm_storeu_ps (q + 8, _mm256_castps256_ps128 (m2));
          _mm_storeu_ps (q + 12, _mm256_castps256_ps128 (m3));
          _mm_storeu_ps (q + 16, _mm256_extractf128_ps (m0, 1));
          _mm_storeu_ps (q + 20, _mm256_extractf128_ps (m1, 1));
          _mm_storeu_ps (q + 24, _mm256_extractf128_ps (m2, 1));
          _mm_storeu_ps (q + 28, _mm256_extractf128_ps (m3, 1));
        }
    }
#endif
#if defined(__SSE2__)
  for (; i + 4 <= n; i += 4)
    {
      __m128 m0 = _mm_loadu_ps (r + i), m1 = _mm_loadu_ps (g + i);
      __m128 m2 = _mm_loadu_ps (b + i), m3 = _mm_loadu_ps (a + i);
      _MM_TRANSPOSE4_PS (m0, m1, m2, m3);
      float *q = p + 4 * i;
      if (stream)
        {
          _mm_stream_ps (q + 0, m0);
          _mm_stream_ps (q + 4, m1);
          _mm_stream_ps (q + 8, m2);
          _mm_stream_ps (q + 12, m3);
        }
      else
        {
          _mm_storeu_ps (q + 0, m0);
          _mm_storeu_ps (q + 4, m1);
          _mm_storeu_ps (q + 8, m2);
          _mm_storeu_ps (q + 12, m3);
        }
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
