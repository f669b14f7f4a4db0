// One weak template compiled to different code in two files (HEAVY): the
// heavy copy also calls malloc and free (undefined functions: EXTERNS).
template <typename T> __device__ __noinline__ T combine(const T *p, int n)
{
#if HEAVY
    T *tmp = (T *)malloc(16 * sizeof(T));
    for (int i = 0; i < 16; i++) tmp[i] = p[i];
    T a0 = tmp[0], a1 = tmp[1], a2 = tmp[2], a3 = tmp[3], a4 = tmp[4], a5 = tmp[5], a6 = tmp[6], a7 = tmp[7];
    T b0 = tmp[8], b1 = tmp[9], b2 = tmp[10], b3 = tmp[11], b4 = tmp[12], b5 = tmp[13], b6 = tmp[14], b7 = tmp[15];
    free(tmp);
    for (int i = 0; i < n; i++) {
        a0 = a0 * b1 + a2; a1 = a1 * b2 + a3; a2 = a2 * b3 + a4; a3 = a3 * b4 + a5;
        a4 = a4 * b5 + a6; a5 = a5 * b6 + a7; a6 = a6 * b7 + a0; a7 = a7 * b0 + a1;
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
