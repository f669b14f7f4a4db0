// Whole-program code (nvcc -c -ewp): ptxas copies the recursive quicksort
// into the kernel's code ($sort_rows$qsort_dev) and, unable to bound the
// recursion, gives the kernel MIN_STACK_SIZE 0xffffffff.
__device__ void qsort_dev(int *a, int lo, int hi) {
  if (lo >= hi) return;
  int p = a[(lo + hi) / 2], i = lo, j = hi;
  while (i <= j) {
    while (a[i] < p) i++;
    while (a[j] > p) j--;
    if (i <= j) { int t = a[i]; a[i] = a[j]; a[j] = t; i++; j--; }
  }
  qsort_dev(a, lo, j);
  qsort_dev(a, i, hi);
}

__global__ void sort_rows(int *a, int rows, int cols) {
  int r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r < rows) qsort_dev(a + r * cols, 0, cols - 1);
}

void launch_sort(int *a, int rows, int cols) { sort_rows<<<(rows + 63) / 64, 64>>>(a, rows, cols); }
