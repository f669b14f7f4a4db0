__device__ int g(int x){ return x*3; }
