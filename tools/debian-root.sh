#!/bin/sh
# Fresh Debian roots for trying the project where a new user would: the
# quick start on another release (CI runs it on Debian 13), and GIMP 3
# (tools/gimp3-check.sh).  Runs as root on a Debian host: debootstrap
# fetches the release once into a cached tarball, each root is unpacked
# from it.
#
#   tools/debian-root.sh new RELEASE DIR     DIR := a fresh minimal RELEASE root
#   tools/debian-root.sh run DIR CMD...      run CMD (a shell command line) as
#                                            root inside DIR, clean environment,
#                                            /proc, /sys and /dev mounted meanwhile
#   tools/debian-root.sh clone DIR           clean clone of this checkout's HEAD
#                                            into DIR/root/src/gegl-shaders (and
#                                            ../shared, when there is one, beside it)
#   tools/debian-root.sh quickstart RELEASE  a fresh root, a clean clone, and the
#                                            README's `tools/quickstart.sh test`
#                                            inside it; exits with its status
#
# RELEASE is a Debian code name (bookworm = 12, trixie = 13).  The cache
# and the roots live in ${GS_ROOTS:-/tmp/gegl-shaders-roots}; `quickstart`
# leaves its root there (ROOTS/quickstart-RELEASE) so that the caller can
# read build/meson-logs/testlog.json afterwards.
#
# The network: debootstrap (once) and the packages of the quick start
# (each time) come from the host's Debian mirror, or GS_DEBIAN_MIRROR.
# `quickstart` first asks the mirror for RELEASE's index, then fetches
# those packages into the fresh root without installing them (the .debs
# are kept in ROOTS/RELEASE-debs between runs, so a run downloads only
# what changed).  When the mirror cannot be reached or a download fails,
# it stops there with exit status 3 and a line "debian-root: OFFLINE:
# why", having tried nothing of the project.  Any other failure is the
# project's: status 1, or the quick start's own status.
set -eu

here=$(cd "$(dirname "$0")/.." && pwd)
ROOTS=${GS_ROOTS:-/tmp/gegl-shaders-roots}

die () { echo "debian-root: $*" >&2; exit 1; }
offline () { echo "debian-root: OFFLINE: $*" >&2; exit 3; }

# reachable URI RELEASE: the mirror answers for RELEASE's index within 30 s.
reachable () {
  python3 -c 'import sys, urllib.request
urllib.request.urlopen (sys.argv[1], timeout=30).read (1)' \
    "$1/dists/$2/InRelease" >/dev/null 2>&1
}

# The host's mirror, or GS_DEBIAN_MIRROR.
mirror () {
  [ -z "${GS_DEBIAN_MIRROR:-}" ] || { echo "$GS_DEBIAN_MIRROR"; return 0; }
  uri=$(awk '/^URIs:/ { print $2; exit }' /etc/apt/sources.list.d/debian.sources 2>/dev/null || true)
  [ -n "$uri" ] || uri=$(awk '/^deb / { print $2; exit }' /etc/apt/sources.list 2>/dev/null || true)
  echo "${uri:-http://deb.debian.org/debian}"
}

# The cached minbase tarball of RELEASE, made on first use.
base () {
  rel=$1 tar=$ROOTS/$1-base.tar
  [ -f "$tar" ] && return 0
  mkdir -p "$ROOTS"
  # A host whose package lists are stale or missing needs an update first.
  command -v debootstrap >/dev/null ||
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq debootstrap >/dev/null 2>&1 ||
    { apt-get update -qq && DEBIAN_FRONTEND=noninteractive \
        apt-get install -y -qq debootstrap >/dev/null; } ||
    die "cannot install debootstrap on this host (apt-get install debootstrap)"
  boot=$ROOTS/$rel-boot uri=$(mirror)
  rm -rf --one-file-system "$boot"
  echo "debian-root: debootstrap $rel from $uri (once)"
  # wget, under debootstrap, waits 15 minutes on a stalled read.
  timeout 1800 debootstrap --variant=minbase "$rel" "$boot" "$uri" \
      >"$ROOTS/$rel-boot.log" 2>&1 || {
    reachable "$uri" "$rel" ||
      offline "debootstrap $rel: $uri stopped answering; see $ROOTS/$rel-boot.log"
    die "debootstrap $rel failed; see $ROOTS/$rel-boot.log"; }
  printf 'deb %s %s main\ndeb %s %s-updates main\n' "$uri" "$rel" "$uri" "$rel" \
    >"$boot/etc/apt/sources.list"
  tar -C "$boot" -cf "$tar.part" . && mv "$tar.part" "$tar" && rm -rf --one-file-system "$boot"
}

