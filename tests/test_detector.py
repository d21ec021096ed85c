"""The detector interface, the fake backend and the backend-independent pre/post-processing (no model needed)."""

from __future__ import annotations

import json
import struct
from pathlib import Path

import numpy as np
import pytest

from dealer_assist.errors import DealerAssistError
from dealer_assist.vision.backends import common
from dealer_assist.vision.backends.fake_backend import FakeDetector
from dealer_assist.vision.detections import BACK_ID, BUTTON_ID, Detections
from dealer_assist.vision.detector import (
    Detector,
    DetectorError,
    detect_files,
    draw_detections,
    load_manifest,
    make_detector,
    read_image,
    write_image,
)


def _dets() -> Detections:
    return Detections.from_labels(["Ah", "back", "button"], [[10, 10, 30, 40], [50, 50, 90, 110], [5, 80, 25, 100]],
                                  [0.9, 0.8, 0.7])


def test_fake_backend_returns_what_it_was_given() -> None:
    det = make_detector("fake", detections=_dets())
    assert isinstance(det, Detector)
    out = det.detect(np.zeros((120, 160, 3), np.uint8))
    assert out.labels == ["Ah", "back", "button"]
    assert det.name == "fake"


def test_fake_backend_plays_a_sequence_then_repeats_the_last() -> None:
    seq = [Detections.empty(), _dets()]
    det = FakeDetector(seq)
    img = np.zeros((8, 8, 3), np.uint8)
    assert len(det.detect(img)) == 0
    assert len(det.detect(img)) == 3
    assert len(det.detect(img)) == 3
    assert det.calls == 3


def test_fake_backend_from_labels_and_callable() -> None:
    det = FakeDetector.from_labels([("Td", (0, 0, 10, 10)), ("button", (20, 20, 30, 30))])
    assert det.detect(np.zeros((4, 4, 3), np.uint8)).labels == ["Td", "button"]
    fn = FakeDetector(lambda image: Detections.from_labels(["back"] * image.shape[0], [[0, 0, 1, 1]] * image.shape[0]))
    assert len(fn.detect(np.zeros((3, 4, 3), np.uint8))) == 3


def test_unknown_backend_is_a_one_line_error() -> None:
    with pytest.raises(DetectorError, match="accepted: onnx, ultralytics, fake"):
        make_detector("tensorrt")


def test_missing_model_is_a_clear_error(tmp_path: Path) -> None:
    with pytest.raises(DetectorError, match="no model at"):
        make_detector("onnx", tmp_path / "nowhere.json")
    bad = tmp_path / "cards.json"
    bad.write_text("{not json")
    with pytest.raises(DetectorError, match="bad model manifest"):
        load_manifest(bad)
    bad.write_text(json.dumps({"detector": "x.onnx", "detector_classes": ["index"], "imgsz": [64, 64]}))
    with pytest.raises(DetectorError, match="missing"):
        make_detector("onnx", tmp_path)


def test_the_manifest_carries_the_models_face_up_bar(tmp_path: Path) -> None:
    path = tmp_path / "cards.json"
    base = {"detector": "x.onnx", "detector_classes": ["index", "back", "button"], "imgsz": [64, 64]}
    path.write_text(json.dumps(base))
    assert load_manifest(path).card_threshold == 0.5  # manifests from before the bar was the model's
    path.write_text(json.dumps({**base, "card_threshold": 0.65}))
    manifest = load_manifest(path)
    assert manifest.card_threshold == 0.65 and "card_threshold" not in manifest.extra
    assert manifest.to_json()["card_threshold"] == 0.65
    for bad in (0, 1.5, "high"):
        path.write_text(json.dumps({**base, "card_threshold": bad}))
        with pytest.raises(DetectorError, match="bad model manifest") as err:
            load_manifest(path)
        assert "\n" not in str(err.value)


