"""The C++ rules' API the cudalink rules use, in one place.

Bazel 9 moves CcInfo, cc_common and cc_binary out of Bazel into rules_cc
(@rules_cc//cc/common:cc_info.bzl and so on). The rules still run on Bazel
4.2.3, whose rules_cc has none of those files, so they take Bazel's own
here; this file is what changes for Bazel 9.
"""

CC_INFO = CcInfo  # buildifier: disable=native-cc-info
CC_COMMON = cc_common  # buildifier: disable=native-cc-common

def cc_binary(**kwargs):
    """Bazel's cc_binary."""
    native.cc_binary(**kwargs)  # buildifier: disable=native-cc-binary
