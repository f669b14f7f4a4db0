// Host: a cudaArray behind a 2-D texture object and a linear buffer behind a
// 1-D one; resize, edge-detect and look up.
#include <vector>
#include "tex.h"

int main()
{
    const int w = 256, h = 256;
    std::vector<float> img(w * h);
    for (int i = 0; i < w * h; i++)
        img[i] = ((i % w) ^ (i / w)) & 1 ? 1.0f : 0.0f;
    cudaChannelFormatDesc fd = cudaCreateChannelDesc<float>();
    cudaArray_t arr;
    cudaMallocArray(&arr, &fd, w, h);
    cudaMemcpy2DToArray(arr, 0, 0, img.data(), w * sizeof(float), w * sizeof(float), h, cudaMemcpyHostToDevice);

    cudaResourceDesc rd = {};
    rd.resType = cudaResourceTypeArray;
    rd.res.array.array = arr;
    cudaTextureDesc td = {};
    td.addressMode[0] = td.addressMode[1] = cudaAddressModeClamp;
    td.filterMode = cudaFilterModePoint;
    td.readMode = cudaReadModeElementType;
    cudaTextureObject_t tex2d = 0;
    cudaCreateTextureObject(&tex2d, &rd, &td, nullptr);

    float *out;
    cudaMalloc(&out, w * h * sizeof(float));
    dim3 b(16, 16), g(w / 16, h / 16);
    resize<<<g, b>>>(tex2d, out, w, h, 0.5f, 0.5f);
    sobel<<<g, b>>>(tex2d, out, w, h);

    float *lut, *x, *y;
    cudaMalloc(&lut, 1024 * sizeof(float));
    cudaMalloc(&x, w * sizeof(float));
    cudaMalloc(&y, w * sizeof(float));
    cudaMemset(lut, 0, 1024 * sizeof(float));
    cudaMemset(x, 0, w * sizeof(float));
    cudaResourceDesc lr = {};
    lr.resType = cudaResourceTypeLinear;
    lr.res.linear.devPtr = lut;
    lr.res.linear.desc = fd;
    lr.res.linear.sizeInBytes = 1024 * sizeof(float);
    cudaTextureDesc ld = {};
    ld.readMode = cudaReadModeElementType;
    cudaTextureObject_t tex1d = 0;
    cudaCreateTextureObject(&tex1d, &lr, &ld, nullptr);
    lookup_linear<<<1, w>>>(tex1d, x, y, w);

    std::vector<float> res(w * h);
    cudaMemcpy(res.data(), out, w * h * sizeof(float), cudaMemcpyDeviceToHost);
    std::printf("edge at 1,1: %f\n", res[w + 1]);
    cudaDestroyTextureObject(tex2d);
    cudaDestroyTextureObject(tex1d);
    cudaFreeArray(arr);
    cudaFree(out); cudaFree(lut); cudaFree(x); cudaFree(y);
    return 0;
}
