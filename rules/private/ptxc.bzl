"""The cuda_ptx_compiler macro: cudalink-ptxc, built by Bazel."""

load(":cc.bzl", "cc_binary")

# The program's source, in the cudalink repository whatever the repository
# that loads this file calls it (scripts/setup-ptxcompiler.sh builds the
# same program outside Bazel).
_SOURCE = Label("//toolchain:cudalink-ptxc.c")

def cuda_ptx_compiler(name, archive, **kwargs):
    """cudalink-ptxc: a CUDA toolkit's PTX compiler in one process, for a toolchain's ptx_compiler.

    The toolkit ships the ptxas that nvlink has built in as a static
    library, libnvptxcompiler_static.a (CUDA 11.8: Debian's nvidia-cuda-dev
    installs it in /usr/lib/x86_64-linux-gnu; NVIDIA's layout has it in
    lib64/). This macro links it into cudalink-ptxc (a cc_binary of
    toolchain/cudalink-ptxc.c, a small single-threaded C program), which the
    linker starts once per link with --ptx-compiler and sends every PTX
    input and LTO's PTX to, instead of running ptxas once per PTX input:
    the same bytes, less CPU time (docs/benchmarks.md).

    ```starlark
    cuda_ptx_compiler(
        name = "cudalink_ptxc_11_8",
        archive = "@cuda_11_8//:lib64/libnvptxcompiler_static.a",
    )

    cuda_device_linker_toolchain(
        name = "cuda_11_8_linker",
        ptx_compiler = ":cudalink_ptxc_11_8",
        ...
    )
    ```

    Args:
      name: the cc_binary's name.
      archive: the label of the toolkit's libnvptxcompiler_static.a. Use
        the release the objects are compiled with.
      **kwargs: passed on to the cc_binary (visibility, tags, ...).
    """
    cc_binary(
        name = name,
        srcs = [_SOURCE, archive],
        linkopts = [
            "-lpthread",
            "-lm",
            "-lrt",
            "-ldl",
        ],
        **kwargs
    )
