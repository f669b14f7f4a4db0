// dynamic parallelism: needs libcudadevrt's cudaGetParameterBufferV2 and cudaLaunchDeviceV2
__global__ void child(int *p) { p[threadIdx.x] += 1; }

__global__ void parent(int *p)
{
    if (threadIdx.x == 0)
        child<<<1, 32>>>(p);
}

void run_parent(int *p) { parent<<<1, 1>>>(p); }
