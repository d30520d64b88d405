float4 main() : sv_target { return 1; }
