// Defines f; ptxas lists it in this file's .nv.prototype.
__device__ int f(int x) { return x + 41; }
