#!/usr/bin/env bash
# Installs what building and testing openacl needs on Debian 12:
# Debian packages (apt-get) and the npm test assets (sample models and the
# ONNX Runtime oracle, installed with --ignore-scripts). Idempotent: does
# nothing when everything is present.
set -euo pipefail
cd "$(dirname "$0")/.."

PKGS=(
  build-essential cmake pkg-config git
  python3 python3-numpy python3-onnx python3-pil
  python3-dev
  libcjson-dev libprotobuf-c-dev protobuf-c-compiler libssl-dev libcmocka-dev
  libdnnl-dev libopenblas-dev
  clang libclang-rt-14-dev
  libonnx-testdata
  nodejs npm
  fonts-dejavu-core
  libonnx-testdata
  libturbojpeg0-dev libjpeg62-turbo-dev libpng-dev libavcodec-dev  # DVPP: JPEG, PNG, H.264/H.265 (src/dvpp)
)

missing=()
for p in "${PKGS[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed'; then
    missing+=("$p")
  fi
done
# A newer Node.js installed outside apt is fine.
if command -v node >/dev/null && command -v npm >/dev/null; then
  tmp=()
  for p in "${missing[@]}"; do [[ "$p" == nodejs || "$p" == npm ]] || tmp+=("$p"); done
  missing=("${tmp[@]}")
fi

if ((${#missing[@]})); then
  SUDO=""
  if [[ $(id -u) -ne 0 ]]; then SUDO="sudo"; fi
  echo "install_deps: apt-get install ${missing[*]}"
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi

# node_modules as a symlink is someone else's install (another checkout of
# the tree): npm ci would empty it through the link, so it is only checked.
if [[ -L node_modules ]]; then
  if [[ ! -f node_modules/.package-lock.json ]]; then
    echo "install_deps: node_modules links to an incomplete install; run npm ci --ignore-scripts there" >&2
    exit 1
  fi
elif [[ ! -f node_modules/.package-lock.json ]] || [[ package-lock.json -nt node_modules/.package-lock.json ]]; then
  echo "install_deps: npm ci --ignore-scripts"
  npm ci --ignore-scripts --no-audit --no-fund --loglevel=error
fi
