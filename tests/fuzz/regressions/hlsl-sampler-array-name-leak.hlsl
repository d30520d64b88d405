sampler sam[2];

float4 main() : sv_target
{
    return 10 * tex2D(sam[0], float2(0, 0)) + tex1D(sam[1], 0);
}

