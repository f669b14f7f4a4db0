// host code using every kind of device symbol: external and static
// kernels, __device__ and __constant__ variables, external and static
__device__ int dvar;
__constant__ int cvar[4];
static __device__ int sdvar;
static __constant__ int scvar;
static __global__ void static_kernel(int *p) { p[0] = sdvar + scvar; }
__global__ void ext_kernel(int *p) { p[0] = dvar + cvar[1]; }
__global__ void ext_kernel2(int *p) { p[0] = 2; }
__global__ void unused_kernel(int *p) { p[0] = 3; }
void use_everything(int *p)
{
    int v = 1;
    cudaMemcpyToSymbol(dvar, &v, sizeof v);
    cudaMemcpyToSymbol(cvar, &v, sizeof v);
    cudaMemcpyToSymbol(sdvar, &v, sizeof v);
    cudaMemcpyToSymbol(scvar, &v, sizeof v);
    static_kernel<<<1, 1>>>(p);
    ext_kernel<<<1, 1>>>(p);
    ext_kernel2<<<1, 1>>>(p);
}
