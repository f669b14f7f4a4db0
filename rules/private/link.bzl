"""The cuda_device_link rule and the macro that is its public face."""

load(":action.bzl", "link_action")
load(":cc.bzl", CcInfo = "CC_INFO")
load(":objects.bzl", "DEVICE_OBJECT_EXTENSIONS", "collect_objects")
load(":providers.bzl", "CudaDeviceLinkInfo", "CudaDeviceObjectsInfo")
load(":toolchain.bzl", "TOOLCHAIN_TYPE")

def _split_arches(arches):
    """Checks arch and returns its sm_ targets and its compute_ ones.

    As nvcc -dlink does with its targets, the rule links the sm_ ones, one
    cubin each, and links nothing for a compute_ one (PTX the driver
    JIT-links at run time): beside sm_ targets compute_ ones are dropped;
    alone, the link is a virtual one, which writes the module list and a
    fatbin with no image, as nvcc's nvlink --arch=compute_NN and
    fatbinary do then.
    """
    if not arches:
        fail("arch is empty: name the target architecture, e.g. arch = \"sm_80\"")
    sm = []
    virtual = []
    seen = {}
    for arch in arches:
        if arch.startswith("sm_"):
            digits = arch[len("sm_"):]
            if digits == "90a":
                digits = "90"  # CUDA 12's arch-specific Hopper target
            targets = sm
        elif arch.startswith("compute_"):
            digits = arch[len("compute_"):]
            targets = virtual
        else:
            digits = ""
            targets = None
        if not digits.isdigit():
            fail("arch %r is not an sm_ or compute_ architecture: write e.g. " % arch +
                 "arch = \"sm_80\" (SASS linked now), arch = [\"sm_80\", " +
                 "\"sm_86\"], or \"compute_80\" among them (PTX the driver " +
                 "JIT-links at run time, as nvcc -dlink links nothing for " +
                 "code=compute_80)")
        if arch in seen:
            fail("arch lists %r twice: list each architecture once" % arch)
        seen[arch] = True
        targets.append(arch)
    return sm, virtual

# Options the rule sets itself, by their name without dashes, and what to
# write instead: in linkopts they would name architectures or outputs the
# action does not declare.
_RULE_OPTIONS = {
    "arch": "list the architectures in arch",
    "cuda-version": "the toolchain's cuda_version sets it",
    "dlto": "set lto = True",
    "embedded-fatbin": "set fatbin = True",
    "fatbin": "set fatbin = True",
    "link-time-opt": "set lto = True",
    "lto": "set lto = True",
    "nvjitlink": "the toolchain's nvjitlink sets it",
    "nvvm-helper": "the toolchain's nvvm_helper sets it",
    "nvvmpath": "the toolchain's nvvm sets it",
    "o": "the outputs are named after the target",
    "output-file": "the outputs are named after the target",
    "ptx-compiler": "the toolchain's ptx_compiler sets it",
    "ptxas": "the toolchain's ptxas sets it",
    "register-link-binaries": "set register_link_binaries = True",
}

# Options that name a file of their own, which the linker would read or
# write beside the action's declared inputs and outputs, by their name
# without dashes: such a file is in no cache key, absent on a remote
# executor, dropped by the sandbox, and read from or left in the execution
# root by the worker. --time=- and --map=- (the times, the link map, on the
# action's output) are fine.
# tests/options checks that every option of cudalink --help that takes a
# file is here or in _RULE_OPTIONS.
_FILE_OPTIONS = {
    "cpuprofile": "write",
    "map": "write",
    "memprofile": "write",
    "optf": "read",
    "options-file": "read",
    "time": "write",
}

