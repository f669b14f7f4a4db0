// Whole-program code (nvcc -c -ewp): a kernel the host never launches
// calls a __device__ function of another file, which stays undefined in
// the image; the launched kernel needs nothing.
__device__ float clamp_min(float *a, float v);

__global__ void track_min(float *m, const float *in, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) clamp_min(m, in[i]);
}

__global__ void halve(float *p, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) p[i] *= 0.5f;
}

void launch_halve(float *p, int n) { halve<<<(n + 255) / 256, 256>>>(p, n); }
