"""The cuda_device_linker_toolchain rule."""

load(":cc.bzl", CcInfo = "CC_INFO")
load(":providers.bzl", "CudaDeviceLinkerInfo")

# The toolchain type, as a Label so that it names the cudalink repository
# whatever the repository that loads this file calls it.
TOOLCHAIN_TYPE = Label("//toolchain:toolchain_type")

# Where libnvvm must be in the files of the nvvm attribute: -nvvmpath names
# the directory above it, as nvlink's does.
_LIBNVVM = "/lib64/libnvvm.so"

def _nvvm_path(label, files):
    """Returns the -nvvmpath directory of the nvvm attribute's files."""
    if not files:
        return ""
    dirs = [f.path[:-len(_LIBNVVM)] for f in files if f.path.endswith(_LIBNVVM)]
    if len(dirs) != 1:
        fail("nvvm of %s must hold exactly one lib64/libnvvm.so (the " % label +
             "toolkit's nvvm directory, with libdevice/libdevice.10.bc " +
             "beside lib64/); it holds %d: %s" %
             (len(dirs), ", ".join([f.path for f in files])))
    return dirs[0]

def _cuda_device_linker_toolchain_impl(ctx):
    nvvm = ctx.files.nvvm
    ptxas = ctx.attr.ptxas[DefaultInfo].files_to_run if ctx.attr.ptxas else None
    return [platform_common.ToolchainInfo(
        cudalink = CudaDeviceLinkerInfo(
            linker = ctx.attr.linker[DefaultInfo].files_to_run,
            cuda_version = ctx.attr.cuda_version,
            ptxas = ptxas,
            nvvm = depset(nvvm),
            nvvm_helper = ctx.attr.nvvm_helper[DefaultInfo].files_to_run if ctx.attr.nvvm_helper else None,
            nvvm_path = _nvvm_path(ctx.label, nvvm),
            nvjitlink = ctx.file.nvjitlink,
            ptx_compiler = ctx.attr.ptx_compiler[DefaultInfo].files_to_run if ctx.attr.ptx_compiler else None,
            link_stub = ctx.file.link_stub,
            runtime = ctx.attr.runtime[CcInfo] if ctx.attr.runtime else None,
        ),
    )]

