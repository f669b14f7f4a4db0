// Takes the address of its copy of the inline function iw.
#include "w.h"
typedef int (*fp)(int);
__device__ fp wp = iw;
__global__ void kw1(int *o) { o[0] = wp(o[1]); }
