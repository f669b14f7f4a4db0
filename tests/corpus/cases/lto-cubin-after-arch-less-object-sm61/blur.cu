// A horizontal box blur of one image row per block.
__device__ float clamp01(float x) { return fminf(fmaxf(x, 0.0f), 1.0f); }

__global__ void k_blur_rows(const float *img, float *dst, int width, int radius)
{
    const float *row = img + blockIdx.x * width;
    for (int x = threadIdx.x; x < width; x += blockDim.x) {
        float acc = 0.0f;
        int cnt = 0;
        for (int d = -radius; d <= radius; ++d) {
            int xx = x + d;
            if (xx >= 0 && xx < width) { acc += row[xx]; ++cnt; }
        }
        dst[blockIdx.x * width + x] = clamp01(acc / cnt);
    }
}
