// Quicksort where each partition launches two child grids on their own
// non-blocking streams; a launch tree that counts its nodes.
#include "qs.h"

__global__ void quicksort(unsigned *a, int lo, int hi, int depth)
{
    if (hi - lo < QS_INSERTION || depth >= QS_MAX_DEPTH) {
        insertion_sort(a, lo, hi);
        return;
    }
    int mid = partition_range(a, lo, hi);
    cudaStream_t s1, s2;
    cudaStreamCreateWithFlags(&s1, cudaStreamNonBlocking);
    cudaStreamCreateWithFlags(&s2, cudaStreamNonBlocking);
    if (lo < mid - 1)
        quicksort<<<1, 1, 0, s1>>>(a, lo, mid - 1, depth + 1);
    if (mid < hi)
        quicksort<<<1, 1, 0, s2>>>(a, mid, hi, depth + 1);
    cudaStreamDestroy(s1);
    cudaStreamDestroy(s2);
}

__global__ void launch_tree(int *visits, int level, int fanout)
{
    atomicAdd(&visits[level], 1);
    if (level < 3 && threadIdx.x == 0) {
        launch_tree<<<fanout, 1>>>(visits, level + 1, fanout);
        if (cudaGetLastError() != cudaSuccess)
            printf("launch failed at level %d\n", level);
    }
}
