#!/bin/sh
# Regenerate po/gegl-shaders.pot from the C sources in POTFILES (xgettext)
# and the shipped filters' titles, descriptions, labels and tooltips
# (extract-filter-strings.py), then merge it into every catalogue in LINGUAS.
#   po/update-pot.sh          (run from anywhere; also: ninja update-pot)
#   po/update-pot.sh --template-only OUT.pot
#                             write the current template to OUT.pot and
#                             touch nothing in po/ (the completeness test)
set -eu
out_only=
if [ "${1:-}" = "--template-only" ]; then
  out_only=$(cd "$(dirname "$2")" && pwd)/$(basename "$2")
fi
cd "$(dirname "$0")/.."
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT INT TERM

xgettext --from-code=UTF-8 --add-comments=TRANSLATORS: \
  -k_ -kN_ -kC_:1c,2 -kNC_:1c,2 -kg_dngettext:2,3 \
  --package-name=gegl-shaders --msgid-bugs-address= \
  -f po/POTFILES -o "$tmp/code.pot"
python3 po/extract-filter-strings.py "$tmp/filters.pot" \
  $(ls filters/*.hlsl filters/*.fx filters/*.asm 2>/dev/null)
if [ -n "$out_only" ]; then
  msgcat --use-first "$tmp/code.pot" "$tmp/filters.pot" -o "$out_only"
  exit 0
fi
msgcat --use-first "$tmp/code.pot" "$tmp/filters.pot" -o po/gegl-shaders.pot
for lang in $(cat po/LINGUAS); do
  if [ -f "po/$lang.po" ]; then
    msgmerge --quiet --update --backup=none --no-fuzzy-matching "po/$lang.po" po/gegl-shaders.pot
  else
    msginit --no-translator --locale="$lang.UTF-8" -i po/gegl-shaders.pot -o "po/$lang.po"
  fi
done
