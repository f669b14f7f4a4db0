// A kernel that launches another, and a plain one in a second file.
__global__ void child(int *p, int n) { p[threadIdx.x] += n; }
__global__ void parent(int *p)
{
    if (threadIdx.x == 0) child<<<1, 32>>>(p, 3);
}
