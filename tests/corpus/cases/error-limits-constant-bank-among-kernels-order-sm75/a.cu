#include "t.h"
__global__ void ka(long long *out)
{
	__shared__ long long sa[8300];
	sa[threadIdx.x % 8300] = 1;
	__syncthreads();
	out[threadIdx.x] = sa[(threadIdx.x + 1) % 8300];
}
template __global__ void tk<2>(long long *);
