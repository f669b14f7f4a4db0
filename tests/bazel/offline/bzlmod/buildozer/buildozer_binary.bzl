"""Stand-in for buildozer's module extension, which @bazel_tools uses.

@buildozer_binary holds the buildozer named by --repo_env=CUDALINK_BUILDOZER
(run.sh --bazel7 builds the one tests/bazel/tools pins), which bazel mod tidy
runs; without it, a buildozer.exe that fails: bazel mod tidy cannot run
offline, everything else loads.
"""

def _repo_impl(rctx):
    rctx.file("BUILD.bazel", 'exports_files(["buildozer.exe"])\n')
    real = rctx.os.environ.get("CUDALINK_BUILDOZER", "")
    if real:
        rctx.symlink(real, "buildozer.exe")
        return
    rctx.file(
        "buildozer.exe",
        "#!/bin/sh\necho 'buildozer is not available offline (stand-in; set --repo_env=CUDALINK_BUILDOZER)' >&2\nexit 1\n",
        executable = True,
    )

_buildozer_binary_repo = repository_rule(
    implementation = _repo_impl,
    environ = ["CUDALINK_BUILDOZER"],
)

def _extension_impl(_mctx):
    _buildozer_binary_repo(name = "buildozer_binary")

buildozer_binary = module_extension(implementation = _extension_impl)
