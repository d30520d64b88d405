#!/bin/sh
# The module in GIMP 3 as a user of Debian 13 gets it: a Debian 13 root
# (made once with tools/debian-root.sh and kept), GIMP 3, Xvfb and xdotool
# in it, a clean clone of this checkout's HEAD built and installed per
# user with the README's commands, then tools/gimp-check.sh inside the
# root: Filters ▸ Shaders, a filter's dialog, and Run Pixel Shader with a
# broken source, each as a screenshot.  Run as root on a Debian host.
#
#   tools/gimp3-check.sh OUTDIR
#
# OUTDIR gets the screenshots and logs tools/gimp-check.sh writes (see
# there).  The root stays in ${GS_ROOTS:-/tmp/gegl-shaders-roots}/gimp3
# for the next run; delete it to start again from debootstrap.
set -eu

here=$(cd "$(dirname "$0")/.." && pwd)
out=${1:?usage: tools/gimp3-check.sh OUTDIR}
mkdir -p "$out" && out=$(cd "$out" && pwd)
ROOTS=${GS_ROOTS:-/tmp/gegl-shaders-roots}
root=$ROOTS/gimp3
dr=$here/tools/debian-root.sh

# What the quick start installs, plus GIMP and what drives it.
PACKAGES="meson ninja-build pkg-config gcc libglib2.0-dev libgegl-dev libbabl-dev \
gegl gettext python3 python3-gi gir1.2-gegl-0.4 git ca-certificates \
gimp xvfb xdotool x11-utils imagemagick fonts-dejavu-core"

if [ ! -f "$root/.gegl-shaders-ready" ] ||
   ! "$dr" run "$root" "dpkg -s $PACKAGES >/dev/null 2>&1"; then
  echo "gimp3-check: making the Debian 13 root with GIMP 3 (once)"
  [ -f "$root/.gegl-shaders-ready" ] || "$dr" new trixie "$root"
  "$dr" run "$root" "apt-get update -qq && DEBIAN_FRONTEND=noninteractive \
    apt-get install -y -qq --no-install-recommends $PACKAGES >/var/log/gegl-shaders-apt.log 2>&1" ||
    { echo "gimp3-check: installing GIMP 3 in the root failed (see $root/var/log/gegl-shaders-apt.log)"; exit 1; }
  touch "$root/.gegl-shaders-ready"
fi

# A clean checkout of HEAD; kept between runs (reset, not cloned again)
# so that the build below only recompiles what changed.
src=$root/root/src/gegl-shaders
if [ -d "$src/.git" ]; then
  git -C "$src" fetch -q "$here" HEAD && git -C "$src" reset -q --hard FETCH_HEAD &&
    git -C "$src" clean -qfdx
else
  "$dr" clone "$root"
fi
# The README's per-user install.
"$dr" run "$root" 'cd /root/src/gegl-shaders &&
  rm -rf "$HOME/.local/share/gegl-0.4" "$HOME/.local/share/gegl-shaders" &&
  { [ -f /root/build-user/build.ninja ] ||
    meson setup /root/build-user -Duser-install=true --prefix="$HOME/.local"; } >/root/build-user.log 2>&1 &&
  ninja -C /root/build-user install >>/root/build-user.log 2>&1' ||
  { echo "gimp3-check: the per-user build failed (see $root/root/build-user.log)"; exit 1; }

rm -rf "$root/root/gimp-check-out"
status=0
"$dr" run "$root" 'cd /root/src/gegl-shaders &&
  tools/gimp-check.sh /root/gimp-check-out \
    "$HOME/.local/share/gegl-0.4/plug-ins/gegl-shaders.so" \
    "$HOME/.local/share/gegl-shaders/filters"' || status=$?
cp -r "$root/root/gimp-check-out/." "$out/" 2>/dev/null || true
exit $status
