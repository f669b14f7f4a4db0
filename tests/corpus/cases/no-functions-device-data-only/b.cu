// no-functions-device-data-only: a pointer to the other file's data and more constants
extern __device__ int table[4];
__device__ int *table_ptr = table;
__device__ double accum[2];
__constant__ int limits[2] = {16, 256};
