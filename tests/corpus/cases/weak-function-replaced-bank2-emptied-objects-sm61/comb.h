// One weak template compiled to two copies (HEAVY): the heavy one has double
// immediates ptxas puts in bank 2 (.nv.constant2.<f>), the light one none.
template <typename T> __device__ __noinline__ T combine(const T *p, int n)
{
#if HEAVY
    T a0 = p[0], a1 = p[1], a2 = p[2], a3 = p[3], a4 = p[4], a5 = p[5], a6 = p[6], a7 = p[7];
    T b0 = p[8], b1 = p[9], b2 = p[10], b3 = p[11], b4 = p[12], b5 = p[13], b6 = p[14], b7 = p[15];
    for (int i = 0; i < n; i++) {
        switch (i & 7) {
        case 0: a0 = a0 * 1.2345678901234 + a2; break; case 1: a1 = a1 * 9.87654321012 + a3; break; case 2: a2 = a2 * b3 + a4; break; case 3: a3 = a3 * b4 + a5; break;
        case 4: a4 = a4 * b5 + a6; break; case 5: a5 = a5 * b6 + a7; break; case 6: a6 = a6 * b7 + a0; break; default: a7 = a7 * b0 + a1; break;
        }
        b0 = b0 * a1 + b2; b1 = b1 * a2 + b3; b2 = b2 * a3 + b4; b3 = b3 * a4 + b5;
        b4 = b4 * a5 + b6; b5 = b5 * a6 + b7; b6 = b6 * a7 + b0; b7 = b7 * a0 + b1;
    }
    return a0 + a1 + a2 + a3 + a4 + a5 + a6 + a7 + b0 + b1 + b2 + b3 + b4 + b5 + b6 + b7;
#else
    T s = 0;
    for (int i = 0; i < n; i++)
        s += p[i];
    return s;
#endif
}
