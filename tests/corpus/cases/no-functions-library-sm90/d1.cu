// no-functions-library-sm90: initialized data
__device__ float weights[4] = {0.1f, 0.2f, 0.3f, 0.4f};
