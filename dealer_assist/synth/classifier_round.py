"""A classifier training round on a GPU machine that lacks the Debian card art, the font decks' fonts and OpenCV 5.

Here, `crops` renders the scene and close-view crops and `pack` writes one file: the classifier's face designs (the
training decks and the font decks, 52 faces each, WebP) with their index boxes, the training backs, and those crops.
There, `train` runs worker processes that draw fresh art crops from that art with the recipe's own draw
(`dataset.art_crops`) while the GPU trains on every crop drawn so far: the networks see millions of crops instead of
the CPU recipe's 20 passes over 100,000 (one H200 with 15 workers: 5.3 million in 500 s, each seen about once).
Several networks train on the same batches, each saved as a state dict for `export` back here.
"""

from __future__ import annotations

import argparse
import math
import queue
import random
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import cv2
import numpy as np
import numpy.typing as npt

from dealer_assist.cards import FULL_DECK
from dealer_assist.errors import DealerAssistError
from dealer_assist.synth import dataset as ds
from dealer_assist.synth.card_art import Box, FaceDesign

Image = npt.NDArray[np.uint8]
Log = Callable[[str], None]

WEBP_QUALITY = 85  # the art's edges survive (glyph strokes 3 px and more at ART_WIDTH); 25 MiB for 71 designs
CROP_QUALITY = 90  # rendered crops, already through the camera's JPEG: 290 bytes a 32 px crop instead of 3 KiB
MOSAIC = 64  # crops a side of one WebP mosaic (WebP images end at 16,383 px)
CROP_KEYS = ("x_train", "y_train", "x_val", "y_val", "x_train_large", "y_train_large", "x_val_large", "y_val_large")


def _encode(images: Sequence[Image], quality: int = WEBP_QUALITY) -> tuple[Image, npt.NDArray[np.int64]]:
    """Images as WebP files end to end in one byte array, and where each ends."""
    blobs = [np.frombuffer(cv2.imencode(".webp", img, [cv2.IMWRITE_WEBP_QUALITY, quality])[1].tobytes(), np.uint8)
             for img in images]
    ends = np.cumsum([len(b) for b in blobs]).astype(np.int64)
    return (np.concatenate(blobs) if blobs else np.zeros(0, np.uint8)), ends


def _decode(blob: Image, ends: npt.NDArray[np.int64], i: int) -> Image:
    start = int(ends[i - 1]) if i else 0
    return np.asarray(cv2.imdecode(blob[start:int(ends[i])], cv2.IMREAD_UNCHANGED), dtype=np.uint8)


