// Kernels that launch kernels, linked for sm_53: libcudadevrt has no
// image for it, so the device runtime stays undefined.
__global__ void child(int *p, int n) { p[threadIdx.x] += n; }
__global__ void parent(int *p)
{
    if (threadIdx.x == 0) {
        child<<<1, 32>>>(p, 3);
        cudaDeviceSynchronize();
    }
}
__global__ void plain(int *p) { p[0] = 1; }