def test_the_manifest_carries_a_bar_for_table_camera_frames(tmp_path: Path) -> None:
    path = tmp_path / "cards.json"
    base = {"detector": "x.onnx", "detector_classes": ["index", "back", "button"], "imgsz": [64, 64],
            "card_threshold": 0.72}
    path.write_text(json.dumps(base))
    manifest = load_manifest(path)
    assert manifest.camera_card_threshold is None and "camera_card_threshold" not in manifest.to_json()
    path.write_text(json.dumps({**base, "camera_card_threshold": 0.5}))
    manifest = load_manifest(path)
    assert manifest.camera_card_threshold == 0.5 and not manifest.extra
    assert manifest.to_json()["camera_card_threshold"] == 0.5
    path.write_text(json.dumps({**base, "camera_card_threshold": 2}))
    with pytest.raises(DetectorError, match=r"camera_card_threshold 2\.0 is not in"):
        load_manifest(path)


def test_the_manifest_carries_the_classifiers_large_read(tmp_path: Path) -> None:
    path = tmp_path / "cards.json"
    base = {"detector": "x.onnx", "detector_classes": ["index", "back", "button"], "imgsz": [64, 64]}
    path.write_text(json.dumps(base))
    assert load_manifest(path).large_read is None  # manifests from before: one crop size
    large = {"classifier_large_size": 48, "classifier_large_from": 40, "classifier_large_threshold": 0.55}
    path.write_text(json.dumps({**base, **large}))
    manifest = load_manifest(path)
    assert manifest.large_read == common.LargeRead(48, 40.0, 0.55) and not manifest.extra
    assert {k: manifest.to_json()[k] for k in large} == large
    for bad, message in (({"classifier_large_size": -1}, "classifier_large_size -1 is negative"),
                         ({"classifier_large_size": 48, "classifier_large_threshold": 0}, "not in")):
        path.write_text(json.dumps({**base, **bad}))
        with pytest.raises(DetectorError, match=message):
            load_manifest(path)


def test_read_image_errors(tmp_path: Path) -> None:
    with pytest.raises(DealerAssistError, match="no such image"):
        read_image(tmp_path / "missing.png")
    junk = tmp_path / "junk.png"
    junk.write_bytes(b"not an image")
    with pytest.raises(DealerAssistError, match="cannot read"):
        read_image(junk)
    empty = tmp_path / "empty.jpg"
    empty.write_bytes(b"")
    with pytest.raises(DealerAssistError, match="cannot read"):
        read_image(empty)


def _with_exif_orientation(jpeg: bytes, orientation: int) -> bytes:
    """A JPEG with an EXIF APP1 segment holding only the orientation tag (0x0112), as a phone marks a portrait."""
    ifd = struct.pack("<H", 1) + struct.pack("<HHIHH", 0x0112, 3, 1, orientation, 0) + struct.pack("<I", 0)
    app1 = b"Exif\x00\x00" + b"II*\x00" + struct.pack("<I", 8) + ifd
    return jpeg[:2] + b"\xff\xe1" + struct.pack(">H", len(app1) + 2) + app1 + jpeg[2:]


def test_a_phone_photo_is_read_upright_as_its_exif_orientation_says(tmp_path: Path) -> None:
    """A phone stores a portrait photo's pixels sideways and says so in EXIF: `detect`'s polygons are in the photo as
    every viewer shows it, so the image is read turned as the tag says (6: turned 90 degrees clockwise)."""
    pixels = np.zeros((40, 80, 3), np.uint8)
    pixels[:, :40] = 255                                   # stored: white on the left half
    photo = tmp_path / "portrait.jpg"
    write_image(photo, pixels)
    photo.write_bytes(_with_exif_orientation(photo.read_bytes(), 6))
    shown = read_image(photo)
    assert shown.shape == (80, 40, 3)
    assert shown[:30].mean() > 200 and shown[50:].mean() < 50   # the left half is now on top


def test_a_cut_off_image_is_one_line_with_no_decoder_chatter(tmp_path: Path, capfd: pytest.CaptureFixture[str]) -> None:
    whole = tmp_path / "whole.png"
    write_image(whole, np.random.default_rng(0).integers(0, 255, (200, 200, 3), dtype=np.uint8))
    cut = tmp_path / "cut.png"
    cut.write_bytes(whole.read_bytes()[:5000])
    capfd.readouterr()
    with pytest.raises(DealerAssistError, match="cannot read"):
        read_image(cut)
    assert capfd.readouterr().err == ""      # OpenCV's own warning ("input buffer is incomplete") stays quiet


