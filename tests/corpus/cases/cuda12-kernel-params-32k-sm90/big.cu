// Kernels whose parameters pass 4 KiB (CUDA 12.1 allows 32 KiB on sm_70 and
// up): ptxas describes them with EIATTR_KPARAM_INFO_V2 records.
struct Histogram { int bins[8000]; };
struct Weights { float w[1500]; double bias; };
__device__ int sum_bins(const int *bins, int n);
__global__ void total(Histogram h, int *out)
{
    out[threadIdx.x] = h.bins[threadIdx.x] + h.bins[7999 - threadIdx.x] + sum_bins(h.bins, 32);
}
__global__ void weigh(Weights w, float *out) { out[threadIdx.x] = w.w[threadIdx.x] + (float)w.bias; }
