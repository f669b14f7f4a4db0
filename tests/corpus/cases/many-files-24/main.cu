// the kernel file of the many-files-24 case: calls the end of the chain in f22.cu
extern __device__ int step_22(int x);
extern __device__ int var_00;

__global__ void kernel_main(int *out)
{
    __shared__ int own[4];
    own[threadIdx.x & 3] = threadIdx.x;
    __syncthreads();
    out[threadIdx.x] = step_22(own[0]) + var_00;
}
