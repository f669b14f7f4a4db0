// A second kernel the host launches, which launches c3 (calling a device
// function) and c4 from the device.
__device__ __noinline__ float twice(float x) { return 2 * x; }
__global__ void c3(float *p) { p[2] = twice(p[3]); }
__global__ void c4(float *p) { p[4] = 1; }
__global__ void root2(float *p)
{
	if (threadIdx.x == 0) {
		c3<<<1, 1>>>(p);
		c4<<<1, 1>>>(p);
	}
}
