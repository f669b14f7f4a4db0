"""Stand-in for rules_shell: Bazel 7's native sh_test."""

sh_test = native.sh_test
