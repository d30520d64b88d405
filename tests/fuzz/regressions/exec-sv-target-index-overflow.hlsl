static Texture3D tex1;
sampler sam;

float4 main() : sv_target555555555555555555555555555555555555555555555555555555555555555555555555555555555555555555555
{
    static Texture3D tex2 = tex1;
    return tex2.Sample(sam, int3(0, 0, 0));
}


