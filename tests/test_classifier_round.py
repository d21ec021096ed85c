"""synth.classifier_round: the art and rendered crops packed for a GPU machine, read back as the recipe's draw takes
them, and a round that draws crops in worker processes while it trains (here on the CPU, for a few seconds)."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from dealer_assist.cards import FULL_DECK
from dealer_assist.errors import DealerAssistError
from dealer_assist.synth import classifier_round as cr
from dealer_assist.synth import dataset as ds
from dealer_assist.synth.card_art import load_back_design, load_face_design

FACES = ("proc-classic", "proc-mono")  # drawn here without the Debian packages


def _crops(n: int, size: int, rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray]:
    """Crops a lossy mosaic keeps recognisable: each a flat colour with a bright square in a corner of its own."""
    x = np.repeat(rng.integers(0, 200, (n, 1, 1, 3), dtype=np.uint8), size, axis=1).repeat(size, axis=2)
    for i in range(n):
        r, c = (i % 2) * size // 2, (i // 2 % 2) * size // 2
        x[i, r : r + size // 2, c : c + size // 2] = 255
    return x, rng.integers(0, 53, n).astype(np.int64)


@pytest.fixture(scope="module")
def packed(tmp_path_factory: pytest.TempPathFactory) -> Path:
    rng = np.random.default_rng(0)
    crops: dict[str, np.ndarray] = {}
    for name, n, size in (("train", 40, 32), ("val", 20, 32), ("train_large", 30, 48), ("val_large", 10, 48)):
        crops[f"x_{name}"], crops[f"y_{name}"] = _crops(n, size, rng)
    faces = [load_face_design(n) for n in FACES]
    backs = [load_back_design("back:proc-black-rings").image]
    return cr.pack(tmp_path_factory.mktemp("cls-round") / "pack.npz", faces, backs, crops)


def test_the_pack_reads_back_as_the_designs_boxes_backs_and_crops(packed: Path) -> None:
    got = cr.load(packed)
    assert [d.name for d in got.faces] == list(FACES)
    for design in got.faces:
        source = load_face_design(design.name)
        assert design.index_boxes == pytest.approx(source.index_boxes)
        for card in (FULL_DECK[0], FULL_DECK[33], FULL_DECK[51]):
            a, b = design.faces[card].astype(int), source.faces[card].astype(int)
            assert a.shape == b.shape  # BGRA kept: the draw pastes by the card's own alpha
            assert np.abs(a - b).mean() < 4  # lossy WebP, but the same card
    assert got.backs[0].shape == load_back_design("back:proc-black-rings").image.shape
    rng = np.random.default_rng(0)
    x_train, y_train = _crops(40, 32, rng)
    assert np.array_equal(got.crops["y_train"], y_train)
    assert got.crops["x_train"].shape == x_train.shape and got.crops["x_val_large"].shape == (10, 48, 48, 3)
    assert np.abs(got.crops["x_train"].astype(int) - x_train).mean() < 6  # each crop in its own place
    crops_only = cr.load(packed, with_art=False)  # the trainer's read: the art stays packed
    assert crops_only.faces == [] and crops_only.backs == [] and len(crops_only.crops["y_val"]) == 20
    # the recipe's own draw runs on the packed art
    x, y = ds.art_crops(8, np.random.default_rng(1), list(got.faces), got.backs)
    assert x.shape == (8, 32, 32, 3) and ((y >= 0) & (y <= ds.NOT_A_CARD)).all()


def test_a_pack_without_every_crop_set_is_refused_by_name(tmp_path: Path) -> None:
    with pytest.raises(DealerAssistError, match="x_val_large"):
        cr.pack(tmp_path / "p.npz", [load_face_design("proc-classic")], [], {"x_train": np.zeros((1, 32, 32, 3))})
    with pytest.raises(DealerAssistError, match="cannot read the classifier pack"):
        cr.load(tmp_path / "missing.npz")


def test_network_specs_parse_and_bad_ones_name_the_form() -> None:
    assert cr.NetSpec.parse("v4:v4@2e-3") == cr.NetSpec("v4", "v4", None, 2e-3)
    assert cr.NetSpec.parse("ft:v3:models/cards-classifier.pt") == cr.NetSpec(
        "ft", "v3", Path("models/cards-classifier.pt"), 3e-3)
    with pytest.raises(DealerAssistError, match="NAME:ARCH"):
        cr.NetSpec.parse("v4")


def test_the_rate_warms_up_then_falls_to_a_hundredth() -> None:
    assert cr._rate(0.0, 1.0) == pytest.approx(0.04)
    assert cr._rate(0.1, 1.0) == pytest.approx(1.0)
    assert cr._rate(1.0, 1.0) == pytest.approx(0.01)
    assert cr._rate(0.5, 1.0) < cr._rate(0.3, 1.0)


def test_a_round_draws_in_workers_trains_each_net_and_saves_states_that_export(packed: Path, tmp_path: Path) -> None:
    torch = pytest.importorskip("torch")
    from dealer_assist.synth.train import _classifier_module

    cfg = cr.RoundConfig(seconds=6, workers=1, large_workers=1, batch=16, chunk=16, capacity=400, large_capacity=100,
                         eval_every_s=3, device="cpu")
    start = tmp_path / "start.pt"
    index_net, _ = _classifier_module()
    torch.save(index_net("v1").state_dict(), start)
    nets = [cr.NetSpec("a", "v1", None, 3e-3), cr.NetSpec("b", "v1", start, 1e-3)]
    figures = cr.train_round(packed, tmp_path / "out", nets, cfg, log=lambda msg: None)
    assert figures["steps"] > 0 and figures["art_crops"] >= 16 and figures["art_crops_large"] >= 16
    assert figures["history"] and set(figures["history"][-1]) >= {"a", "b"}
    json.dumps(figures)
    for name in ("a", "a-best", "b", "b-best"):
        assert (tmp_path / "out" / f"{name}.pt").is_file()
    trained = torch.load(str(tmp_path / "out" / "b.pt"))
    first = next(k for k in trained if k.endswith("weight"))
    assert not torch.equal(trained[first], torch.load(str(start))[first])  # it did train from its start
    onnx_path = cr.export(tmp_path / "out" / "b.pt", "v1", tmp_path / "exp" / "cards-classifier.onnx")
    ort = pytest.importorskip("onnxruntime")
    probs = ort.InferenceSession(str(onnx_path)).run(None, {"crops": np.zeros((2, 3, 32, 32), np.float32)})[0]
    assert probs.shape == (2, 53) and np.allclose(probs.sum(axis=1), 1, atol=1e-4)


def test_crops_past_one_mosaic_come_back_in_order(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(cr, "MOSAIC", 3)  # 9 crops a mosaic: 20 crops make 3, the last short
    x, _ = _crops(20, 32, np.random.default_rng(2))
    blob, ends = cr._encode_crops(x)
    assert len(ends) == 3
    back = cr._decode_crops(blob, ends, 20, 32)
    assert back.shape == x.shape
    assert np.abs(back.astype(int) - x).mean() < 6
    assert np.abs(back.astype(int) - x[::-1]).mean() > 20  # not merely alike: each in its place


def test_the_commands_render_the_crops_and_pack_them_with_the_art(tmp_path: Path,
                                                                  capsys: pytest.CaptureFixture[str]) -> None:
    views = tmp_path / "views.npz"
    cr.main(["crops", str(views), "--images", "2", "--close-ups", "0", "--large-scenes", "2", "--workers", "1",
             "--data", str(tmp_path / "data")])
    scene_crops = next((tmp_path / "data").glob("*/crops.npz"))
    with np.load(views) as v:
        assert v["x_train_large"].shape[1:] == (48, 48, 3) and len(v["y_train_large"]) == len(v["x_train_large"])
    cr.main(["pack", str(tmp_path / "pack.npz"), str(scene_crops), str(views), "--keep-views", "0.5",
             "--faces", ",".join(FACES)])
    assert "packed" in capsys.readouterr().out
    got = cr.load(tmp_path / "pack.npz")
    with np.load(scene_crops) as sc, np.load(views) as v:
        assert len(got.crops["y_train"]) == len(sc["y_train"]) + round(len(v["y_train"]) * 0.5)
        assert len(got.crops["y_val"]) == len(sc["y_val"]) and len(got.crops["y_val_large"]) == len(v["y_val_large"])
    assert [d.name for d in got.faces] == list(FACES)
