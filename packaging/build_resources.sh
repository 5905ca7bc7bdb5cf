#!/usr/bin/env bash
# Builds the generated resources from their sources (build outputs, gitignored): every Qt
# Linguist .ts in resources/translations/ is compiled to the .qm the app loads, and the tables
# every scan needs are made into resources/tables from the installed jieba and OpenCC
# (packaging/make_tables.py; a new profile copies them instead of deriving them for a second).
# Cheap and idempotent; packaging/bootstrap.sh runs it on every `make run` / `make test`.
# Usage: packaging/build_resources.sh [VENV_DIR]
set -euo pipefail
here="$(cd "$(dirname "$0")/.." && pwd)"
venv="${1:-$here/.venv}"
lrelease="$venv/bin/pyside6-lrelease"
[ -x "$lrelease" ] || lrelease="$(command -v pyside6-lrelease || true)"
if [ -z "$lrelease" ]; then
  echo "build_resources: pyside6-lrelease not found (install the project into $venv first)" >&2
  exit 1
fi
shopt -s nullglob
for ts in "$here"/resources/translations/*.ts; do
  qm="${ts%.ts}.qm"
  if [ ! -f "$qm" ] || [ "$ts" -nt "$qm" ]; then
    "$lrelease" -silent "$ts" -qm "$qm"
  fi
done
# Only when the installed jieba or OpenCC changed does this make anything (a second).
"$venv/bin/python" "$here/packaging/make_tables.py"
