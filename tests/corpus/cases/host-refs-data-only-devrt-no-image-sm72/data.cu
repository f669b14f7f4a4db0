// Host code reads a managed variable: the object's .nvHRDE names it, but no
// list names a kernel.
__managed__ int hits;
__managed__ float table[32];
__device__ float scale(float x);
__global__ void count_hits(const float *in, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n && in[i] > 0.0f) atomicAdd(&hits, 1);
}
__global__ void fill_table(float v) { table[threadIdx.x % 32] = scale(v); }
int read_hits() { return hits; }
