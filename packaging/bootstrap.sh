#!/usr/bin/env bash
# Sets up everything desktop_dedup needs on a fresh Debian/Ubuntu machine, idempotently:
#   1. the system libraries Qt needs (offscreen tests and real windows), and PostgreSQL's server
#      (the tests start a throw-away cluster to run the store on both engines), and Tesseract OCR
#      with chi_sim/eng (optional for users; the OCR tests run it), via apt when we may;
#   2. a virtual environment in .venv with the project and its dev extras installed.
# Usage: packaging/bootstrap.sh [VENV_DIR]
set -euo pipefail
here="$(cd "$(dirname "$0")/.." && pwd)"
venv="${1:-$here/.venv}"

# Debian package names; each is checked first so a ready machine does no apt work.
sys_pkgs=(python3-venv libegl1 libgl1 libxkbcommon0 libxkbcommon-x11-0 libfontconfig1 libdbus-1-3
          libxcb-cursor0 libxcb-icccm4 libxcb-keysyms1 libxcb-shape0 libxcb-xinerama0 libxcb-randr0
          libxcb-render-util0 libxcb-image0 fonts-noto-cjk postgresql
          tesseract-ocr tesseract-ocr-chi-sim tesseract-ocr-eng
          zsh fish locales desktop-file-utils appstream groff-base)  # the suite loads the
          # completion scripts in zsh and fish, runs the CLI under a GB18030 locale, validates
          # the desktop files and sets a manual page with groff
missing=()
if command -v dpkg-query >/dev/null 2>&1; then
  for p in "${sys_pkgs[@]}"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
  done
fi
if ((${#missing[@]})); then
  sudo=""
  [ "$(id -u)" -eq 0 ] || sudo="sudo"
  if [ -z "$sudo" ] || command -v sudo >/dev/null 2>&1; then
    echo "bootstrap: installing system packages: ${missing[*]}" >&2
    $sudo apt-get update -qq || true
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null \
      || echo "bootstrap: warning: could not install ${missing[*]}; Qt may fail to start" >&2
  else
    echo "bootstrap: warning: missing ${missing[*]} and no sudo; install them with apt" >&2
  fi
fi

# The suite runs the command line under a Chinese GB18030 locale (as a Chinese Windows console
# would be): make that locale once when it is missing.
if command -v localedef >/dev/null 2>&1 && ! locale -a 2>/dev/null | grep -qix 'zh_CN\.gb18030'; then
  sudo=""
  [ "$(id -u)" -eq 0 ] || sudo="sudo"
  { [ -z "$sudo" ] || command -v sudo >/dev/null 2>&1; } &&
    $sudo localedef -i zh_CN -f GB18030 zh_CN.GB18030 2>/dev/null ||
    echo "bootstrap: warning: could not make the zh_CN.GB18030 locale (localedef)" >&2
fi

py="${PYTHON:-}"
if [ -z "$py" ]; then
  for c in python3.11 python3.12 python3.13 python3; do
    if command -v "$c" >/dev/null 2>&1 && "$c" -c 'import sys; sys.exit(sys.version_info < (3, 11))'; then py="$c"; break; fi
  done
fi
[ -n "$py" ] || { echo "bootstrap: Python >= 3.11 is required" >&2; exit 1; }

stamp="$venv/.installed-$(cat "$here/pyproject.toml" "$here/setup.py" "$0" 2>/dev/null | sha1sum | cut -c1-12)"
if [ ! -f "$stamp" ]; then
  [ -x "$venv/bin/python" ] || "$py" -m venv "$venv"
  "$venv/bin/python" -m pip install -q --upgrade pip >/dev/null
  "$venv/bin/python" -m pip install -q -e "$here[dev,packaging]"
  rm -f "$venv"/.installed-*
  touch "$stamp"
fi
# Translations and other generated resources are built from their sources every time (cheap).
if [ -x "$here/packaging/build_resources.sh" ]; then
  "$here/packaging/build_resources.sh" "$venv"
fi
# Byte-compile the package, as installing a wheel does: an editable install leaves that to the
# first import, which never happens where PYTHONDONTWRITEBYTECODE is set, and then every command
# compiles desktop_dedup's modules again (a tenth of a second of each scan's start-up).
"$venv/bin/python" -m compileall -q "$here/desktop_dedup" >/dev/null
