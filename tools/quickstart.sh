#!/bin/sh
# One-command set-up for a fresh Debian 12 (run as root, or with sudo for
# the package step):
#   tools/quickstart.sh demo   install, build, render data/sample.png through
#                              a shader with the gegl tool into out.png
#   tools/quickstart.sh test   install, build, run the whole test suite and
#                              print one line "N passed, N failed, N skipped"
set -eu

cd "$(dirname "$0")/.."
BUILD=${BUILD:-build}

PACKAGES="meson ninja-build pkg-config gcc libglib2.0-dev libgegl-dev libbabl-dev gegl \
gettext python3 python3-gi gir1.2-gegl-0.4 valgrind \
libgexiv2-dev liblcms2-dev zlib1g-dev libjpeg-dev libimage-exiftool-perl slurm-wlm munge parallel"

install_packages () {
  missing=""
  for p in $PACKAGES; do
    dpkg -s "$p" >/dev/null 2>&1 || missing="$missing $p"
  done
  [ -z "$missing" ] && return 0
  echo "Installing:$missing"
  SUDO=""
  [ "$(id -u)" -eq 0 ] || SUDO=sudo
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq $missing >/dev/null
}

build () {
  if [ ! -f "$BUILD/build.ninja" ]; then
    meson setup "$BUILD" "$@"
  fi
  ninja -C "$BUILD"
}

# GEGL_PATH replaces GEGL's module path, so point it at a folder holding
# our module and GEGL's own.
module_path () {
  dir="$BUILD/gegl-path"
  rm -rf "$dir"
  mkdir -p "$dir"
  ln -sf "$(pwd)/$BUILD/plugin/gegl-shaders.so" "$dir/"
  sysdir=$(pkg-config --variable=pluginsdir gegl-0.4)
  for f in "$sysdir"/*; do ln -sf "$f" "$dir/"; done
  echo "$dir"
}

case "${1:-}" in
  demo)
    install_packages
    build
    GEGL_PATH=$(module_path) gegl data/sample.png -o out.png -- \
      shader:run file=filters/sepia-tone.hlsl params="amount=0.8"
    echo "Wrote out.png (data/sample.png through filters/sepia-tone.hlsl)"
    ;;
  test)
    install_packages
    build
    status=0
    meson test -C "$BUILD" --print-errorlogs --num-processes 2 || status=$?
    python3 tools/count-tests.py "$BUILD/meson-logs/testlog.json"
    exit $status
    ;;
  *)
    echo "usage: $0 demo|test" >&2
    exit 2
    ;;
esac
