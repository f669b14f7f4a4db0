"""The rules_cc entry points @bazel_tools loads, forwarded to the native rules."""

def cc_binary(**kwargs):
    """Forwards to native.cc_binary."""
    native.cc_binary(**kwargs)  # buildifier: disable=native-cc-binary

def cc_library(**kwargs):
    """Forwards to native.cc_library."""
    native.cc_library(**kwargs)  # buildifier: disable=native-cc-library

def cc_test(**kwargs):
    """Forwards to native.cc_test."""
    native.cc_test(**kwargs)  # buildifier: disable=native-cc-test

def cc_proto_library(**kwargs):
    """Forwards to native.cc_proto_library."""
    native.cc_proto_library(**kwargs)  # buildifier: disable=native-cc-proto

def cc_toolchain(**kwargs):
    """Forwards to native.cc_toolchain."""
    native.cc_toolchain(**kwargs)  # buildifier: disable=native-cc-toolchain

def cc_toolchain_suite(**kwargs):
    """Forwards to native.cc_toolchain_suite."""
    native.cc_toolchain_suite(**kwargs)  # buildifier: disable=native-cc-toolchain-suite

def objc_library(**kwargs):
    """Forwards to native.objc_library."""
    native.objc_library(**kwargs)  # buildifier: disable=native-cc-objc-library
