// the executable's own kernel
__global__ void run(float *p) { p[threadIdx.x] += 1.f; }
int main() { run<<<1, 32>>>(0); }
