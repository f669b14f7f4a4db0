// no-functions-library-sm90: uninitialized data and a constant array
__device__ unsigned long long histogram[16];
__constant__ short steps[3] = {1, 2, 4};