def _file_option_message(opt, value, what):
    if what == "read":
        return ("linkopts entry %r makes the linker read a file the action " % opt +
                "does not declare as an input (not in its cache key, absent " +
                "on a remote executor): give its options in linkopts themselves")
    return ("linkopts entry %r makes the linker write %r, which the action " % (opt, value) +
            "does not declare as an output (the sandbox drops it, the " +
            "worker leaves it in the execution root): run the linker by " +
            "hand on the action's parameter file, from the workspace " +
            "directory after a build, e.g. cudalink " +
            "@bazel-bin/<package>/<name>.cubin-0.params -o /tmp/x.cubin " +
            "%s (for --time or --map, =- prints them in the build's " % opt +
            "output)")

def _is_library_search(opt):
    """Says whether a linkopts entry is -l/-L (--library, --library-path).

    Spelt -lNAME, -l NAME, --library=NAME and so on; -lto is not one.
    """
    name = opt.lstrip("-").split("=", 1)[0]
    if name in ("library", "library-path", "l", "L"):
        return True
    return not opt.startswith("--") and opt[:2] in ("-l", "-L") and name not in _RULE_OPTIONS

def _check_linkopts(linkopts):
    for i, opt in enumerate(linkopts):
        if "\n" in opt or "\r" in opt:
            fail("linkopts entry %r holds a line break: give each option as its own list entry" % opt)
        if opt.startswith("@"):
            fail("linkopts entry %r would be read as an @file: give the options themselves" % opt)
        if opt.startswith("-"):
            name = opt.lstrip("-").split("=", 1)[0]
            if name in _RULE_OPTIONS:
                fail("linkopts entry %r sets an option the rule sets itself: %s" %
                     (opt, _RULE_OPTIONS[name]))
            if name in _FILE_OPTIONS:
                if "=" in opt:
                    value = opt.split("=", 1)[1]
                elif i + 1 < len(linkopts):
                    value = linkopts[i + 1]
                else:
                    value = ""
                if not (name in ("time", "map") and value == "-"):
                    fail(_file_option_message(opt, value, _FILE_OPTIONS[name]))
            if _is_library_search(opt):
                # What -l finds through -L is read from outside the
                # action's inputs: not in its cache key (a changed library
                # does not relink), absent on a remote executor.
                fail("linkopts entry %r makes the linker search directories " % opt +
                     "for a library, which the action does not declare as an " +
                     "input (not in its cache key, absent on a remote " +
                     "executor): " +
                     "give the archive itself in srcs, or in a " +
                     "cuda_device_objects target in deps (for -lcudadevrt, " +
                     "the toolkit's libcudadevrt.a, last)")

