#pragma once
#include <cstdio>
#define QS_MAX_DEPTH 16
#define QS_INSERTION 32
__device__ void insertion_sort(unsigned *a, int lo, int hi);
__device__ int partition_range(unsigned *a, int lo, int hi);
__global__ void quicksort(unsigned *a, int lo, int hi, int depth);
__global__ void launch_tree(int *visits, int level, int fanout);
