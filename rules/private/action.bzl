"""The actions of a device link: one link per architecture, one fatbinary."""

# Execution requirements of CudaDeviceLink. The linker runs as a persistent
# (singleplex or multiplex) worker speaking Bazel's proto protocol, and
# honours cancellation; see the worker notes for what each key means.
EXECUTION_REQUIREMENTS = {
    "requires-worker-protocol": "proto",
    "supports-multiplex-workers": "1",
    "supports-worker-cancellation": "1",
    "supports-workers": "1",
}

def sm_number(arch):
    """Returns "80" for "sm_80"."""
    return arch[len("sm_"):]

def link_action(
        ctx,
        *,
        linker,
        arch,
        objects,
        output,
        register_link_binaries = None,
        kernels_used = [],
        debug = False,
        relocatable = False,
        linkopts = []):
    """Emits one CudaDeviceLink action.

    Every argument goes into a multiline param file (one argument per line,
    no quoting) passed as @file, the form a persistent worker receives its
    requests in. The action reads nothing but objects and writes nothing but
    output (and register_link_binaries).

    Args:
      ctx: the rule context.
      linker: FilesToRunProvider, the toolchain's linker.
      arch: "sm_NN".
      objects: depset of File, the inputs in link order.
      output: File, the linked cubin.
      register_link_binaries: File or None, for --register-link-binaries.
      kernels_used: list of string, for -kernels-used.
      debug: bool, -g.
      relocatable: bool, -r.
      linkopts: list of string, given after every other option.
    """
    args = ctx.actions.args()
    args.set_param_file_format("multiline")
    args.use_param_file("@%s", use_always = True)
    args.add("-arch=" + arch)
    args.add("-o", output)
    if debug:
        args.add("-g")
    if relocatable:
        args.add("-r")
    args.add_all(kernels_used, format_each = "-kernels-used=%s")
    outputs = [output]
    if register_link_binaries:
        args.add("--register-link-binaries", register_link_binaries)
        outputs.append(register_link_binaries)
    args.add_all(linkopts)
    args.add_all(objects)
    ctx.actions.run(
        executable = linker,
        arguments = [args],
        inputs = objects,
        outputs = outputs,
        mnemonic = "CudaDeviceLink",
        progress_message = "Device-linking %s for %s" % (output.short_path, arch),
        execution_requirements = EXECUTION_REQUIREMENTS,
    )

def fatbinary_action(ctx, *, fatbinary, cubins, output):
    """Emits the CudaFatbinary action that packs cubins into output.

    Args:
      ctx: the rule context.
      fatbinary: FilesToRunProvider, the toolchain's fatbinary.
      cubins: list of (arch, File) pairs in arch order.
      output: File, the fatbin.
    """
    args = ctx.actions.args()
    args.add("-64")
    args.add(output, format = "--create=%s")
    for arch, cubin in cubins:
        args.add(cubin, format = "--image3=kind=elf,sm=%s,file=%%s" % sm_number(arch))
    ctx.actions.run(
        executable = fatbinary,
        arguments = [args],
        inputs = [cubin for _, cubin in cubins],
        outputs = [output],
        mnemonic = "CudaFatbinary",
        progress_message = "Packing %s" % output.short_path,
    )
