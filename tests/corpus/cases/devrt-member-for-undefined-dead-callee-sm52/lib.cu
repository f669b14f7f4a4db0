// A device function nothing live calls, calling a function no input
// defines (its definition lives in a library this link does not get).
__device__ int remote_scale(int x);

__device__ int scaled(int x) { return remote_scale(x) + 1; }

__global__ void bump(int *p, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) p[i] += 5;
}

void launch_bump(int *p, int n) { bump<<<(n + 127) / 128, 128>>>(p, n); }
