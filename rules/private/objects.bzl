"""The cuda_device_objects rule, and how device objects are collected."""

load(":cc.bzl", CcInfo = "CC_INFO")
load(":providers.bzl", "CudaDeviceObjectsInfo")

# The files a device link takes: relocatable cubins, host objects that
# carry device code (nvcc -dc), and archives of either.
DEVICE_OBJECT_EXTENSIONS = [".cubin", ".o", ".a"]

def _library_objects(lib):
    """Returns the files of a LibraryToLink that a device link reads.

    The objects themselves where the library has them (a cc_library's
    compiled sources and its prebuilt .o files), else its static archive.
    A library with neither (a shared library only) has no device code for
    the link.
    """
    objects = getattr(lib, "pic_objects", None) or getattr(lib, "objects", None)
    if objects:
        return objects
    archive = lib.pic_static_library or lib.static_library
    return [archive] if archive else []

def cc_objects(cc_info):
    """Returns the object files of a CcInfo's libraries, in link order.

    Args:
      cc_info: the CcInfo of a dependency, such as a cc_library whose srcs
        are nvcc -dc objects, or another rule set's relocatable device code.

    Returns:
      A list of File: each library's objects (or archive), libraries in the
      order the host link takes them.
    """
    files = []
    for linker_input in cc_info.linking_context.linker_inputs.to_list():
        for lib in linker_input.libraries:
            files.extend(_library_objects(lib))
    return files

def collect_objects(srcs, deps):
    """Returns the depset of device objects of srcs and, transitively, deps.

    Args:
      srcs: list of File, the target's own objects.
      deps: list of Target, each with CudaDeviceObjectsInfo or CcInfo.

    Returns:
      A topologically ordered depset of File: srcs first, each file once.
    """
    transitive = []
    for dep in deps:
        if CudaDeviceObjectsInfo in dep:
            transitive.append(dep[CudaDeviceObjectsInfo].objects)
        else:
            transitive.append(depset(cc_objects(dep[CcInfo]), order = "topological"))
    return depset(srcs, transitive = transitive, order = "topological")

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
            providers = [[CudaDeviceObjectsInfo], [CcInfo]],
            doc = "Other cuda_device_objects whose objects these need, or " +
                  "C++ targets (CcInfo) whose objects carry device code; " +
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
