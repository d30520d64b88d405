#!/bin/sh
# Rebuild the filter gallery: data/gallery/before.jpg (the sample image) and
# one after-thumbnail per shipped filter at its default parameters, then
# regenerate the README's gallery table (between the gallery markers) from
# the filters' own titles, descriptions and parameter labels.
#   tools/make-gallery.sh [BUILD_DIR]      (default: build)
# Needs a built gegl-shaders CLI.  Thumbnails are 160x106 JPEGs: small
# enough for the repository, big enough to judge an effect.
set -eu

cd "$(dirname "$0")/.."
BUILD=${1:-build}
CLI=$BUILD/cli/gegl-shaders
OUT=data/gallery
SIZE=160x106
[ -x "$CLI" ] || { echo "make-gallery: build first ($CLI missing)" >&2; exit 1; }

mkdir -p "$OUT"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT INT TERM

# The identity shader gives the before-thumbnail through the same resampling.
printf 'sampler2D s0; float4 main (float2 uv : TEXCOORD0) : COLOR { return tex2D (s0, uv); }\n' \
  >"$tmp/identity.hlsl"
"$CLI" run "$tmp/identity.hlsl" --input data/sample.png --size $SIZE -o "$OUT/before.jpg"

# Bump Lighting reads a normal map from its second sampler: give it the one
# Normal Map makes from the sample, as the README suggests.
"$CLI" run filters/normal-map.hlsl --input data/sample.png -o "$tmp/normals.png"

for f in filters/*.hlsl filters/*.fx filters/*.asm; do
  stem=$(basename "${f%.*}")
  extra=""
  [ "$stem" = bump-light ] && extra="--texture 1=$tmp/normals.png"
  # shellcheck disable=SC2086
  "$CLI" run "$f" --input data/sample.png --size $SIZE $extra -o "$OUT/$stem.jpg"
done

python3 - <<'PY'
import glob, os, re

def meta(path):
    text = open(path, encoding="utf-8").read()
    head = dict((k.lower(), v.strip()) for k, v in
                re.findall(r"^//\s*([A-Za-z-]+):(.*)$", text, re.M))
    params = []
    for m in re.finditer(r"^\s*(?:uniform\s+)?(?:float[234]?|int|bool)\s+(\w+)\s*<([^>]*)>", text, re.M):
        label = re.search(r'UIName\s*=\s*"([^"]*)"', m.group(2))
        lo = re.search(r"UIMin\s*=\s*(-?[\d.]+)", m.group(2))
        hi = re.search(r"UIMax\s*=\s*(-?[\d.]+)", m.group(2))
        rng = f" ({lo.group(1)}–{hi.group(1)})" if lo and hi else ""
        params.append(f"`{m.group(1)}` {label.group(1) if label else ''}{rng}")
    for m in re.finditer(r"^//\s+float (\w+);", text, re.M):   # SM4 listings
        params.append(f"`{m.group(1)}`")
    return head, params

lang = {".hlsl": "HLSL", ".asm": "asm"}
rows = ["| | Filter | Parameters |", "| --- | --- | --- |"]
for path in sorted(glob.glob("filters/*.hlsl") + glob.glob("filters/*.fx") + glob.glob("filters/*.asm")):
    stem, ext = os.path.splitext(os.path.basename(path))
    head, params = meta(path)
    if ext == ".asm":
        version = re.search(r"^\s*(ps_\d_\d)", open(path).read(), re.M)
        kind = version.group(1) if version else "asm"
    elif ext == ".fx":
        kind = "effect file"
    else:
        kind = "HLSL (SM4 style)" if "Texture2D" in open(path).read() else "HLSL"
    rows.append(f"| ![{head.get('title', stem)}](data/gallery/{stem}.jpg) | "
                f"**{head.get('title', stem)}** `shader:{stem}` ({kind})<br>"
                f"{head.get('description', '')} | "
                f"{'<br>'.join(params) if params else '—'} |")
table = "\n".join(rows)
readme = open("README.md", encoding="utf-8").read()
start, end = "<!-- gallery:start -->", "<!-- gallery:end -->"
if start in readme and end in readme:
    before = readme.split(start)[0]
    after = readme.split(end)[1]
    readme = before + start + "\n" + table + "\n" + end + after
    open("README.md", "w", encoding="utf-8").write(readme)
    print("README.md: gallery table updated")
else:
    print(table)
PY
echo "Wrote $OUT/before.jpg and $(ls filters/*.hlsl filters/*.fx filters/*.asm | wc -l) thumbnails"
