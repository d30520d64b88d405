#!/bin/sh
# DESTDIR install of the whole project: the module lands in GEGL's plug-ins
# folder, the filters in the data folder, no JSON anywhere near a module,
# and the install log (what `ninja uninstall` removes) names every file
# installed, so uninstalling leaves nothing behind.
# Usage: install.sh BUILD_DIR PLUGIN_DIR FILTERS_DIR
set -eu
build=$1 plugindir=$2 filtersdir=$3
dest=$(mktemp -d)
log="$build/meson-logs/install-log.txt"
# Keep the build's own install log (a real install's uninstall list).
[ -f "$log" ] && cp "$log" "$dest.saved"
trap 'rm -rf "$dest"; if [ -f "$dest.saved" ]; then mv "$dest.saved" "$log"; else rm -f "$log"; fi' EXIT
meson install -C "$build" --no-rebuild --destdir "$dest" --quiet >/dev/null
fail=0
test -f "$dest$plugindir/gegl-shaders.so" || { echo "FAIL: module not in $plugindir"; fail=1; }
test -f "$dest$filtersdir/sepia-tone.hlsl" || { echo "FAIL: sepia-tone.hlsl not in $filtersdir"; fail=1; }
if find "$dest" -name '*.json' | grep -q .; then echo "FAIL: JSON installed"; fail=1; fi
# Every installed file is in the log that uninstall reads.
find "$dest" -type f -o -type l | sed "s|^$dest||" | sort > "$dest.files"
grep -v '^#' "$log" | sed "s|^$dest||" | sort > "$dest.log"
missing=$(comm -23 "$dest.files" "$dest.log")
rm -f "$dest.files" "$dest.log"
if [ -n "$missing" ]; then echo "FAIL: not in the install log: $missing"; fail=1; fi
[ $fail -eq 0 ] && echo "ok: install layout and uninstall log"
exit $fail
