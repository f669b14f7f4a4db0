// no-functions-device-data-only: initialized and uninitialized data, constants
__device__ int table[4] = {1, 2, 3, 4};
__device__ int counter;
__constant__ float coeffs[3] = {0.5f, 0.25f, 0.125f};
