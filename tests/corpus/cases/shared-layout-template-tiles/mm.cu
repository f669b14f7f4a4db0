// Tiled matrix multiply as a template: the two tiles are weak function-level
// objects of the same size, laid out in nvlink's merge-sort order (Bs first).
template <int TILE>
__global__ void matmul(const float *a, const float *b, float *c, int n)
{
    __shared__ float As[TILE][TILE];
    __shared__ float Bs[TILE][TILE];
    int tx = threadIdx.x, ty = threadIdx.y;
    int row = blockIdx.y * TILE + ty, col = blockIdx.x * TILE + tx;
    float sum = 0;
    for (int t = 0; t < n / TILE; t++) {
        As[ty][tx] = a[row * n + t * TILE + tx];
        Bs[ty][tx] = b[(t * TILE + ty) * n + col];
        __syncthreads();
        for (int k = 0; k < TILE; k++)
            sum += As[ty][k] * Bs[k][tx];
        __syncthreads();
    }
    c[row * n + col] = sum;
}

template __global__ void matmul<16>(const float *, const float *, float *, int);
template __global__ void matmul<32>(const float *, const float *, float *, int);
