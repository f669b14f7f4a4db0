// Host code referencing every class of device symbol, extern and static,
// so that nvcc -dc fills all six .nvHR* lists.
#include <cuda_runtime.h>
__device__ int dext;
static __device__ int dint;
__constant__ float cext[4];
static __constant__ float cint[4];
__global__ void kext(int *p) { p[0] = dext + dint + (int)(cext[0] + cint[0]); }
static __global__ void kint(int *p) { p[0] = 1; }
__global__ void knotlaunched(int *p) { p[0] = 2; }
template <typename T> __global__ void ktmpl(T *p) { p[0] = T(); }
void host(int *p) {
	kext<<<1, 1>>>(p);
	kint<<<1, 1>>>(p);
	ktmpl<float><<<1, 1>>>((float *)p);
	int v = 1;
	float f[4] = {0};
	cudaMemcpyToSymbol(dext, &v, sizeof v);
	cudaMemcpyToSymbol(dint, &v, sizeof v);
	cudaMemcpyToSymbol(cext, f, sizeof f);
	cudaMemcpyToSymbol(cint, f, sizeof f);
}
