// Host: launches the instantiations defined in kernels.cu.
#include "vec.h"

template <typename T, int N> static int run(int n)
{
    T *x, *y, *o;
    cudaMalloc(&x, 8 * n * sizeof(T));
    cudaMalloc(&y, 8 * n * sizeof(T));
    cudaMalloc(&o, n * sizeof(T));
    cudaMemset(x, 0, 8 * n * sizeof(T));
    cudaMemset(y, 0, 8 * n * sizeof(T));
    axpy<T><<<(n + 127) / 128, 128>>>(T(2), x, y, n);
    dots<T, N><<<(n + 127) / 128, 128>>>(x, y, o, n);
    T r;
    cudaMemcpy(&r, o, sizeof r, cudaMemcpyDeviceToHost);
    cudaFree(x); cudaFree(y); cudaFree(o);
    return r != T(0);
}

int main()
{
    int bad = run<float, 4>(1000) + run<double, 8>(1000);
    std::printf("%s\n", bad ? "FAIL" : "ok");
    return bad;
}
