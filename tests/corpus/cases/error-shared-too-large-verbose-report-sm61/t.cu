__shared__ int t_s[10000];
__device__ void use_t(int *p)
{
    t_s[threadIdx.x] = p[0];
    __syncthreads();
    p[1] = t_s[threadIdx.x + 1];
}
