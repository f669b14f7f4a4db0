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
    asserts.equals(env, None, info.embedded_fatbin)
    asserts.equals(env, None, info.register_link_binaries)
    asserts.equals(env, [out], _paths(target[OutputGroupInfo].cubins))
    asserts.false(env, hasattr(target[OutputGroupInfo], "fatbin"), "no fatbin output group")
    return analysistest.end(env)

single_arch_test = analysistest.make(_single_arch_test_impl)

def _single_fatbin_test_impl(ctx):
    env = analysistest.begin(ctx)
    target = analysistest.target_under_test(env)
    links = _actions(env, "CudaDeviceLink")
    asserts.equals(env, 1, len(links))
    out = _bin(env, "single_fatbin.cubin")
    fatbin = _bin(env, "single_fatbin.fatbin")
    fatbin_c = _bin(env, "single_fatbin.fatbin.c")
    _check_link(
        env,
        links[0],
        argv = [
            "-arch=sm_80",
            "-o",
            out,
            "--fatbin",
            fatbin,
            "--embedded-fatbin",
            fatbin_c,
            "analysis/b.o",
        ],
        inputs = ["analysis/b.o"],
        outputs = [out, fatbin, fatbin_c],
    )

    # The cubin stays the default output and the image.
    asserts.equals(env, [out], _paths(target[DefaultInfo].files))
    info = target[CudaDeviceLinkInfo]
    asserts.equals(env, out, info.image.path)
    asserts.equals(env, fatbin, info.fatbin.path)
    asserts.equals(env, fatbin_c, info.embedded_fatbin.path)
    groups = target[OutputGroupInfo]
    asserts.equals(env, [fatbin], _paths(groups.fatbin))
    asserts.equals(env, [fatbin_c], _paths(groups.embedded_fatbin))
    return analysistest.end(env)

single_fatbin_test = analysistest.make(_single_fatbin_test_impl)

def _virtual_arch_test_impl(ctx):
    env = analysistest.begin(ctx)
    target = analysistest.target_under_test(env)
    links = _actions(env, "CudaDeviceLink")
    asserts.equals(env, 1, len(links))
    fatbin = _bin(env, "virtual.fatbin")
    fatbin_c = _bin(env, "virtual.fatbin.c")
    reg = _bin(env, "virtual.reg.c")

    # No -o and no cubin: a virtual link writes the module list and, for
    # nvcc's fatbinary command, the fatbin outputs with no image.
    _check_link(
        env,
        links[0],
        argv = [
            "-arch=compute_80",
            "--fatbin",
            fatbin,
            "--embedded-fatbin",
            fatbin_c,
            "--register-link-binaries",
            reg,
            "analysis/b.o",
        ],
        inputs = ["analysis/b.o"],
        outputs = [fatbin, fatbin_c, reg],
    )
    asserts.equals(env, [fatbin], _paths(target[DefaultInfo].files))
    info = target[CudaDeviceLinkInfo]
    asserts.equals(env, ["compute_80"], info.arches)
    asserts.equals(env, {}, info.cubins)
    asserts.equals(env, fatbin, info.image.path)
    asserts.equals(env, fatbin_c, info.embedded_fatbin.path)
    asserts.equals(env, reg, info.register_link_binaries.path)
    asserts.equals(env, [], _paths(target[OutputGroupInfo].cubins))
    return analysistest.end(env)

virtual_arch_test = analysistest.make(_virtual_arch_test_impl)

def _mixed_arch_test_impl(ctx):
    env = analysistest.begin(ctx)
    target = analysistest.target_under_test(env)
    links = _actions(env, "CudaDeviceLink")
    asserts.equals(env, 1, len(links))
    out = _bin(env, "mixed.cubin")

    # The sm_80 link alone, as for arch = "sm_80".
    _check_link(
        env,
        links[0],
        argv = ["-arch=sm_80", "-o", out, "analysis/b.o"],
        inputs = ["analysis/b.o"],
        outputs = [out],
    )
    asserts.equals(env, [out], _paths(target[DefaultInfo].files))
    info = target[CudaDeviceLinkInfo]
    asserts.equals(env, ["sm_80", "compute_90"], info.arches)
    asserts.equals(env, ["sm_80"], info.cubins.keys())
    asserts.equals(env, out, info.image.path)
    asserts.equals(env, None, info.fatbin)
    return analysistest.end(env)

