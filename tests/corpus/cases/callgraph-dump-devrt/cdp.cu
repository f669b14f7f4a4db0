// device-side launches need libcudadevrt (cudaGetParameterBufferV2,
// cudaLaunchDeviceV2, cudaDeviceSynchronize, cudaGetLastError, ...)
__global__ void child(int *data, int depth)
{
    data[blockIdx.x * blockDim.x + threadIdx.x] += depth;
}

__global__ void parent(int *data, int n)
{
    if (threadIdx.x == 0) {
        child<<<n / 32, 32>>>(data, 1);
        cudaDeviceSynchronize();
        cudaStream_t s;
        cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking);
        child<<<n / 32, 32, 0, s>>>(data, 2);
        cudaStreamDestroy(s);
        if (cudaGetLastError() != cudaSuccess)
            data[0] = -1;
    }
}
