// Classes with virtual functions defined in the header: every file that
// uses them gets weak copies of the members, whose addresses the vtables take.
struct Shape {
  __device__ virtual float area() const { return 0.0f; }
  __device__ virtual ~Shape() {}
};
struct Sq : Shape {
  float s;
  __device__ Sq(float x) : s(x) {}
  __device__ float area() const override { return s * s; }
};
struct Circle : Shape {
  float r;
  __device__ Circle(float x) : r(x) {}
  __device__ float area() const override { return 3.0f * r * r; }
};
typedef float (*unary)(float);
