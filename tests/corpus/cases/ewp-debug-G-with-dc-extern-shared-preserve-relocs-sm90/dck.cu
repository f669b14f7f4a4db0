// An nvcc -dc kernel using dynamic shared memory (an extern __shared__
// array) and nothing else in shared memory.
extern __shared__ float dyn[];
__global__ void kdc(float *p)
{
    dyn[threadIdx.x] = p[threadIdx.x];
    __syncthreads();
    p[threadIdx.x] = dyn[threadIdx.x ^ 1] * 2.0f;
}
