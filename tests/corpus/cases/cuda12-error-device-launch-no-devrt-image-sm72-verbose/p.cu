// Device-side launches (CDP2): a fire-and-forget launch from a device
// function and a tail launch.
__global__ void child(int *p, int d) { p[threadIdx.x] += d; }
__global__ void tail(int *p) { p[0] = -p[0]; }
__device__ void launch_detached(int *p) { child<<<1, 32, 0, cudaStreamFireAndForget>>>(p, 2); }
__global__ void parent(int *p)
{
    child<<<1, 32>>>(p, 1);
    launch_detached(p);
    tail<<<1, 1, 0, cudaStreamTailLaunch>>>(p);
}
__global__ void plain(int *p) { p[0] = 1; }
