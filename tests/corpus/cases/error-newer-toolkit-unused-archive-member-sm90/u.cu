__device__ int unused_fn(int x){ return x+1; }