def _cuda_device_link_impl(ctx):
    sm_arches, virtual_arches = _split_arches(ctx.attr.arch)
    _check_linkopts(ctx.attr.linkopts)
    if not ctx.files.srcs and not ctx.attr.deps:
        fail("nothing to link: give device objects in srcs or targets in deps")
    virtual = not sm_arches
    if virtual and ctx.attr.lto:
        fail("lto = True with only compute_ targets (arch = %r): " % ctx.attr.arch +
             "a compute_ target links no device code, so there is nothing " +
             "to optimize; add an sm_ target or drop lto")
    tools = ctx.toolchains[TOOLCHAIN_TYPE].cudalink
    nvvm_path = getattr(tools, "nvvm_path", "")
    if ctx.attr.lto and not nvvm_path:
        fail("lto = True needs the CUDA toolkit's libnvvm: set nvvm (and " +
             "ptxas) on the cuda_device_linker_toolchain that links it, " +
             "or drop lto")
    name = ctx.label.name
    multi = len(sm_arches) > 1

    # One architecture: <name>.cubin. Several: <name>.sm_NN.cubin each, where
    # the linker puts them beside -o <name>.cubin. Only compute_ ones: no
    # cubin; the link's -arch values are those.
    if virtual:
        arches = virtual_arches
        cubins = []
    elif multi:
        arches = sm_arches
        cubins = [ctx.actions.declare_file("%s.%s.cubin" % (name, arch)) for arch in arches]
    else:
        arches = sm_arches
        cubins = [ctx.actions.declare_file(name + ".cubin")]
    fatbin = None
    embedded_fatbin = None
    if multi or virtual or ctx.attr.fatbin:
        fatbin = ctx.actions.declare_file(name + ".fatbin")
        embedded_fatbin = ctx.actions.declare_file(name + ".fatbin.c")
    register = None
    if ctx.attr.register_link_binaries:
        register = ctx.actions.declare_file(name + ".reg.c")

    link_action(
        ctx,
        linker = tools.linker,
        cuda_version = getattr(tools, "cuda_version", ""),
        ptxas = getattr(tools, "ptxas", None),
        ptx_compiler = getattr(tools, "ptx_compiler", None),
        nvvm = getattr(tools, "nvvm", None),
        nvvm_path = nvvm_path,
        nvvm_helper = getattr(tools, "nvvm_helper", None),
        nvjitlink = getattr(tools, "nvjitlink", None),
        lto = ctx.attr.lto,
        arches = arches,
        objects = collect_objects(ctx.files.srcs, ctx.attr.deps),
        cubins = cubins,
        fatbin = fatbin,
        embedded_fatbin = embedded_fatbin,
        register_link_binaries = register,
        kernels_used = ctx.attr.kernels_used,
        debug = ctx.attr.debug,
        relocatable = ctx.attr.relocatable,
        linkopts = ctx.attr.linkopts,
    )

    image = fatbin if multi or virtual else cubins[0]
    output_groups = {"cubins": depset(cubins)}
    if fatbin:
        output_groups["fatbin"] = depset([fatbin])
        output_groups["embedded_fatbin"] = depset([embedded_fatbin])
    if register:
        output_groups["register_link_binaries"] = depset([register])
    return [
        DefaultInfo(files = depset([image])),
        OutputGroupInfo(**output_groups),
        CudaDeviceLinkInfo(
            arches = list(ctx.attr.arch),
            cubins = dict(zip(sm_arches, cubins)),
            fatbin = fatbin,
            embedded_fatbin = embedded_fatbin,
            image = image,
            register_link_binaries = register,
        ),
    ]

