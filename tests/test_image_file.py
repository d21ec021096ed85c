"""Images read from files (`vision.image_file`): a phone's HEIC photo is read through libheif's heif-convert, and
whatever cannot be read is a one-line error naming the file and what is accepted."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from click.testing import CliRunner

from dealer_assist.cli import cli
from dealer_assist.vision.backends.fake_backend import FakeDetector
from dealer_assist.vision.calibration import CalibrationError
from dealer_assist.vision.calibration import read_image as read_calibration_image
from dealer_assist.vision.detections import Detections
from dealer_assist.vision.detector import DetectorError, read_image, write_image
from dealer_assist.vision.image_file import ImageFileError, is_heif, read_image_file

REPO = Path(__file__).resolve().parents[1]


def _halves(height: int = 96, width: int = 160) -> np.ndarray:
    pixels = np.full((height, width, 3), 30, np.uint8)
    pixels[:, : width // 2] = (40, 200, 230)                  # left half yellow (BGR), right half dark
    return pixels


def _heic(tmp_path: Path, pixels: np.ndarray) -> Path:
    """A HEIC file of `pixels`, written by libheif's heif-enc (installed beside heif-convert by install.sh)."""
    if shutil.which("heif-enc") is None:
        pytest.skip("heif-enc is not installed (Debian libheif-examples: bash installer/install.sh)")
    src, out = tmp_path / "src.png", tmp_path / "photo.heic"
    write_image(src, pixels)
    subprocess.run(["heif-enc", "-q", "90", "-o", str(out), str(src)], check=True, capture_output=True)
    return out


def test_the_installer_installs_the_heif_reader() -> None:
    """CI and a bare machine get heif-convert from the project's own script (the tests below then run)."""
    script = (REPO / "installer" / "install.sh").read_text()
    apt_list = script[script.index("apt_packages=("): script.index(")", script.index("apt_packages=("))]
    assert "libheif-examples" in apt_list


def test_heif_is_told_by_its_brand_not_its_name() -> None:
    assert is_heif(b"\x00\x00\x00\x18ftypheic\x00\x00\x00\x00")
    assert is_heif(b"\x00\x00\x00\x1cftypmif1\x00\x00\x00\x00")
    assert not is_heif(b"\x00\x00\x00\x18ftypisom\x00\x00\x00\x00")     # an MP4
    assert not is_heif(b"\x89PNG\r\n\x1a\n\x00\x00\x00\x0d")
    assert not is_heif(b"ftyp")


def test_a_heic_photo_is_read_as_its_pixels(tmp_path: Path) -> None:
    pixels = _halves()
    photo = _heic(tmp_path, pixels)
    image = read_image_file(photo)
    assert image.shape == pixels.shape and image.dtype == np.uint8
    assert np.abs(image.astype(int) - pixels.astype(int)).mean() < 6         # lossy, but the same picture
    renamed = tmp_path / "photo.jpg"                       # told by its content, not its suffix
    renamed.write_bytes(photo.read_bytes())
    assert np.array_equal(read_image_file(renamed), image)
    assert np.array_equal(read_calibration_image(photo), image)     # `calibrate --image` reads it too


def test_detect_reads_a_heic_photo(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    photo = _heic(tmp_path, _halves())
    dets = Detections.from_labels(["Ah"], [[10, 10, 20, 24]], [0.97])

    def make(backend: str, model: Any = None, **_: Any) -> FakeDetector:
        return FakeDetector(dets)

    monkeypatch.setattr("dealer_assist.cli.detect.make_detector", make)
    result = CliRunner().invoke(cli, ["detect", str(photo), "--json"])
    assert result.exit_code == 0, result.output
    record = json.loads(result.output.strip())
    assert (record["width"], record["height"]) == (160, 96) and record["objects"][0]["card"] == "Ah"


def test_a_heic_without_the_reader_says_what_to_install(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    photo = tmp_path / "photo.heic"
    photo.write_bytes(b"\x00\x00\x00\x18ftypheic\x00\x00\x00\x00mif1heic" + b"\x00" * 64)
    monkeypatch.setattr("dealer_assist.vision.image_file.shutil.which", lambda _name: None)
    with pytest.raises(DetectorError, match="libheif-examples") as exc:
        read_image(photo)
    assert "\n" not in str(exc.value) and str(photo) in str(exc.value)


def test_a_damaged_heic_is_one_line(tmp_path: Path) -> None:
    if shutil.which("heif-convert") is None:
        pytest.skip("heif-convert is not installed (Debian libheif-examples: bash installer/install.sh)")
    photo = tmp_path / "cut.heic"
    photo.write_bytes(b"\x00\x00\x00\x18ftypheic\x00\x00\x00\x00mif1heic" + b"\x00" * 64)
    with pytest.raises(ImageFileError, match=r"cannot read .* as a HEIC/HEIF image") as exc:
        read_image_file(photo)
    assert "\n" not in str(exc.value)


def test_a_folder_is_one_line_and_an_unreadable_file_names_heic_among_the_accepted(tmp_path: Path) -> None:
    """(A missing or junk file's messages: `test_detector.test_read_image_errors`.)"""
    with pytest.raises(CalibrationError, match="is a folder; accepted: an image file"):
        read_calibration_image(tmp_path)
    junk = tmp_path / "junk.png"
    junk.write_bytes(b"not an image")
    with pytest.raises(ImageFileError) as exc:
        read_image_file(junk)
    assert str(exc.value).endswith("(accepted: PNG, JPEG, BMP, TIFF, WebP, HEIC/HEIF)")