mixed_arch_test = analysistest.make(_mixed_arch_test_impl)

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
            "--host-relocatable-link",
            "-kernels-used=k_main",
            "-kernels-used=k_other",
            "--register-link-binaries",
            reg,
            "-w",
            "-maxrregcount=64",
            "-time",
            "-",
            "--map=-",
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

    # One action links both architectures and packs the fatbin: the cubins
    # go beside -o as multi.sm_NN.cubin; -o itself is not written.
    links = _actions(env, "CudaDeviceLink")
    asserts.equals(env, 1, len(links))
    cubins = [_bin(env, "multi.sm_80.cubin"), _bin(env, "multi.sm_86.cubin")]
    fatbin = _bin(env, "multi.fatbin")
    fatbin_c = _bin(env, "multi.fatbin.c")
    _check_link(
        env,
        links[0],
        argv = [
            "-arch=sm_80",
            "-arch=sm_86",
            "-o",
            _bin(env, "multi.cubin"),
            "--fatbin",
            fatbin,
            "--embedded-fatbin",
            fatbin_c,
            "analysis/a.cubin",
        ],
        inputs = ["analysis/a.cubin"],
        outputs = cubins + [fatbin, fatbin_c],
    )
    asserts.equals(env, 0, len(_actions(env, "CudaFatbinary")), "no fatbinary action")
    asserts.equals(env, [fatbin], _paths(target[DefaultInfo].files))
    info = target[CudaDeviceLinkInfo]
    asserts.equals(env, ["sm_80", "sm_86"], info.arches)
    asserts.equals(env, fatbin, info.fatbin.path)
    asserts.equals(env, fatbin_c, info.embedded_fatbin.path)
    asserts.equals(env, fatbin, info.image.path)
    asserts.equals(env, None, info.register_link_binaries)
    asserts.equals(env, cubins, [info.cubins[a].path for a in info.arches])
    groups = target[OutputGroupInfo]
    asserts.equals(env, cubins, _paths(groups.cubins))
    asserts.equals(env, [fatbin], _paths(groups.fatbin))
    asserts.equals(env, [fatbin_c], _paths(groups.embedded_fatbin))
    return analysistest.end(env)

multi_arch_test = analysistest.make(_multi_arch_test_impl)

def _multi_options_test_impl(ctx):
    env = analysistest.begin(ctx)
    target = analysistest.target_under_test(env)
    links = _actions(env, "CudaDeviceLink")
    asserts.equals(env, 1, len(links))

    # The architectures in the order given; the module list written once.
    cubins = [_bin(env, "multi_options.sm_90.cubin"), _bin(env, "multi_options.sm_80.cubin")]
    fatbin = _bin(env, "multi_options.fatbin")
    fatbin_c = _bin(env, "multi_options.fatbin.c")
    reg = _bin(env, "multi_options.reg.c")
    objects = ["analysis/b.o", "analysis/right.o", "analysis/shared.a"]
    _check_link(
        env,
        links[0],
        argv = [
            "-arch=sm_90",
            "-arch=sm_80",
            "-o",
            _bin(env, "multi_options.cubin"),
            "--fatbin",
            fatbin,
            "--embedded-fatbin",
            fatbin_c,
            "-g",
            "-kernels-used=k_main",
            "--register-link-binaries",
            reg,
            "-w",
        ] + objects,
        inputs = objects,
        outputs = cubins + [fatbin, fatbin_c, reg],
    )
    info = target[CudaDeviceLinkInfo]
    asserts.equals(env, ["sm_90", "sm_80"], info.arches)
    asserts.equals(env, cubins, [info.cubins[a].path for a in info.arches])
    asserts.equals(env, reg, info.register_link_binaries.path)
    asserts.equals(env, [reg], _paths(target[OutputGroupInfo].register_link_binaries))
    return analysistest.end(env)

multi_options_test = analysistest.make(_multi_options_test_impl)

