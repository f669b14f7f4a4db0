// no-functions-host-objects-sm70: a static variable and a string the host reads
static __device__ int hidden[2] = {9, 10};
__device__ const char *greeting = "hello";
__device__ int *hidden_ptr = hidden;
