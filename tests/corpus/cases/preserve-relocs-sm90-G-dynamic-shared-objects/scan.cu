// A block scan in dynamic shared memory, next to a reduction whose
// partial sums are a template function's static shared array.
template <typename T>
__device__ T block_sum(T v)
{
    __shared__ T partial[32];
    for (int o = 16; o > 0; o >>= 1) v += __shfl_xor_sync(0xffffffffu, v, o);
    if ((threadIdx.x & 31) == 0) partial[threadIdx.x >> 5] = v;
    __syncthreads();
    return threadIdx.x < 32 ? partial[threadIdx.x] : T(0);
}
__global__ void k_scan(int *data)
{
    extern __shared__ int buf[];
    int t = threadIdx.x;
    buf[t] = data[t];
    __syncthreads();
    for (int off = 1; off < blockDim.x; off <<= 1) {
        int x = t >= off ? buf[t - off] : 0;
        __syncthreads();
        buf[t] += x;
        __syncthreads();
    }
    data[t] = buf[t];
}
__global__ void k_sum(const float *in, float *out) { float v = block_sum(in[threadIdx.x]); if (threadIdx.x == 0) *out = v; }
__global__ void k_mean(const float *in, float *out) { float v = block_sum(in[threadIdx.x]); if (threadIdx.x == 0) *out = v / blockDim.x; }
