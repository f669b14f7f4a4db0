// -dlto: the host code launches only run
__global__ void run(float *p) { p[threadIdx.x] = p[threadIdx.x] * 3.f + 1.f; }
int main() { run<<<1, 32>>>(0); }
