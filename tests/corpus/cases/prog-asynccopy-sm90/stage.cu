// Double-buffered global-to-shared copies with cg::memcpy_async/cg::wait.
#include "ac.h"

__global__ void staged_sum(const float *in, int n, float *out)
{
    __shared__ float buf[2][CHUNK];
    cg::thread_block block = cg::this_thread_block();
    int nchunks = (n + CHUNK - 1) / CHUNK;
    float total = 0;
    int first = blockIdx.x;
    if (first < nchunks)
        cg::memcpy_async(block, buf[0], in + first * CHUNK, sizeof(float) * min(CHUNK, n - first * CHUNK));
    int stage = 0;
    for (int c = first; c < nchunks; c += gridDim.x, stage ^= 1) {
        int next = c + gridDim.x;
        if (next < nchunks)
            cg::memcpy_async(block, buf[stage ^ 1], in + next * CHUNK, sizeof(float) * min(CHUNK, n - next * CHUNK));
        if (next < nchunks)
            cg::wait_prior<1>(block);
        else
            cg::wait(block);
        total += chunk_sum(block, buf[stage], min(CHUNK, n - c * CHUNK));
        block.sync();
    }
    if (block.thread_rank() == 0)
        atomicAdd(out, total);
}

__global__ void quantize(const float *in, __nv_bfloat16 *out, int n, float s)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        out[i] = to_bf16_scaled(in[i], s);
}