unmount () {
  for m in dev/pts dev sys proc; do
    umount -l "$1/$m" 2>/dev/null || true
  done
}

new_root () {
  rel=$1 dir=$2
  base "$rel"
  unmount "$dir"
  for m in proc sys dev; do
    mountpoint -q "$dir/$m" 2>/dev/null && die "$dir/$m is still mounted"
  done
  rm -rf --one-file-system "$dir"
  mkdir -p "$dir"
  tar -C "$dir" -xf "$ROOTS/$rel-base.tar"
  cp /etc/resolv.conf "$dir/etc/resolv.conf" 2>/dev/null || true
}

mounted=
trap '[ -z "$mounted" ] || unmount "$mounted"' EXIT
trap 'exit 2' INT TERM

run_in () {
  dir=$1; shift
  [ -x "$dir/bin/sh" ] || die "$dir is no root"
  mounted=$dir
  mount -t proc proc "$dir/proc"
  mount -t sysfs sys "$dir/sys"
  mount --bind /dev "$dir/dev"
  mount --bind /dev/pts "$dir/dev/pts" 2>/dev/null || true
  status=0
  chroot "$dir" /usr/bin/env -i HOME=/root LANG=C.UTF-8 TERM=dumb \
    PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin \
    sh -c "$*" </dev/null || status=$?
  unmount "$dir"
  mounted=
  return $status
}

# The shared material beside the checkout (the conformance files) goes
# beside the clone too, as the suite expects it at ../shared.
clone () {
  dir=$1
  rm -rf "$dir/root/src/gegl-shaders" "$dir/root/src/shared"
  mkdir -p "$dir/root/src"
  git clone -q "$here" "$dir/root/src/gegl-shaders"
  if [ -d "$here/../shared" ]; then
    cp -r "$here/../shared" "$dir/root/src/shared"
  fi
}

# fetch RELEASE DIR: the quick start's packages downloaded into DIR's apt
# cache, not installed, from the kept .debs and the mirror; the kept set is
# then DIR's.  A package the release does not have is the project's
# failure; anything else going wrong here is the network's.
fetch () {
  rel=$1 dir=$2 debs=$ROOTS/$1-debs log=$ROOTS/$1-fetch.log
  arch=$dir/var/cache/apt/archives
  mkdir -p "$debs" "$arch"
  find "$debs" -name '*.deb' -exec cp {} "$arch/" \;
  packages=$("$here/tools/quickstart.sh" packages)
  if ! run_in "$dir" "apt-get update -qq && DEBIAN_FRONTEND=noninteractive \
         timeout 1200 apt-get install -y -qq --download-only $packages" >"$log" 2>&1; then
    if grep -q -E 'Unable to locate package|has no installation candidate' "$log"; then
      die "tools/quickstart.sh names a package Debian $rel does not have: $(grep -E '^E:' "$log" | head -1)"
    fi
    offline "fetching the quick start's packages for Debian $rel failed: $(grep -E '^(E|W):' "$log" | head -1) (see $log)"
  fi
  find "$debs" -name '*.deb' -delete
  find "$arch" -maxdepth 1 -name '*.deb' -exec cp {} "$debs/" \;
}

case "${1:-}" in
  new)        [ $# -eq 3 ] || die "usage: new RELEASE DIR"; new_root "$2" "$3" ;;
  run)        [ $# -ge 3 ] || die "usage: run DIR CMD..."; dir=$2; shift 2; run_in "$dir" "$@" ;;
  clone)      [ $# -eq 2 ] || die "usage: clone DIR"; clone "$2" ;;
  quickstart)
    [ $# -eq 2 ] || die "usage: quickstart RELEASE"
    rel=$2 dir=$ROOTS/quickstart-$2 uri=$(mirror)
    reachable "$uri" "$rel" ||
      offline "$uri/dists/$rel/InRelease cannot be fetched; no Debian $rel run"
    new_root "$rel" "$dir"
    clone "$dir"
    fetch "$rel" "$dir"
    echo "debian-root: tools/quickstart.sh test on a fresh Debian $2 ($(git -C "$here" rev-parse --short HEAD))"
    run_in "$dir" "cd /root/src/gegl-shaders && tools/quickstart.sh test"
    ;;
  *)
    sed -n '2,/^set -eu/p' "$0" | sed '$d; s/^# \{0,1\}//' >&2
    exit 2 ;;
esac
