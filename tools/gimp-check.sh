#!/bin/bash
# GIMP 3 with the module, as a person would see it: a private X server
# (Xvfb), GIMP on data/sample.png with a fresh profile, the module and the
# filters installed per user, driven with xdotool; screenshots of what
# matters.  tools/gimp3-check.sh runs this inside a Debian 13 root; on a
# machine that has GIMP >= 2.99.16 it runs as it is.
#
#   tools/gimp-check.sh OUTDIR MODULE FILTERS_DIR
#
# MODULE (gegl-shaders.so) goes into the per-user GEGL folder
# (XDG_DATA_HOME/gegl-0.4/plug-ins), FILTERS_DIR's files into the per-user
# filter folder (XDG_DATA_HOME/gegl-shaders/filters).  OUTDIR gets:
#   menu.png           Filters ▸ Shaders opened, with its submenus
#   dialog.png         a filter's dialog (Chromatic Aberration): its
#                      sliders and position, no error box
#   error.png          Run Pixel Shader after typing a shader that does not
#                      compile: the error box, shown while the dialog is open
#   runtime-error.png  the same after typing a loop that never ends
#   fixed.png          the same after typing a working shader: no box again
#   gimp.log           GIMP's stderr (the module logs nothing while a
#                      dialog shows its errors)
# The dialog needs more height while the error box shows and its first
# height again once the box is gone; the check measures that.  GIMP_CHECK_WAIT (default 1) scales the sleeps.
# Last line: "gimp-check: ok" (exit 0) or "gimp-check: FAIL: why" (exit 1).
set -u
OUT=${1:?usage: gimp-check.sh OUTDIR MODULE FILTERS_DIR}
MODULE=${2:?usage: gimp-check.sh OUTDIR MODULE FILTERS_DIR}
FILTERS=${3:?usage: gimp-check.sh OUTDIR MODULE FILTERS_DIR}
SRC=$(cd "$(dirname "$0")/.." && pwd)

fail () { echo "gimp-check: FAIL: $*"; exit 1; }
nap () { sleep "$(awk "BEGIN { print $1 * ${GIMP_CHECK_WAIT:-1} }")"; }

for tool in gimp Xvfb xdotool xprop import; do
  command -v $tool >/dev/null || fail "$tool is missing (Debian: gimp xvfb xdotool x11-utils imagemagick)"
done
version=$(gimp --version 2>/dev/null | grep -o '[0-9][0-9.]*' | head -1)
case "$version" in
  2.99.*|3.*|[4-9].*) ;;
  *) fail "GIMP $version lists GEGL ops under Filters only from 2.99.16 on" ;;
esac
mkdir -p "$OUT" && OUT=$(cd "$OUT" && pwd) || fail "cannot create $OUT"

# A fresh profile and per-user data; English.
T=$(mktemp -d /tmp/gimp-check.XXXXXX)
export HOME=$T/home XDG_DATA_HOME=$T/home/.local/share XDG_CONFIG_HOME=$T/home/.config \
       XDG_CACHE_HOME=$T/home/.cache GIMP3_DIRECTORY=$T/profile
export LC_ALL=C.UTF-8 LANGUAGE=C
unset GEGL_PATH GEGL_SHADERS_PATH
mkdir -p "$XDG_DATA_HOME/gegl-0.4/plug-ins" "$XDG_DATA_HOME/gegl-shaders/filters" "$GIMP3_DIRECTORY"
cp "$MODULE" "$XDG_DATA_HOME/gegl-0.4/plug-ins/" || fail "cannot copy $MODULE"
cp -r "$FILTERS"/. "$XDG_DATA_HOME/gegl-shaders/filters/" || fail "cannot copy $FILTERS"
# No welcome dialog, no update check over the network.
printf '(show-welcome-dialog no)\n(check-updates no)\n' >"$GIMP3_DIRECTORY/gimprc"
cp "$SRC/data/sample.png" "$T/sample.png"

XPID= GPID=
stop () { [ -n "$1" ] || return 0; kill "$1" 2>/dev/null
          for _ in $(seq 20); do kill -0 "$1" 2>/dev/null || break; sleep 0.25; done
          kill -9 "$1" 2>/dev/null; wait "$1" 2>/dev/null; }
cleanup () { stop "$GPID"; stop "$XPID"; cp "$T/gimp.log" "$OUT/" 2>/dev/null; rm -rf "$T"; }
trap cleanup EXIT
trap 'exit 2' INT TERM

Xvfb -displayfd 3 -screen 0 1280x1024x24 -nolisten tcp 3>"$T/display" >"$T/xvfb.log" 2>&1 & XPID=$!
for _ in $(seq 50); do [ -s "$T/display" ] && break; sleep 0.2; done
[ -s "$T/display" ] || fail "Xvfb did not start"
export DISPLAY=:$(head -1 "$T/display")

gimp --new-instance --no-splash "$T/sample.png" >"$T/gimp.log" 2>&1 & GPID=$!

# win REGEX [SECONDS]: the first visible window whose title matches.
win () { local w; for _ in $(seq $((${2:-20} * 4))); do
           w=$(xdotool search --onlyvisible --name "$1" 2>/dev/null | head -1)
           [ -n "$w" ] && { echo "$w"; return 0; }
           kill -0 "$GPID" 2>/dev/null || return 1; sleep 0.25; done; return 1; }
focus () { timeout 5 xdotool windowfocus --sync "$1" 2>/dev/null; nap 0.3; }
height () { xdotool getwindowgeometry "$1" | awk '/Geometry/ { split($2, g, "x"); print g[2] }'; }
# The height the dialog needs: GTK grows a window for new content but never
# shrinks it; the minimum size it hints to the window manager follows the
# content both ways.
needed () { xprop -id "$1" WM_NORMAL_HINTS | awk '/minimum size/ { print $NF }'; }
# A new dialog goes to the top of the screen, so that it can grow.
place () { xdotool windowmove "$1" 600 0; nap 0.5; }
shot () { import -window "$1" "$OUT/$2" || fail "screenshot $2 failed"; }