cuda_device_link_rule = rule(
    implementation = _cuda_device_link_impl,
    doc = "Links device code into an executable cubin per architecture " +
          "(and a fatbin, with the C source that embeds it, when there " +
          "are several), as nvlink and fatbinary do for nvcc -dlink, in " +
          "one CudaDeviceLink action. compute_NN targets link nothing, " +
          "as with nvcc -dlink (the driver JIT-links the objects' PTX): " +
          "beside sm_ ones they are dropped; alone they give the fatbin " +
          "outputs with no image (and the module list). Use it through " +
          "the cuda_device_link macro, which also takes a single arch " +
          "string.",
    attrs = {
        "arch": attr.string_list(
            mandatory = True,
            doc = "The target architectures, \"sm_NN\" each: one linked " +
                  "cubin per entry, plus <name>.fatbin and " +
                  "<name>.fatbin.c when there are several. A " +
                  "\"compute_NN\" entry (PTX only, CMake's NN-virtual) is " +
                  "what nvcc -dlink -gencode arch=compute_NN,code=compute_NN " +
                  "makes of it: nothing is linked for it; with no sm_ " +
                  "entry, no cubin, and <name>.fatbin and <name>.fatbin.c " +
                  "hold no image (the driver JIT-links the objects' PTX " +
                  "when the program starts).",
        ),
        "debug": attr.bool(
            doc = "The inputs were compiled for debugging (nvcc -G): " +
                  "passes -g to the linker.",
        ),
        "deps": attr.label_list(
            providers = [[CudaDeviceObjectsInfo], [CcInfo]],
            doc = "Targets providing CudaDeviceObjectsInfo (such as " +
                  "cuda_device_objects) or CcInfo (a cc_library whose " +
                  "srcs are nvcc -dc objects, another rule set's " +
                  "relocatable device code): their objects are linked " +
                  "after srcs, transitively, each file once. Of a CcInfo, " +
                  "every library's object files (its archive when it has " +
                  "none), in the order of the host link.",
        ),
        "fatbin": attr.bool(
            doc = "For a single architecture, also write <name>.fatbin " +
                  "(--fatbin, as fatbinary --create) and <name>.fatbin.c " +
                  "(--embedded-fatbin, as fatbinary -link " +
                  "--embedded-fatbin). Several architectures always " +
                  "write them.",
        ),
        "kernels_used": attr.string_list(
            doc = "Keep only the kernels whose (mangled) name contains one " +
                  "of these strings: one -kernels-used=NAME each. Empty " +
                  "keeps every kernel.",
        ),
        "linkopts": attr.string_list(
            doc = "More linker options, placed after the ones the rule " +
                  "writes and before the input files, one argument per " +
                  "entry (e.g. [\"-w\"] or [\"-maxrregcount=64\"]). " +
                  "-l and -L (--library, --library-path) are refused: a " +
                  "library they find would be no declared input (not in " +
                  "the cache key, absent on a remote executor); put the " +
                  "archive, such as the toolkit's " +
                  "libcudadevrt.a, in srcs or in a cuda_device_objects " +
                  "in deps instead. So are the options that read or " +
                  "write a file of their own (--options-file, --map but --map=-, " +
                  "--time but --time=-, -cpuprofile, -memprofile), " +
                  "which the action would not declare. A misspelt option " +
                  "fails the link action with the linker's message.",
        ),
        "register_link_binaries": attr.bool(
            doc = "Also write <name>.reg.c with --register-link-binaries " +
                  "(the module list nvcc -dlink's link.stub registers): " +
                  "it is in CudaDeviceLinkInfo and in the " +
                  "register_link_binaries output group. Meant for host " +
                  "objects from nvcc -dc, listed by module id; a plain " +
                  "cubin is listed by its absolute path (as nvlink does), " +
                  "which ties the file to where the action ran.",
        ),
        "lto": attr.bool(
            doc = "Link-time optimization of objects compiled with nvcc " +
                  "-dc -dlto: -dlto -nvvmpath=<the toolchain's nvvm>, as " +
                  "nvcc -dlink -dlto runs nvlink. libnvvm optimizes the " +
                  "IR of every input that has it as one program, the " +
                  "toolchain's ptxas compiles the result, and it is " +
                  "linked with the other inputs. The toolchain must have " +
                  "nvvm and ptxas.",
        ),
        "relocatable": attr.bool(
            doc = "Pass --host-relocatable-link, as nvcc does for a " +
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

def cuda_device_link(name, arch = None, srcs = [], deps = [], **kwargs):
    """Links device objects into executable cubin(s) for arch.

    Args:
      name: the target; its default output is <name>.cubin for a single
        sm_ architecture, <name>.fatbin (with <name>.sm_NN.cubin for each
        one and <name>.fatbin.c) for several, or for compute_ ones only.
      arch: "sm_80", or a list such as ["sm_80", "sm_86"]; "compute_NN"
        entries link nothing, as with nvcc -dlink. Required: the default
        None only lets the rule report it missing, beside any misspelt
        attribute, rather than the macro.
      srcs: device objects (.cubin, nvcc -dc .o, .a).
      deps: targets providing CudaDeviceObjectsInfo or CcInfo.
      **kwargs: the other attributes of cuda_device_link_rule (kernels_used,
        debug, fatbin, lto, linkopts, relocatable, register_link_binaries)
        and the common ones (visibility, tags, ...).
    """
    if type(arch) == type(""):
        arch = [arch]
    if arch != None:
        kwargs["arch"] = arch

    # Without arch, the rule itself says it is missing, next to any
    # misspelt attribute (arhc = "sm_80") it names.
    cuda_device_link_rule(
        name = name,
        srcs = srcs,
        deps = deps,
        **kwargs
    )