def test_write_read_and_draw_round_trip(tmp_path: Path) -> None:
    img = np.full((120, 160, 3), 60, np.uint8)
    drawn = draw_detections(img, _dets())
    assert drawn.shape == img.shape
    assert not np.array_equal(drawn, img)
    assert np.array_equal(img, np.full((120, 160, 3), 60, np.uint8))  # the input is not drawn on
    out = tmp_path / "out.png"
    write_image(out, drawn)
    assert np.array_equal(read_image(out), drawn)
    with pytest.raises(DetectorError, match="does not exist"):
        write_image(tmp_path / "no" / "dir.png", drawn)
    results = detect_files(FakeDetector(_dets()), [out])
    assert results[0][0] == out and len(results[0][2]) == 3


def test_letterbox_maps_boxes_back() -> None:
    img = np.zeros((720, 1280, 3), np.uint8)
    padded, lb = common.letterbox(img, (384, 640))
    assert padded.shape == (384, 640, 3)
    assert lb.r == pytest.approx(0.5)
    back = lb.to_image(np.array([[10, 20, 30, 40]], np.float32))
    assert back.tolist() == [[20, 40, 60, 80]]
    _, lb2 = common.letterbox(img[100:300, 200:600], (384, 640), origin=(200, 100))
    assert lb2.to_image(np.array([[0, 0, 640, 320]], np.float32)).tolist() == [[200, 100, 600, 300]]


def test_tiles_only_for_large_images() -> None:
    assert common.regions((720, 1280, 3), (736, 1280)) == [(0, 0, 1280, 720)]
    regs = common.regions((4000, 6000, 3), (736, 1280))
    assert regs[0] == (0, 0, 6000, 4000) and len(regs) == 5
    xs = {r[0] for r in regs[1:]} | {r[2] for r in regs[1:]}
    assert min(xs) == 0 and max(xs) == 6000


def test_shrunk_canvas_places_each_view_and_maps_boxes_back() -> None:
    image = np.zeros((720, 1280, 3), np.uint8)
    image[100:300, 200:400] = 255  # a 200 px white square
    canvas, views = common.shrunk_canvas(image, (736, 1280))
    assert [v.shrink for v in views] == [2, 4]
    assert (views[0].x0, views[0].x1, views[0].y1) == (0, 640, 360)
    assert views[1].x0 == 640 + 32 and views[1].y1 == 180
    assert canvas[50:150, 100:200].min() == 255 and (canvas[400, 600] == 114).all()  # the square at 1/2; grey below
    assert canvas[25:75, 672 + 50 : 672 + 100].min() == 255  # and at 1/4
    names = ("index", "back", "button")
    # model-px boxes: the square seen in each view as a back, and a small index box in the 1/2 view
    xyxy = np.array([[100, 50, 200, 150], [672 + 50, 25, 672 + 100, 75], [10, 10, 20, 20]], np.float32)
    b, s, c = common.from_shrunk(xyxy, np.array([0.9, 0.8, 0.7], np.float32), np.array([1, 1, 0]), views, names)
    # kept: the 1/2 view's back (200 px at full scale > 128); dropped: the 1/4 view's (200 < 2 x 128) and the
    # 20 px index box (40 px at full scale), both left to finer reads
    assert c.tolist() == [1]
    assert np.allclose(b, [[200, 100, 400, 300]]) and np.isclose(s[0], 0.9)
    big = np.array([[672 + 10, 10, 672 + 90, 90]], np.float32)  # 80 px at 1/4: 320 px at full scale
    b, _, _ = common.from_shrunk(big, np.array([0.9], np.float32), np.array([1]), views, names)
    assert np.allclose(b, [[40, 40, 360, 360]])


def test_finer_backs_much_smaller_than_the_shrunk_reads_cards_are_dropped() -> None:
    names = ("index", "back", "button")
    xyxy = np.array([[0, 0, 400, 300],      # a card found by the shrunk read: 400 px long
                     [500, 0, 870, 300],    # a card found at full scale, as long: kept
                     [0, 400, 120, 520],    # a 120 px "back" at full scale: a chip in a close-up, dropped
                     [200, 400, 260, 440],  # an index corner: not a back, kept
                     ], np.float32)
    classes = np.array([1, 1, 1, 0])
    shrunk = np.array([True, False, False, False])
    assert common.drop_small_backs(xyxy, classes, shrunk, names).tolist() == [True, True, False, True]
    # without a back from the shrunk read there is no scale to hold them to: all kept
    assert common.drop_small_backs(xyxy, classes, np.zeros(4, bool), names).all()
    assert common.drop_small_backs(xyxy, np.array([0, 0, 0, 0]), shrunk, names).all()


