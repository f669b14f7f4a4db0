"""Analysis tests of cuda_device_link, through the public API only."""

load("@bazel_skylib//lib:unittest.bzl", "analysistest", "asserts")
load("@cudalink//rules:defs.bzl", "CudaDeviceLinkInfo", "CudaDeviceObjectsInfo")

_LINKER = "toolchain/cudalink"

_EXECUTION_REQUIREMENTS = {
    "requires-worker-protocol": "proto",
    "supports-multiplex-workers": "1",
    "supports-worker-cancellation": "1",
    "supports-workers": "1",
}

def _paths(files):
    return [f.path for f in (files.to_list() if type(files) == "depset" else files)]

def _bin(env, name):
    """Returns the path of an output of the test package."""
    return "%s/analysis/%s" % (analysistest.target_bin_dir_path(env), name)

def _actions(env, mnemonic):
    return [a for a in analysistest.target_actions(env) if a.mnemonic == mnemonic]

def _check_link(env, action, argv, inputs, outputs):
    """Checks one CudaDeviceLink action: command line, inputs, outputs."""
    asserts.equals(env, [_LINKER] + argv, action.argv)
    asserts.equals(env, sorted(inputs + [_LINKER]), sorted(_paths(action.inputs)))
    asserts.equals(env, sorted(outputs), sorted(_paths(action.outputs)))
    asserts.equals(env, {}, action.env or {}, "the action sets no environment")

    # Bazel 4.2.3's Action has no execution_info; aquery checks it there.
    info = getattr(action, "execution_info", None)
    if info != None:
        asserts.equals(env, _EXECUTION_REQUIREMENTS, info)

    for arg in action.argv:
        asserts.false(env, arg.startswith("/"), "absolute path in argv: " + arg)

def _single_arch_test_impl(ctx):
    env = analysistest.begin(ctx)
    target = analysistest.target_under_test(env)
    links = _actions(env, "CudaDeviceLink")
    asserts.equals(env, 1, len(links))
    out = _bin(env, "single.cubin")
    _check_link(
        env,
        links[0],
        argv = ["-arch=sm_80", "-o", out, "analysis/a.cubin", "analysis/b.o", "analysis/c.a"],
        inputs = ["analysis/a.cubin", "analysis/b.o", "analysis/c.a"],
        outputs = [out],
    )
    asserts.equals(env, [out], _paths(target[DefaultInfo].files))
    info = target[CudaDeviceLinkInfo]
    asserts.equals(env, ["sm_80"], info.arches)
    asserts.equals(env, out, info.cubins["sm_80"].path)
    asserts.equals(env, out, info.image.path)
    asserts.equals(env, None, info.fatbin)
    asserts.equals(env, None, info.register_link_binaries)
    asserts.equals(env, 0, len(_actions(env, "CudaFatbinary")))
    return analysistest.end(env)

single_arch_test = analysistest.make(_single_arch_test_impl)

def _options_test_impl(ctx):
    env = analysistest.begin(ctx)
    target = analysistest.target_under_test(env)
    links = _actions(env, "CudaDeviceLink")
    asserts.equals(env, 1, len(links))
    out = _bin(env, "options.cubin")
    reg = _bin(env, "options.reg.c")
    _check_link(
        env,
        links[0],
        argv = [
            "-arch=sm_90",
            "-o",
            out,
            "-g",
            "-r",
            "-kernels-used=k_main",
            "-kernels-used=k_other",
            "--register-link-binaries",
            reg,
            "-w",
            "-maxrregcount=64",
            "analysis/a.cubin",
        ],
        inputs = ["analysis/a.cubin"],
        outputs = [out, reg],
    )
    info = target[CudaDeviceLinkInfo]
    asserts.equals(env, reg, info.register_link_binaries.path)
    asserts.equals(env, [reg], _paths(target[OutputGroupInfo].register_link_binaries))
    return analysistest.end(env)

options_test = analysistest.make(_options_test_impl)

def _deps_once_test_impl(ctx):
    env = analysistest.begin(ctx)
    links = _actions(env, "CudaDeviceLink")
    asserts.equals(env, 1, len(links))
    out = _bin(env, "diamond.cubin")

    # Topological: a target's own objects before its deps', and the shared
    # archive of the diamond once, after both users.
    objects = ["analysis/top.cubin", "analysis/left.cubin", "analysis/right.o", "analysis/shared.a"]
    _check_link(
        env,
        links[0],
        argv = ["-arch=sm_80", "-o", out] + objects,
        inputs = objects,
        outputs = [out],
    )
    return analysistest.end(env)

deps_once_test = analysistest.make(_deps_once_test_impl)

def _objects_test_impl(ctx):
    env = analysistest.begin(ctx)
    target = analysistest.target_under_test(env)
    asserts.equals(
        env,
        ["analysis/left.cubin", "analysis/shared.a"],
        _paths(target[CudaDeviceObjectsInfo].objects),
    )
    asserts.equals(env, ["analysis/left.cubin"], _paths(target[DefaultInfo].files))
    return analysistest.end(env)

objects_test = analysistest.make(_objects_test_impl)

def _multi_arch_test_impl(ctx):
    env = analysistest.begin(ctx)
    target = analysistest.target_under_test(env)
    links = _actions(env, "CudaDeviceLink")
    asserts.equals(env, 2, len(links))
    cubins = [_bin(env, "multi.sm_80.cubin"), _bin(env, "multi.sm_86.cubin")]
    fatbin = _bin(env, "multi.fatbin")
    for action, arch, out in zip(links, ["sm_80", "sm_86"], cubins):
        _check_link(
            env,
            action,
            argv = ["-arch=" + arch, "-o", out, "analysis/a.cubin"],
            inputs = ["analysis/a.cubin"],
            outputs = [out],
        )
    packs = _actions(env, "CudaFatbinary")
    asserts.equals(env, 1, len(packs))
    asserts.equals(
        env,
        [
            "toolchain/fatbinary",
            "-64",
            "--create=" + fatbin,
            "--image3=kind=elf,sm=80,file=" + cubins[0],
            "--image3=kind=elf,sm=86,file=" + cubins[1],
        ],
        packs[0].argv,
    )
    asserts.equals(env, sorted(cubins + ["toolchain/fatbinary"]), sorted(_paths(packs[0].inputs)))
    asserts.equals(env, [fatbin], _paths(packs[0].outputs))
    asserts.equals(env, [fatbin], _paths(target[DefaultInfo].files))
    info = target[CudaDeviceLinkInfo]
    asserts.equals(env, ["sm_80", "sm_86"], info.arches)
    asserts.equals(env, fatbin, info.fatbin.path)
    asserts.equals(env, fatbin, info.image.path)
    asserts.equals(env, cubins, [info.cubins[a].path for a in info.arches])
    asserts.equals(env, cubins, _paths(target[OutputGroupInfo].cubins))
    return analysistest.end(env)

multi_arch_test = analysistest.make(_multi_arch_test_impl)

def _failure_test_impl(ctx):
    env = analysistest.begin(ctx)
    asserts.expect_failure(env, ctx.attr.message)
    return analysistest.end(env)

failure_test = analysistest.make(
    _failure_test_impl,
    expect_failure = True,
    attrs = {"message": attr.string(doc = "A part of the expected error.")},
)
