template <typename T> __device__ __noinline__ T mix(const T *p, int n, int op)
{
    T x = p[0];
    switch (op) { case 0: x = x * 127 + 1; break; case 1: x = x * 134 + 5; break; case 2: x = x * 141 + 9; break; case 3: x = x * 148 + 13; break; case 4: x = x * 155 + 17; break; case 5: x = x * 162 + 21; break; case 6: x = x * 169 + 25; break; case 7: x = x * 176 + 29; break; case 8: x = x * 183 + 33; break; case 9: x = x * 190 + 37; break; case 10: x = x * 197 + 41; break; case 11: x = x * 204 + 45; break; case 12: x = x * 211 + 49; break; case 13: x = x * 218 + 53; break; case 14: x = x * 225 + 57; break; case 15: x = x * 232 + 61; break; default: x = 42; break; }
    
    T s = x; for (int i = 0; i < n; i++) s += p[i]; return s;

}
__global__ void k_L16(const int *p, int *out, int n) { out[threadIdx.x] = mix(p, n, p[threadIdx.x]); }
