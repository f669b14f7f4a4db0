// sreg-template-kernels-objects-sm75: instantiates add_n<1> again and add_n<2>
#include "t.h"
__global__ void plain_b() { sink += 2; }
void launch_b() { add_n<1><<<1, 1>>>(); add_n<2><<<1, 1>>>(); plain_b<<<1, 1>>>(); }
