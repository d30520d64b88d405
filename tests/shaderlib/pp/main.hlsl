#include "sub/helper.hlsl"
float main_line = __LINE__;
#include <common.hlsl>
#include "common.hlsl"
end
