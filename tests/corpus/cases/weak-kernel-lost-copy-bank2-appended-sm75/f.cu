// a device function with a jump table of its own, which both kernels call
__device__ __noinline__ int pick(int v, int k) {
	switch (k) {
	case 0: return v * 3 + 1; case 1: return v - 7; case 2: return v * v; case 3: return v / 5;
	case 4: return v + 12345; case 5: return v * 9 - 2; case 6: return v ^ 0x55; case 7: return v << 3;
	}
	return v;
}
