__global__ void recurse(int *, int, int);
__global__ void parent_stream(int *, int);
int main() { recurse<<<1, 32>>>(0, 64, 0); parent_stream<<<2, 1>>>(0, 8); return 0; }
