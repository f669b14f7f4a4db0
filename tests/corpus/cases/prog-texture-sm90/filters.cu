// Image kernels reading a 2-D texture object.
#include "tex.h"

__global__ void resize(cudaTextureObject_t tex, float *out, int w, int h, float sx, float sy)
{
    int x = blockIdx.x * blockDim.x + threadIdx.x;
    int y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x < w && y < h)
        out[y * w + x] = sample_smooth(tex, x * sx, y * sy);
}

__global__ void sobel(cudaTextureObject_t tex, float *out, int w, int h)
{
    int x = blockIdx.x * blockDim.x + threadIdx.x;
    int y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x >= w || y >= h)
        return;
    float fx = x + 0.5f, fy = y + 0.5f;
    float gx = tex2D<float>(tex, fx + 1, fy - 1) + 2 * tex2D<float>(tex, fx + 1, fy) + tex2D<float>(tex, fx + 1, fy + 1)
             - tex2D<float>(tex, fx - 1, fy - 1) - 2 * tex2D<float>(tex, fx - 1, fy) - tex2D<float>(tex, fx - 1, fy + 1);
    float gy = tex2D<float>(tex, fx - 1, fy + 1) + 2 * tex2D<float>(tex, fx, fy + 1) + tex2D<float>(tex, fx + 1, fy + 1)
             - tex2D<float>(tex, fx - 1, fy - 1) - 2 * tex2D<float>(tex, fx, fy - 1) - tex2D<float>(tex, fx + 1, fy - 1);
    out[y * w + x] = sqrtf(gx * gx + gy * gy);
}
