// archived: defines from_lib, which calls a function nothing defines
__device__ int missing(int x);
__device__ int from_lib(int x) { return missing(x) + 1; }
