"""Stand-in for buildozer's module extension, which @bazel_tools uses.

@buildozer_binary holds a buildozer.exe that fails: bazel mod tidy cannot
run offline, everything else loads.
"""

def _repo_impl(rctx):
    rctx.file("BUILD.bazel", 'exports_files(["buildozer.exe"])\n')
    rctx.file(
        "buildozer.exe",
        "#!/bin/sh\necho 'buildozer is not available offline (stand-in)' >&2\nexit 1\n",
        executable = True,
    )

_buildozer_binary_repo = repository_rule(implementation = _repo_impl)

def _extension_impl(_mctx):
    _buildozer_binary_repo(name = "buildozer_binary")

buildozer_binary = module_extension(implementation = _extension_impl)
