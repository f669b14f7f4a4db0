// Kepler kernels that reach the device runtime directly, through a device
// function, or not at all
__global__ void child(int *p) { p[threadIdx.x] = 1; }

__device__ void launch_child(int *p) { child<<<1, 32>>>(p); }

__global__ void launches(int *p) { child<<<1, 32>>>(p); }

__global__ void synchronizes(int *p)
{
    cudaDeviceSynchronize();
    p[0] = 2;
}

__global__ void through_device_function(int *p) { launch_child(p); }

__global__ void queries(int *p)
{
    int d;
    cudaGetDevice(&d);
    p[0] = d + (int)cudaGetLastError();
}

__global__ void plain(int *p) { p[0] = 3; }
