// Device-side launches (CDP2) of a kernel defined in another file: nvlink
// 12.x lists them in .nv.callgraph's group -4, which a partial link keeps.
__global__ void scatter(int *p, int n);
__global__ void finish(int *p);
__global__ void plan(int *p, int n)
{
    if (threadIdx.x == 0) {
        scatter<<<(n + 127) / 128, 128>>>(p, n);
        finish<<<1, 1, 0, cudaStreamTailLaunch>>>(p);
    }
}
