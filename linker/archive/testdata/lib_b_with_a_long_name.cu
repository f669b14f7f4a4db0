// Second member; its object name is longer than 15 characters, so GNU ar
// stores it in the // long-name table.
__device__ int lib_var;
__device__ int lib_other(int x) { return x * lib_var; }
