// Device functions whose addresses are taken: their prototypes (#iii) are
// named in .strtab before libcudadevrt's kernels, which have none.
typedef int (*combine)(int, int);
__device__ int add2(int a, int b) { return a + b; }
__device__ int sub2(int a, int b) { return a - b; }
__device__ combine table[2] = {add2, sub2};
__device__ float twice(float x) { return 2.0f * x; }
