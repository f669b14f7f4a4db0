"""The cuda_device_linker_toolchain rule."""

load(":providers.bzl", "CudaDeviceLinkerInfo")

# The toolchain type, as a Label so that it names the cudalink repository
# whatever the repository that loads this file calls it.
TOOLCHAIN_TYPE = Label("//toolchain:toolchain_type")

def _cuda_device_linker_toolchain_impl(ctx):
    fatbinary = None
    if ctx.attr.fatbinary:
        fatbinary = ctx.attr.fatbinary[DefaultInfo].files_to_run
    return [platform_common.ToolchainInfo(
        cudalink = CudaDeviceLinkerInfo(
            linker = ctx.attr.linker[DefaultInfo].files_to_run,
            fatbinary = fatbinary,
        ),
    )]

cuda_device_linker_toolchain = rule(
    implementation = _cuda_device_linker_toolchain_impl,
    doc = "A device-linker toolchain: the linker cuda_device_link runs, " +
          "and optionally a fatbinary tool. Wrap it in a toolchain() of " +
          "toolchain_type = \"@cudalink//toolchain:toolchain_type\" and " +
          "register that.",
    attrs = {
        "fatbinary": attr.label(
            executable = True,
            cfg = "exec",
            allow_files = True,
            doc = "A tool with NVIDIA fatbinary's command line, used to " +
                  "pack the cubins when a cuda_device_link lists several " +
                  "architectures. Optional: without it such links fail.",
        ),
        "linker": attr.label(
            mandatory = True,
            executable = True,
            cfg = "exec",
            allow_files = True,
            doc = "The device linker: cudalink (or any program with " +
                  "nvlink's command line that also reads @file " +
                  "arguments, one argument per line). A binary target " +
                  "or a prebuilt executable file.",
        ),
    },
)
