#include "h.h"
void run_b(float* d, double* e) { tk<<<1,32>>>(d, 3); tk<<<1,32>>>(e, 4); }
