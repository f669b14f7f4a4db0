// A second file: a double array in a device function (the largest
// .nv_debug.shared alignment of the link) and mixed sizes and alignments.
__device__ __noinline__ double other(int i)
{
    __shared__ double d[3];
    __shared__ short s[7];
    __shared__ float4 v[2];
    d[i % 3] = i;
    s[i % 7] = 1;
    v[i % 2] = make_float4(1, 2, 3, 4);
    __syncthreads();
    return d[1] + s[2] + v[1].w;
}

__global__ void k_other(double *out) { out[threadIdx.x] = other(threadIdx.x); }
