"""installer/gpu_round.sh: tiles of a rendered set packed small for a GPU machine, and the detector trained there
from the pack alone (here on the CPU, for a few seconds)."""

from __future__ import annotations

import os
import subprocess
import sys
import tarfile
from pathlib import Path

import pytest

from dealer_assist.synth import train as train_mod

REPO = Path(__file__).resolve().parents[1]
SCRIPT = REPO / "installer" / "gpu_round.sh"


@pytest.fixture(scope="module")
def packed(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("gpu-round")
    cfg = train_mod.TrainConfig(data=root / "data", images=2, val_images=1, workers=1, stop_after="data")
    rendered = Path(train_mod.run(cfg, lambda msg: None)["data"])
    env = {**os.environ, "GPU_ROUND_DIR": str(root / "gpu"), "GPU_ROUND_WHEELS": "", "PYTHON": sys.executable}
    done = subprocess.run(["bash", str(SCRIPT), "pack", str(rendered), "0.05"], env=env, capture_output=True,
                          text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    assert "packed" in done.stdout
    return root


def test_pack_keeps_every_validation_tile_and_training_tiles_up_to_the_budget(packed: Path) -> None:
    rendered = next((packed / "data").iterdir())
    with tarfile.open(packed / "gpu" / "data.tar.gz") as tar:
        names = tar.getnames()
    images = {split: [n for n in names if n.startswith(f"data/images/{split}/")] for split in ("train", "val")}
    labels = [n for n in names if n.startswith("data/labels/") and n.endswith(".txt")]
    assert len(images["val"]) == len(list((rendered / "images" / "val").iterdir()))
    assert 0 < len(images["train"]) < len(list((rendered / "images" / "train").iterdir()))  # 0.05 MiB: a few
    assert all(n.endswith(".webp") for n in images["train"] + images["val"])
    assert len(labels) == len(images["train"]) + len(images["val"]) and "data/data.yaml" in names
    assert (packed / "gpu" / "DejaVuSans.ttf").is_file()


def test_pack_refuses_a_folder_without_data_yaml(tmp_path: Path) -> None:
    done = subprocess.run(["bash", str(SCRIPT), "pack", str(tmp_path)], capture_output=True, text=True, timeout=60,
                          env={**os.environ, "GPU_ROUND_DIR": str(tmp_path / "gpu"), "GPU_ROUND_WHEELS": ""})
    assert done.returncode == 2 and "holds no data.yaml" in done.stderr and done.stderr.count("\n") == 1


def test_train_from_the_pack_alone_writes_the_detector_checkpoint(packed: Path) -> None:
    pytest.importorskip("ultralytics")
    out = packed / "out"
    env = {**os.environ, "GPU_ROUND_DIR": str(packed / "gpu"), "GPU_ROUND_WHEELS": "", "PYTHON": sys.executable,
           "DEVICE": "cpu", "BATCH": "4", "WORKERS": "1", "STUB_POLARS": "1"}
    done = subprocess.run(["bash", str(SCRIPT), "train", str(out), "0.001"], env=env, capture_output=True, text=True,
                          timeout=600)
    assert done.returncode == 0, done.stderr[-2000:]
    assert (out / "cards-detector.pt").stat().st_size > 100_000 and (out / "results.csv").is_file()
    assert not (out / "cards.json").exists()  # export and evaluation are left to this machine


# What a GPU machine's torch image holds (numpy, OpenCV, click, onnx and what onnx imports) or the pack carries
# (tomli-w; Ultralytics is imported only once training starts). A module the training path starts to need beyond
# these fails the round there after the machine has started: add its wheel to gpu_round.sh's pack, then here.
GPU_IMAGE_HAS = {"numpy", "cv2", "click", "onnx", "google", "ml_dtypes", "typing_extensions"}
PACK_CARRIES = {"tomli_w"}


def test_the_training_path_imports_only_what_a_gpu_machine_has_or_the_pack_carries() -> None:
    code = ("import sys, dealer_assist.synth.train, dealer_assist.cli.train; "
            "print(' '.join(sorted({m.split('.')[0] for m in sys.modules})))")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120, check=True)
    third_party = {m for m in done.stdout.split() if m not in sys.stdlib_module_names
                   and m not in sys.builtin_module_names and not m.startswith("_") and m != "dealer_assist"}
    assert third_party <= GPU_IMAGE_HAS | PACK_CARRIES, third_party - GPU_IMAGE_HAS - PACK_CARRIES
    script = SCRIPT.read_text()
    assert all(f"'{m.replace('_', '-')}'" in script for m in PACK_CARRIES)