IMAGE=$(win '\[sample\] \(imported\)' 240) || fail "GIMP's image window did not appear (see gimp.log)"
echo "gimp-check: GIMP $version is up"
nap 3
# GIMP 3 greets a new profile whatever gimprc says.
if W=$(win '^Welcome to GIMP' 5); then focus "$W"; xdotool key Escape; nap 1; fi

# 1. Filters ▸ Shaders, with Light and Lens open.  GIMP puts submenus it does not know after its own
#    (in 3.0.4 Shaders is the last item of Filters), so Shaders is found
#    from the bottom: open the menu, walk up one item at a time and open
#    each submenu until its last item, "Run Pixel Shader..." (Shaders'
#    own item, after its submenus), opens that dialog.
menu_rows=
for up in $(seq 1 12); do
  focus "$IMAGE"; xdotool key Escape Escape alt+r; nap 0.5
  for _ in $(seq "$up"); do xdotool key Up; done
  xdotool key Right; nap 0.5
  xdotool key Up Return; nap 1
  if D=$(win '^Run Pixel Shader' 3); then menu_rows=$up; break; fi
  xdotool key Escape Escape Escape
done
[ -n "$menu_rows" ] || fail "no Run Pixel Shader... at the end of a submenu near the end of Filters"
focus "$D"; xdotool key Escape; nap 1   # closes the dialog again
focus "$IMAGE"; xdotool key Escape alt+r; nap 0.5
for _ in $(seq "$menu_rows"); do xdotool key Up; done
xdotool key Right; nap 0.3; xdotool key Down; nap 1
import -window root -crop 1240x800+0+0 +repage "$OUT/menu.png" || fail "menu screenshot failed"
xdotool key Escape Escape Escape; nap 0.5
echo "gimp-check: Filters ▸ Shaders is item $menu_rows from the bottom of Filters"

# 2. A filter's dialog, through the action search ("/").
open_action () {
  focus "$IMAGE"; xdotool key slash
  local s; s=$(win '^Search Actions$' 10) || fail "action search did not open"
  focus "$s"; xdotool type --delay 40 "$1"; nap 1.5; xdotool key Return
}
# GIMP has a Vignette of its own; our ops' dialogs name the op.
open_action "Chromatic Aberration"
D=$(win '\(shader:chromatic-aberration\)' 20) || fail "the Chromatic Aberration dialog did not open"
place "$D"; nap 3; shot "$D" dialog.png
echo "gimp-check: Chromatic Aberration dialog $(height "$D") px high, needs $(needed "$D")"
focus "$D"; xdotool key Escape; nap 1

# 3. Run Pixel Shader: type a broken shader, a runaway loop, a working
#    one into Shader source, the dialog's first widget (a text view below
#    the presets row).  Without a window manager a click does not move the
#    keyboard focus to the dialog, so it is focused first; a key typed
#    into the image window instead would pick a tool and close the
#    dialog.
open_action "Run Pixel Shader"
D=$(win '^Run Pixel Shader' 20) || fail "the Run Pixel Shader dialog did not open"
place "$D"; nap 2
read -r dx dy < <(xdotool getwindowgeometry "$D" | awk '/Position/ { split($2, p, ","); print p[1], p[2] }')
dw=$(xdotool getwindowgeometry "$D" | awk '/Geometry/ { split($2, g, "x"); print g[1] }')
h0=$(needed "$D")
type_source () {
  focus "$D"
  xdotool mousemove $((dx + dw / 2)) $((dy + ${GIMP_CHECK_SOURCE_Y:-170})) click 1; nap 0.3
  xdotool key ctrl+a BackSpace; nap 0.3
  local first=1 line
  while IFS= read -r line; do
    [ -n "$first" ] || xdotool key Return
    first=
    xdotool type --delay 15 "$line"
  done <<<"$1"
  nap 3
}
# Typed over several lines, so that the screenshots show the whole
# source; the newlines of `xdotool type` never reach GIMP's text view,
# so Return is pressed between the lines.
type_source $'float4 main (float2 uv : TEXCOORD0) : COLOR\n{\n  return tex2D (s0, uv) * gain;\n}'
h1=$(needed "$D"); shot "$D" error.png
type_source $'float4 main (float2 uv : TEXCOORD0) : COLOR\n{\n  float x = uv.x;\n  [loop] while (x >= 0)\n    x += 1;\n  return x;\n}'
h2=$(needed "$D"); shot "$D" runtime-error.png
type_source $'sampler2D s0;\nfloat4 main (float2 uv : TEXCOORD0) : COLOR\n{\n  float4 c = tex2D (s0, uv);\n  return c.bgra;\n}'
h3=$(needed "$D"); shot "$D" fixed.png
import -window root "$OUT/screen.png"
echo "gimp-check: Run Pixel Shader $h0 px high; broken source $h1, runaway loop $h2, fixed $h3"
[ "$h1" -gt "$h0" ] || fail "no error box appeared for the broken source (see error.png)"
[ "$h2" -gt "$h0" ] || fail "no error box appeared for the runaway loop (see runtime-error.png)"
[ "$h3" -eq "$h0" ] || fail "the error box stayed after the fix (see fixed.png)"
if grep -q 'gegl-shaders-WARNING' "$T/gimp.log"; then
  fail "the module logged while the dialog showed the errors (see gimp.log)"
fi
echo "gimp-check: ok"
