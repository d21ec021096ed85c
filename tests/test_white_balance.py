"""The camera's white reference (`vision.white_balance`) and coloured light on rendered frames (`synth.lighting`)."""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import numpy.typing as npt
import pytest

from dealer_assist.errors import DealerAssistError
from dealer_assist.synth.hand_video import SimulatedTable
from dealer_assist.synth.lighting import LIGHT_CASTS, cast_light
from dealer_assist.vision.backends.fake_backend import FakeDetector
from dealer_assist.vision.calibration import CameraCalibration
from dealer_assist.vision.detections import Detections
from dealer_assist.vision.frames import Frame
from dealer_assist.vision.pipeline import Pipeline
from dealer_assist.vision.table_profile import oval_profile
from dealer_assist.vision.white_balance import CAST_DEAD_ZONE, WhiteBalance, measure_white
from dealer_assist.vision.white_reference import WhiteReference

QUAD = np.array([[40, 40], [80, 40], [80, 80], [40, 80]], dtype=np.float64)


def _marker_patch(white: tuple[int, int, int], ground: int = 90) -> npt.NDArray[np.uint8]:
    """A grey frame with a black-and-white marker-like patch at QUAD whose white is `white` (B, G, R)."""
    img = np.full((120, 160, 3), ground, np.uint8)
    img[34:86, 34:86] = white                      # the white border printed around the marker
    img[40:80, 40:80] = 10                         # its black frame
    img[50:60, 50:60] = white                      # and two white cells inside
    img[62:72, 62:72] = white
    return img


def test_neutral_gains_leave_the_frame_as_it_is() -> None:
    img = _marker_patch((200, 200, 200))
    assert WhiteBalance().apply(img) is img
    within = WhiteBalance((CAST_DEAD_ZONE - 0.01, 1.1, 1.0))
    assert within.neutral and within.apply(img) is img


def test_a_cast_past_the_dead_zone_is_corrected_channel_by_channel() -> None:
    img = _marker_patch((110, 170, 220))
    wb = measure_white(img, [QUAD])
    assert wb.gains == pytest.approx((2.0, 220 / 170, 1.0), abs=0.01) and not wb.neutral
    out = wb.apply(img)
    assert out is not img and out.dtype == np.uint8 and out.shape == img.shape
    expect = np.clip(img.astype(np.float32) * np.array(wb.gains, np.float32) + 0.5, 0, 255).astype(np.uint8)
    assert np.abs(out.astype(int) - expect.astype(int)).max() <= 1
    assert out[36, 36].tolist() == [220, 220, 220]          # the white is white


def test_a_frame_exposed_too_dark_is_brightened_and_a_bright_one_is_not() -> None:
    dark = measure_white(_marker_patch((100, 100, 100), ground=40), [QUAD])
    assert dark.gains == pytest.approx((2.2, 2.2, 2.2), abs=0.01) and dark.dark and not dark.cast and not dark.neutral
    warm_dark = measure_white(_marker_patch((70, 100, 120), ground=30), [QUAD])
    assert warm_dark.gains == pytest.approx((220 / 70, 2.2, 220 / 120), abs=0.01) and warm_dark.dark
    assert warm_dark.cast == "warm"
    bright = measure_white(_marker_patch((150, 150, 150)), [QUAD])
    assert bright.gains == (1.0, 1.0, 1.0) and bright.neutral and not bright.dark
    cool = measure_white(_marker_patch((220, 200, 150)), [QUAD])
    assert cool.cast == "cool" and not cool.dark


@pytest.mark.parametrize("case", ["no quads", "grey image", "flat patch", "dark patch", "coloured patch"])
def test_no_white_reference_means_no_correction(case: str) -> None:
    img = _marker_patch((110, 170, 220))
    quads: list[npt.NDArray[np.float64]] = [QUAD]
    if case == "no quads":
        quads = []
    elif case == "grey image":
        img = img[..., 0].copy()
    elif case == "flat patch":
        img = np.full((120, 160, 3), (60, 120, 200), np.uint8)     # no black and white print: not a marker
    elif case == "dark patch":
        img = _marker_patch((30, 30, 35), ground=5)   # a marker in shadow: its white too dark to measure
    else:
        img = _marker_patch((20, 240, 30))          # green needs a gain past MAX_GAIN on blue: no reference
    assert measure_white(img, quads) == WhiteBalance()


def test_the_pipeline_corrects_each_frame_before_detection() -> None:
    seen: list[npt.NDArray[np.uint8]] = []

    def record(image: npt.NDArray[np.uint8]) -> Detections:
        seen.append(image)
        return Detections.empty()

    profile = oval_profile(6)
    base = CameraCalibration.from_table_to_image(np.eye(3) * [[5, 5, 1]] + [[0, 0, 40], [0, 0, 30], [0, 0, 0]],
                                                 (320, 180), profile.name)
    frame = Frame(_marker_patch((110, 170, 220))[:, :, :].repeat(2, axis=0).repeat(2, axis=1)[:180, :320].copy(),
                  0.0, 0)
    Pipeline.build(profile, base, FakeDetector(record)).update(frame)
    assert seen[-1] is frame.image                             # no cast measured: the frame as it came
    warm = replace(base, white_gains=(2.0, 220 / 170, 1.0))
    Pipeline.build(profile, warm, FakeDetector(record)).update(frame)
    assert seen[-1] is not frame.image
    assert seen[-1][0, 0].tolist() == warm.white_balance.apply(frame.image)[0, 0].tolist()
    assert seen[-1][72, 72].tolist() == [220, 220, 220]       # the patch's cream white, white again


