#!/usr/bin/env bash
# Refreshes the Qt Linguist sources from the code: pyside6-lupdate scans desktop_dedup/gui for
# self.tr()/QCoreApplication.translate() strings and merges them into each .ts, keeping existing
# translations and marking new strings "unfinished" for a translator (pyside6-linguist, or any
# text editor). Obsolete strings are dropped so the .ts only holds what the app still shows.
# Usage: packaging/update_translations.sh [VENV_DIR]
set -euo pipefail
here="$(cd "$(dirname "$0")/.." && pwd)"
venv="${1:-$here/.venv}"
lupdate="$venv/bin/pyside6-lupdate"
[ -x "$lupdate" ] || lupdate="$(command -v pyside6-lupdate)"
cd "$here"
mapfile -t sources < <(find desktop_dedup/gui -name '*.py' | sort)
for lang in zh_CN; do
  "$lupdate" -no-obsolete -locations relative -target-language "$lang" "${sources[@]}" \
    -ts "resources/translations/desktop_dedup_${lang}.ts"
done
