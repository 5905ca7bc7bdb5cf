#!/usr/bin/env bash
# Builds the one-folder PyInstaller bundle: dist/desktop-dedup/desktop-dedup.
# Needs the packaging extra:  .venv/bin/pip install -e '.[packaging]'
# Usage: packaging/build_bundle.sh [VENV_DIR] [DIST_DIR] [WORK_DIR]
set -euo pipefail
here="$(cd "$(dirname "$0")/.." && pwd)"
venv="${1:-$here/.venv}"
dist="${2:-$here/dist}"
work="${3:-$here/build/pyinstaller}"
if [ ! -x "$venv/bin/pyinstaller" ]; then
  echo "build_bundle: $venv/bin/pyinstaller missing; run: $venv/bin/pip install -e '$here[packaging]'" >&2
  exit 1
fi
"$here/packaging/build_resources.sh" "$venv"
"$venv/bin/pyinstaller" --noconfirm --clean --log-level WARN \
  --distpath "$dist" --workpath "$work" "$here/packaging/desktop_dedup.spec"
echo "build_bundle: $dist/desktop-dedup/desktop-dedup"
