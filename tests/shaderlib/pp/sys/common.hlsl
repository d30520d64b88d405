#ifndef COMMON_HLSL
#define COMMON_HLSL
float common_v = 2;
#endif
