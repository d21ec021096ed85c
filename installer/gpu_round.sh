#!/usr/bin/env bash
# A detector training round on a GPU machine that lacks the renderer (OpenCV 5, the Debian card art) and
# Ultralytics, and takes at most 64 MiB of files along (see models/README.md, "Training on a GPU machine").
#
#   here:        bash installer/gpu_round.sh pack DATA_DIR [MiB]   tiles of one rendered set -> .gpu/data.tar.gz, wheels -> .whl
#   GPU machine: [SEED=N] [LR0=X] bash installer/gpu_round.sh train OUT_DIR HOURS [scratch | FOLDER]  -> OUT_DIR/cards-detector.pt
#                (from the shipped detector in models/, from the cards-detector.pt in another folder named,
#                or with "scratch" from the model yaml)
#   here:        dealer-assist train --out OUT_DIR --reuse detector,classifier ...  (export, int8, evaluation)
#                (copy models/cards-classifier.onnx and .pt into OUT_DIR first: --reuse takes each stage from there)
#
# DATA_DIR is one rendered set (`dealer-assist train --stop-after data` writes datasets/cards/<key>/). Tiles are
# re-encoded as WebP at quality 80 (a quarter of the rendered JPEG's bytes, half of a JPEG at the same quality) and,
# where they would not fit in MiB (default 46), a seeded random share of the training tiles is kept; every
# validation tile is kept.
#
# GPU_ROUND_DIR (default .gpu) is where the packed tiles go; GPU_ROUND_WHEELS (default .whl) where the wheels go,
# empty for none (Ultralytics already installed where it trains).
set -euo pipefail
cd "$(dirname "$0")/.."
gpu=${GPU_ROUND_DIR:-.gpu}
whl=${GPU_ROUND_WHEELS-.whl}

pack() {
    local data=$1 budget=${2:-46}
    [ -f "$data/data.yaml" ] || { echo "error: $data holds no data.yaml; render one with dealer-assist train --stop-after data" >&2; exit 2; }
    rm -rf "$gpu/data" && mkdir -p "$gpu"
    "${PYTHON:-.venv/bin/python}" - "$data" "$budget" "$gpu/data" <<'EOF'
import sys
from pathlib import Path

import cv2
import numpy as np

src, budget, dst = Path(sys.argv[1]), float(sys.argv[2]) * 2**20, Path(sys.argv[3])
encoded: dict[str, list[tuple[Path, bytes, str]]] = {"train": [], "val": []}
for split in encoded:
    for img in sorted((src / "images" / split).glob("*.jpg")):
        jpg = cv2.imencode(".webp", cv2.imread(str(img)), [cv2.IMWRITE_WEBP_QUALITY, 80])[1].tobytes()
        label = (src / "labels" / split / f"{img.stem}.txt").read_text()
        encoded[split].append((img, jpg, label))
used = sum(len(j) + len(t) for _, j, t in encoded["val"])
train = encoded["train"]
order = np.random.default_rng(0).permutation(len(train))
kept = []
for i in order:
    size = len(train[i][1]) + len(train[i][2])
    if used + size > budget:
        break
    used += size
    kept.append(train[i])
for split, items in (("train", kept), ("val", encoded["val"])):
    for d in ("images", "labels"):
        (dst / d / split).mkdir(parents=True, exist_ok=True)
    for img, jpg, label in items:
        (dst / "images" / split / f"{img.stem}.webp").write_bytes(jpg)
        (dst / "labels" / split / f"{img.stem}.txt").write_text(label)
(dst / "data.yaml").write_text((src / "data.yaml").read_text())
print(f"packed {len(kept)} of {len(train)} training tiles and {len(encoded['val'])} validation tiles, "
      f"{used / 2**20:.1f} MiB, into {dst}")
EOF
    tar -C "$gpu" -czf "$gpu/data.tar.gz" data && rm -rf "$gpu/data"  # one file: small ones travel slowly
    cp /usr/share/fonts/truetype/dejavu/DejaVuSans.ttf "$gpu/"  # Ultralytics' stand-in for Arial there
    [ -n "$whl" ] || return 0
    mkdir -p "$whl"
    local ver
    # Ultralytics, and what dealer_assist's training imports that a bare torch image lacks (tomli-w: table profiles)
    ver=$(.venv/bin/python -c "import importlib.metadata as m; print(*(m.version(p) for p in ('ultralytics', 'ultralytics-thop', 'tomli-w')))")
    set -- $ver
    python3 -m pip download -q --no-deps --only-binary=:all: --python-version 3.12 --implementation cp \
        --platform manylinux_2_28_x86_64 --platform manylinux_2_17_x86_64 -d "$whl" "ultralytics==$1" "ultralytics-thop==$2" \
        "tomli-w==$3"
    du -sh "$gpu" "$whl"
}

train() {
    local out=$1 hours=$2 start=${3:-models} python=${PYTHON:-python3} site=/tmp/gpu-round-site-$$
    local runs=/tmp/gpu-round-runs-$$ data=/tmp/gpu-round-data-$$
    trap "rm -rf '$site' '$runs' '$data'" EXIT  # expanded now: the locals are gone at exit
    mkdir -p "$site"
    if [ -n "$whl" ]; then
        "$python" -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --upgrade --target "$site" "$whl"/*.whl
    fi
    # Ultralytics imports polars only to read back its own results.csv, inside a try that tolerates a failure.
    if [ -n "${STUB_POLARS:-}" ] || ! "$python" -c "import polars" 2>/dev/null; then
        mkdir -p "$site/polars"
        echo 'def read_csv(*args, **kwargs): raise RuntimeError("polars is not installed")' >"$site/polars/__init__.py"
    fi
    local font=/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf
    [ -f "$font" ] || { mkdir -p "$(dirname "$font")" && cp "$gpu/DejaVuSans.ttf" "$font"; }
    export PYTHONPATH="$site:$PWD" YOLO_OFFLINE=1
    mkdir -p "$data" && tar -C "$data" -xzf "$gpu/data.tar.gz"
    local from=(--continue-from "$start")
    [ "$start" = scratch ] && from=()
    "$python" -c "from dealer_assist.cli import main; main()" train --data "$data/data" --stop-after detector \
        "${from[@]}" --out "$out" --runs "$runs" --hours "$hours" \
        --device "${DEVICE:-0}" --batch "${BATCH:-64}" --workers "${WORKERS:-12}" --seed "${SEED:-0}" \
        ${LR0:+--detector-lr "$LR0"}
    cp "$runs/detector/results.csv" "$out/" 2>/dev/null || true
}

case "${1:-}" in
    pack) shift; pack "$@" ;;
    train) shift; train "$@" ;;
    *) echo "usage: $0 pack DATA_DIR [MiB] | train OUT_DIR HOURS [scratch | FOLDER]" >&2; exit 2 ;;
esac
