// File-scope __shared__ arrays used by several kernels (module-wide
// offsets) or by one kernel (laid out with its own), next to dynamic shared
// memory. The 32-byte aligned array makes the
// module-wide alignment larger than 16, and nvlink then writes no empty
// .nv_debug.shared for the extern array.
struct alignas(32) Wide { double d[4]; };

__shared__ float tileA[16][16];
__shared__ float tileB[16][16];
__shared__ Wide wide[2];
__shared__ char tag[3];
extern __shared__ float dyn[];

__global__ void k_ab(float *out)
{
    tileA[threadIdx.y % 16][threadIdx.x % 16] = threadIdx.x;
    tileB[threadIdx.y % 16][threadIdx.x % 16] = threadIdx.y;
    __syncthreads();
    out[threadIdx.x] = tileA[1][2] + tileB[3][4];
}

__global__ void k_a_wide(float *out)
{
    tileA[threadIdx.y % 16][threadIdx.x % 16] = 1;
    wide[threadIdx.x % 2].d[1] = 2;
    dyn[threadIdx.x] = 3;
    __syncthreads();
    out[threadIdx.x] = tileA[5][6] + wide[1].d[1] + dyn[threadIdx.x + 1];
}

__global__ void k_tag(char *out)
{
    tag[threadIdx.x % 3] = 1;
    __syncthreads();
    out[threadIdx.x] = tag[2];
}
