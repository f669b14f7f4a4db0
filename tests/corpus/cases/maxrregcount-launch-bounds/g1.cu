// maxrregcount-launch-bounds: a copy of the grid-constant-launch-bounds-sm70 / managed-variables source, compiled with -maxrregcount=32
struct Params { float a[64]; int n; };
extern __device__ float helper(const Params &p, int i);
__global__ void kgrid(const __grid_constant__ Params p, float *o) { o[threadIdx.x] = helper(p, threadIdx.x); }
__global__ void __launch_bounds__(256, 4) kbounds(float *o) { o[threadIdx.x] *= 2.0f; }
__global__ void __launch_bounds__(128) kbounds2(float *o, int n) { for (int i = 0; i < n; i++) o[threadIdx.x + i] += 1.0f; }
