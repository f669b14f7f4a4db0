#include <cstdint>
__device__ float twice(float v) { return v * 2.f; }
__device__ float sync_stage(const float *g)
{
	__shared__ uint64_t bar;
	__shared__ float buf[256];
	unsigned b = (unsigned)__cvta_generic_to_shared(&bar);
	if (threadIdx.x == 0)
		asm volatile("mbarrier.init.shared.b64 [%0], %1;" ::"r"(b), "r"(blockDim.x));
	__syncthreads();
	buf[threadIdx.x] = g[threadIdx.x];
	uint64_t state;
	asm volatile("mbarrier.arrive.shared.b64 %0, [%1];" : "=l"(state) : "r"(b) : "memory");
	asm volatile("{\n.reg .pred p;\nW: mbarrier.test_wait.shared.b64 p, [%0], %1;\n@!p bra W;\n}" ::"r"(b), "l"(state) : "memory");
	return twice(buf[(threadIdx.x + 1) & 255]);
}