def _encode_crops(x: Image) -> tuple[Image, npt.NDArray[np.int64]]:
    """Crops (N, S, S, 3) as WebP mosaics of MOSAIC x MOSAIC crops, the last one short: one image compresses the
    crops' shared felt and ink far better than each alone."""
    n, side = len(x), x.shape[1]
    tiles = []
    for i in range(0, n, MOSAIC * MOSAIC):
        part = x[i : i + MOSAIC * MOSAIC]
        rows = -(-len(part) // MOSAIC)
        grid = np.zeros((rows * MOSAIC, side, side, 3), np.uint8)
        grid[: len(part)] = part
        tiles.append(grid.reshape(rows, MOSAIC, side, side, 3).transpose(0, 2, 1, 3, 4).reshape(rows * side, -1, 3))
    return _encode(tiles, CROP_QUALITY)


def _decode_crops(blob: Image, ends: npt.NDArray[np.int64], n: int, side: int) -> Image:
    parts = []
    for i in range(len(ends)):
        grid = _decode(blob, ends, i)
        rows = grid.shape[0] // side
        parts.append(grid.reshape(rows, side, MOSAIC, side, 3).transpose(0, 2, 1, 3, 4).reshape(-1, side, side, 3))
    return np.concatenate(parts)[:n] if parts else np.zeros((0, side, side, 3), np.uint8)


def pack(out: Path, faces: Sequence[FaceDesign], backs: Sequence[Image],
         crops: dict[str, np.ndarray[Any, Any]]) -> Path:
    """One compressed file with the faces' art and index boxes, the backs and the rendered crops (`CROP_KEYS`)."""
    missing = [k for k in CROP_KEYS if k not in crops]
    if missing:
        raise DealerAssistError(f"crops lack {', '.join(missing)}; accepted: a dict with {', '.join(CROP_KEYS)}")
    face_blob, face_ends = _encode([d.faces[c] for d in faces for c in FULL_DECK])
    back_blob, back_ends = _encode(list(backs))
    n_boxes = max(len(d.index_boxes) for d in faces)
    boxes = np.full((len(faces), n_boxes, 4), np.nan)
    for i, d in enumerate(faces):
        boxes[i, : len(d.index_boxes)] = [(b.x0, b.y0, b.x1, b.y1) for b in d.index_boxes]
    packed: dict[str, Any] = {}  # Any: numpy's stub would take **kwds of arrays for its allow_pickle flag
    for k in CROP_KEYS:
        if k.startswith("y_"):
            packed[k] = np.asarray(crops[k], np.int64)
            continue
        packed[f"{k}_blob"], packed[f"{k}_ends"] = _encode_crops(np.asarray(crops[k], np.uint8))
        packed[f"{k}_shape"] = np.array(np.shape(crops[k])[:2])
    out.parent.mkdir(parents=True, exist_ok=True)
    packed |= {"face_names": np.array([d.name for d in faces]), "face_blob": face_blob, "face_ends": face_ends,
               "back_blob": back_blob, "back_ends": back_ends, "index_boxes": boxes}
    np.savez(out, **packed)
    return out


@dataclass(frozen=True)
class Pack:
    """What `pack` wrote, read back: the designs as the recipe's draw takes them, and the rendered crops (BGR)."""

    faces: list[FaceDesign]
    backs: list[Image]
    crops: dict[str, np.ndarray[Any, Any]]


def load(path: Path, *, with_crops: bool = True, with_art: bool = True) -> Pack:
    try:
        data = np.load(path)
    except (OSError, ValueError) as exc:
        raise DealerAssistError(f"cannot read the classifier pack {path} ({exc}); accepted: a file written by "
                                "`python -m dealer_assist.synth.classifier_round pack`") from exc
    with data:
        names = [str(n) for n in data["face_names"]]
        face_blob, face_ends, boxes = data["face_blob"], data["face_ends"], data["index_boxes"]
        faces = []
        for i, name in enumerate(names if with_art else ()):
            imgs = {c: _decode(face_blob, face_ends, i * 52 + j) for j, c in enumerate(FULL_DECK)}
            design_boxes = tuple(Box(*map(float, b)) for b in boxes[i] if not np.isnan(b).any())
            faces.append(FaceDesign(name, imgs, design_boxes))
        n_backs = len(data["back_ends"]) if with_art else 0
        backs = [_decode(data["back_blob"], data["back_ends"], i) for i in range(n_backs)]
        crops: dict[str, np.ndarray[Any, Any]] = {}
        for k in CROP_KEYS if with_crops else ():
            if k.startswith("y_"):
                crops[k] = data[k]
            else:
                n, side = (int(v) for v in data[f"{k}_shape"])
                crops[k] = _decode_crops(data[f"{k}_blob"], data[f"{k}_ends"], n, side)
    return Pack(faces, backs, crops)


# --------------------------------------------------------------------------------------------
# There: workers draw, the GPU trains


def _draw(pack_path: str, size: int, min_px: float, max_px: float, seed: int, chunk: int, out: Any) -> None:
    """A worker process: art crops of `size` px forever, `chunk` at a time, into the queue `out`."""
    cv2.setNumThreads(1)
    art = load(Path(pack_path), with_crops=False)
    rng = np.random.default_rng([seed, size, 81])
    while True:
        x, y = ds.art_crops(chunk, rng, list(art.faces), art.backs, size=size, min_px=min_px, max_px=max_px)
        out.put((size, x, y))


@dataclass(frozen=True)
class NetSpec:
    """One network of the round: a name for its files, its layout (`train.CLASSIFIER_ARCHS`), the state dict it
    starts from (None: from scratch) and its peak learning rate."""

    name: str
    arch: str
    init: Path | None
    lr: float

    @classmethod
    def parse(cls, text: str) -> NetSpec:
        """NAME:ARCH[:INIT.pt][@LR], e.g. `v4:v4@3e-3` or `v3ft:v3:models/cards-classifier.pt@1.5e-3`."""
        spec, _, lr = text.partition("@")
        parts = spec.split(":")
        if len(parts) not in (2, 3) or not all(parts[:2]):
            raise DealerAssistError(f"bad network spec {text!r}; accepted: NAME:ARCH[:INIT.pt][@LR]")
        return cls(parts[0], parts[1], Path(parts[2]) if len(parts) == 3 and parts[2] else None,
                   float(lr) if lr else 3e-3)


def _rgb_nchw(x: np.ndarray[Any, Any]) -> Any:
    """Crops as cv2 holds them (N, S, S, 3 BGR) as the network reads them (N, 3, S, S RGB), uint8 on the CPU."""
    import torch

    return torch.from_numpy(np.ascontiguousarray(x[..., ::-1])).permute(0, 3, 1, 2)


class _Buffer:
    """Crops on the device, grown as the workers deliver them (RGB, NCHW uint8)."""

    def __init__(self, capacity: int, size: int, device: Any) -> None:
        import torch

        self.x = torch.empty((capacity, 3, size, size), dtype=torch.uint8, device=device)
        self.y = torch.empty(capacity, dtype=torch.int64, device=device)
        self.n = 0
        self.seen = 0  # every crop delivered, also those past capacity (they replace random earlier ones)

    def add(self, x: np.ndarray[Any, Any], y: np.ndarray[Any, Any]) -> None:
        import torch

        xt = _rgb_nchw(x).to(self.x.device)
        yt = torch.from_numpy(np.asarray(y, np.int64)).to(self.y.device)
        room = len(self.y) - self.n
        head = min(room, len(yt))
        self.x[self.n : self.n + head] = xt[:head]
        self.y[self.n : self.n + head] = yt[:head]
        self.n += head
        if head < len(yt):
            idx = torch.randint(0, len(self.y), (len(yt) - head,), device=self.y.device)
            self.x[idx], self.y[idx] = xt[head:], yt[head:]
        self.seen += len(yt)

    def sample(self, k: int, gen: Any) -> tuple[Any, Any]:
        import torch

        idx = torch.randint(0, self.n, (k,), device=self.y.device, generator=gen)
        return self.x[idx], self.y[idx]


def _augment(xb: Any, gen: Any) -> Any:
    """The recipe's training augmentation (`train.train_classifier`), drawn on the device that holds the batch: the
    recipe's own draws on the CPU, and moving each batch there and back would idle the GPU."""
    import torch

    x = xb.float() / 255.0
    x = torch.rot90(x, int(torch.randint(0, 4, (1,), device=x.device, generator=gen)), dims=(2, 3))
    n = x.shape[0]
    gain = 1 + 0.25 * (torch.rand(n, 1, 1, 1, device=x.device, generator=gen) - 0.5) * 2
    bias = 0.08 * (torch.rand(n, 1, 1, 1, device=x.device, generator=gen) - 0.5) * 2
    x = x * gain + bias + 0.02 * torch.randn(x.shape, device=x.device, generator=gen)
    swap = torch.rand(n, device=x.device, generator=gen) < 0.25
    perm = torch.randperm(3, device=x.device, generator=gen)
    x = torch.where(swap[:, None, None, None], x[:, perm], x)
    grey = torch.rand(n, device=x.device, generator=gen) < 0.1
    x = torch.where(grey[:, None, None, None], x.mean(dim=1, keepdim=True).expand(-1, 3, -1, -1), x)
    return x.clamp(0, 1)


def _rate(frac: float, peak: float) -> float:
    """A one-cycle rate over the round's time: up over its first 10%, then a cosine down to 1/100 of the peak."""
    if frac < 0.1:
        return peak * (0.04 + 0.96 * frac / 0.1)
    return peak * (0.01 + 0.99 * 0.5 * (1 + math.cos(math.pi * min(1.0, (frac - 0.1) / 0.9))))


@dataclass(frozen=True)
class RoundConfig:
    seconds: float = 420.0
    workers: int = 10  # processes drawing 32 px art crops
    large_workers: int = 4  # processes drawing 48 px art crops (a third as fast each)
    size: int = 32
    large_size: int = 48
    batch: int = 512
    large_share: float = 0.4  # of the steps, those on a batch of large crops
    scene_share: float = 0.2  # of each batch, crops of rendered scenes (close views, for the large batches)
    chunk: int = 256
    capacity: int = 3_000_000
    large_capacity: int = 600_000
    eval_every_s: float = 60.0
    start_timeout_s: float = 180.0  # the workers' start (imports, the art decoded) is not the round's time
    # Where the machine's time is capped: the round ends this long after it began, its start included, with the
    # training time shortened (and its rate schedule fitted) to what is left less `reserve_s` for the last saves.
    deadline_s: float | None = None
    reserve_s: float = 25.0
    seed: int = 0
    device: str = "cuda"


def train_round(pack_path: Path, out: Path, nets: Sequence[NetSpec], cfg: RoundConfig,
                log: Log = print) -> dict[str, Any]:
    """Train every network in `nets` on the same batches for `cfg.seconds`; write NAME.pt (last) and NAME-best.pt
    (best validation: the mean of the 32 and 48 px reads) into `out` and return the figures."""
    import multiprocessing

    import torch

    from dealer_assist.synth.train import _classifier_accuracy, _classifier_module, classifier_loss

    t0 = time.time()
    device = torch.device(cfg.device)
    torch.manual_seed(cfg.seed)
    gen = torch.Generator(device=device).manual_seed(cfg.seed)
    rendered = load(pack_path, with_art=False).crops
    out.mkdir(parents=True, exist_ok=True)
    index_net, combined = _classifier_module()
    models, opts = [], []
    for spec in nets:
        net = index_net(spec.arch)
        if spec.init is not None:
            net.load_state_dict(torch.load(str(spec.init), map_location="cpu"))
        models.append(net.to(device))
        opts.append(torch.optim.AdamW(net.parameters(), lr=spec.lr, weight_decay=1e-4))

    def fixed(name: str, size: int) -> _Buffer:
        buf = _Buffer(len(rendered[f"y_{name}"]), size, device)
        buf.add(rendered[f"x_{name}"], rendered[f"y_{name}"])
        return buf

    scene, scene_large = fixed("train", cfg.size), fixed("train_large", cfg.large_size)
    x_val, y_val = _rgb_nchw(rendered["x_val"]), torch.from_numpy(rendered["y_val"])
    x_lval, y_lval = _rgb_nchw(rendered["x_val_large"]), torch.from_numpy(rendered["y_val_large"])
    art, art_large = _Buffer(cfg.capacity, cfg.size, device), _Buffer(cfg.large_capacity, cfg.large_size, device)
    spawn = multiprocessing.get_context("spawn")  # no forked OpenCV thread pool (as train.build_data)
    inbox: Any = spawn.Queue(maxsize=256)
    jobs = ([(cfg.size, ds.ART_MIN_PX, 40.0)] * cfg.workers
            + [(cfg.large_size, ds.LARGE_ART_PX[0], ds.LARGE_ART_PX[1])] * cfg.large_workers)
    procs = [spawn.Process(target=_draw, args=(str(pack_path), size, lo, hi, cfg.seed * 1000 + i, cfg.chunk, inbox),
                           daemon=True) for i, (size, lo, hi) in enumerate(jobs)]
    for p in procs:
        p.start()
    history: list[dict[str, Any]] = []
    best = [-1.0] * len(nets)
    steps = 0
    pick = random.Random(cfg.seed)

    def drain(block: bool) -> None:
        while True:
            try:
                size, x, y = inbox.get(timeout=1.0) if block else inbox.get_nowait()
            except queue.Empty:
                return
            (art if size == cfg.size else art_large).add(x, y)
            block = False

    def evaluate(elapsed: float) -> None:
        row: dict[str, Any] = {"s": round(elapsed), "steps": steps, "art": art.seen, "art_large": art_large.seen}
        for k, (spec, net) in enumerate(zip(nets, models, strict=True)):
            small = _classifier_accuracy(net, combined, x_val, y_val, device)
            large = _classifier_accuracy(net, combined, x_lval, y_lval, device)
            row[spec.name] = {"val": round(small["card_accuracy"], 4), "reject": round(small["reject_accuracy"], 4),
                              "val_large": round(large["card_accuracy"], 4)}
            score = (small["card_accuracy"] + large["card_accuracy"]) / 2
            if score > best[k]:
                best[k] = score
                torch.save({n: v.cpu() for n, v in net.state_dict().items()}, out / f"{spec.name}-best.pt")
            net.train()
        history.append(row)
        log(f"round: {row}")

    try:
        while art.n < cfg.batch or art_large.n < cfg.batch // 2:  # a first batch of each size
            drain(block=True)
            dead = [p.exitcode for p in procs if not p.is_alive()]
            if dead or time.time() - t0 > cfg.start_timeout_s:
                raise DealerAssistError(f"no first batch of art crops after {time.time() - t0:.0f}s (workers that "
                                        f"stopped: {len(dead)}, exit codes {dead}); accepted: workers that draw")
        log(f"round: first crops after {time.time() - t0:.0f}s; training {', '.join(s.name for s in nets)}")
        evaluate(0.0)  # where each network starts: the shipped weights' figures, or chance
        seconds = cfg.seconds
        if cfg.deadline_s is not None:
            seconds = min(seconds, cfg.deadline_s - (time.time() - t0) - cfg.reserve_s)
            log(f"round: {seconds:.0f}s of training fit before the deadline")
        start = time.time()
        next_eval = cfg.eval_every_s
        for net in models:
            net.train()
        while (elapsed := time.time() - start) < seconds:
            if steps % 8 == 0:
                drain(block=False)
            large = pick.random() < cfg.large_share
            fresh, rendered_buf, n = (art_large, scene_large, cfg.batch // 2) if large else (art, scene, cfg.batch)
            k_scene = round(n * cfg.scene_share)
            xa, ya = fresh.sample(n - k_scene, gen)
            xs, ys = rendered_buf.sample(k_scene, gen)
            xb = _augment(torch.cat([xa, xs]), gen)
            yb = torch.cat([ya, ys])
            frac = elapsed / seconds
            for spec, net, opt in zip(nets, models, opts, strict=True):
                for group in opt.param_groups:
                    group["lr"] = _rate(frac, spec.lr)
                loss = classifier_loss(net(xb), yb)
                opt.zero_grad(set_to_none=True)
                loss.backward()  # type: ignore[no-untyped-call,unused-ignore]
                opt.step()
            steps += 1
            if elapsed >= next_eval:
                evaluate(elapsed)
                next_eval += cfg.eval_every_s
        evaluate(time.time() - start)
    finally:
        for p in procs:
            p.terminate()
    for spec, net in zip(nets, models, strict=True):
        torch.save({n: v.cpu() for n, v in net.state_dict().items()}, out / f"{spec.name}.pt")
    figures = {"steps": steps, "art_crops": art.seen, "art_crops_large": art_large.seen,
               "seconds": round(time.time() - t0), "history": history}
    log(f"round: {steps} steps, {art.seen} + {art_large.seen} art crops drawn, {figures['seconds']}s")
    return figures


# --------------------------------------------------------------------------------------------
# Back here: the state dict as the app's ONNX graph


def export(state: Path, arch: str, out: Path, size: int = 32) -> Path:
    """A round's state dict as `cards-classifier.onnx` (and `.pt`) in `out`'s folder, as the recipe writes it."""
    import torch

    from dealer_assist.synth.train import _classifier_module, _export_classifier

    index_net, combined = _classifier_module()
    net = index_net(arch)
    net.load_state_dict(torch.load(str(state), map_location="cpu"))
    out.parent.mkdir(parents=True, exist_ok=True)
    _export_classifier(net, combined, size, out)
    return out


def main(argv: Sequence[str] | None = None) -> None:
    import json

    parser = argparse.ArgumentParser(prog="python -m dealer_assist.synth.classifier_round", description=__doc__)
    sub = parser.add_subparsers(dest="verb", required=True)
    c = sub.add_parser("crops", help="here: render the scene and close-view crops the pack carries")
    c.add_argument("views_out", type=Path, help="where the close views' crops go (.npz)")
    c.add_argument("--images", type=int, default=1600)
    c.add_argument("--close-ups", type=int, default=180)
    c.add_argument("--large-scenes", type=int, default=1500)
    c.add_argument("--workers", type=int, default=2)
    c.add_argument("--data", type=Path, default=None, help="rendered sets' folder (default: the recipe's)")
    p = sub.add_parser("pack", help="here: art, backs and rendered crops into one file")
    p.add_argument("out", type=Path)
    p.add_argument("scene_crops", type=Path, help="crops.npz of a rendered set (`train --stop-after data`)")
    p.add_argument("large_views", type=Path, help="train.large_scene_crops' arrays, saved with numpy.savez")
    p.add_argument("--keep-views", type=float, default=1.0,
                   help="share of the close views' training crops kept (seeded): the device takes 64 MiB")
    p.add_argument("--faces", default="", help="comma list of face designs (default: the classifier's, all)")
    t = sub.add_parser("train", help="there: draw and train")
    t.add_argument("pack", type=Path)
    t.add_argument("out", type=Path)
    t.add_argument("--net", action="append", required=True, help="NAME:ARCH[:INIT.pt][@LR]; repeat for more")
    t.add_argument("--seconds", type=float, default=RoundConfig.seconds)
    t.add_argument("--workers", type=int, default=RoundConfig.workers)
    t.add_argument("--large-workers", type=int, default=RoundConfig.large_workers)
    t.add_argument("--device", default=RoundConfig.device)
    t.add_argument("--seed", type=int, default=0)
    t.add_argument("--deadline", type=float, default=None, help="seconds from start by which the round must end")
    e = sub.add_parser("export", help="here: a state dict as cards-classifier.onnx")
    e.add_argument("state", type=Path)
    e.add_argument("arch")
    e.add_argument("out", type=Path)
    args = parser.parse_args(argv)
    if args.verb == "crops":
        from dealer_assist.synth.train import TrainConfig, build_data, large_scene_crops

        # the options of the shipped detector's and classifier's data (models/README.md, Reproduce, step 10)
        data = TrainConfig(images=args.images, close_ups=args.close_ups, face_down_layouts=(0.2, 0.2, 0.6),
                           random_backs=16, felt_print=12, classifier_large_size=48, large_scenes=args.large_scenes,
                           workers=args.workers, **({"data": args.data} if args.data else {}))
        _, scene_crops = build_data(data, print)
        args.views_out.parent.mkdir(parents=True, exist_ok=True)
        views: dict[str, Any] = large_scene_crops(data, print)
        np.savez(args.views_out, **views)
        print(f"scene crops: {scene_crops}; close views' crops: {args.views_out}")
    elif args.verb == "pack":
        from dealer_assist.synth.card_art import designs_for, load_back_design, load_face_design
        from dealer_assist.synth.train import classifier_faces

        with np.load(args.scene_crops) as scene, np.load(args.large_views) as views:
            rng = np.random.default_rng(0)
            small = np.sort(rng.permutation(len(views["y_train"]))[: round(len(views["y_train"]) * args.keep_views)])
            big = np.sort(rng.permutation(len(views["y_train_large"]))[
                : round(len(views["y_train_large"]) * args.keep_views)])
            crops = {"x_train": np.concatenate([scene["x_train"], views["x_train"][small]]),
                     "y_train": np.concatenate([scene["y_train"], views["y_train"][small]]),
                     "x_val": scene["x_val"], "y_val": scene["y_val"],
                     "x_train_large": views["x_train_large"][big], "y_train_large": views["y_train_large"][big],
                     "x_val_large": views["x_val_large"], "y_val_large": views["y_val_large"]}
        faces = [load_face_design(n) for n in (args.faces.split(",") if args.faces else classifier_faces())]
        backs = [load_back_design(n).image for n in designs_for("train", "back")]
        path = pack(args.out, faces, backs, crops)
        print(f"packed {len(faces)} face designs, {len(backs)} backs, {len(crops['y_train'])} + "
              f"{len(crops['y_train_large'])} rendered crops: {path} ({path.stat().st_size / 2**20:.1f} MiB)")
    elif args.verb == "train":
        cfg = RoundConfig(seconds=args.seconds, workers=args.workers, large_workers=args.large_workers,
                          device=args.device, seed=args.seed, deadline_s=args.deadline)
        figures = train_round(args.pack, args.out, [NetSpec.parse(n) for n in args.net], cfg)
        (args.out / "round.json").write_text(json.dumps(figures, indent=1))
    else:
        print(export(args.state, args.arch, args.out))


if __name__ == "__main__":
    main()