def test_shrinks_follow_the_card_length() -> None:
    assert common.shrinks_for_card(90.0) == ()  # a table camera: cards within the trained sizes
    assert common.shrinks_for_card(200.0) == (2,)
    assert common.shrinks_for_card(600.0) == (2, 4)


def test_decode_and_nms() -> None:
    # two overlapping boxes of class 0, one of class 1, one below the threshold
    out = np.zeros((4 + 3, 4), np.float32)
    out[:4, 0] = [50, 50, 20, 20]
    out[4, 0] = 0.9
    out[:4, 1] = [52, 51, 20, 20]
    out[4, 1] = 0.6
    out[:4, 2] = [52, 51, 20, 20]
    out[5, 2] = 0.7
    out[:4, 3] = [10, 10, 5, 5]
    out[6, 3] = 0.1
    xyxy, scores, cls = common.decode_yolo(out, 0.25)
    assert len(xyxy) == 3 and xyxy[0].tolist() == [40, 40, 60, 60]
    keep = common.nms(xyxy, scores, cls, 0.5)
    assert sorted(cls[keep].tolist()) == [0, 1]
    # a partial box inside a kept one goes with `ios`
    boxes = np.array([[0, 0, 100, 100], [0, 0, 30, 100]], np.float32)
    assert len(common.nms(boxes, np.array([0.9, 0.8], np.float32), np.zeros(2, np.int64), 0.5)) == 2
    assert len(common.nms(boxes, np.array([0.9, 0.8], np.float32), np.zeros(2, np.int64), 0.5, ios=0.7)) == 1


def test_per_class_thresholds() -> None:
    th = common.Thresholds(detect=0.25, nms_iou=0.5, detect_index=0.1, nms_iou_index=0.7, nms_iou_back=0.3)
    conf, iou = th.per_class(("index", "back", "button"))
    assert conf.tolist() == pytest.approx([0.1, 0.25, 0.25]) and iou.tolist() == pytest.approx([0.7, 0.3, 0.5])
    # a weak index corner passes, an equally weak back does not
    out = np.zeros((4 + 3, 2), np.float32)
    out[:4, 0] = [50, 50, 20, 20]
    out[4, 0] = 0.15
    out[:4, 1] = [90, 90, 20, 20]
    out[5, 1] = 0.15
    _, _, cls = common.decode_yolo(out, conf)
    assert cls.tolist() == [0]
    # two neighbouring corners of a spread (IoU 0.6) both stay; two such backs merge
    boxes = np.array([[0, 0, 40, 100], [10, 0, 50, 100]], np.float32)
    scores = np.array([0.9, 0.8], np.float32)
    assert len(common.nms(boxes, scores, np.zeros(2, np.int64), iou)) == 2
    assert len(common.nms(boxes, scores, np.ones(2, np.int64), iou)) == 1


def _turned_card_box(cx: float, cy: float, w: float = 63.0, h: float = 88.0, deg: float = 40.0) -> list[float]:
    """The axis-aligned box of a w x h card centred at (cx, cy) and turned `deg` degrees."""
    a = np.radians(deg)
    hw = (abs(np.cos(a)) * w + abs(np.sin(a)) * h) / 2
    hh = (abs(np.sin(a)) * w + abs(np.cos(a)) * h) / 2
    return [cx - hw, cy - hh, cx + hw, cy + hh]


def test_a_turned_loose_row_of_backs_keeps_every_card() -> None:
    # four backs 30 px apart along a row turned 40 degrees: neighbouring axis-aligned boxes overlap (IoU ~0.6)
    # as much as two boxes of one card, and plain NMS kept two of the four cards
    a = np.radians(40.0)
    row = [_turned_card_box(100 + 30 * k * np.cos(a), 100 + 30 * k * np.sin(a)) for k in range(4)]
    # plus a second, slightly shifted box of the first card: that one must still merge
    boxes = np.array([*row, [v + 3 for v in row[0]]], np.float32)
    scores = np.array([0.9, 0.8, 0.7, 0.6, 0.5], np.float32)
    names = ("index", "back", "button")
    th = common.Thresholds()
    _, iou = th.per_class(names)
    backs = np.ones(5, np.int64)
    assert len(common.nms(boxes, scores, backs, iou)) < 4  # what IoU alone does
    kept = common.nms(boxes, scores, backs, iou, gap=th.centre_gaps(names))
    assert sorted(kept.tolist()) == [0, 1, 2, 3]
    # the guard is for backs only: index corners and the button keep plain NMS
    assert th.centre_gaps(names)[0] == np.inf and th.centre_gaps(names)[2] == np.inf


