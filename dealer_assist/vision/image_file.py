"""Photos and frames read from files, for `detect` and `calibrate`: what OpenCV reads, and a phone's HEIC/HEIF.

A phone photo comes turned as its EXIF orientation says (OpenCV applies it), so polygons are in the photo as every
viewer shows it. iPhones save HEIC by default, which OpenCV cannot decode: those go through libheif's `heif-convert`
(Debian's libheif-examples, which `installer/install.sh` installs) into a temporary PNG, turned as the photo's own
transform says. It is a separate program rather than a Python binding because the binding's wheels bundle the GPL
x265 encoder; only decoding is needed here.
"""

from __future__ import annotations

import shutil
import subprocess
import tempfile
from pathlib import Path

import cv2
import numpy as np
import numpy.typing as npt

from dealer_assist.errors import DealerAssistError

Image = npt.NDArray[np.uint8]

ACCEPTED = "PNG, JPEG, BMP, TIFF, WebP, HEIC/HEIF"
HEIF_TOOL = "heif-convert"
HEIF_BRANDS = frozenset({b"heic", b"heix", b"hevc", b"hevx", b"heim", b"heis", b"hevm", b"hevs", b"mif1", b"msf1",
                         b"avif", b"avis"})
HEIF_TIMEOUT_S = 60.0


class ImageFileError(DealerAssistError):
    """An image file that is missing or cannot be read (a one-line message naming it and what is accepted)."""


def is_heif(head: bytes) -> bool:
    """Whether a file's first bytes are an ISO media file of a HEIF brand (HEIC, HEIF, AVIF): `ftyp` at offset 4."""
    return len(head) >= 12 and head[4:8] == b"ftyp" and head[8:12] in HEIF_BRANDS


def read_image_file(path: str | Path) -> Image:
    """A BGR uint8 image from a file, or an ImageFileError saying what was wrong and what is accepted."""
    p = Path(path)
    if p.is_dir():
        raise ImageFileError(f"{p} is a folder; accepted: an image file ({ACCEPTED})")
    if not p.is_file():
        raise ImageFileError(f"no such image: {p}")
    data = np.fromfile(str(p), dtype=np.uint8)
    if is_heif(data[:12].tobytes()):
        return _read_heif(p)
    image = _decode(data)
    if image is None:
        raise ImageFileError(f"cannot read {p} as an image (accepted: {ACCEPTED})")
    return image


def _decode(data: npt.NDArray[np.uint8]) -> Image | None:
    # OpenCV logs a damaged file's decoder warning on stderr; the caller's one-line error says it instead.
    level = cv2.utils.logging.getLogLevel()
    cv2.utils.logging.setLogLevel(cv2.utils.logging.LOG_LEVEL_ERROR)
    try:
        image = cv2.imdecode(data, cv2.IMREAD_COLOR) if data.size else None
    finally:
        cv2.utils.logging.setLogLevel(level)
    return None if image is None else np.ascontiguousarray(image, dtype=np.uint8)


def _read_heif(p: Path) -> Image:
    """A HEIC/HEIF photo's primary image through `heif-convert` (a burst's first image when it holds several)."""
    tool = shutil.which(HEIF_TOOL)
    if tool is None:
        raise ImageFileError(f"{p} is a HEIC/HEIF photo and {HEIF_TOOL} is not installed (Debian package "
                             f"libheif-examples; bash installer/install.sh installs it); or save the photo as JPEG")
    with tempfile.TemporaryDirectory(prefix="dealer-assist-heif-") as tmp:
        out = Path(tmp) / "image.png"
        try:
            done = subprocess.run([tool, str(p), str(out)], capture_output=True, text=True, timeout=HEIF_TIMEOUT_S,
                                  check=False)
        except subprocess.TimeoutExpired:
            raise ImageFileError(f"cannot read {p} as a HEIC/HEIF image: {HEIF_TOOL} took over "
                                 f"{HEIF_TIMEOUT_S:.0f} s") from None
        written = sorted(Path(tmp).glob("image*.png"))          # image.png, or image-1.png ... for a burst
        image = _decode(np.fromfile(str(written[0]), dtype=np.uint8)) if written else None
        if done.returncode != 0 or image is None:
            said = (done.stderr.strip().splitlines() or done.stdout.strip().splitlines() or ["no image written"])[-1]
            raise ImageFileError(f"cannot read {p} as a HEIC/HEIF image: {said}")
        return image
