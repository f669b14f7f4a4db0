"""Public API of the cudalink Bazel rules: everything here is loaded from `@cudalink//rules:defs.bzl`.

[bazel.md](bazel.md) shows how the pieces fit together. This reference is stardoc's rendering of
the doc strings (tests/bazel/doc; regenerate with tests/bazel/stardoc.sh, which
tests/bazel/run.sh --bazel7 checks).

```starlark
load("@cudalink//rules:defs.bzl", "cuda_binary", "cuda_device_link", "cuda_device_linker_toolchain")
```
"""

load("//rules/private:binary.bzl", _cuda_binary = "cuda_binary")
load("//rules/private:link.bzl", _cuda_device_link = "cuda_device_link")
load("//rules/private:objects.bzl", _cuda_device_objects = "cuda_device_objects")
load(
    "//rules/private:providers.bzl",
    _CudaDeviceLinkInfo = "CudaDeviceLinkInfo",
    _CudaDeviceLinkerInfo = "CudaDeviceLinkerInfo",
    _CudaDeviceObjectsInfo = "CudaDeviceObjectsInfo",
)
load("//rules/private:ptxc.bzl", _cuda_ptx_compiler = "cuda_ptx_compiler")
load("//rules/private:stub.bzl", _cuda_link_stub = "cuda_link_stub")
load(
    "//rules/private:toolchain.bzl",
    _cuda_device_linker_toolchain = "cuda_device_linker_toolchain",
    _cuda_version_flag = "cuda_version_flag",
)

cuda_binary = _cuda_binary
cuda_device_link = _cuda_device_link
cuda_link_stub = _cuda_link_stub
cuda_device_objects = _cuda_device_objects
cuda_ptx_compiler = _cuda_ptx_compiler
cuda_device_linker_toolchain = _cuda_device_linker_toolchain
cuda_version_flag = _cuda_version_flag
CudaDeviceLinkInfo = _CudaDeviceLinkInfo
CudaDeviceLinkerInfo = _CudaDeviceLinkerInfo
CudaDeviceObjectsInfo = _CudaDeviceObjectsInfo