def test_crops_are_centred_squares() -> None:
    img = np.zeros((100, 100, 3), np.uint8)
    img[40:60, 40:60] = 255
    crops = common.crop_squares(img, np.array([[40, 40, 60, 60]], np.float32), 32, 1.0)
    assert crops.shape == (1, 32, 32, 3)
    assert crops[0, 16, 16, 0] == 255 and crops[0, 1:31, 1:31].min() > 0


def test_large_crops_are_area_filtered_and_stay_centred() -> None:
    stripes = np.zeros((1000, 1000, 3), np.uint8)
    stripes[:, ::2] = 255  # 1 px stripes: a 320 px square of them brought to 32 px must read as flat grey
    crop = common.crop_squares(stripes, np.array([[300, 300, 620, 620]], np.float32), 32, 1.0)[0]
    assert abs(float(crop.mean()) - 127.5) < 8 and float(crop.std()) < 12  # bilinear sampling aliases to 0/255
    img = np.zeros((1000, 1000, 3), np.uint8)
    img[400:600, 400:600] = 255  # the middle half of a 400 px square crop, and one cut by the image edge
    crops = common.crop_squares(img, np.array([[300, 300, 700, 700], [-100, -100, 300, 300]], np.float32), 32, 1.0)
    assert crops[0, 9:23, 9:23].min() > 200 and crops[0, :6].max() < 50 and crops[0, :, 26:].max() < 50
    assert crops[1].max() < 60  # the edge is replicated, not filled with the square


def test_assemble_reads_corners_merges_twins_and_keeps_one_button() -> None:
    img = np.zeros((200, 300, 3), np.uint8)
    xyxy = np.array([[10, 10, 20, 25], [40, 60, 50, 75], [200, 10, 210, 25], [100, 100, 150, 170],
                     [5, 150, 25, 170], [250, 150, 270, 170]], np.float32)
    scores = np.array([0.9, 0.8, 0.7, 0.95, 0.9, 0.4], np.float32)
    classes = np.array([0, 0, 0, 1, 2, 2], np.int64)
    probs = np.zeros((3, 53), np.float32)
    probs[0, 51] = 0.99  # Ks
    probs[1, 51] = 0.97  # Ks again, the card's other corner nearby: merged
    probs[2, 52] = 0.9  # not an index corner: dropped

    calls: list[int] = []

    def classify(blob: np.ndarray) -> np.ndarray:
        calls.append(len(blob))
        if len(calls) == 1:
            assert blob.shape == (3, 3, 32, 32)
            return probs
        return np.tile(probs[:2], (3, 1))  # the two crops that read a card, turned three more ways

    out = common.assemble(img, xyxy, scores, classes, ("index", "back", "button"), classify, 32, 1.5,
                          common.Thresholds())
    assert sorted(out.labels) == ["Ks", "back", "button"]
    assert out.confidence[out.labels.index("Ks")] == pytest.approx(0.9 * 0.99, rel=1e-5)
    assert calls == [3, 3 * 2]  # the "not a corner" crop is not read again
    assert int(out.is_button.sum()) == 1 and out.class_id[out.is_button][0] == BUTTON_ID
    assert out.xyxy[out.class_id == BACK_ID].tolist() == [[100, 100, 150, 170]]


