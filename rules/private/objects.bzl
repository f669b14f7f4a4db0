"""The cuda_device_objects rule, and how device objects are collected."""

load(":providers.bzl", "CudaDeviceObjectsInfo")

# The files a device link takes: relocatable cubins, host objects that
# carry device code (nvcc -dc), and archives of either.
DEVICE_OBJECT_EXTENSIONS = [".cubin", ".o", ".a"]

def collect_objects(srcs, deps):
    """Returns the depset of device objects of srcs and, transitively, deps.

    Args:
      srcs: list of File, the target's own objects.
      deps: list of Target, each with CudaDeviceObjectsInfo.

    Returns:
      A topologically ordered depset of File: srcs first, each file once.
    """
    return depset(
        srcs,
        transitive = [dep[CudaDeviceObjectsInfo].objects for dep in deps],
        order = "topological",
    )

def _cuda_device_objects_impl(ctx):
    objects = collect_objects(ctx.files.srcs, ctx.attr.deps)
    return [
        DefaultInfo(files = depset(ctx.files.srcs)),
        CudaDeviceObjectsInfo(objects = objects),
    ]

cuda_device_objects = rule(
    implementation = _cuda_device_objects_impl,
    doc = "Prebuilt device objects and archives (a vendor's " +
          "libnvshmem_device.a, cubins made outside Bazel) for the deps " +
          "of cuda_device_link or of another cuda_device_objects.",
    attrs = {
        "deps": attr.label_list(
            providers = [CudaDeviceObjectsInfo],
            doc = "Other cuda_device_objects whose objects these need; " +
                  "they are linked after srcs.",
        ),
        "srcs": attr.label_list(
            allow_files = DEVICE_OBJECT_EXTENSIONS,
            doc = "Device objects: relocatable cubins (.cubin), host " +
                  "objects compiled with nvcc -dc (.o), archives (.a).",
        ),
    },
    provides = [CudaDeviceObjectsInfo],
)
