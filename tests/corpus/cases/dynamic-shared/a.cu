extern __shared__ float dyn[];               // dynamic shared memory

__global__ void k_dyn_only(float *out)
{
    dyn[threadIdx.x] = threadIdx.x;
    __syncthreads();
    out[threadIdx.x] = dyn[blockDim.x - 1 - threadIdx.x];
}

__global__ void k_dyn_and_static(float *out)
{
    __shared__ char small[5];
    small[threadIdx.x % 5] = 2;
    dyn[threadIdx.x] = small[0];
    __syncthreads();
    out[threadIdx.x] = dyn[0] + small[1];
}
