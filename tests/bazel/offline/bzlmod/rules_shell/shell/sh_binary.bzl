"""Stand-in for rules_shell: Bazel 7's native sh_binary."""

sh_binary = native.sh_binary
