// plain host code, compiled by the host compiler alone: no device code, no .nvHR* lists
#include <cstdio>

int host_add(int a, int b) { return a + b; }

void host_report(int n) { std::printf("%d\n", n); }
