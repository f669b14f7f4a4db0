// A kernel calling both functions: the mbarrier one first.
#include <cstdint>
__device__ void f_mbar(uint64_t *bar, unsigned count);
__device__ unsigned f_res(int n);
__global__ void k3(unsigned *out, int n)
{
	__shared__ uint64_t bar;
	if (threadIdx.x == 0)
		f_mbar(&bar, 1);
	__syncthreads();
	out[threadIdx.x] = f_res(n);
}
