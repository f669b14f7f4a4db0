"""The cuda_link_stub rule: the host object nvcc -dlink makes."""

load("@bazel_tools//tools/cpp:toolchain_utils.bzl", "find_cpp_toolchain")
load(":cc.bzl", CcInfo = "CC_INFO", cc_common = "CC_COMMON")
load(":providers.bzl", "CudaDeviceLinkInfo")
load(":toolchain.bzl", "TOOLCHAIN_TYPE")

_CC_TOOLCHAIN_TYPE = "@bazel_tools//tools/cpp:toolchain_type"

def _cuda_link_stub_impl(ctx):
    dlink = ctx.attr.dlink
    info = dlink[CudaDeviceLinkInfo]
    if not info.embedded_fatbin or not info.register_link_binaries:
        fail("dlink %s has no .fatbin.c or no .reg.c: set " % dlink.label +
             "fatbin = True and register_link_binaries = True on it " +
             "(cuda_binary does)")
    tools = ctx.toolchains[TOOLCHAIN_TYPE].cudalink
    link_stub = getattr(tools, "link_stub", None)
    runtime = getattr(tools, "runtime", None)
    if not link_stub or not runtime:
        fail("cuda_link_stub needs the toolkit's link.stub and CUDA " +
             "runtime: set link_stub and runtime on the " +
             "cuda_device_linker_toolchain that links %s" % dlink.label)

    # nvcc -dlink compiles crt/link.stub as C++ with -x c++; cc_common
    # takes sources by extension, so the stub is copied to a .cc file.
    src = ctx.actions.declare_file(ctx.label.name + ".link.stub.cc")
    ctx.actions.expand_template(template = link_stub, output = src, substitutions = {})

    cc_toolchain = find_cpp_toolchain(ctx)
    features = cc_common.configure_features(
        ctx = ctx,
        cc_toolchain = cc_toolchain,
        requested_features = ctx.features,
        unsupported_features = ctx.disabled_features,
    )

    # The .fatbin.c and .reg.c as headers (.inc): cc_common takes headers
    # by extension too. They are symlinks beside the stub's source.
    fatbin_c = ctx.actions.declare_file(ctx.label.name + ".fatbin.inc")
    ctx.actions.symlink(output = fatbin_c, target_file = info.embedded_fatbin)
    reg_c = ctx.actions.declare_file(ctx.label.name + ".reg.inc")
    ctx.actions.symlink(output = reg_c, target_file = info.register_link_binaries)

    # The defines of nvcc -dlink's compile of link.stub; the stub includes
    # the two files by these names, found on the quote include path (the
    # stub's own directory is the copy's, where they are too).
    defines = [
        "FATBINFILE=\"%s\"" % fatbin_c.basename,
        "REGISTERLINKBINARYFILE=\"%s\"" % reg_c.basename,
        "__NV_EXTRA_INITIALIZATION=",
        "__NV_EXTRA_FINALIZATION=",
        "__CUDA_INCLUDE_COMPILER_INTERNAL_HEADERS__",
    ]
    _, outputs = cc_common.compile(
        name = ctx.label.name,
        actions = ctx.actions,
        feature_configuration = features,
        cc_toolchain = cc_toolchain,
        srcs = [src],
        private_hdrs = [fatbin_c, reg_c],
        quote_includes = [fatbin_c.dirname],
        defines = defines,
        compilation_contexts = [runtime.compilation_context],
    )

    # The stub refers to a __fatbinwrap_<module id> of each host object and
    # they call its __cudaRegisterLinkedBinary_<module id>: it is linked
    # whole (alwayslink), before the deps' libraries, then the runtime.
    linking_context, _ = cc_common.create_linking_context_from_compilation_outputs(
        actions = ctx.actions,
        feature_configuration = features,
        cc_toolchain = cc_toolchain,
        compilation_outputs = outputs,
        name = ctx.label.name,
        alwayslink = True,
        linking_contexts = [dep[CcInfo].linking_context for dep in ctx.attr.deps] +
                           [runtime.linking_context],
    )
    objects = outputs.pic_objects or outputs.objects
    return [
        DefaultInfo(files = depset(objects)),
        CcInfo(linking_context = linking_context),
    ]

cuda_link_stub = rule(
    implementation = _cuda_link_stub_impl,
    doc = "The host side of a device link, as nvcc -dlink makes it: the " +
          "toolkit's link.stub compiled with the C++ toolchain, with the " +
          "fatbin (.fatbin.c) and module list (.reg.c) of a " +
          "cuda_device_link, into an object that embeds the linked device " +
          "image and registers it with the CUDA runtime when the program " +
          "starts. Its CcInfo links that object whole, then deps (the " +
          "host objects of the device link) and the toolchain's CUDA " +
          "runtime: put it in the deps of a cc_binary.",
    attrs = {
        "deps": attr.label_list(
            providers = [CcInfo],
            doc = "The C++ libraries whose nvcc -dc objects the device " +
                  "link linked: linked after the stub, which refers to " +
                  "each of their modules.",
        ),
        "dlink": attr.label(
            mandatory = True,
            providers = [CudaDeviceLinkInfo],
            doc = "The cuda_device_link, with fatbin = True and " +
                  "register_link_binaries = True.",
        ),
        "_cc_toolchain": attr.label(
            default = Label("@bazel_tools//tools/cpp:current_cc_toolchain"),
        ),
    },
    fragments = ["cpp"],
    provides = [CcInfo],
    toolchains = [str(TOOLCHAIN_TYPE), _CC_TOOLCHAIN_TYPE],
)
