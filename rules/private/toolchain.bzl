"""The cuda_device_linker_toolchain rule."""

load(":providers.bzl", "CudaDeviceLinkerInfo")

# The toolchain type, as a Label so that it names the cudalink repository
# whatever the repository that loads this file calls it.
TOOLCHAIN_TYPE = Label("//toolchain:toolchain_type")

def _cuda_device_linker_toolchain_impl(ctx):
    return [platform_common.ToolchainInfo(
        cudalink = CudaDeviceLinkerInfo(
            linker = ctx.attr.linker[DefaultInfo].files_to_run,
        ),
    )]

cuda_device_linker_toolchain = rule(
    implementation = _cuda_device_linker_toolchain_impl,
    doc = "A device-linker toolchain: the linker cuda_device_link runs. " +
          "Wrap it in a toolchain() of toolchain_type = " +
          "\"@cudalink//toolchain:toolchain_type\" and register that.",
    attrs = {
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
    },
)
