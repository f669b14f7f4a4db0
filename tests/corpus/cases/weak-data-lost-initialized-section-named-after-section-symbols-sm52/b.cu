// weak-data-lost-initialized-section-named-after-section-symbols-sm52: wv initialized (the first symbol of the file, a copy that loses when met), and divmix<double>'s copy with constants, which loses when met too
#include "h.h"
__device__ float hub(float *p, double *q) { return (float)divmix<double>(q[2], q[3]); }
