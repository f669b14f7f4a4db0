// A helper library whose file name says cudadevrt.
__device__ int helper_twice(int x) { return 2 * x; }
