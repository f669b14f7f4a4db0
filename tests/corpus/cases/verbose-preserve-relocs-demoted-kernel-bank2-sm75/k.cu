__device__ double scale(int sel, double x)
{
	switch (sel & 7) {
	case 0: return x * 1.000001;
	case 1: return x * 2.718281828459045;
	case 2: return x + 3.141592653589793;
	case 3: return x - 1.4142135623730951;
	case 4: return x * 0.5772156649015329;
	case 5: return x / 1.618033988749895;
	case 6: return x + 2.302585092994046;
	default: return x;
	}
}

__global__ void launched(double *p, int sel) { p[threadIdx.x] = scale(sel + threadIdx.x, p[threadIdx.x]); }

// Nothing on the host launches this one: -preserve-relocs keeps it as a function.
__global__ void unlaunched(double *p, int sel)
{
	double x = p[threadIdx.x];
	switch ((sel + threadIdx.x) % 6) {
	case 0: x = x * 1.25 + 0.333333333333; break;
	case 1: x = x * 7.5 - 0.142857142857; break;
	case 2: x = x / 3.3 + 0.111111111111; break;
	case 3: x = x * 9.1 - 0.076923076923; break;
	case 4: x = x - 4.4 * 0.090909090909; break;
	default: x = x + 5.5; break;
	}
	p[threadIdx.x] = x;
}

void run(double *p, int sel) { launched<<<1, 32>>>(p, sel); }
