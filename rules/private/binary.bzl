"""The cuda_binary macro: a host program with linked device code."""

load(":cc.bzl", "cc_binary")
load(":link.bzl", "cuda_device_link")
load(":stub.bzl", "cuda_link_stub")

def cuda_binary(name, arch, deps, srcs = [], dlink_attrs = {}, **kwargs):
    """A cc_binary whose nvcc -dc objects are device-linked, as nvcc -dlink does.

    Makes three targets: <name>_dlink, a cuda_device_link of the objects
    of deps (with the fatbin and module list); <name>_stub, the
    cuda_link_stub that embeds and registers its image; and <name>, a
    cc_binary of srcs linked with the stub, deps and the toolchain's CUDA
    runtime.

    Args:
      name: the cc_binary.
      arch: "sm_80", or a list such as ["sm_80", "sm_86"]; "compute_NN"
        entries link nothing, as with nvcc -dlink (the CUDA driver
        JIT-links the objects' PTX when the program starts).
      deps: C++ targets (CcInfo): cc_library targets whose srcs are
        nvcc -dc objects, and any other libraries of the program. Every
        object of them goes into the device link; objects without device
        code are left out of it by the linker.
      srcs: the cc_binary's own sources (host code only).
      dlink_attrs: more attributes of the cuda_device_link (kernels_used,
        debug, lto, linkopts, ...).
      **kwargs: the other attributes of the cc_binary (copts, linkopts,
        visibility, tags, ...).
    """
    tags = kwargs.get("tags", [])
    visibility = kwargs.get("visibility")
    cuda_device_link(
        name = name + "_dlink",
        arch = arch,
        deps = deps,
        fatbin = True,
        register_link_binaries = True,
        tags = tags,
        visibility = visibility,
        **dlink_attrs
    )
    cuda_link_stub(
        name = name + "_stub",
        dlink = ":" + name + "_dlink",
        deps = deps,
        tags = tags,
        visibility = visibility,
    )
    cc_binary(
        name = name,
        srcs = srcs,
        deps = [":" + name + "_stub"] + deps,
        **kwargs
    )
