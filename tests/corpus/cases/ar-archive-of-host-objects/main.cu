extern __device__ float lib1_scale(float x);  // lib1.o in libhost.a
extern __device__ float lib1_bias;

__global__ void main_kernel(float *out)
{
    out[threadIdx.x] = lib1_scale(out[threadIdx.x]) + lib1_bias;
}
