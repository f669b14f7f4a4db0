"""The cuda_device_link rule and the macro that is its public face."""

load(":action.bzl", "fatbinary_action", "link_action")
load(":objects.bzl", "DEVICE_OBJECT_EXTENSIONS", "collect_objects")
load(":providers.bzl", "CudaDeviceLinkInfo", "CudaDeviceObjectsInfo")
load(":toolchain.bzl", "TOOLCHAIN_TYPE")

def _check_arches(arches):
    if not arches:
        fail("arch is empty: name the target architecture, e.g. arch = \"sm_80\"")
    seen = {}
    for arch in arches:
        digits = arch[len("sm_"):] if arch.startswith("sm_") else ""
        if not digits.isdigit():
            fail("arch %r is not an sm_ architecture: write e.g. arch = \"sm_80\" " % arch +
                 "or arch = [\"sm_80\", \"sm_86\"]")
        if arch in seen:
            fail("arch lists %r twice: list each architecture once" % arch)
        seen[arch] = True

def _check_linkopts(linkopts):
    for opt in linkopts:
        if "\n" in opt or "\r" in opt:
            fail("linkopts entry %r holds a line break: give each option as its own list entry" % opt)
        if opt.startswith("@"):
            fail("linkopts entry %r would be read as an @file: give the options themselves" % opt)

def _cuda_device_link_impl(ctx):
    arches = ctx.attr.arch
    _check_arches(arches)
    _check_linkopts(ctx.attr.linkopts)
    if not ctx.files.srcs and not ctx.attr.deps:
        fail("nothing to link: give device objects in srcs or targets in deps")
    tools = ctx.toolchains[TOOLCHAIN_TYPE].cudalink
    multi = len(arches) > 1
    if multi and not tools.fatbinary:
        fail(("arch lists %d architectures, which needs a fatbinary tool, and the " +
              "registered cuda_device_linker_toolchain has none: set its fatbinary " +
              "attribute, or link one architecture per target") % len(arches))

    objects = collect_objects(ctx.files.srcs, ctx.attr.deps)
    register = None
    if ctx.attr.register_link_binaries:
        register = ctx.actions.declare_file(ctx.label.name + ".reg.c")

    cubins = []
    for i, arch in enumerate(arches):
        name = ctx.label.name + ("." + arch if multi else "") + ".cubin"
        cubin = ctx.actions.declare_file(name)
        link_action(
            ctx,
            linker = tools.linker,
            arch = arch,
            objects = objects,
            output = cubin,
            # The registration file names the linked objects, which are the
            # same for every architecture: the first link writes it.
            register_link_binaries = register if i == 0 else None,
            kernels_used = ctx.attr.kernels_used,
            debug = ctx.attr.debug,
            relocatable = ctx.attr.relocatable,
            linkopts = ctx.attr.linkopts,
        )
        cubins.append((arch, cubin))

    fatbin = None
    image = cubins[0][1]
    if multi:
        fatbin = ctx.actions.declare_file(ctx.label.name + ".fatbin")
        fatbinary_action(ctx, fatbinary = tools.fatbinary, cubins = cubins, output = fatbin)
        image = fatbin

    cubin_files = [cubin for _, cubin in cubins]
    output_groups = {"cubins": depset(cubin_files)}
    if fatbin:
        output_groups["fatbin"] = depset([fatbin])
    if register:
        output_groups["register_link_binaries"] = depset([register])
    return [
        DefaultInfo(files = depset([image])),
        OutputGroupInfo(**output_groups),
        CudaDeviceLinkInfo(
            arches = list(arches),
            cubins = {arch: cubin for arch, cubin in cubins},
            fatbin = fatbin,
            image = image,
            register_link_binaries = register,
        ),
    ]

cuda_device_link_rule = rule(
    implementation = _cuda_device_link_impl,
    doc = "Links device code into an executable cubin per architecture " +
          "(and a fatbin when there are several), as nvlink does. Use it " +
          "through the cuda_device_link macro, which also takes a single " +
          "arch string.",
    attrs = {
        "arch": attr.string_list(
            mandatory = True,
            doc = "The target architectures, \"sm_NN\" each: one linked " +
                  "cubin per entry, plus a fatbin when there are several.",
        ),
        "debug": attr.bool(
            doc = "The inputs were compiled for debugging (nvcc -G): " +
                  "passes -g to the linker.",
        ),
        "deps": attr.label_list(
            providers = [CudaDeviceObjectsInfo],
            doc = "Targets providing CudaDeviceObjectsInfo (such as " +
                  "cuda_device_objects): their device objects are linked " +
                  "after srcs, transitively, each file once.",
        ),
        "kernels_used": attr.string_list(
            doc = "Keep only the kernels whose (mangled) name contains one " +
                  "of these strings: one -kernels-used=NAME each. Empty " +
                  "keeps every kernel.",
        ),
        "linkopts": attr.string_list(
            doc = "More linker options, placed after the ones the rule " +
                  "writes and before the input files, one argument per " +
                  "entry (e.g. [\"-w\"] or [\"-maxrregcount=64\"]).",
        ),
        "register_link_binaries": attr.bool(
            doc = "Also write <name>.reg.c with --register-link-binaries " +
                  "(the file the host side compiles to register the linked " +
                  "objects); it is in CudaDeviceLinkInfo and in the " +
                  "register_link_binaries output group.",
        ),
        "relocatable": attr.bool(
            doc = "Pass -r (--host-relocatable-link), as nvcc does for a " +
                  "relocatable host link (nvcc -r).",
        ),
        "srcs": attr.label_list(
            allow_files = DEVICE_OBJECT_EXTENSIONS,
            doc = "Device objects to link, in order: relocatable cubins " +
                  "(.cubin), host objects compiled with nvcc -dc (.o), " +
                  "archives (.a).",
        ),
    },
    provides = [CudaDeviceLinkInfo],
    toolchains = [str(TOOLCHAIN_TYPE)],
)

def cuda_device_link(name, arch, srcs = [], deps = [], **kwargs):
    """Links device objects into executable cubin(s) for arch.

    Args:
      name: the target; its default output is <name>.cubin for a single
        architecture, <name>.fatbin (with <name>.sm_NN.cubin for each one)
        for several.
      arch: "sm_80", or a list such as ["sm_80", "sm_86"].
      srcs: device objects (.cubin, nvcc -dc .o, .a).
      deps: targets providing CudaDeviceObjectsInfo.
      **kwargs: the other attributes of cuda_device_link_rule (kernels_used,
        debug, linkopts, relocatable, register_link_binaries) and the
        common ones (visibility, tags, ...).
    """
    if type(arch) == type(""):
        arch = [arch]
    cuda_device_link_rule(
        name = name,
        arch = arch,
        srcs = srcs,
        deps = deps,
        **kwargs
    )
