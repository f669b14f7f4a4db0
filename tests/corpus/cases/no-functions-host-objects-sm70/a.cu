// no-functions-host-objects-sm70: device and managed data the host fills
__device__ int device_flags[8];
__managed__ int managed_count = 3;
__constant__ int lookup[4] = {2, 3, 5, 7};
int host_side() { return managed_count; }
