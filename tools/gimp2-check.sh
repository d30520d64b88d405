#!/bin/bash
# GIMP 2.10 with the module, as a person would see it: the counterpart of
# tools/gimp-check.sh (GIMP 3) for the GIMP of Debian 12.  A private X
# server (Xvfb), GIMP on data/sample.png with a fresh profile, the module
# installed per user, driven with xdotool: Tools ▸ GEGL Operation, Run
# Pixel Shader picked in its list of ops, then a broken shader, a loop
# that never ends and a working shader typed into Shader source while the
# dialog stays open.
#
#   tools/gimp2-check.sh OUTDIR MODULE
#
# MODULE (gegl-shaders.so) goes into the per-user GEGL folder
# (XDG_DATA_HOME/gegl-0.4/plug-ins).  OUTDIR gets error.png,
# runtime-error.png, fixed.png (the dialog after each) and gimp.log
# (GIMP's stderr).  GIMP_CHECK_WAIT (default 1) scales the sleeps.
# Last line: "gimp2-check: ok" (exit 0) or "gimp2-check: FAIL: why".
set -u
OUT=${1:?usage: gimp2-check.sh OUTDIR MODULE}
MODULE=${2:?usage: gimp2-check.sh OUTDIR MODULE}
SRC=$(cd "$(dirname "$0")/.." && pwd)

fail () { echo "gimp2-check: FAIL: $*"; exit 1; }
nap () { sleep "$(awk "BEGIN { print $1 * ${GIMP_CHECK_WAIT:-1} }")"; }

for tool in gimp Xvfb xdotool xprop import /usr/bin/python3; do
  command -v $tool >/dev/null || fail "$tool is missing (Debian: gimp xvfb xdotool x11-utils imagemagick python3-gi gir1.2-gegl-0.4)"
done
version=$(gimp --version 2>/dev/null | grep -o '[0-9][0-9.]*' | head -1)
case "$version" in
  2.10.*) ;;
  *) fail "GIMP $version is not 2.10 (tools/gimp-check.sh is for GIMP 3)" ;;
esac
mkdir -p "$OUT" && OUT=$(cd "$OUT" && pwd) || fail "cannot create $OUT"

T=$(mktemp -d /tmp/gimp2-check.XXXXXX)
export HOME=$T/home XDG_DATA_HOME=$T/home/.local/share XDG_CONFIG_HOME=$T/home/.config \
       XDG_CACHE_HOME=$T/home/.cache GIMP2_DIRECTORY=$T/profile
export LC_ALL=C.UTF-8 LANGUAGE=C
unset GEGL_PATH GEGL_SHADERS_PATH
mkdir -p "$XDG_DATA_HOME/gegl-0.4/plug-ins" "$GIMP2_DIRECTORY"
cp "$MODULE" "$XDG_DATA_HOME/gegl-0.4/plug-ins/" || fail "cannot copy $MODULE"
cp "$SRC/data/sample.png" "$T/sample.png"

# Run Pixel Shader's row in the GEGL Operation list.  GIMP 2.10 lists the
# GEGL ops sorted by title, leaving out its own (gimp*), some categories,
# and the ops it has tools or menu entries of its own for; this asks
# GEGL, with the module loaded as GIMP loads it, for the ops of that list
# (with the system Python, which has the GEGL bindings).
ROW=$(/usr/bin/python3 - 2>"$T/py.log" <<'EOF'
import gi
gi.require_version ('Gegl', '0.4')
from gi.repository import Gegl
Gegl.config ().set_property ('application-license', 'GPL3')
Gegl.init (None)
hidden_categories = set ('compositors core debug display hidden input output '
                         'programming transform video'.split ())
# GIMP 2.10's own tools and menu entries stand for these.
own = set ('gegl:' + n for n in '''alien-map antialias apply-lens bayer-matrix
 bloom bump-map c2g cartoon cell-noise channel-mixer checkerboard color
 color-enhance color-exchange color-rotate color-temperature color-to-alpha
 component-extract convolution-matrix cubism deinterlace
 difference-of-gaussians diffraction-patterns displace distance-transform
 dither dropshadow edge edge-laplace edge-neon edge-sobel emboss engrave
 exposure fattal02 focus-blur fractal-trace gaussian-blur
 gaussian-blur-selective gegl grid high-pass hue-chroma illusion
 image-gradient invert-linear invert-gamma lens-blur lens-distortion
 lens-flare linear-sinusoid long-shadow mantiuk06 maze mean-curvature-blur
 median-blur mirrors mono-mixer mosaic motion-blur-circular
 motion-blur-linear motion-blur-zoom newsprint noise-cie-lch noise-hsv
 noise-hurl noise-pick noise-reduction noise-rgb noise-slur noise-solid
 noise-spread normal-map oilify panorama-projection perlin-noise photocopy
 pixelize plasma polar-coordinates recursive-transform red-eye-removal
 reinhard05 rgb-clip ripple saturation sepia shadows-highlights shift
 simplex-noise sinus slic snn-mean softglow spherize spiral
 stereographic-projection stretch-contrast stretch-contrast-hsv stress
 supernova texturize-canvas tile-glass tile-paper tile-seamless
 unsharp-mask value-invert value-propagate variable-blur video-degradation
 vignette waterpixels wavelet-blur waves whirl-pinch wind contrast-curve
 convert-format ditto fill-path gray hstack introspect layer
 lcms-from-profile linear-gradient map-absolute map-relative matting-global
 matting-levin opacity path posterize radial-gradient rectangle
 seamless-clone text threshold tile unpremul vector-stroke'''.split ())
titles = {}
for op in Gegl.list_operations ():
    name = Gegl.Operation.get_key (op, 'name') or op
    cats = set ((Gegl.Operation.get_key (name, 'categories') or '').split (':'))
    if name.startswith ('gimp') or name in own or cats & hidden_categories:
        continue
    titles[name] = (Gegl.Operation.get_key (name, 'title') or name).encode ()
rows = sorted (titles, key=titles.get)     # GIMP compares with strcmp
print (rows.index ('shader:run'))
EOF
) || fail "shader:run is not in GIMP's list: $(tail -1 "$T/py.log")"

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

