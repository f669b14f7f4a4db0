// host object compiled with nvcc -dc -G: a launched kernel, an unlaunched one, a call into dev.cu (what nvcc -G -dlink links with nvlink -g)
extern __device__ int dev_step(int);
__global__ void k_launched(int *p) { p[0] = dev_step(p[1]); }
__global__ void k_not_launched(int *p) { p[0] = 2; }
int main()
{
    int *p;
    cudaMalloc(&p, 8);
    k_launched<<<1, 1>>>(p);
    return 0;
}
