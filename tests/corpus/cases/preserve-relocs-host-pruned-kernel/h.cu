// host code launches k_launched and k_g only
__device__ int hvar = 1;
__device__ int hvar_unused = 2;
__constant__ int hconst = 3;
__global__ void k_launched(int *o) { o[0] = hvar + hconst; }
__global__ void k_not_launched(int *o) { o[0] = 2; }
int main()
{
    int *p = 0;
    k_launched<<<1, 1>>>(p);
    int x;
    cudaMemcpyFromSymbol(&x, hvar_unused, 4);
    return x;
}
