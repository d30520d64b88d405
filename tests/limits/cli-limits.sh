#!/bin/sh
# Run-time limits through the command-line tool: images whose header
# claims more pixels than the tool will allocate, viewports out of range,
# and a shader whose loops exceed the budget (one warning, pixels probed,
# exit 0).   usage: cli-limits.sh GEGL_SHADERS
set -u
GS=$1
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
fail=0
check () {   # NAME WANT_STATUS WANT_STDERR_LAST_LINE GOT_STATUS GOT_STDERR_FILE
  last=$(tail -n 1 "$5")
  if [ "$4" != "$2" ] || [ "$last" != "$3" ]; then
    echo "FAIL $1: status $4 (want $2), last line: $last"
    echo "     want: $3"
    fail=1
  else
    echo "ok $1"
  fi
}

cat > "$dir/id.hlsl" <<'HLSL'
sampler s0;
float4 main (float2 uv : TEXCOORD0) : COLOR { return tex2D (s0, uv); }
HLSL
# A valid PNG header announcing 100000×100000 pixels, with almost no data.
python3 - "$dir/huge.png" <<'PY'
import struct, sys, zlib
def chunk(t, d):
    return struct.pack('>I', len(d)) + t + d + struct.pack('>I', zlib.crc32(t + d) & 0xffffffff)
open(sys.argv[1], 'wb').write(b'\x89PNG\r\n\x1a\n'
    + chunk(b'IHDR', struct.pack('>IIBBBBB', 100000, 100000, 8, 2, 0, 0, 0))
    + chunk(b'IDAT', zlib.compress(b'\0' * 10)) + chunk(b'IEND', b''))
PY

"$GS" run "$dir/id.hlsl" -i "$dir/huge.png" -p 0,0 >"$dir/out" 2>"$dir/err"
check input-too-large 1 "gegl-shaders: error: image of 100000×100000 pixels is too large" $? "$dir/err"
"$GS" run "$dir/id.hlsl" -s 2x2 -t 1="$dir/huge.png" -p 0,0 >"$dir/out" 2>"$dir/err"
check texture-too-large 1 "gegl-shaders: error: image of 100000×100000 pixels is too large" $? "$dir/err"
"$GS" run "$dir/id.hlsl" -s 100000x100000 -p 0,0 >"$dir/out" 2>"$dir/err"
check size-too-large 2 "Try 'gegl-shaders help run'." $? "$dir/err"
grep -qx "gegl-shaders: error: --size expects WxH with both between 1 and 65536, got '100000x100000'" "$dir/err" \
  || { echo "FAIL size-too-large: message"; fail=1; }

cat > "$dir/nested.hlsl" <<'HLSL'
float4 main (float2 uv : TEXCOORD0) : COLOR
{
  float n = 0;
  for (int i = 0; i < 60000; i++)
    for (int j = 0; j < 60000; j++)
      for (int k = 0; k < 60000; k++)
        n += 1;
  return float4 (n > 60000, uv, 1);
}
HLSL
# The first span to hit the budget marks the run as running away and
# every later span runs each loop once, so which pixels got n > 60000
# depends on the threads: the probes show r 0 or 1 and every pixel written.
# The user is told once.
"$GS" run "$dir/nested.hlsl" -s 64x64 -j 2 -p 0,0 -p 63,63 >"$dir/out" 2>"$dir/err"
check budget 0 "<render>: warning: the shader ran more than 4194304 instructions per pixel; its loops were stopped" $? "$dir/err"
[ "$(wc -l < "$dir/err")" -eq 1 ] || { echo "FAIL budget: $(wc -l < "$dir/err") lines on stderr"; fail=1; }
got=$(sed 's/^\([0-9]* [0-9]*\) [01] /\1 R /' "$dir/out")
want="0 0 R 0.0078125 0.0078125 1
63 63 R 0.9921875 0.9921875 1"
[ "$got" = "$want" ] || { echo "FAIL budget: probes $(cat "$dir/out")"; fail=1; }
exit $fail
