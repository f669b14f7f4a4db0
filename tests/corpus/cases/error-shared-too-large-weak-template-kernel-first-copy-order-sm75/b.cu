#include "t.h"
template __global__ void tk<2>(long long *);
__global__ void kb(long long *out)
{
	__shared__ long long sb[8400];
	sb[threadIdx.x % 8400] = 1;
	__syncthreads();
	out[threadIdx.x] = sb[(threadIdx.x + 1) % 8400];
}
