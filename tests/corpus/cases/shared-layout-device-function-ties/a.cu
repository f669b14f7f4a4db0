// Device functions with several shared arrays of one size: those only one
// kernel reaches join its own (in the sort's order, not symbol order); those
// two kernels reach get one module-wide offset each, also in that order.
__device__ __noinline__ int private_sum(int i)
{
    __shared__ int p0[2], p1[2], p2[2];
    p0[i % 2] = i;
    p1[i % 2] = 2 * i;
    p2[i % 2] = 3 * i;
    __syncthreads();
    return p0[1] + p1[0] + p2[1];
}

__device__ __noinline__ int common_sum(int i)
{
    __shared__ int g0[2], g1[2], g2[2];
    g0[i % 2] = i;
    g1[i % 2] = i + 1;
    g2[i % 2] = i + 2;
    __syncthreads();
    return g0[0] + g1[1] + g2[0];
}

__global__ void k_both(int *out)
{
    __shared__ int own0[2], own1[2], own2[2];
    own0[threadIdx.x % 2] = 1;
    own1[threadIdx.x % 2] = 2;
    own2[threadIdx.x % 2] = 3;
    __syncthreads();
    out[threadIdx.x] = own0[0] + own1[1] + own2[0] + private_sum(threadIdx.x) + common_sum(threadIdx.x);
}

__global__ void k_common(int *out) { out[threadIdx.x] = common_sum(threadIdx.x); }

// Uses no function-level object, yet its section takes the file's
// .nv_debug.shared alignment (8) because common_sum's arrays stay module-wide.
__global__ void k_bytes(char *out)
{
    __shared__ char b[3];
    b[threadIdx.x % 3] = 1;
    __syncthreads();
    out[threadIdx.x] = b[1];
}
