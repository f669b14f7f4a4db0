// Another -ewp image: a launch into a stream it creates, and the error
// query, each a different libcudadevrt entry point.
__global__ void worker(int *p) { p[blockIdx.x] = blockIdx.x; }
__global__ void spawner(int *p)
{
    cudaStream_t s;
    cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking);
    worker<<<4, 1, 0, s>>>(p);
    cudaStreamDestroy(s);
    p[0] = cudaGetLastError();
}
