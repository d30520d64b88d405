#!/bin/sh
# apply keeps what a photograph carries: its own ICC profile (byte for
# byte, even next to another profile of the same colours), its stored
# values (the filter sees the image's own space), EXIF, XMP and IPTC; it
# converts only when asked, strips only when asked.  Fixtures are real
# files: profiles made with Little CMS (the probe), tags written with
# exiftool, which then also reads the outputs back.
. "$(dirname "$0")/lib.sh"
PROBE=$2
case $PROBE in /*) ;; *) PROBE=$OLDPWD/$PROBE ;; esac
command -v exiftool >/dev/null \
  || fail "exiftool is missing (Debian libimage-exiftool-perl; tools/quickstart.sh installs it)"

# tag TAG FILE — one tag as exiftool prints it.
tag () { exiftool -s3 "-$1" "$2"; }
# expect_tags FILE TAG=VALUE… — one exiftool run checks them all ("-" is
# a missing tag).
expect_tags ()
{
  file=$1
  shift
  args=
  for kv; do args="$args -${kv%%=*}"; done
  # shellcheck disable=SC2086
  exiftool -s3 -f $args "$file" > tags.out
  i=1
  for kv; do
    got=$(sed -n "${i}p" tags.out)
    [ "$got" = "${kv#*=}" ] || fail "$file: ${kv%%=*} is '$got', expected '${kv#*=}'"
    i=$((i + 1))
  done
}
# near A B TOLERANCE — the integers of A and B (as far as the shorter goes)
# differ by at most TOLERANCE.
near ()
{
  echo "$1 | $2" | awk -v t="$3" '{
    split($0, s, "|"); na = split(s[1], a, " "); nb = split(s[2], b, " ");
    for (i = 1; i <= na && i <= nb; i++) { d = a[i] - b[i]; if (d < 0) d = -d; if (d > t) exit 1 }
  }' || fail "pixel $1 is not within $3 of $2"
}
# inverted "R G B A" (at MAX) — what invert.hlsl makes of stored values.
inverted () { echo "$1" | awk -v m="$2" '{ print m - $1, m - $2, m - $3, $4 }'; }

"$PROBE" profile adobe.icc adobe "Adobe RGB (compatible)"
"$PROBE" profile adobe2.icc adobe "Another Adobe RGB"
"$PROBE" profile wide.icc wide "Wide gamma 1.8"
cmp -s adobe.icc adobe2.icc && fail "the two Adobe profiles should differ"

# --- An Adobe RGB JPEG with camera, date, GPS, copyright, XMP and IPTC.
"$CLI" run patches.hlsl --size 32x32 -o photo.jpg
exiftool -q -overwrite_original "-ICC_Profile<=adobe.icc" \
  -Make=TestCam -Model="Model 1" -DateTimeOriginal="2021:05:06 07:08:09" \
  -GPSLatitude=51.5 -GPSLatitudeRef=N -GPSLongitude=0.125 -GPSLongitudeRef=W \
  -Copyright="(c) Somebody 2021" -XMP-dc:Creator="Alice" -IPTC:Keywords=harbour \
  -Orientation#=6 photo.jpg
# The same picture under a profile of the same colours but other bytes,
# and one with no profile at all.
cp photo.jpg other.jpg
exiftool -q -overwrite_original "-ICC_Profile<=adobe2.icc" other.jpg
"$CLI" run patches.hlsl --size 32x32 -o plain.jpg
exiftool -q -q -overwrite_original -ICC_Profile= plain.jpg
[ -z "$(tag ICC_Profile plain.jpg)" ] || fail "plain.jpg still has a profile"

run_cli 0 apply invert.hlsl photo.jpg other.jpg plain.jpg -o out
expect_grep log "3 written, 0 skipped, 0 failed"
exiftool -b -ICC_Profile out/photo.jpg > got.icc
cmp got.icc adobe.icc || fail "out/photo.jpg lost its own profile"
exiftool -b -ICC_Profile out/other.jpg > got2.icc
cmp got2.icc adobe2.icc || fail "out/other.jpg got another file's profile"
version=$(sed -n "s/^  version : '\(.*\)',/\1/p" "$SRCDIR/../../meson.build")
in_colour_space=$(tag ColorSpace photo.jpg)
# Camera, date, place and rights come through; Software and the size are
# this run's; not rotated, so the orientation stays; still Adobe RGB, so
# the colour space tag stays too.
expect_tags out/photo.jpg \
  "ProfileDescription=Adobe RGB (compatible)" \
  "Make=TestCam" \
  "Model=Model 1" \
  "DateTimeOriginal=2021:05:06 07:08:09" \
  "GPSLatitude=51 deg 30' 0.00\" N" \
  "GPSLongitude=0 deg 7' 30.00\" W" \
  "Copyright=(c) Somebody 2021" \
  "Creator=Alice" \
  "Keywords=harbour" \
  "Software=gegl-shaders $version" \
  "ExifImageWidth=32" \
  "ExifImageHeight=32" \
  "Orientation=Rotate 90 CW" \
  "ColorSpace=$in_colour_space"
expect_tags out/other.jpg \
  "ProfileDescription=Another Adobe RGB"
expect_tags out/plain.jpg \
  "ICC_Profile=-"
# The filter saw the stored values, not values converted to sRGB: invert
# gives 255 - k (within JPEG's rounding) at each patch's centre.
for xy in "8 8" "24 8" "8 24" "24 24"; do
  in=$("$PROBE" pixel photo.jpg $xy)
  out=$("$PROBE" pixel out/photo.jpg $xy)
  near "$out" "$(inverted "$in" 255)" 3
done

# --- --convert-to srgb: values converted by the profile, then filtered;
# the outputs embed the built-in sRGB profile and say so in EXIF.
run_cli 0 apply identity.hlsl --convert-to srgb photo.jpg plain.jpg -o srgb
expect_tags srgb/photo.jpg \
  "ProfileDescription=sRGB (gegl-shaders built-in)" \
  "ColorSpace=sRGB" \
  "Make=TestCam"
for xy in "8 8" "24 8" "8 24"; do
  in=$("$PROBE" pixel photo.jpg $xy)
  want=$(echo "$in" | awk '{ printf "%.6f %.6f %.6f", $1/255, $2/255, $3/255 }')
  want=$("$PROBE" convert adobe.icc srgb $want | awk '{
    for (i = 1; i <= 3; i++) { v = $i < 0 ? 0 : ($i > 1 ? 1 : $i); printf "%d ", v * 255 + 0.5 } }')
  out=$("$PROBE" pixel srgb/photo.jpg $xy)
  near "$out" "$want" 3
done
# An untagged input counts as sRGB: converting it changes no value.
near "$("$PROBE" pixel srgb/plain.jpg 8 8)" "$("$PROBE" pixel plain.jpg 8 8)" 2
# The built-in profile is the same bytes on every run, so re-runs write
# identical files.
run_cli 0 apply identity.hlsl --convert-to srgb photo.jpg -o srgb2
cmp srgb/photo.jpg srgb2/photo.jpg || fail "two conversions wrote different files"
# Any RGB profile is a target; a file that is none is refused up front.
run_cli 0 apply identity.hlsl --convert-to wide.icc photo.jpg --format png -o wide
exiftool -b -ICC_Profile wide/photo.png | cmp - wide.icc || fail "wide/photo.png does not embed wide.icc"
expect_tags wide/photo.png \
  "ColorSpace=Uncalibrated"
run_cli 1 apply identity.hlsl --convert-to photo.jpg photo.jpg -o nope
expect_grep errlog "gegl-shaders: error: 'photo.jpg' is not an ICC profile"
[ ! -e nope ] || fail "output folder created for a bad profile"

# --- --strip-metadata: the pixels and the profile, nothing else.
run_cli 0 apply invert.hlsl --strip-metadata photo.jpg -o strip
exiftool -b -ICC_Profile strip/photo.jpg | cmp - adobe.icc || fail "--strip-metadata dropped the profile"
for t in Make DateTimeOriginal GPSLatitude Copyright Creator Keywords; do
  [ -z "$(tag $t strip/photo.jpg)" ] || fail "--strip-metadata kept $t"
done

# --- A 16-bit PNG with a version 4 profile and EXIF/XMP.
"$CLI" run uv.hlsl --size 9x7 --depth 16 -o deep.png
exiftool -q -q -overwrite_original "-ICC_Profile<=wide.icc" -EXIF:Make=DeepCam \
  -EXIF:Copyright="(c) Deep" -EXIF:GPSLatitude=10.25 -EXIF:GPSLatitudeRef=S \
  -EXIF:DateTimeOriginal="2019:12:31 23:59:58" -XMP-dc:Creator=Bob \
  -PNG:Title="Deep field" -PNG:Author="Bob B" -PNG:Software="Old tool" deep.png
run_cli 0 apply invert.hlsl deep.png -o out
[ "$(od -An -tu1 -j24 -N1 out/deep.png | tr -d ' ')" = 16 ] || fail "deep.png lost its depth"
exiftool -b -ICC_Profile out/deep.png | cmp - wide.icc || fail "out/deep.png lost its profile"
expect_tags out/deep.png \
  "ProfileDescription=Wide gamma 1.8" \
  "Make=DeepCam" \
  "Copyright=(c) Deep" \
  "GPSLatitude=10 deg 15' 0.00\" S" \
  "DateTimeOriginal=2019:12:31 23:59:58" \
  "Creator=Bob"
# PNG's own text chunks too, with Software updated.
expect_tags out/deep.png \
  "PNG:Title=Deep field" \
  "PNG:Author=Bob B" \
  "PNG:Software=gegl-shaders $version"
# 16-bit values are exact: 65535 - k everywhere.
for xy in "0 0" "4 3" "8 6"; do
  in=$("$PROBE" pixel deep.png $xy)
  out=$("$PROBE" pixel out/deep.png $xy)
  [ "$out" = "$(inverted "$in" 65535)" ] || fail "deep.png ($xy): $out, expected $(inverted "$in" 65535)"
done

# --- An 8-bit TIFF with EXIF, kept as TIFF and written as PNG.
"$CLI" run uv.hlsl --size 12x10 --depth 8 -o scan.tif
exiftool -q -overwrite_original -Make=ScanCo -Model=S1 -Copyright="(c) Archive" \
  -DateTimeOriginal="1999:01:02 03:04:05" -GPSLatitude=48.8 -GPSLatitudeRef=N \
  -IPTC:Keywords=scan scan.tif
exiftool -b -ICC_Profile scan.tif > scan.icc
[ -s scan.icc ] || fail "scan.tif should carry the encoder's profile"
run_cli 0 apply invert.hlsl scan.tif -o out
run_cli 0 apply invert.hlsl scan.tif --format png -o out-png
for f in out/scan.tif out-png/scan.png; do
  expect_tags $f \
    "Make=ScanCo" \
    "Model=S1" \
    "Copyright=(c) Archive" \
    "DateTimeOriginal=1999:01:02 03:04:05" \
    "GPSLatitude=48 deg 48' 0.00\" N" \
    "Keywords=scan"
  exiftool -b -ICC_Profile $f | cmp - scan.icc || fail "$f lost the TIFF's profile"
done
expect_tags out/scan.tif \
  "BitsPerSample=8 8 8 8"
# The TIFF's structure tags do not leak into the PNG's EXIF.
[ -z "$(exiftool -s3 -EXIF:StripOffsets -EXIF:BitsPerSample out-png/scan.png)" ] \
  || fail "out-png/scan.png carries TIFF structure tags"
expect_tags out-png/scan.png \
  "ImageWidth=12"
for xy in "0 0" "11 9" "5 5"; do
  in=$("$PROBE" pixel scan.tif $xy)
  [ "$("$PROBE" pixel out/scan.tif $xy)" = "$(inverted "$in" 255)" ] || fail "out/scan.tif ($xy) is not 255 - k"
  [ "$("$PROBE" pixel out-png/scan.png $xy)" = "$(inverted "$in" 255)" ] || fail "out-png/scan.png ($xy) is not 255 - k"
done

# --- Formats that hold no EXIF get a warning, once.
run_cli 0 apply invert.hlsl photo.jpg deep.png --format pfm -o pfm
expect_grep errlog "gegl-shaders: warning: pfm files cannot hold EXIF, XMP or IPTC"
[ "$(grep -c 'gegl-shaders: warning' errlog)" = 1 ] || fail "the warning came more than once"
echo "metadata: all checks passed"
