// Host code only: no device code, so it does not count as an object before libcudadevrt.
int run_all(int n) { return n * 2; }
