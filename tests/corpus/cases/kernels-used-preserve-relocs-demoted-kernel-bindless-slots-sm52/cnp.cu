// device launches with cudaDeviceSynchronize, device cudaMalloc and streams: libcudadevrt joins the link
#include "kep.h"
#include <cstdio>
__global__ void k_child(float *p, int n, int depth)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i < n) p[i] += c_coef[depth & 63] + blockIdx.x;
	if (depth < 2 && i == 0) {
		k_child<<<1, 32>>>(p, n, depth + 1);
		cudaDeviceSynchronize();
	}
}
__global__ void k_parent(float *p, int n)
{
	if (threadIdx.x == 0) {
		float *tmp;
		cudaMalloc(&tmp, n * sizeof(float));
		cudaStream_t s;
		cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking);
		k_child<<<(n + 127) / 128, 128, 0, s>>>(tmp, n, blockIdx.x);
		cudaDeviceSynchronize();
		cudaError_t e = cudaGetLastError();
		if (e != cudaSuccess) printf("err %d at %d\n", (int)e, blockIdx.x);
		p[blockIdx.x] = tmp[0] + tex_sample(blockIdx.x);
		cudaStreamDestroy(s);
		cudaFree(tmp);
	}
}
