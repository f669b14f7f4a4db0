#include "w.h"
__global__ void kb(double *q) { q[0] = divmix<double>(q[1], q[2]); }
