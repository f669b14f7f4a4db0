struct Shape {
    __device__ virtual float area() const = 0;
    __device__ virtual ~Shape() {}
};
struct Square : Shape {
    float side;
    __device__ Square(float s) : side(s) {}
    __device__ float area() const override { return side * side; }
};
