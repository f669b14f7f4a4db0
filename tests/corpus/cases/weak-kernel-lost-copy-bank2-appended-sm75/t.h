__device__ int pick(int v, int k);
template <typename T> __global__ void tk(T *a, int n, int k) {
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i >= n) return;
	T v = a[i];
	switch (k) {
	case 0: v = v * 5 + 1; break; case 1: v = v - 9; break; case 2: v = v * v * v; break; case 3: v = v / 7; break;
	case 4: v = v + 4321; break; case 5: v = v * 11 - 2; break; case 6: v = v ^ 0x33; break; case 7: v = v << 2; break;
	}
	a[i] = pick(v, k >> 3);
}
