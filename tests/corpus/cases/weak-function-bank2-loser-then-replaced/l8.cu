template <typename T> __device__ __noinline__ T mix(const T *p, int n, int op)
{
    T x = p[0];
    switch (op) { case 0: x = x * 96 + 1; break; case 1: x = x * 103 + 4; break; case 2: x = x * 110 + 7; break; case 3: x = x * 117 + 10; break; case 4: x = x * 124 + 13; break; case 5: x = x * 131 + 16; break; case 6: x = x * 138 + 19; break; case 7: x = x * 145 + 22; break; default: x = 42; break; }
    
    T s = x; for (int i = 0; i < n; i++) s += p[i]; return s;

}
__global__ void k_L8(const int *p, int *out, int n) { out[threadIdx.x] = mix(p, n, p[threadIdx.x]); }
