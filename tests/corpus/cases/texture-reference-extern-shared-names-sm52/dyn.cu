extern __shared__ float staging[];
__global__ void reverse_block(float* data)
{
    staging[threadIdx.x] = data[threadIdx.x];
    __syncthreads();
    data[threadIdx.x] = staging[blockDim.x - 1 - threadIdx.x];
}
