"""The cuda_device_linker_toolchain rule."""

load(":providers.bzl", "CudaDeviceLinkerInfo")

# The toolchain type, as a Label so that it names the cudalink repository
# whatever the repository that loads this file calls it.
TOOLCHAIN_TYPE = Label("//toolchain:toolchain_type")

def _cuda_device_linker_toolchain_impl(ctx):
    return [platform_common.ToolchainInfo(
        cudalink = CudaDeviceLinkerInfo(
            linker = ctx.attr.linker[DefaultInfo].files_to_run,
            cuda_version = ctx.attr.cuda_version,
        ),
    )]

cuda_device_linker_toolchain = rule(
    implementation = _cuda_device_linker_toolchain_impl,
    doc = "A device-linker toolchain: the linker cuda_device_link runs. " +
          "Wrap it in a toolchain() of toolchain_type = " +
          "\"@cudalink//toolchain:toolchain_type\" and register that.",
    attrs = {
        "cuda_version": attr.string(
            values = ["", "11.8", "12.4", "12.5"],
            doc = "The CUDA release whose nvlink the links reproduce: " +
                  "every link gets --cuda-version=<this>. Empty (the " +
                  "default): the linker takes the newest release that " +
                  "wrote an input (cubins record it in e_version). Set it " +
                  "to the toolkit the objects are compiled with to have an " +
                  "object of a newer one refused, as that nvlink does.",
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
    },
)
