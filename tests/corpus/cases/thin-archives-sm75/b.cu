// a member of libu.a (thin), found with -L. -lu
__device__ int counter;
__device__ int bump(int *p) { return atomicAdd(p, 1) + atomicAdd(&counter, 1); }
