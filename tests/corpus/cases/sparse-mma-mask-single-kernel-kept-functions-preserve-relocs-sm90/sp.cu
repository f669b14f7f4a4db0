// Device functions using sparse mma (inline PTX): HMMA.SP (f16) and IMMA.SP
// (s8); ptxas writes each one's EIATTR_SPARSE_MMA_MASK (sm_90, CUDA 12.x).
__device__ __noinline__ void sp_half(float *d, const unsigned *a, const unsigned *b, unsigned e)
{
    float c0 = 0, c1 = 0, c2 = 0, c3 = 0;
    asm volatile("mma.sp.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%0,%1,%2,%3}, {%4,%5}, {%6,%7}, {%0,%1,%2,%3}, %8, 0x0;"
                 : "+f"(c0), "+f"(c1), "+f"(c2), "+f"(c3)
                 : "r"(a[0]), "r"(a[1]), "r"(b[0]), "r"(b[1]), "r"(e));
    d[threadIdx.x * 4 + 0] = c0;
    d[threadIdx.x * 4 + 1] = c1;
    d[threadIdx.x * 4 + 2] = c2;
    d[threadIdx.x * 4 + 3] = c3;
}

__device__ __noinline__ void sp_int8(int *d, const unsigned *a, const unsigned *b, unsigned e)
{
    int c0 = 0, c1 = 0, c2 = 0, c3 = 0;
    asm volatile("mma.sp.sync.aligned.m16n8k32.row.col.s32.s8.s8.s32 {%0,%1,%2,%3}, {%4,%5}, {%6,%7}, {%0,%1,%2,%3}, %8, 0x0;"
                 : "+r"(c0), "+r"(c1), "+r"(c2), "+r"(c3)
                 : "r"(a[0]), "r"(a[1]), "r"(b[0]), "r"(b[1]), "r"(e));
    d[threadIdx.x * 2 + 0] = c0;
    d[threadIdx.x * 2 + 1] = c3;
}

__device__ __noinline__ void plain(float *d) { d[threadIdx.x] += 1.0f; }
