float a;

float4 main() : sv_target
{
    int i = 0;
    float res = a;

    while (i < 10)
    {
       if (i == 0)
       {
              int i = 1;
    float res = a;

    while (i < 10)
   ;
       i++;
       if (i == 2) continue;
       res += 100.f;
    }

    return      i++;
       if (i == 2) continue;
       res += 100.f;
    }

    return res;
}

