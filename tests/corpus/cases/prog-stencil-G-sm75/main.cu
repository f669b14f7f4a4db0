// Host: uploads coefficients with cudaMemcpyToSymbol and runs both stencils.
#include <vector>
#include "stencil.h"

int main()
{
    const int nx = 512, ny = 256;
    float c[RADIUS + 1] = {0.5f, 0.2f, 0.1f, 0.05f, 0.025f};
    int dims[2] = {nx, ny};
    cudaMemcpyToSymbol(coeff, c, sizeof c);
    cudaMemcpyToSymbol(grid_dims, dims, sizeof dims);
    std::vector<float> h(nx * ny, 1.0f);
    float *in, *out;
    float *sum, hs = 0;
    cudaMalloc(&in, nx * ny * sizeof(float));
    cudaMalloc(&out, nx * ny * sizeof(float));
    cudaMalloc(&sum, sizeof(float));
    cudaMemcpy(in, h.data(), nx * ny * sizeof(float), cudaMemcpyHostToDevice);
    stencil_x<<<dim3(nx / BX, ny), BX>>>(in, out);
    stencil_2d<<<dim3(nx / BX, ny / BY), dim3(BX, BY)>>>(out, in);
    cudaMemset(sum, 0, sizeof(float));
    checksum<<<64, 256>>>(in, nx * ny, sum);
    cudaMemcpy(&hs, sum, sizeof hs, cudaMemcpyDeviceToHost);
    std::printf("checksum %f\n", hs);
    cudaFree(in); cudaFree(out); cudaFree(sum);
    return 0;
}
