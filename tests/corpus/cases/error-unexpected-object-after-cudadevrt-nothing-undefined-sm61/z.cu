// defines fx, which d.cu's kernel calls
__device__ int fx(int x) { return x + 1; }
