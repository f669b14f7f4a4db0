"""The action of a device link: one linker run for every architecture."""

# Execution requirements of CudaDeviceLink. The linker runs as a persistent
# (singleplex or multiplex) worker speaking Bazel's proto protocol, and
# honours cancellation; see the worker notes for what each key means.
EXECUTION_REQUIREMENTS = {
    "requires-worker-protocol": "proto",
    "supports-multiplex-workers": "1",
    "supports-worker-cancellation": "1",
    "supports-workers": "1",
}

def _multi_arch_output(arches, cubins):
    """Returns the -o path of a multi-architecture link.

    With several -arch values the linker writes each cubin beside -o, with
    ".sm_NN" before its extension: -o x/name.cubin gives x/name.sm_80.cubin.
    -o itself is not written, so it is a path string, not a declared output.
    """
    first = "." + arches[0] + ".cubin"
    if not cubins[0].path.endswith(first):
        fail("internal error: %s does not end in %s" % (cubins[0].path, first))
    stem = cubins[0].path[:-len(first)]
    for arch, cubin in zip(arches, cubins):
        if cubin.path != stem + "." + arch + ".cubin":
            fail("internal error: %s is not %s.%s.cubin" % (cubin.path, stem, arch))
    return stem + ".cubin"

def link_action(
        ctx,
        *,
        linker,
        cuda_version = "",
        ptxas = None,
        ptx_compiler = None,
        nvvm = None,
        nvvm_path = "",
        nvvm_helper = None,
        nvjitlink = None,
        lto = False,
        arches,
        objects,
        cubins,
        fatbin = None,
        embedded_fatbin = None,
        register_link_binaries = None,
        kernels_used = [],
        debug = False,
        relocatable = False,
        linkopts = []):
    """Emits the CudaDeviceLink action.

    One linker run links every architecture: -arch once per entry of arches.
    For one architecture -o names its cubin; for several, the linker writes
    NAME.sm_NN.cubin beside -o NAME.cubin, and needs a fatbinary output
    (--fatbin or --embedded-fatbin) to hold them. compute_NN arches, with
    no cubin, are a virtual link: no -o, and a fatbinary output with no
    image.

    Every argument goes into a multiline param file (one argument per line,
    no quoting) passed as @file, the form a persistent worker receives its
    requests in. The action reads nothing but objects and writes nothing but
    its declared outputs.

    Args:
      ctx: the rule context.
      linker: FilesToRunProvider, the toolchain's linker.
      cuda_version: string, the toolchain's cuda_version: --cuda-version
        when not empty.
      ptxas: FilesToRunProvider or None, the toolchain's ptxas: --ptxas and
        an input of the action.
      ptx_compiler: FilesToRunProvider or None, the toolchain's
        cudalink-ptxc: --ptx-compiler and a tool of the action.
      nvvm: depset of File or None, the toolchain's nvvm directory: inputs
        of an LTO link.
      nvvm_path: string, the -nvvmpath of nvvm.
      nvvm_helper: FilesToRunProvider or None, cudalink-nvvm: an LTO link
        gets --nvvm-helper and it as a tool.
      nvjitlink: File or None, libnvJitLink.so.12: an LTO link gets
        --nvjitlink and it as an input.
      lto: bool, -dlto -nvvmpath=nvvm_path (nvvm must be given).
      arches: list of "sm_NN", at least one; or of "compute_NN" only, for
        a virtual link (cubins empty, fatbin or embedded_fatbin given).
      objects: depset of File, the inputs in link order.
      cubins: list of File, the linked cubin of each of arches; with several,
        each must be NAME.sm_NN.cubin in one directory.
      fatbin: File or None, for --fatbin (required with several arches,
        unless embedded_fatbin is given).
      embedded_fatbin: File or None, for --embedded-fatbin.
      register_link_binaries: File or None, for --register-link-binaries.
      kernels_used: list of string, for -kernels-used.
      debug: bool, -g.
      relocatable: bool, --host-relocatable-link.
      linkopts: list of string, given after every other option.
    """
    virtual = not cubins
    if virtual:
        if not fatbin and not embedded_fatbin:
            fail("internal error: a virtual link needs a fatbinary output")
        for arch in arches:
            if not arch.startswith("compute_"):
                fail("internal error: no cubin for %s" % arch)
    elif len(cubins) != len(arches):
        fail("internal error: %d cubins for %d architectures" % (len(cubins), len(arches)))
    multi = len(arches) > 1 and not virtual
    if multi and not fatbin and not embedded_fatbin:
        fail("internal error: a multi-architecture link needs a fatbinary output")
    if lto and not nvvm_path:
        fail("internal error: an LTO link without nvvm")

    args = ctx.actions.args()
    args.set_param_file_format("multiline")
    args.use_param_file("@%s", use_always = True)
    args.add_all(arches, format_each = "-arch=%s")
    if cuda_version:
        args.add("--cuda-version=" + cuda_version)
    tools = []
    if ptxas:
        args.add(ptxas.executable, format = "--ptxas=%s")
        tools.append(ptxas)
    if ptx_compiler:
        args.add(ptx_compiler.executable, format = "--ptx-compiler=%s")
        tools.append(ptx_compiler)
    inputs = objects
    if lto:
        args.add("-dlto")
        args.add("-nvvmpath=" + nvvm_path)
        extra = []
        if nvvm_helper:
            args.add(nvvm_helper.executable, format = "--nvvm-helper=%s")
            tools.append(nvvm_helper)
        if nvjitlink:
            args.add(nvjitlink, format = "--nvjitlink=%s")
            extra.append(nvjitlink)
        inputs = depset(extra, transitive = [objects, nvvm])
    if multi:
        args.add("-o", _multi_arch_output(arches, cubins))
    elif not virtual:
        args.add("-o", cubins[0])
    outputs = list(cubins)
    if fatbin:
        args.add("--fatbin", fatbin)
        outputs.append(fatbin)
    if embedded_fatbin:
        args.add("--embedded-fatbin", embedded_fatbin)
        outputs.append(embedded_fatbin)
    if debug:
        args.add("-g")
    if relocatable:
        args.add("--host-relocatable-link")
    args.add_all(kernels_used, format_each = "-kernels-used=%s")
    if register_link_binaries:
        args.add("--register-link-binaries", register_link_binaries)
        outputs.append(register_link_binaries)
    args.add_all(linkopts)
    args.add_all(objects)
    shown = (fatbin or embedded_fatbin) if multi or virtual else cubins[0]
    ctx.actions.run(
        executable = linker,
        tools = tools,
        arguments = [args],
        inputs = inputs,
        outputs = outputs,
        mnemonic = "CudaDeviceLink",
        progress_message = "Device-linking %s for %s" % (shown.short_path, ", ".join(arches)),
        execution_requirements = EXECUTION_REQUIREMENTS,
    )
