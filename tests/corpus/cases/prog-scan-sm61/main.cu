// Host: scans 200k integers in three kernels and checks against the CPU.
#include <vector>
#include "scan.h"

int main()
{
    const int n = 200000;
    const int nb = (n + SCAN_BLOCK - 1) / SCAN_BLOCK;
    std::vector<int> h(n), r(n);
    for (int i = 0; i < n; i++)
        h[i] = (i * 7) % 5;
    int *d_in, *d_out, *d_sums;
    cudaMalloc(&d_in, n * sizeof(int));
    cudaMalloc(&d_out, n * sizeof(int));
    cudaMalloc(&d_sums, 2 * SCAN_BLOCK * sizeof(int));
    cudaMemcpy(d_in, h.data(), n * sizeof(int), cudaMemcpyHostToDevice);
    scan_blocks<<<nb, SCAN_BLOCK>>>(d_in, d_out, d_sums, n);
    blelloch_scan<<<1, SCAN_BLOCK>>>(d_sums, nb);
    add_block_offsets<<<nb, SCAN_BLOCK>>>(d_out, d_sums, n);
    cudaMemcpy(r.data(), d_out, n * sizeof(int), cudaMemcpyDeviceToHost);
    int acc = 0, bad = 0;
    for (int i = 0; i < n; i++) {
        bad += r[i] != acc;
        acc += h[i];
    }
    std::printf("%d mismatches, total %d\n", bad, acc);
    cudaFree(d_in); cudaFree(d_out); cudaFree(d_sums);
    return bad != 0;
}
