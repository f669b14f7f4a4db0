// weak-data-uninitialized-library-sm75: first definition of scratch<int>
#include "h.h"
__global__ void fill(int v) { scratch<int>[threadIdx.x % 8] = v; }
__global__ void report(int *o) { o[0] = lib_sum(); o[1] = lib_max(); }
