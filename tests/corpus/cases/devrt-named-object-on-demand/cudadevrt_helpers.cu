// an ordinary object whose file name contains "cudadevrt": a function
// main.cu needs, a kernel nothing needs, and host code launching it
__device__ int scaled(int x) { return 5 * x; }
__global__ void helper_kernel(int *p) { p[1] = scaled(p[2]); }
void launch_helper(int *p) { helper_kernel<<<1, 1>>>(p); }
