#!/usr/bin/env bash
# Runs a command in a chroot (the sid chroot of setup-bazel7.sh) without
# touching the host's own /dev, /proc or mount table:
#
#   chroot-run.sh ROOT [--bind DIR]... [--cwd DIR] -- COMMAND ARGS...
#   chroot-run.sh ROOT [--bind DIR]... --hold PIDFILE
#   chroot-run.sh ROOT --enter PID [--cwd DIR] -- COMMAND ARGS...
#
# --hold sets the namespace up as below and keeps it (a process that
# sleeps until killed, its pid in PIDFILE); --enter runs COMMAND in the
# namespace of that process (nsenter). Commands that must see the same
# mounts use one namespace so: a Bazel client in a namespace of its own
# does not keep the server another one started, but shuts it down.
#
# The command gets a mount namespace of its own (unshare), in which ROOT
# gets a private /dev (a tmpfs with null, zero, full, random, urandom and
# tty made with mknod, the fd and std* links, a tmpfs /dev/shm, a devpts
# instance of its own for apt's log), a fresh /proc, and each DIR
# bind-mounted at the same path. Nothing of the host's /dev is visible in
# the chroot, so nothing run there (or an rm -r of ROOT) can remove or
# replace the host's /dev/null. The mounts exist only in that
# namespace: the host never sees them, two runs at the same time each have
# their own, and they go away with the last process in the namespace (a
# Bazel server lives on in the namespace of the client that started it,
# and the --hold process keeps it for the commands that --enter it).
# The only change outside the namespace is a missing bind target made with
# mkdir -p under ROOT (the caller removes what it made). The command then
# runs in DIR --cwd (default /) as the same process (exec), so its pid is
# this script's. Root only.
set -euo pipefail

usage() {
  echo "usage: chroot-run.sh ROOT [--bind DIR]... [--cwd DIR] -- COMMAND ARGS..." >&2
  echo "       chroot-run.sh ROOT [--bind DIR]... --hold PIDFILE" >&2
  echo "       chroot-run.sh ROOT --enter PID [--cwd DIR] -- COMMAND ARGS..." >&2
  exit 2
}

innamespace=no
if [ "${1:-}" = --in-namespace ]; then
  innamespace=yes
  shift
fi
args=("$@")
[ $# -ge 1 ] || usage
root=$1
shift
binds=()
cwd=/
hold=""
enter=""
while [ $# -gt 0 ]; do
  case $1 in
  --bind | --cwd | --hold | --enter)
    [ $# -ge 2 ] || usage
    case $1 in
    --bind) binds+=("$2") ;;
    --cwd) cwd=$2 ;;
    --hold) hold=$2 ;;
    --enter) enter=$2 ;;
    esac
    shift 2
    ;;
  --)
    shift
    break
    ;;
  *) usage ;;
  esac
done
[ -n "$hold" ] || [ $# -ge 1 ] || usage
[ -x "$root/usr/bin/env" ] || {
  echo "chroot-run.sh: $root is not a chroot (no usr/bin/env)" >&2
  exit 1
}
if [ -n "$enter" ]; then
  exec nsenter --mount="/proc/$enter/ns/mnt" -- chroot "$root" /bin/sh -c 'cd "$1" && shift && exec "$@"' sh "$cwd" "$@"
fi
if [ $innamespace = no ]; then
  # Into a namespace whose mounts propagate nowhere, then again below.
  exec unshare --mount --propagation private -- "$BASH" "$0" --in-namespace "${args[@]}"
fi

# /dev: nothing of the host's. mknod needs nodev off on this tmpfs only.
mount -t tmpfs -o mode=0755,nosuid,noexec,size=1m cudalink-dev "$root/dev"
while read -r name major minor; do
  mknod -m 0666 "$root/dev/$name" c "$major" "$minor"
done <<EOF
null 1 3
zero 1 5
full 1 7
random 1 8
urandom 1 9
tty 5 0
EOF
ln -s /proc/self/fd "$root/dev/fd"
ln -s /proc/self/fd/0 "$root/dev/stdin"
ln -s /proc/self/fd/1 "$root/dev/stdout"
ln -s /proc/self/fd/2 "$root/dev/stderr"
mkdir -m 0755 "$root/dev/pts"
mount -t devpts -o newinstance,ptmxmode=0666,mode=0620 cudalink-pts "$root/dev/pts"
ln -s pts/ptmx "$root/dev/ptmx"
mkdir -m 1777 "$root/dev/shm"
mount -t tmpfs -o mode=1777,nosuid,nodev cudalink-shm "$root/dev/shm"
# /proc of this pid namespace (the Bazel client finds its server there).
mount -t proc -o nosuid,nodev,noexec proc "$root/proc"
for dir in "${binds[@]}"; do
  [ -d "$dir" ] || {
    echo "chroot-run.sh: --bind $dir: not a directory" >&2
    exit 1
  }
  mkdir -p "$root$dir"
  mount --bind "$dir" "$root$dir"
done

if [ -n "$hold" ]; then
  echo $$ >"$hold.tmp" && mv "$hold.tmp" "$hold"
  exec sleep infinity
fi
exec chroot "$root" /bin/sh -c 'cd "$1" && shift && exec "$@"' sh "$cwd" "$@"
