"""`dealer-assist audit`: referee a recorded video headless (vision -> referee -> hand log) and report."""

from __future__ import annotations

import dataclasses
import json
import math
import sys
from pathlib import Path
from typing import Any

import click

from dealer_assist.cli.sources import FiniteRange
from dealer_assist.errors import DealerAssistError


def _stacks(text: str) -> dict[int, int]:
    out: dict[int, int] = {}
    for item in text.replace(";", ",").split(","):
        if not item.strip():
            continue
        try:
            seat, chips = (int(v) for v in item.split(":"))
        except ValueError:
            raise click.BadParameter(f"{item!r} is not SEAT:CHIPS, e.g. 1:200,2:200,5:150") from None
        if seat in out:
            raise click.BadParameter(f"seat {seat} is given twice in {text!r}; give each seat once, e.g. "
                                     "1:200,2:200,5:150", param_hint="'--seats'")
        out[seat] = chips
    return out


def _house(spec: str | None, default: str) -> Any:
    from dealer_assist.rules.house_rules import PRESETS, HouseRules

    name = spec or default
    if name in PRESETS:
        return HouseRules.preset(name)
    return HouseRules.from_toml(Path(name))


@click.command("audit")
@click.argument("video", metavar="VIDEO")
@click.option("--table", "table", required=True, metavar="PROFILE",
              help="Table profile: a shipped name (oval-9, oval-6) or a TOML path.")
@click.option("--camera", "camera", default=None, metavar="CALIB",
              help="Camera calibration TOML (default: PROFILE.camera.toml beside the profile; with a fake:TRUTH "
                   "detector, the truth's homography).")
@click.option("--house", "house", default=None, metavar="PRESET",
              help="House rules: a preset name (badugi-limit, ...) or a TOML file (default: the truth's game, "
                   "else badugi-limit).")
@click.option("--actions", "actions", default=None, type=click.Path(dir_okay=False),
              help="The dealer's betting input: JSON lines or CSV with t, seat, action, amount (a sim-video truth "
                   "file works too; with a fake:TRUTH detector its actions are used by default). A shown hand the "
                   "camera could not read is the action show with the hand in cards: {\"t\": 41, \"seat\": 3, "
                   "\"action\": \"show\", \"cards\": \"Ah 2c 3d 4s\"}.")
@click.option("--actions-offset", "actions_offset", type=float, default=0.0, show_default=True, metavar="SECONDS",
              help="Seconds to add to every entry's time, when the actions were timed by another clock than the "
                   "video's (an entry at 12.0 with --actions-offset -1.5 is taken at 10.5 s into the video).")
@click.option("--log", "log_path", default=None, type=click.Path(dir_okay=False),
              help="Hand log to write (default: $DEALER_ASSIST_LOG, else the user data directory).")
@click.option("--json", "as_json", is_flag=True, help="Print the report as JSON.")
@click.option("--detector", "detector", default="onnx", show_default=True, metavar="BACKEND",
              help="onnx, ultralytics, or fake:TRUTH.json (ground-truth detections of a sim-video).")
@click.option("--model", "model", default=None, type=click.Path(), help="Detector model (default: models/).")
@click.option("--truth", "truth_path", default=None, type=click.Path(dir_okay=False), metavar="TRUTH.json",
              help="A sim-video truth file: the camera, seats, button and dealer actions of a simulated video "
                   "(implied by --detector fake:TRUTH.json).")
@click.option("--seats", "seats", default=None, metavar="SEAT:CHIPS,...",
              help="Seats in play and their chips (default: the truth's players, else every profile seat).")
@click.option("--button", "button", type=click.IntRange(min=1), default=None, help="Button seat of the first hand.")
@click.option("--dealer", "dealer", default="audit", show_default=True, help="Dealer name for the log session.")
@click.option("--horizon", type=FiniteRange(min=0.0), default=3.0, show_default=True,
              help="Seconds to hold events and actions to put them back in time order.")
@click.option("--progress/--no-progress", default=True, help="Progress bar on stderr.")
@click.option("--device", default=None, metavar="DEVICE",
              help="ultralytics detector: cpu, or a CUDA device index such as 0 (default: the first GPU when there "
                   "is one); the onnx detector runs on the CPU.")