def test_large_corners_are_read_at_both_sizes_and_need_the_large_bar() -> None:
    """A corner whose crop square is `from_px` or more is read at the classifier's large size as well as at its
    first, the two reads averaged, and that mean needs the large read's bar; smaller corners are read once at the
    first size and need the face-up bar. Without a large read every corner is read once at the first size."""
    img = np.zeros((400, 400, 3), np.uint8)
    img[:, 200:] = 255
    # crop squares 1.5x the boxes: 15 px on black, 60 px on white
    xyxy = np.array([[10, 10, 20, 20], [300, 100, 340, 140]], np.float32)
    scores = np.array([0.9, 0.9], np.float32)
    classes = np.array([0, 0], np.int64)
    seen: list[tuple[int, bool]] = []

    def classify(blob: np.ndarray) -> np.ndarray:
        out = np.zeros((len(blob), 53), np.float32)
        for i, crop in enumerate(blob):
            white = float(crop.mean()) > 0.5
            seen.append((crop.shape[-1], white))
            if not white:
                out[i, 0] = 0.95  # Ac, at either size
            else:
                out[i, 51] = 0.9 if crop.shape[-1] == 48 else 0.4  # Ks: sure at 48 px, unsure at 32 px
                out[i, 52] = 1 - out[i, 51]
        return out

    names = ("index", "back", "button")
    th = common.Thresholds(card=0.65)
    out = common.assemble(img, xyxy, scores, classes, names, classify, 32, 1.5, th, common.LargeRead(48, 40.0, 0.6))
    assert sorted(out.labels) == ["Ac", "Ks"]  # Ks: (0.9 + 0.4) / 2 = 0.65 >= 0.6
    assert out.confidence[out.labels.index("Ks")] == pytest.approx(0.9 * 0.65, rel=1e-5)
    assert out.xyxy[out.labels.index("Ks")].tolist() == [300, 100, 340, 140]
    assert set(seen) == {(32, False), (32, True), (48, True)}  # the small corner is never read at 48 px
    stricter = common.assemble(img, xyxy, scores, classes, names, classify, 32, 1.5, th,
                               common.LargeRead(48, 40.0, 0.7))
    assert stricter.labels == ["Ac"]
    seen.clear()
    one = common.assemble(img, xyxy, scores, classes, names, classify, 32, 1.5, th)
    assert one.labels == ["Ac"]  # Ks at 32 px only: 0.4, under the bar
    assert {size for size, _ in seen} == {32}


def test_assemble_one_stage_labels() -> None:
    img = np.zeros((50, 50, 3), np.uint8)
    out = common.assemble(img, np.array([[1, 1, 9, 9]], np.float32), np.array([0.8], np.float32),
                          np.array([1], np.int64), ("back", "Ah"), None, 32, 1.5, common.Thresholds())
    assert out.labels == ["Ah"]


def test_classifier_reads_each_crop_turned_four_ways() -> None:
    seen: list[np.ndarray] = []

    def classify(blob: np.ndarray) -> np.ndarray:
        seen.append(blob.copy())
        out = np.zeros((len(blob), 53), np.float32)
        out[:, 0] = blob[:, 0, 0, 0]  # "probability" = the crop's top-left red value
        out[:, 52] = 1 - blob[:, 0, 0, 0]
        return out

    blob = np.zeros((3, 3, 4, 4), np.float32)
    blob[0, 0, 0, 0] = 1.0  # lit at the top-left: read upright, then not in the three turns
    blob[1, 0, 0, 3] = 1.0  # lit at the top-right: no card upright, so never turned
    probs = common.classify_turned(classify, blob)
    assert [len(b) for b in seen] == [3, 3]  # all upright, then crop 0 at 90, 180 and 270 degrees
    assert probs.shape == (3, 53)
    assert probs[0, 0] == pytest.approx(0.25) and probs[1, 0] == 0.0 and probs[1, 52] == 1.0
    # a crop lit where a quarter turn brings it to the top-left is credited for that turn
    seen.clear()
    blob2 = np.zeros((1, 3, 4, 4), np.float32)
    blob2[0, 0, 0, 0] = blob2[0, 0, 3, 0] = 1.0
    assert common.classify_turned(classify, blob2)[0, 0] == pytest.approx(0.5)