win () { local w; for _ in $(seq $((${2:-20} * 4))); do
           w=$(xdotool search --onlyvisible --name "$1" 2>/dev/null | head -1)
           [ -n "$w" ] && { echo "$w"; return 0; }
           kill -0 "$GPID" 2>/dev/null || return 1; sleep 0.25; done; return 1; }
focus () { timeout 5 xdotool windowfocus --sync "$1" 2>/dev/null; nap 0.3; }
needed () { xprop -id "$1" WM_NORMAL_HINTS | awk '/minimum size/ { print $NF }'; }
shot () { import -window "$1" "$OUT/$2" || fail "screenshot $2 failed"; }

IMAGE=$(win '\[sample\] \(imported\)' 240) || fail "GIMP's image window did not appear (see gimp.log)"
echo "gimp2-check: GIMP $version is up; Run Pixel Shader is row $ROW of GEGL Operation"
nap 3

# Tools ▸ GEGL Operation through the action search; its op list has the
# focus, Return opens it, Home and Down pick the row without making the
# ops in between.
focus "$IMAGE"; xdotool key slash
S=$(win '^Search Actions$' 10) || fail "action search did not open"
focus "$S"; xdotool type --delay 40 'GEGL Operation'; nap 1.5; xdotool key Return
D=$(win '^GEGL Operation$' 20) || fail "the GEGL Operation dialog did not open"
focus "$D"; xdotool key Return; nap 1
xdotool key Home; for _ in $(seq "$ROW"); do xdotool key Down; done; nap 0.3
xdotool key Return; nap 3
# At the top of the screen, so that it can grow (no window manager here).
xdotool windowmove "$D" 600 0; nap 1

read -r dx dy < <(xdotool getwindowgeometry "$D" | awk '/Position/ { split($2, p, ","); print p[1], p[2] }')
dw=$(xdotool getwindowgeometry "$D" | awk '/Geometry/ { split($2, g, "x"); print g[1] }')
h0=$(needed "$D")
# Shader source sits below the op list, its description and the presets.
type_source () {
  focus "$D"
  xdotool mousemove $((dx + dw / 2)) $((dy + ${GIMP_CHECK_SOURCE_Y:-245})) click 1; nap 0.3
  xdotool key ctrl+a BackSpace; nap 0.3
  local first=1 line
  while IFS= read -r line; do
    [ -n "$first" ] || xdotool key Return
    first=
    xdotool type --delay 15 "$line"
  done <<<"$1"
  nap 3
}
type_source $'float4 main (float2 uv : TEXCOORD0) : COLOR\n{\n  return tex2D (s0, uv) * gain;\n}'
h1=$(needed "$D"); shot "$D" error.png
type_source $'float4 main (float2 uv : TEXCOORD0) : COLOR\n{\n  float x = uv.x;\n  [loop] while (x >= 0)\n    x += 1;\n  return x;\n}'
h2=$(needed "$D"); shot "$D" runtime-error.png
type_source $'sampler2D s0;\nfloat4 main (float2 uv : TEXCOORD0) : COLOR\n{\n  float4 c = tex2D (s0, uv);\n  return c.bgra;\n}'
h3=$(needed "$D"); shot "$D" fixed.png
echo "gimp2-check: Run Pixel Shader $h0 px high; broken source $h1, runaway loop $h2, fixed $h3"
[ "$h1" -gt "$h0" ] || fail "no error box appeared for the broken source (see error.png)"
[ "$h2" -gt "$h0" ] || fail "no error box appeared for the runaway loop (see runtime-error.png)"
[ "$h3" -eq "$h0" ] || fail "the error box stayed after the fix (see fixed.png)"
if grep -q 'gegl-shaders-WARNING' "$T/gimp.log"; then
  fail "the module logged while the dialog showed the errors (see gimp.log)"
fi
echo "gimp2-check: ok"
