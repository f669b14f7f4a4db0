// A __grid_constant__ parameter of 32000 bytes and the device function the
// other file calls.
struct Histogram { int bins[8000]; };
__device__ int sum_bins(const int *bins, int n)
{
    int s = 0;
    for (int i = 0; i < n; i++) s += bins[i];
    return s;
}
__global__ void total_const(const __grid_constant__ Histogram h, int *out) { out[0] = sum_bins(h.bins, 8000); }
__global__ void small(int *out) { out[threadIdx.x] = sum_bins(out, 4); }
