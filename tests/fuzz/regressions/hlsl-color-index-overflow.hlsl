float4 main() : color88888888888
{
    return float4(0, 1, 0, 1);
}

