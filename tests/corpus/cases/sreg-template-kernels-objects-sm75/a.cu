// sreg-template-kernels-objects-sm75: instantiates add_n<1>, defines sink
#include "t.h"
__device__ int sink;
__global__ void plain_a() {}
__global__ void store(int x) { sink = x; }
void launch_a() { add_n<1><<<1, 1>>>(); plain_a<<<1, 1>>>(); store<<<1, 1>>>(3); }
