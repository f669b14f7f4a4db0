// A device function initialising an mbarrier (EIATTR_NUM_MBARRIERS, kept
// out of line by -G) and a kernel calling it.
#include <cstdint>
__device__ void f_mbar(uint64_t *bar, unsigned count)
{
	unsigned a = (unsigned)__cvta_generic_to_shared(bar);
	asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;" ::"r"(a), "r"(count));
}
__global__ void k(float *out)
{
	__shared__ uint64_t bar;
	if (threadIdx.x == 0)
		f_mbar(&bar, 1);
	__syncthreads();
	out[threadIdx.x] = 1.0f;
}