cuda_device_linker_toolchain = rule(
    implementation = _cuda_device_linker_toolchain_impl,
    doc = "A device-linker toolchain: the linker cuda_device_link runs, " +
          "the toolkit's ptxas and libnvvm for the links that compile " +
          "(PTX inputs, LTO), as declared inputs, and its link.stub and " +
          "runtime for cuda_link_stub. Wrap it in a toolchain() " +
          "of toolchain_type = \"@cudalink//toolchain:toolchain_type\" " +
          "and register that.",
    attrs = {
        "cuda_version": attr.string(
            values = ["", "11.8", "12.4", "12.5"],
            doc = "The CUDA release whose nvlink the links reproduce: " +
                  "every link gets --cuda-version=<this>. Empty (the " +
                  "default): the linker takes the newest release that " +
                  "wrote an input (cubins record it in e_version). Set it " +
                  "to the toolkit the objects are compiled with to have an " +
                  "object of a newer one refused, as that nvlink does, " +
                  "and to have a link whose inputs hold no device code " +
                  "(g++ objects alone, which record no release) give " +
                  "that nvlink's empty cubin rather than 11.8's.",
        ),
        "linker": attr.label(
            mandatory = True,
            executable = True,
            cfg = "exec",
            allow_files = True,
            doc = "The device linker: cudalink, or a program with its " +
                  "command line (nvlink's, plus @file arguments of one " +
                  "argument per line, and --fatbin and --embedded-fatbin " +
                  "with several -arch values). A binary target or a " +
                  "prebuilt executable file.",
        ),
        "link_stub": attr.label(
            allow_single_file = True,
            doc = "The CUDA toolkit's crt/link.stub (bin/crt/link.stub in " +
                  "NVIDIA's layout): the registration code that " +
                  "cuda_link_stub (and cuda_binary) compile with a " +
                  "device link's .fatbin.c and .reg.c, as nvcc -dlink " +
                  "does. Optional: only cuda_link_stub needs it.",
        ),
        "nvvm": attr.label(
            allow_files = True,
            cfg = "exec",
            doc = "The CUDA toolkit's nvvm directory, as files: " +
                  "<dir>/lib64/libnvvm.so and <dir>/libdevice/" +
                  "libdevice.10.bc (a filegroup, or a glob of a " +
                  "repository that lays them out so). The links of " +
                  "cuda_device_link with lto = True get -nvvmpath=<dir> " +
                  "and these files as inputs. Use the release the objects " +
                  "are compiled with. Optional: without it, lto = True " +
                  "fails at analysis.",
        ),
        "nvjitlink": attr.label(
            allow_single_file = True,
            cfg = "exec",
            doc = "The CUDA 12 toolkit's lib64/libnvJitLink.so.12 (Debian: " +
                  "libnvjitlink12), which reads the NVVM IR that nvcc " +
                  "12.x stores encoded: LTO links get --nvjitlink=<its " +
                  "path> and the file as an input. Optional: without it " +
                  "the linker looks in nvvm's lib64/ and ../lib64/, " +
                  "which the action has only if nvvm holds it; CUDA " +
                  "11.8 objects never need it.",
        ),
        "nvvm_helper": attr.label(
            allow_single_file = True,
            executable = True,
            cfg = "exec",
            doc = "cudalink-nvvm, the helper process in which the " +
                  "linker loads libnvvm and libnvJitLink for LTO links " +
                  "(//linker/cmd/cudalink-nvvm, or a prebuilt file): " +
                  "LTO links get --nvvm-helper=<its path> and it as a " +
                  "tool, so that remote execution has it. Set it with a " +
                  "prebuilt linker; //linker/cmd/cudalink has the helper " +
                  "in its runfiles already.",
        ),
        "runtime": attr.label(
            providers = [CcInfo],
            doc = "The CUDA runtime as a C++ library (a cc_library): the " +
                  "headers link.stub includes (crt/host_defines.h, " +
                  "fatbinary_section.h) on its include path, and " +
                  "libcudart (static or shared) to link with. " +
                  "cuda_link_stub compiles with it and passes it on to " +
                  "the host link. Optional: only cuda_link_stub needs it.",
        ),
        "ptx_compiler": attr.label(
            allow_single_file = True,
            executable = True,
            cfg = "exec",
            doc = "cudalink-ptxc: the toolkit's PTX compiler " +
                  "(libnvptxcompiler_static.a, the ptxas nvlink has built " +
                  "in) in one process, a cuda_ptx_compiler target or a " +
                  "prebuilt file (scripts/setup.sh builds one). Every link " +
                  "gets --ptx-compiler=<its path> and it as a tool, and " +
                  "the linker compiles PTX inputs and LTO's PTX with it " +
                  "instead of running ptxas once per PTX input: the same " +
                  "bytes, less CPU time (docs/benchmarks.md). Use the " +
                  "release the objects are compiled with. Optional.",
        ),
        "ptxas": attr.label(
            allow_single_file = True,
            executable = True,
            cfg = "exec",
            doc = "The CUDA toolkit's ptxas: every link gets " +
                  "--ptxas=<its path> and the file as an input, and the " +
                  "linker runs it to compile what has no SASS for the " +
                  "target (PTX-only inputs) and the PTX of an LTO link. " +
                  "Use the release the objects are compiled with (nvlink's " +
                  "built-in ptxas is that release's). Optional: without " +
                  "it, such a link looks for ptxas on the PATH, which the " +
                  "action does not set, and fails saying so.",
        ),
    },
)

# The CUDA releases a toolchain can declare, and that the cuda_version flag
# selects toolchains by.
CUDA_VERSIONS = ["11.8", "12.4", "12.5"]

def _cuda_version_flag_impl(ctx):
    value = ctx.build_setting_value
    if value and value not in CUDA_VERSIONS:
        fail("%s is %r: write one of %s, or \"\" for the toolchain that " %
             (ctx.label, value, ", ".join(CUDA_VERSIONS)) +
             "declares no release")
    return []

cuda_version_flag = rule(
    implementation = _cuda_version_flag_impl,
    build_setting = config.string(flag = True),
    doc = "The command-line flag that picks the CUDA release of the " +
          "device-linker toolchain: --@cudalink//toolchain:cuda_version=" +
          "12.4 selects the toolchain() whose target_settings name " +
          "@cudalink//toolchain:cuda_12.4. Empty (the default): " +
          "@cudalink//toolchain:cuda_unset.",
)
