// no-functions-library-sm90: the object's data refers to the library's
extern __device__ float weights[4];
__device__ float *weights_ptr = weights;
__constant__ int version = 3;
