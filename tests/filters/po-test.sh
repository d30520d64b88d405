#!/bin/sh
# po-catalogues: every catalogue in po/LINGUAS compiles with msgfmt --check,
# POTFILES names every source that marks messages, every catalogue is
# complete against the current template, and the plugin shows a filter's
# title translated in a Dutch locale ("Sepia Tone" -> "Sepiatint"),
# reading the catalogue built in BUILD/po.
# The locale is made here (localedef, from Debian's `locales`): a machine
# need not have nl_NL.UTF-8, and LANGUAGE=nl under C.UTF-8 is no way
# round that, since glibc 2.41 ignores LANGUAGE under every C locale.
#   po-test.sh SRCDIR BUILDDIR MODULE SYSTEM_PLUGINS_DIR
set -eu
SRC=$1 BUILD=$2 MODULE=$3 SYSDIR=$4
WORK=$(mktemp -d "${TMPDIR:-/tmp}/gs-po-test.XXXXXX")
trap 'rm -rf "$WORK"' EXIT INT TERM

for lang in $(cat "$SRC/po/LINGUAS"); do
  msgfmt --check -o "$WORK/$lang.mo" "$SRC/po/$lang.po" \
    || { echo "FAIL: po/$lang.po does not compile" >&2; exit 1; }
done
echo "all $(wc -l <"$SRC/po/LINGUAS") catalogues compile"

# Every host source that marks a message for translation is in POTFILES,
# or its messages would never reach a catalogue.
missing=""
for f in $(cd "$SRC" && grep -l '_ *("' cli/*.c host/*.c plugin/*.c); do
  grep -qx "$f" "$SRC/po/POTFILES" || missing="$missing $f"
done
if [ -n "$missing" ]; then
  echo "FAIL: these sources mark messages with _() but are not in po/POTFILES:$missing" >&2
  exit 1
fi
echo "po/POTFILES lists every source with translatable messages"

# Complete against the template the sources give now (not the committed
# one, which could be stale): no untranslated and no fuzzy entries.
sh "$SRC/po/update-pot.sh" --template-only "$WORK/current.pot" 2>/dev/null
for lang in $(cat "$SRC/po/LINGUAS"); do
  msgmerge --quiet --no-fuzzy-matching -o "$WORK/$lang.po" "$SRC/po/$lang.po" "$WORK/current.pot"
  stats=$(msgfmt --statistics -o /dev/null "$WORK/$lang.po" 2>&1)
  case "$stats" in
    *untranslated*|*fuzzy*)
      echo "FAIL: po/$lang.po is incomplete: $stats (run po/update-pot.sh and translate)" >&2
      exit 1 ;;
  esac
done
echo "all catalogues translate every message of the current template"

# GEGL_PATH replaces GEGL's module path: our module plus GEGL's own.
mkdir "$WORK/modules"
ln -s "$MODULE" "$WORK/modules/"
for f in "$SYSDIR"/*; do ln -s "$f" "$WORK/modules/"; done

mkdir "$WORK/locale"
localedef -i nl_NL -f UTF-8 "$WORK/locale/nl_NL.UTF-8" >"$WORK/localedef.log" 2>&1 ||
  [ -f "$WORK/locale/nl_NL.UTF-8/LC_MESSAGES/SYS_LC_MESSAGES" ] || {
    echo "FAIL: cannot make the nl_NL.UTF-8 locale (needs localedef and the" \
         "locale sources of Debian's package locales):" >&2
    tail -3 "$WORK/localedef.log" >&2
    exit 1; }

title=$(env -u LANGUAGE GEGL_PATH="$WORK/modules" GEGL_SHADERS_PATH="$SRC/filters" \
        GEGL_SHADERS_LOCALEDIR="$BUILD/po" GEGL_SWAP=RAM \
        LOCPATH="$WORK/locale" LC_ALL=nl_NL.UTF-8 /usr/bin/python3 -c '
import locale
locale.setlocale(locale.LC_ALL, "")   # as GIMP does; Python alone sets only LC_CTYPE
import gi
gi.require_version("Gegl", "0.4")
from gi.repository import Gegl
Gegl.init(None)
print(Gegl.Operation.get_key("shader:sepia-tone", "title"))
')
if [ "$title" != "Sepiatint" ]; then
  echo "FAIL: under LC_ALL=nl_NL.UTF-8 shader:sepia-tone has the title '$title', expected 'Sepiatint'" >&2
  exit 1
fi
echo "LC_ALL=nl_NL.UTF-8: shader:sepia-tone is titled '$title'"
