#include "t.h"
__global__ void kw2(long long *o) { o[0] = tw<3>(o[1]); }
