#include "shapes.h"
// Virtual calls: the weak members' addresses are taken by the vtables.
__global__ void k_shapes(float *out)
{
  Shape *s = (threadIdx.x & 1) ? (Shape *)new Circle(out[0]) : (Shape *)new Sq(out[1]);
  out[threadIdx.x] = s->area();
  delete s;
}
