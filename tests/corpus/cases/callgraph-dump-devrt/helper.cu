// a second host object: a device function the launched kernel calls, and
// a host launch of relaunch and of cdp.cu's parent
__device__ __noinline__ int bump(int x) { return x + 3; }
__global__ void relaunch(int *data)
{
    if (threadIdx.x == 0)
        data[0] = bump(data[0]);
}
void host_relaunch(int *d) { relaunch<<<1, 1>>>(d); }
__global__ void parent(int *data, int n);
void host_parent(int *d, int n) { parent<<<1, 32>>>(d, n); }
