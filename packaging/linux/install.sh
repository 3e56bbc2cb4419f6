#!/bin/sh
# Install Memory Dashboard for the current user, from the folder this script sits in; no root needed.
#   ./install.sh              install (or upgrade): ~/.local/opt/memory-dashboard, a launcher in
#                             ~/.local/bin, a menu entry and icons under ~/.local/share
#   ./install.sh --uninstall  remove exactly those (and the sweep's timer); your memories and settings
#                             stay (in ~/.local/share/memory-dashboard and ~/.config/memory-dashboard)
#   ./install.sh --with-sweep install, and a systemd user timer that dismisses expired memories every
#                             15 minutes, even with the window closed (memory-dashboard schedule-sweep)
set -eu

NAME=memory-dashboard
HERE=$(cd "$(dirname "$0")" && pwd)
DATA_HOME=${XDG_DATA_HOME:-$HOME/.local/share}
OPT_DIR=$HOME/.local/opt/$NAME
BIN_DIR=$HOME/.local/bin
APPS_DIR=$DATA_HOME/applications
ICON_THEME=$DATA_HOME/icons/hicolor

refresh_menus() {
  if command -v update-desktop-database >/dev/null 2>&1; then
    update-desktop-database -q "$APPS_DIR" || true
  fi
  # Only refresh a cache that exists: a new one would go stale when another app adds an icon.
  if [ -f "$ICON_THEME/icon-theme.cache" ] && command -v gtk-update-icon-cache >/dev/null 2>&1; then
    gtk-update-icon-cache -q -t -f "$ICON_THEME" || true
  fi
}

uninstall() {
  if [ -e "${XDG_CONFIG_HOME:-$HOME/.config}/systemd/user/$NAME-sweep.timer" ] && [ -x "$OPT_DIR/$NAME" ]; then
    "$OPT_DIR/$NAME" schedule-sweep --off || true
  fi
  rm -rf "$OPT_DIR"
  if [ -L "$BIN_DIR/$NAME" ]; then rm -f "$BIN_DIR/$NAME"; fi
  rm -f "$APPS_DIR/$NAME.desktop"
  for icon in "$ICON_THEME"/*/apps/"$NAME".png "$ICON_THEME"/*/apps/"$NAME".svg; do
    if [ -e "$icon" ]; then rm -f "$icon"; fi
  done
  refresh_menus
  echo "Memory Dashboard removed. Your data was kept: $DATA_HOME/$NAME"
}

install_app() {
  if [ ! -x "$HERE/$NAME" ] || [ ! -d "$HERE/_internal" ]; then
    echo "install.sh: run me from the unpacked folder (no $HERE/$NAME here)" >&2
    exit 1
  fi
  # Copy to a new folder first so a failed copy never leaves half an installation behind.
  mkdir -p "$(dirname "$OPT_DIR")"
  rm -rf "$OPT_DIR.new"
  mkdir "$OPT_DIR.new"
  cp -R "$HERE/$NAME" "$HERE/_internal" "$OPT_DIR.new/"
  rm -rf "$OPT_DIR"
  mv "$OPT_DIR.new" "$OPT_DIR"

  mkdir -p "$BIN_DIR" "$APPS_DIR"
  ln -sfn "$OPT_DIR/$NAME" "$BIN_DIR/$NAME"
  # Menus do not search ~/.local/bin: Exec and TryExec name the installed executable.
  sed -e "s|^Exec=.*|Exec=\"$OPT_DIR/$NAME\"|" -e "s|^TryExec=.*|TryExec=$OPT_DIR/$NAME|" \
    "$HERE/share/applications/$NAME.desktop" >"$APPS_DIR/$NAME.desktop"
  for dir in "$HERE"/share/icons/hicolor/*/apps; do
    size=$(basename "$(dirname "$dir")")
    mkdir -p "$ICON_THEME/$size/apps"
    cp "$dir"/"$NAME".* "$ICON_THEME/$size/apps/"
  done
  refresh_menus

  echo "Memory Dashboard installed in $OPT_DIR"
  echo "Start it from your applications menu, or run: $NAME"
  case ":$PATH:" in
    *":$BIN_DIR:"*) ;;
    *) echo "note: $BIN_DIR is not on your PATH; add it to run '$NAME' from a terminal" ;;
  esac
}

offer_sweep() {
  if [ "$1" = yes ]; then
    "$OPT_DIR/$NAME" schedule-sweep --every 15m
  else
    echo "To dismiss expired memories even while the window is closed: $NAME schedule-sweep --every 15m"
  fi
}

case "${1:-}" in
  --uninstall) uninstall ;;
  "") install_app && offer_sweep no ;;
  --with-sweep) install_app && offer_sweep yes ;;
  -h | --help) sed -n '2,8p' "$0" | sed 's/^# \{0,1\}//' ;;
  *) echo "usage: $0 [--uninstall | --with-sweep]" >&2; exit 2 ;;
esac
