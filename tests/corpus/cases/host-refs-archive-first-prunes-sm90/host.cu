// host code launching one kernel of each other file
__global__ void launched(int *p);
__global__ void other_kernel(int *p);
void run(int *p)
{
    launched<<<1, 32>>>(p);
    other_kernel<<<1, 1>>>(p);
}
