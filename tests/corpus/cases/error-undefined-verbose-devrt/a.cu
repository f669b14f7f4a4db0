// Host code reads a managed variable (its reference list names only it);
// a kernel calls a function no input defines.
__managed__ int calls;
__device__ float missing_weight(int i);
__global__ void weigh(float *p)
{
    p[threadIdx.x] *= missing_weight(threadIdx.x);
    atomicAdd(&calls, 1);
}
int read_calls() { return calls; }