def test_one_deck_a_card_named_twice_stands_once_the_more_confident_read() -> None:
    img = np.zeros((100, 800, 3), np.uint8)  # the two Ks corners are 23 corner heights apart: not one card's two
    xyxy = np.array([[10, 10, 30, 40], [700, 50, 720, 80], [150, 10, 170, 40], [200, 10, 240, 60]], np.float32)
    scores = np.array([0.4, 0.9, 0.8, 0.7], np.float32)

    def classify(blob: np.ndarray) -> np.ndarray:
        out = np.zeros((len(blob), 53), np.float32)
        out[:, 51] = 1.0  # every corner reads Ks, far apart or not
        return out

    out = common.assemble(img, xyxy, scores, np.array([0, 0, 1, 1], np.int64), ("index", "back", "button"),
                          classify, 32, 1.5, common.Thresholds())
    kept = [(label, round(c, 2)) for label, c in zip(out.labels, out.confidence.tolist(), strict=True)]
    assert sorted(kept) == [("Ks", 0.9), ("back", 0.7), ("back", 0.8)]  # both backs, one Ks: the 0.9 read


def test_at_most_max_index_corners_are_read_the_best_scored() -> None:
    img = np.zeros((100, 400, 3), np.uint8)
    n = 6
    xyxy = np.array([[10 + 60 * i, 10, 30 + 60 * i, 40] for i in range(n)], np.float32)
    for i in range(n):
        img[10:40, 10 + 60 * i : 30 + 60 * i] = 40 * (i + 1)
    scores = np.array([0.2, 0.9, 0.3, 0.8, 0.1, 0.7], np.float32)
    read: list[int] = []

    def classify(blob: np.ndarray) -> np.ndarray:
        read.append(len(blob))
        out = np.zeros((len(blob), 53), np.float32)
        out[np.arange(len(blob)), np.round(blob.max(axis=(1, 2, 3)) * 255 / 40).astype(int)] = 1.0  # corner i: card i+1
        return out

    out = common.assemble(img, xyxy, scores, np.zeros(n, np.int64), ("index", "back", "button"), classify, 32,
                          1.5, common.Thresholds(max_index=3))
    assert read == [3, 3 * 3]  # three corners upright, then each turned three more ways
    assert sorted(out.confidence.tolist()) == pytest.approx([0.7, 0.8, 0.9])  # the three best-scored


def test_a_back_box_over_face_up_reads_or_smaller_than_their_corners_is_dropped() -> None:
    """Close views: a face-up spread read as one large `back` at the shrunk scale, and a pip read as a small one."""
    img = np.zeros((900, 1600, 3), np.uint8)
    corners = np.array([[100, 100, 160, 180], [200, 120, 260, 200], [1200, 100, 1260, 180]], np.float32)
    spread = [60, 60, 420, 500]       # holds the first two reads' centres
    pip = [300, 300, 350, 350]        # 50 px, under the reads' 80 px corner boxes
    card = [700, 100, 950, 450]       # a face-down card beside them: 350 px
    one_read = [1150, 50, 1500, 500]  # holds one read's centre: a face-up card lying on a face-down one, kept
    xyxy = np.array([*corners, spread, pip, card, one_read], np.float32)
    scores = np.array([0.9, 0.9, 0.9, 0.5, 0.5, 0.5, 0.5], np.float32)

    def classify(blob: np.ndarray) -> np.ndarray:
        out = np.zeros((len(blob), 53), np.float32)
        out[np.arange(len(blob)), np.arange(len(blob)) % 3] = 1.0  # three cards
        return out

    out = common.assemble(img, xyxy, scores, np.array([0, 0, 0, 1, 1, 1, 1], np.int64),
                          ("index", "back", "button"), classify, 32, 1.5, common.Thresholds())
    backs = out.xyxy[np.asarray(out.labels) == "back"].tolist()
    assert len(out) == 5 and len(set(out.labels) - {"back"}) == 3
    assert sorted(backs) == sorted([card, one_read])
    # with no face-up read there is nothing to measure a back against: all stand
    only = common.assemble(img, xyxy[3:], scores[3:], np.ones(4, np.int64), ("index", "back", "button"), classify,
                           32, 1.5, common.Thresholds())
    assert only.labels == ["back"] * 4


def test_the_onnx_backend_refuses_a_gpu_device() -> None:
    """ONNX Runtime here runs on the CPU: asking it for a GPU is a one-line error naming the backend that can."""
    with pytest.raises(DetectorError, match=r"the onnx backend runs on the CPU .*device '0' needs the ultralytics"):
        make_detector("onnx", device="0")
    assert make_detector("onnx", device="cpu").name == "onnx"
