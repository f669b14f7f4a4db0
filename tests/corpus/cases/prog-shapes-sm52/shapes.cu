// The shape classes (vtables, out-of-line virtual functions) and a factory
// that allocates them with device-side new.
#include "shapes.h"

__device__ Circle::Circle(float x, float y, float r) : Shape(x, y), r(r) {}
__device__ float Circle::area() const { return 3.14159265f * r * r; }
__device__ const char *Circle::name() const { return "circle"; }
__device__ Rect::Rect(float x, float y, float w, float h) : Shape(x, y), w(w), h(h) {}
__device__ float Rect::area() const { return w * h; }

__device__ Shape *make_shape(int kind, int i)
{
    if (kind == 0)
        return new Circle(i, i, 0.5f + (i % 3));
    return new Rect(i, 0, 1.0f + (i % 4), 2.0f);
}
