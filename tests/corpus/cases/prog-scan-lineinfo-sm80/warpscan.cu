// Warp and block scans built from __shfl_up_sync, plus a Blelloch
// (up-sweep/down-sweep) scan of one block in static shared memory.
#include "scan.h"

__device__ int warp_inclusive_scan(int v)
{
    int lane = threadIdx.x & 31;
    for (int d = 1; d < 32; d <<= 1) {
        int u = __shfl_up_sync(0xffffffffu, v, d);
        if (lane >= d)
            v += u;
    }
    return v;
}

__device__ int block_exclusive_scan(int v, int *total)
{
    __shared__ int warp_tot[SCAN_BLOCK / 32];
    int lane = threadIdx.x & 31, w = threadIdx.x >> 5;
    int inc = warp_inclusive_scan(v);
    if (lane == 31)
        warp_tot[w] = inc;
    __syncthreads();
    if (w == 0) {
        int t = (lane < blockDim.x / 32) ? warp_tot[lane] : 0;
        warp_tot[lane] = warp_inclusive_scan(t) - t;
    }
    __syncthreads();
    int r = inc - v + warp_tot[w];
    if (threadIdx.x == blockDim.x - 1)
        *total = r + v;
    return r;
}

__global__ void blelloch_scan(int *data, int n)
{
    __shared__ int tmp[2 * SCAN_BLOCK];
    int t = threadIdx.x;
    tmp[2 * t] = (2 * t < n) ? data[2 * t] : 0;
    tmp[2 * t + 1] = (2 * t + 1 < n) ? data[2 * t + 1] : 0;
    int off = 1;
    for (int d = SCAN_BLOCK; d > 0; d >>= 1) {
        __syncthreads();
        if (t < d) {
            int ai = off * (2 * t + 1) - 1, bi = off * (2 * t + 2) - 1;
            tmp[bi] += tmp[ai];
        }
        off *= 2;
    }
    if (t == 0)
        tmp[2 * SCAN_BLOCK - 1] = 0;
    for (int d = 1; d < 2 * SCAN_BLOCK; d *= 2) {
        off >>= 1;
        __syncthreads();
        if (t < d) {
            int ai = off * (2 * t + 1) - 1, bi = off * (2 * t + 2) - 1;
            int x = tmp[ai];
            tmp[ai] = tmp[bi];
            tmp[bi] += x;
        }
    }
    __syncthreads();
    if (2 * t < n) data[2 * t] = tmp[2 * t];
    if (2 * t + 1 < n) data[2 * t + 1] = tmp[2 * t + 1];
}
