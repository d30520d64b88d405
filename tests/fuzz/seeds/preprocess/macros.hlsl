#define CAT(a, b) a ## b
#define STR(x) #x
#define TWICE(x) ((x) + (x))
#if defined(A) && A > 0 || F(1) == 2
float CAT(va, lue) = TWICE(TWICE(1.0));
#elif !defined EMPTY
#error not reached
#else
#endif
#line 40 "other.hlsl"
#pragma pack_matrix(row_major)
#include "self.h"
#include <missing.h>
#undef A
__FILE__ __LINE__ STR(a "b" \n)
