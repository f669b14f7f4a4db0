extern __device__ int reduce_block(int v);
extern __device__ double stage(double v);
extern __device__ int both(int v);

__global__ void k_reduce(int *out) { out[threadIdx.x] = reduce_block(threadIdx.x); }

__global__ void k_stage(double *out)
{
    __shared__ float own[6];
    own[threadIdx.x % 6] = 1.0f;
    __syncthreads();
    out[threadIdx.x] = stage(own[0]);
}

__global__ void k_both(int *out)
{
    __shared__ char c;
    __shared__ long long ll[2];
    c = 1;
    ll[threadIdx.x & 1] = threadIdx.x;
    __syncthreads();
    out[threadIdx.x] = both(c + (int)ll[0]);
}

__global__ void k_no_shared(int *out) { out[threadIdx.x] = 0; }
