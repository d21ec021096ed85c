#!/usr/bin/env bash
# Installs everything Dealer Assist needs on a bare Debian/Ubuntu machine (run as root, or with sudo
# available), into ./.venv. Idempotent: packages already present are not fetched again.
#   bash installer/install.sh            runtime + dev tools (tests, lint, type checks)
#   bash installer/install.sh --train    also the training stack (ultralytics, card-art packages)
set -euo pipefail
cd "$(dirname "$0")/.."

train=0
for arg in "$@"; do
  case "$arg" in
    --train) train=1 ;;
    *) echo "install.sh: unknown option $arg; accepted: --train" >&2; exit 2 ;;
  esac
done

# System packages: Qt's runtime libraries, a virtual X server for the app's screenshots and tests,
# the DejaVu fonts the procedural deck is drawn with, librsvg to rasterise deck artwork, and libheif's heif-convert
# to read phone photos saved as HEIC (`detect`, `calibrate --image`).
apt_packages=(
  python3 python3-venv python3-pip
  libegl1 libgl1 libglib2.0-0 libfontconfig1 libdbus-1-3 libxkbcommon0 libxkbcommon-x11-0
  libxcb-cursor0 libxcb-icccm4 libxcb-keysyms1 libxcb-shape0 libxcb-randr0 libxcb-render-util0
  libxcb-image0 libxcb-xinerama0 libxcb-xfixes0 libxcb-sync1 libxrender1 libxi6
  xvfb xauth fonts-dejavu-core librsvg2-bin sqlite3 libheif-examples
)
if [ "$train" = 1 ]; then
  # card art for the training scenes, and the fonts of the classifier's font decks
  # (dealer_assist/synth/procedural.py: FONT_PACKAGES; a test keeps the two lists equal)
  apt_packages+=(gnome-cards-data kdegames-card-data-kf5)
  apt_packages+=(fonts-urw-base35 fonts-liberation fonts-freefont-ttf fonts-crosextra-carlito fonts-crosextra-caladea)
  apt_packages+=(fonts-lato fonts-open-sans fonts-linuxlibertine fonts-ebgaramond fonts-cantarell)
  apt_packages+=(fonts-sil-gentiumplus fonts-sil-charis fonts-sil-andika fonts-stix fonts-croscore fonts-go fonts-hack)
  apt_packages+=(fonts-firacode fonts-anonymous-pro fonts-inter fonts-roboto-unhinted fonts-adf-gillius)
  apt_packages+=(fonts-adf-universalis fonts-adf-accanthis fonts-adf-berenis fonts-adf-baskervald fonts-bebas-neue)
  apt_packages+=(fonts-league-spartan fonts-comfortaa fonts-quicksand fonts-paratype fonts-junicode fonts-karla fonts-jura)
fi

missing=()
for pkg in "${apt_packages[@]}"; do
  dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q "install ok installed" || missing+=("$pkg")
done
if [ ${#missing[@]} -gt 0 ]; then
  if command -v apt-get >/dev/null 2>&1; then
    sudo_cmd=""
    [ "$(id -u)" -ne 0 ] && sudo_cmd="sudo"
    echo "installing system packages: ${missing[*]}"
    $sudo_cmd apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $sudo_cmd apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
  else
    echo "install.sh: no apt-get here; install these yourself: ${missing[*]}" >&2
  fi
fi

# Python 3.11 or newer: the one on PATH if it is new enough, else Debian's.
py=""
for cand in python3.13 python3.12 python3.11 python3; do
  if command -v "$cand" >/dev/null 2>&1 && "$cand" -c 'import sys; sys.exit(sys.version_info < (3, 11))'; then
    py=$(command -v "$cand"); break
  fi
done
[ -n "$py" ] || { echo "install.sh: Python 3.11 or newer is required" >&2; exit 1; }

if [ ! -x .venv/bin/python ]; then
  "$py" -m venv .venv
fi
stamp=.venv/.dealer-assist-installed
extras="dev"
[ "$train" = 1 ] && extras="dev,train"
want="$(sha256sum pyproject.toml | cut -c1-16)-$extras"
if [ ! -f "$stamp" ] || [ "$(cat "$stamp")" != "$want" ]; then
  .venv/bin/python -m pip install -q --upgrade pip
  if [ "$train" = 1 ]; then
    # A matching torch/torchvision pair (ultralytics needs torchvision's compiled ops): PyPI's torchvision
    # does not load with the local CPU-only torch 2.13.0 wheel, so take the regular 2.14.1 build (it runs on CPU).
    .venv/bin/python -m pip install -q "torch==2.14.1" "torchvision==0.29.1"
  fi
  .venv/bin/python -m pip install -q -e ".[$extras]"
  if [ "$train" = 1 ]; then
    # ultralytics pulls opencv-python, whose cv2 overwrites the contrib build (cv2.aruco): put it back.
    .venv/bin/python -m pip uninstall -q -y opencv-python || true
    .venv/bin/python -m pip install -q --force-reinstall --no-deps \
      "opencv-contrib-python-headless==$(.venv/bin/python -m pip show opencv-contrib-python-headless | sed -n 's/^Version: //p')"
  fi
  echo "$want" > "$stamp"
fi
echo "Dealer Assist installed in $(pwd)/.venv"
