// One kernel using sparse mma itself (HMMA.SP) and calling a __noinline__
// function, which nvcc -c -ewp's ptxas copies into it ($kernel$function).
static __device__ __noinline__ float mix(float a, float b) { return a * 0.5f + b; }
__global__ void k1(float *out, const unsigned *a, const unsigned *b, unsigned e)
{
    float c0 = 0, c1 = 0, c2 = 0, c3 = 0;
    asm volatile("mma.sp.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%0,%1,%2,%3}, {%4,%5}, {%6,%7}, {%0,%1,%2,%3}, %8, 0x0;"
                 : "+f"(c0), "+f"(c1), "+f"(c2), "+f"(c3)
                 : "r"(a[0]), "r"(a[1]), "r"(b[0]), "r"(b[1]), "r"(e));
    out[threadIdx.x] = mix(c0 + c3, 2.f);
}
