#!/usr/bin/env bash
# Installs the Linux desktop integration: the .desktop launcher, the app icon in every hicolor
# size (plus the scalable SVG) and the AppStream metainfo, so the app shows up in menus and
# software centres with its icon.
# Usage: packaging/install_desktop_files.sh [PREFIX] [EXEC]
#   PREFIX  default ~/.local (use /usr/local or /usr with sudo for all users)
#   EXEC    the command the launcher runs; default desktop-dedup-gui (pip/pipx install);
#           for the bundle pass its full path, e.g. /opt/desktop-dedup/desktop-dedup
set -euo pipefail
here="$(cd "$(dirname "$0")/.." && pwd)"
prefix="${1:-$HOME/.local}"
exec_cmd="${2:-desktop-dedup-gui}"
share="$prefix/share"

install -d "$share/applications" "$share/metainfo" "$share/icons/hicolor/scalable/apps"
sed -e "s|^Exec=.*|Exec=$exec_cmd|" -e "s|^TryExec=.*|TryExec=$exec_cmd|" \
  "$here/packaging/desktop-dedup.desktop" > "$share/applications/desktop-dedup.desktop"
install -m 644 "$here/packaging/io.github.desktop_dedup.metainfo.xml" "$share/metainfo/"
install -m 644 "$here/resources/desktop_dedup.svg" "$share/icons/hicolor/scalable/apps/desktop-dedup.svg"
for png in "$here"/resources/icons/app/desktop_dedup-*.png; do
  size="${png##*-}"; size="${size%.png}"
  install -d "$share/icons/hicolor/${size}x${size}/apps"
  install -m 644 "$png" "$share/icons/hicolor/${size}x${size}/apps/desktop-dedup.png"
done
# Refresh caches when the tools exist (they do on desktops; harmless to skip elsewhere).
command -v update-desktop-database >/dev/null 2>&1 && update-desktop-database -q "$share/applications" || true
command -v gtk-update-icon-cache >/dev/null 2>&1 && gtk-update-icon-cache -q -t "$share/icons/hicolor" || true
echo "installed desktop files under $share"
