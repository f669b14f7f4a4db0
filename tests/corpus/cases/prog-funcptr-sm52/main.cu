// Host: reads a device function pointer out of the table and installs it as
// the selected operation, then runs the three kernels.
#include <vector>
#include "ops.h"

int main()
{
    const int n = 1000;
    std::vector<float> h(n);
    for (int i = 0; i < n; i++)
        h[i] = i - 500.0f;
    float *x, *y;
    cudaMalloc(&x, n * sizeof(float));
    cudaMalloc(&y, n * sizeof(float));
    cudaMemcpy(x, h.data(), n * sizeof(float), cudaMemcpyHostToDevice);
    cudaMemcpy(y, h.data(), n * sizeof(float), cudaMemcpyHostToDevice);
    unary_op neg;
    cudaMemcpyFromSymbol(&neg, unary_table, sizeof neg, sizeof(unary_op));
    cudaMemcpyToSymbol(selected_unary, &neg, sizeof neg);
    apply_unary<<<4, 256>>>(x, n, 0);
    apply_selected<<<4, 256>>>(x, n);
    combine<<<4, 256>>>(x, y, n, 1);
    cudaMemcpy(h.data(), y, n * sizeof(float), cudaMemcpyDeviceToHost);
    std::printf("y[0] = %f\n", h[0]);
    cudaFree(x); cudaFree(y);
    return 0;
}
