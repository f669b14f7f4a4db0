// Host code only: no device code, so it is no object after libcudadevrt.
int run_all(int n) { return n * 2; }