def _cuda_version_test_impl(ctx):
    env = analysistest.begin(ctx)
    links = _actions(env, "CudaDeviceLink")
    asserts.equals(env, 1, len(links))
    out = _bin(env, "single_90a.cubin")
    _check_link(
        env,
        links[0],
        argv = ["-arch=sm_90a", "--cuda-version=12.4", "-o", out, "analysis/a.cubin"],
        inputs = ["analysis/a.cubin"],
        outputs = [out],
    )
    return analysistest.end(env)

# Under a toolchain that declares cuda_version = "12.4" (registered first
# with --extra_toolchains), every link gets --cuda-version=12.4.
cuda_version_test = analysistest.make(
    _cuda_version_test_impl,
    config_settings = {
        "//command_line_option:extra_toolchains": ["//toolchain:test_toolchain_cuda_12_4"],
    },
)

# The stand-in toolkit of the analysis package (analysis/toolkit), and the
# arguments its toolchain adds to every link.
_PTXAS = "analysis/toolkit/bin/ptxas"
_NVVM = ["analysis/toolkit/nvvm/libdevice/libdevice.10.bc", "analysis/toolkit/nvvm/lib64/libnvvm.so"]

# Under a toolchain with ptxas and nvvm (registered first with
# --extra_toolchains), a link of PTX gets --ptxas and ptxas as an input.
_TOOLKIT_TOOLCHAIN = {
    "//command_line_option:extra_toolchains": ["//analysis:toolkit_toolchain"],
}

def _ptxas_test_impl(ctx):
    env = analysistest.begin(ctx)
    links = _actions(env, "CudaDeviceLink")
    asserts.equals(env, 1, len(links))
    out = _bin(env, "single.cubin")
    objects = ["analysis/a.cubin", "analysis/b.o", "analysis/c.a"]
    _check_link(
        env,
        links[0],
        argv = ["-arch=sm_80", "--ptxas=" + _PTXAS, "-o", out] + objects,
        inputs = objects + [_PTXAS],
        outputs = [out],
    )
    return analysistest.end(env)

ptxas_test = analysistest.make(_ptxas_test_impl, config_settings = _TOOLKIT_TOOLCHAIN)

def _lto_test_impl(ctx):
    env = analysistest.begin(ctx)
    links = _actions(env, "CudaDeviceLink")
    asserts.equals(env, 1, len(links))
    out = _bin(env, "lto.cubin")

    # -nvvmpath names the directory above lib64/libnvvm.so; libnvvm and
    # libdevice are inputs of the LTO link only.
    _check_link(
        env,
        links[0],
        argv = [
            "-arch=sm_80",
            "--ptxas=" + _PTXAS,
            "-dlto",
            "-nvvmpath=analysis/toolkit/nvvm",
            "-o",
            out,
            "analysis/b.o",
        ],
        inputs = ["analysis/b.o", _PTXAS] + _NVVM,
        outputs = [out],
    )
    return analysistest.end(env)

lto_test = analysistest.make(_lto_test_impl, config_settings = _TOOLKIT_TOOLCHAIN)

def _cc_deps_test_impl(ctx):
    env = analysistest.begin(ctx)
    links = _actions(env, "CudaDeviceLink")
    asserts.equals(env, 1, len(links))
    out = _bin(env, "from_cc.cubin")

    # The objects of a cc_library (its prebuilt nvcc -dc objects), in its
    # srcs order, after the target's own srcs and those of a
    # cuda_device_objects dep.
    objects = ["analysis/top.cubin", "analysis/left.cubin", "analysis/shared.a", "analysis/b.o", "analysis/right.o"]
    _check_link(
        env,
        links[0],
        argv = ["-arch=sm_80", "-o", out] + objects,
        inputs = objects,
        outputs = [out],
    )
    return analysistest.end(env)

cc_deps_test = analysistest.make(_cc_deps_test_impl)

def _failure_test_impl(ctx):
    env = analysistest.begin(ctx)
    asserts.expect_failure(env, ctx.attr.message)
    return analysistest.end(env)

failure_test = analysistest.make(
    _failure_test_impl,
    expect_failure = True,
    attrs = {"message": attr.string(doc = "A part of the expected error.")},
)
