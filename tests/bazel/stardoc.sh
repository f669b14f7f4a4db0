#!/usr/bin/env bash
# Regenerates docs/rules.md: stardoc (Debian's bazel-stardoc, under Bazel
# 7.7.1 in the sid chroot, offline, as run.sh --bazel7 sets it up) on the
# public API, rules/defs.bzl (//tests/bazel/doc:rules_md in a copy of the
# project). run.sh --bazel7 fails when docs/rules.md is not what this
# writes. Root only (the chroot); about a minute with the caches warm.
set -uo pipefail

root=$(cd "$(dirname "$0")/../.." && pwd)
source "$root/tests/bazel/bazel7.sh"
bazel7_check || exit 1

scratch=$(mktemp -d "${TMPDIR:-/tmp}/cudalink-stardoc.XXXXXX")
project=$scratch/project
cleanup() {
  (cd "$project" 2>/dev/null && bazel --output_user_root="$scratch/root" --bazelrc="$scratch/bazelrc7" shutdown >/dev/null 2>&1)
  bazel7_stop
  chmod -R u+w "$scratch" 2>/dev/null
  rm -rf "$scratch"
}
trap cleanup EXIT
mkdir -p "$project"
(cd "$root" && git ls-files -z --cached --others --exclude-standard | tar --null -T - --ignore-failed-read -cf - 2>/dev/null) |
  tar -C "$project" -xf -
bazel7_start "$scratch" || exit 1
if ! (cd "$project" && bazel --output_user_root="$scratch/root" --bazelrc="$scratch/bazelrc7" build --config=stardoc --color=no \
  --curses=no --noshow_progress //tests/bazel/doc:rules_md) >"$scratch/build.txt" 2>&1; then
  tail -30 "$scratch/build.txt"
  echo "stardoc.sh: bazel build //tests/bazel/doc:rules_md failed" >&2
  exit 1
fi
cp "$project/bazel-bin/tests/bazel/doc/rules.md" "$root/docs/rules.md"
echo "stardoc.sh: wrote docs/rules.md ($(grep -c '^## ' "$root/docs/rules.md") rules, macros and providers)"
