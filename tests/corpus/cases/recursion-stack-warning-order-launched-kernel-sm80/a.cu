// file a: kernel kA calls b.cu's recursive rec and launches c.cu's kC from device code, so nvlink meets kC
// here, before b.cu's kB
extern __device__ int rec(int);
extern __global__ void kC(int *o);
__global__ void kA(int *o)
{
	o[0] = rec(o[1]);
	if (threadIdx.x == 0)
		kC<<<1, 1>>>(o + 2);
}
