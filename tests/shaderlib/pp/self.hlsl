#include "self.hlsl"
