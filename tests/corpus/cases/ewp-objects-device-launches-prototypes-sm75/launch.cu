// Kernels launching kernels from the device, compiled whole-program with
// -ewp: the image calls into libcudadevrt but has no .nv.prototype.
__global__ void child(int *p, int d) { p[threadIdx.x] += d; }
__device__ void launch_two(int *p)
{
    child<<<1, 32>>>(p, 1);
    child<<<1, 32>>>(p, 2);
}
__global__ void parent(int *p)
{
    if (threadIdx.x == 0) launch_two(p);
}
