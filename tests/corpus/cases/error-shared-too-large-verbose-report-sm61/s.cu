extern __shared__ int t_s[10000];
__device__ void use_t(int *p);
__global__ void k_over(int *p)
{
    __shared__ int mine[4000];
    mine[threadIdx.x] = 1;
    __syncthreads();
    use_t(p);
    p[2] = mine[threadIdx.x + 3];
}
__global__ void k_ok(int *p) { p[0] = 2; }
