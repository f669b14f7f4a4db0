// host code only, compiled with nvcc -c: its fatbinary holds images without code
#include <cstdio>
int report(int x) { printf("%d\n", x); return x; }
