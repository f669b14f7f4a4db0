# Sourced by run.sh and ../worker/e2e.sh, after they define fail and finish
# and the failed counter, with what a skip leaves untested and their own
# arguments:
#
#   source tests/bazel/which-bazel.sh "the Bazel rules were" "$@"
#
# It picks the Bazel the checks run on: with --bazel7, Debian sid's Bazel
# 7.7.1 and bzlmod in the chroot scripts/setup-bazel7.sh builds (bazel7.sh,
# sourced here); else the bazel on PATH (Debian's 4.2.3). It sets bazel7 to
# yes or no, and ends the run (finish) with a SKIP line when that Bazel is
# not there, or with a failure when the chroot cannot be used. It defines
#
#   bazel_setup DIR   for Bazel 7, the offline setup in DIR (bazel7_start);
#                     sets rc, the --bazelrc of every bazel command
#                     (/dev/null for Bazel 4.2.3); ends the run on failure
#   bazel_stop        undoes bazel_setup (for the EXIT trap)

which_bazel_untested=$1
shift
bazel7=no
[ "${1:-}" = --bazel7 ] && bazel7=yes
rc=/dev/null

if [ $bazel7 = yes ]; then
  source "$(dirname "${BASH_SOURCE[0]}")/bazel7.sh"
  bazel7_check
  case $? in
  0) ;;
  2) finish ;;
  *)
    failed=$((failed + 1))
    finish
    ;;
  esac
elif ! command -v bazel >/dev/null 2>&1; then
  echo "SKIP: bazel is not installed; $which_bazel_untested NOT tested (scripts/setup.sh installs Bazel 4.2.3)"
  finish
fi

bazel_setup() {
  [ $bazel7 = yes ] || return 0
  if ! bazel7_start "$1"; then
    fail "the offline setup for Bazel 7"
    finish
  fi
  rc=$1/bazelrc7
}

bazel_stop() {
  if [ $bazel7 = yes ]; then bazel7_stop; fi
}
