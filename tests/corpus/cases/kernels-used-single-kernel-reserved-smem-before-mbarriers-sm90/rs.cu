// A device function reading the reserved shared memory's offset (ptxas
// gives it EIATTR_RESERVED_SMEM_USED) and a kernel calling it.
__device__ unsigned f_res(int n)
{
	unsigned r;
	asm volatile("mov.u32 %0, %%reserved_smem_offset_begin;" : "=r"(r));
	return r + n;
}
__global__ void k2(unsigned *out, int n) { out[threadIdx.x] = f_res(n); }
