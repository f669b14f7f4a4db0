// Three int pairs of one size that two kernels share, and an extern
// __shared__ array: nvlink sorts the extern array (size 0, at its place in
// the symbol table) with the function-level objects, which changes the
// order its merge sort leaves the three pairs in.
extern __shared__ char dyn[];

__device__ __noinline__ int pairs(int i)
{
    __shared__ int p0[2], p1[2], p2[2];
    p0[i % 2] = i;
    p1[i % 2] = i + 1;
    p2[i % 2] = i + 2;
    __syncthreads();
    return p0[1] + p1[0] + p2[1];
}

__global__ void k_pairs(int *out) { out[threadIdx.x] = pairs(threadIdx.x); }

__global__ void k_pairs_dyn(int *out)
{
    dyn[threadIdx.x] = 1;
    __syncthreads();
    out[threadIdx.x] = pairs(threadIdx.x) + dyn[threadIdx.x + 1];
}

// Where a module-wide object goes: nvlink tries 0, then the end of every
// object laid out before that shares a kernel with it, in the order they
// were laid out. small (4 bytes) does not take the room after mid (8 bytes,
// at 0) but goes after wide, placed earlier, at 0xa0.
__shared__ int2 wide[4];

__device__ __noinline__ int twoarrays(int i)
{
    __shared__ char small[4];
    __shared__ short mid[4];
    small[i % 4] = 1;
    mid[i % 4] = 2;
    wide[i % 4].x = 3;
    __syncthreads();
    return small[1] + mid[2] + wide[1].x;
}

__device__ __noinline__ int big(int i)
{
    __shared__ float2 b[16];
    b[i % 16].x = i;
    __syncthreads();
    return b[3].x;
}

__global__ void k_two_a(int *out) { out[threadIdx.x] = twoarrays(threadIdx.x); }
__global__ void k_two_b(int *out) { out[threadIdx.x] = twoarrays(threadIdx.x); }
__global__ void k_big_wide(int *out)
{
    wide[threadIdx.x % 4].y = 1;
    __syncthreads();
    out[threadIdx.x] = big(threadIdx.x) + wide[2].y;
}
__global__ void k_big(int *out) { out[threadIdx.x] = big(threadIdx.x); }
