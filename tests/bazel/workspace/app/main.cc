// The host side of the example program //:app: main launches k_scale
// through launch_scale, the host code nvcc compiled into hostobj/a.o. With
// no GPU the launch fails inside the CUDA runtime and main still returns 0:
// what the test runs is the registration of the linked device image when
// the program starts.
#include <cstdio>

void launch_scale(int *p);

int main() {
  launch_scale(nullptr);
  std::puts("app: launched k_scale");
  return 0;
}
