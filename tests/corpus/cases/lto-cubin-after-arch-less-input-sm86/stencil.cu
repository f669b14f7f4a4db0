// A three-point stencil over a 1D field, with the halo in shared memory.
__global__ void k_stencil(const float *in, float *out, int n)
{
    __shared__ float tile[130];
    int i = blockIdx.x * 128 + threadIdx.x;
    tile[threadIdx.x + 1] = i < n ? in[i] : 0.0f;
    if (threadIdx.x == 0) tile[0] = i > 0 ? in[i - 1] : 0.0f;
    if (threadIdx.x == 127) tile[129] = i + 1 < n ? in[i + 1] : 0.0f;
    __syncthreads();
    if (i < n) out[i] = 0.25f * tile[threadIdx.x] + 0.5f * tile[threadIdx.x + 1] + 0.25f * tile[threadIdx.x + 2];
}