def test_lights_cast_and_an_unknown_one_is_a_one_line_error() -> None:
    img = np.full((4, 4, 3), 200, np.uint8)
    assert cast_light(img, "neutral") is img
    warm = cast_light(img, "warm")
    assert warm[0, 0].tolist() == [110, 170, 220] and LIGHT_CASTS["warm"][0] < LIGHT_CASTS["warm"][2]
    with pytest.raises(DealerAssistError, match="unknown light 'sodium'; accepted: neutral, warm, cool"):
        cast_light(img, "sodium")


def _sim_frame() -> tuple[npt.NDArray[np.uint8], SimulatedTable]:
    sim = SimulatedTable("badugi-limit", 2, size=(1280, 720))
    return sim.render_frame(0), sim


def _white_spread(image: npt.NDArray[np.uint8], reference: npt.NDArray[np.uint8]) -> float:
    """How far from grey the frame's whites are (the pixels white in `reference`: within 8% of its brightest, as the
    scene's light dims them): the spread of their channel means."""
    level = reference.astype(int).sum(axis=2)
    bright = level > 0.92 * level.max()
    return float(np.ptp(image[bright].astype(float).mean(axis=0)))


def test_the_markers_in_the_frames_keep_the_balance_current() -> None:
    """A calibration that measured no white (the renderer's exact one) still gets warm frames corrected, from the
    markers found where it puts them; once the light is neutral again the frames are left alone."""
    frame, sim = _sim_frame()
    seen: list[npt.NDArray[np.uint8]] = []

    def record(image: npt.NDArray[np.uint8]) -> Detections:
        seen.append(image)
        return Detections.empty()

    pipe = Pipeline.build(sim.profile, sim.calibration, FakeDetector(record))
    assert sim.calibration.white_balance.neutral and len(pipe.white.quads) == len(sim.profile.markers)
    warm = cast_light(frame, "warm")
    pipe.update(Frame(warm, 0.0, 0))
    assert pipe.white.measured == 1 and pipe.white.balance.cast == "warm"
    assert _white_spread(warm, frame) > 80 and _white_spread(seen[-1], frame) < 20
    for i in range(1, 15):                                   # measured again only every `every` frames
        pipe.update(Frame(warm, i / 15, i))
    assert pipe.white.measured == 1
    for i in range(15, 15 * 2):                              # the light back to neutral: the median follows
        pipe.update(Frame(frame, i / 15, i))
    assert pipe.white.measured == 2 and pipe.white.balance.cast == "warm"     # halfway, of one warm and one neutral
    for i in range(15 * 2, 15 * 3):
        pipe.update(Frame(frame, i / 15, i))
    assert pipe.white.measured == 3 and pipe.white.balance.neutral and seen[-1] is frame


def test_a_covered_marker_or_a_bare_rail_is_not_taken_for_white() -> None:
    frame, sim = _sim_frame()
    quads = {m.id: sim.calibration.to_image(m.corners()) for m in sim.profile.markers}
    start = WhiteBalance((2.0, 1.3, 1.0))
    ref = WhiteReference(quads, sim.profile.aruco_dictionary, start, every=1)
    covered = frame.copy()
    for q in quads.values():                                 # a hand's skin over every marker
        lo, hi = np.floor(q.min(axis=0)).astype(int) - 6, np.ceil(q.max(axis=0)).astype(int) + 6
        covered[max(lo[1], 0):hi[1], max(lo[0], 0):hi[0]] = (120, 160, 210)
    assert ref.update(covered) == start and ref.measured == 0
    on_felt = {i: q + np.array([300.0, 200.0]) for i, q in quads.items()}    # a calibration gone wrong
    moved = WhiteReference(on_felt, sim.profile.aruco_dictionary, start, every=1)
    assert moved.update(frame) == start and moved.measured == 0
    assert WhiteReference(quads, "DICT_NO_SUCH", start).update(frame) == start


def test_one_odd_measurement_does_not_swing_the_balance() -> None:
    frame, sim = _sim_frame()
    quads = {m.id: sim.calibration.to_image(m.corners()) for m in sim.profile.markers}
    ref = WhiteReference(quads, sim.profile.aruco_dictionary, every=1, keep=5)
    warm = cast_light(frame, "warm")
    for _ in range(3):
        ref.update(warm)
    settled = ref.balance
    ref.update(cast_light(frame, "cool"))                    # one frame under another light
    assert ref.balance == settled and ref.measured == 4
