extern __device__ int budget; // declared, defined by no input

__device__ int spend(int x) { return x < budget ? x : budget; }
