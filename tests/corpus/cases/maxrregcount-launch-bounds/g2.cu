// maxrregcount-launch-bounds: a copy of the grid-constant-launch-bounds-sm70 / managed-variables source, compiled with -maxrregcount=32
struct Params { float a[64]; int n; };
__device__ __noinline__ float helper(const Params &p, int i) { return p.a[i % 64] * p.n; }
__global__ void __launch_bounds__(512, 2) kg2(const __grid_constant__ Params p, float *o) { o[threadIdx.x] = helper(p, threadIdx.x + 1); }
