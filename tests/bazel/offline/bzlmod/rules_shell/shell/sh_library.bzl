"""Stand-in for rules_shell: Bazel 7's native sh_library."""

sh_library = native.sh_library