def audit(video: str, table: str, camera: str | None, house: str | None, actions: str | None, actions_offset: float,
          log_path: str | None, as_json: bool, detector: str, model: str | None, truth_path: str | None,
          seats: str | None, button: int | None, dealer: str, horizon: float, progress: bool,
          device: str | None) -> None:
    """Referee a recorded hand video and print its hands, flags and awards (the log gets every record)."""
    from tqdm import tqdm

    from dealer_assist.audit.actions_file import DealerInput, read_actions, with_frames
    from dealer_assist.audit.loop import RefereeLoop
    from dealer_assist.audit.referee import Referee
    from dealer_assist.audit.report import report_text, report_to_dict
    from dealer_assist.audit.table import TableConfig
    from dealer_assist.cli.sources import open_source
    from dealer_assist.store import HandLog, resolve_log_path
    from dealer_assist.store.sink import HandLogSink, RecentFrames
    from dealer_assist.vision.calibration import CameraCalibration, calibration_text, default_camera_path
    from dealer_assist.vision.camera_reach import camera_reach
    from dealer_assist.vision.detector import Detector, encode_jpeg, make_detector
    from dealer_assist.vision.pipeline import Pipeline
    from dealer_assist.vision.table_profile import load_profile
    from dealer_assist.vision.tracker import TrackerConfig

    profile = load_profile(table)
    if button is not None and button > profile.seat_count:
        raise click.BadParameter(f"table {profile.name} has no seat {button}; accepted: 1 to {profile.seat_count}",
                                 param_hint="'--button'")
    given = _stacks(seats) if seats else None     # a bad --seats is told before the model loads
    from dealer_assist.cli.audit_truth import SimTruth, TruthDetector

    if detector.startswith("fake:"):
        truth_path = truth_path or detector[5:]
    truth = SimTruth.load(truth_path) if truth_path else None
    fake = detector.startswith("fake:")
    det: Detector = (TruthDetector(SimTruth.load(detector[5:])) if fake
                     else make_detector(detector, model, device=device))
    rules = _house(house, str(truth.data["game"]) if truth else "badugi-limit")
    camera_file = None
    if camera:
        camera_file = Path(camera)
        calibration = CameraCalibration.load(camera_file, profile)
    elif truth is not None:
        calibration = truth.calibration()
        if calibration.table != profile.name:      # its camera looked at another table: every card lands elsewhere
            raise DealerAssistError(f"the truth file {truth_path} is of a video of table {calibration.table!r}, not "
                                    f"{profile.name!r}; give --table {calibration.table}")
    else:
        default = default_camera_path(profile)
        if not default.is_file():       # the usual first run: say every way on, not only calibrate
            raise DealerAssistError(
                f"no camera calibration for table {profile.name!r} (none at {str(default)!r}); make one with "
                "`dealer-assist calibrate --table PROFILE --image IMG --aruco --out FILE`, name one with --camera "
                "FILE, or for a sim-video recording pass its --truth TRUTH.json")
        camera_file = default
        calibration = CameraCalibration.load(default, profile)
    if given is not None:
        stacks = given
    elif truth is not None:
        from dealer_assist.synth.hand_video import default_stack

        stacks = truth.data.get("stacks") or dict.fromkeys((int(s) for s in truth.data["players"]),
                                                           default_stack(rules))
        stacks = {int(s): int(c) for s, c in stacks.items()}
    else:
        stacks = dict.fromkeys(range(1, profile.seat_count + 1), 100 * max(rules.big_bet, rules.big_blind))
    first_button = button if button is not None else (int(truth.data["button"]) if truth else None)
    config = TableConfig.for_profile(profile, rules, stacks, button=first_button)
    dealer_actions: list[DealerInput] = []
    if actions:
        dealer_actions = read_actions(actions)
    elif truth_path is not None:
        dealer_actions = read_actions(truth_path)
    if not math.isfinite(actions_offset):
        raise DealerAssistError(f"bad --actions-offset {actions_offset}; expected a number of seconds")
    dealer_actions = [dataclasses.replace(a, t=a.t + actions_offset) for a in dealer_actions]

    source = open_source(video)
    dealer_actions = with_frames(dealer_actions, source.fps)     # a keyed-in show names the video's frame then
    pipeline = Pipeline.build(profile, calibration, det,
                              TrackerConfig(hand_size=rules.hand_size, draw_procedure=rules.draw_procedure))
    warning = None if fake else camera_reach(profile, calibration).warning()
    if warning:                                 # why shows may go unread, before the report says so hand by hand
        click.echo(warning, err=True)
    path = resolve_log_path(log_path)
    log = HandLog.open(path)
    try:
        session = log.open_session(profile.name, dealer, profile=profile.to_toml(), house_rules=rules.to_dict(),
                                   calibration=calibration_text(calibration, camera_file))
        frames = RecentFrames(size=max(30, int((horizon + 2) * max(source.fps, 1.0))), fps=source.fps)
        sink = HandLogSink(log, session, frames=frames, encode=encode_jpeg)
        referee = Referee(config, sink)
        loop = RefereeLoop(referee, horizon, tracker=pipeline)     # the referee's phase goes back to the tracker
        loop.push(dealer_actions)
        total = int(truth.data["frames"]) if truth is not None else None
        bar = tqdm(total=total, unit="frame", disable=not progress, file=sys.stderr, desc=Path(video).name)
        last_t = 0.0
        try:
            for frame, events in pipeline.run(source):
                frames.add(frame.index, frame.image)
                loop.push(events)
                loop.advance(frame.t)
                last_t = frame.t
                bar.update(1)
            bar.close()
            loop.finish(last_t)
        except Exception as exc:  # the video failed, or a fault inside the tool: the hand under way ends incomplete
            bar.close()
            why = str(exc) if isinstance(exc, DealerAssistError) else f"an internal error ({type(exc).__name__})"
            log.end_open_hands(f"the audit stopped at {last_t:.2f}s: {why}", t=last_t)
            raise
    finally:
        log.close()
    if as_json:
        click.echo(json.dumps({**report_to_dict(referee.hands, video), "log": str(path)}, indent=1))
    else:
        click.echo(report_text(referee.hands, video))
        click.echo(f"\nLog: {path}")
