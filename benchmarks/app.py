"""The desktop app: start-up time, memory, and how long the UI thread is ever blocked while the demo plays.

Prints `name: value` lines:

- `window_shown_s`: from launching a fresh Python process to the main window shown and painted
  (median of --starts runs; target < 3 s).
- `rss_after_show_mb`: resident memory of that process once the window is shown (target < 1 GB).
- `video_ui_max_gap_ms`: the longest gap between ticks of a 10 ms QTimer on the UI thread while the
  demo plays the simulated table's real video (synth.SimulatedTable, 1280x720 at 30 frames/s,
  rendered, tracked and refereed off the GUI thread; target < 50 ms); with `video_ui_p99_gap_ms`,
  `video_frames_rendered_per_s` (the renderer's pace: frames it cannot make in time are skipped) and
  `video_frames_shown_per_s`, and the memory of the app and of its renderer process.
- `ui_max_gap_ms`: the same while the step demo (no video) plays simulated hands and a synthetic
  1280x720 frame feed runs at 30 frames/s; with `ui_p99_gap_ms`, `frames_shown_per_s`, `demo_steps`.

Run: `.venv/bin/python benchmarks/app.py` (uses $DISPLAY if set, else Qt's offscreen platform;
`xvfb-run -a .venv/bin/python benchmarks/app.py` for a real X server).
"""

from __future__ import annotations

import argparse
import itertools
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def _rss_mb(pid: int | str = "self") -> float:
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    return float("nan")


def child_start(launched: float) -> None:
    """In a fresh process: open the window, report when it is shown and painted, then quit."""
    from PySide6.QtCore import QTimer
    from PySide6.QtWidgets import QApplication

    from dealer_assist.app import theme
    from dealer_assist.app.main_window import MainWindow
    from dealer_assist.app.models.settings import Settings

    app = QApplication(sys.argv[:1])
    theme.apply_theme(app)
    tmp = Path(tempfile.mkdtemp())
    window = MainWindow(Settings(), tmp / "settings.json", tmp / "data", demo=True, video=True)
    window.resize(1600, 1000)
    window.show()

    def shown() -> None:
        app.processEvents()
        window.repaint()
        print(json.dumps({"shown_s": time.time() - launched, "rss_mb": _rss_mb()}), flush=True)
        window.close()
        app.quit()

    QTimer.singleShot(0, shown)
    app.exec()


def child_ui(seconds: float) -> None:
    """In a fresh process: the demo at 30 frames/s; measure the gaps between 10 ms timer ticks."""
    from PySide6.QtCore import QTimer
    from PySide6.QtWidgets import QApplication

    from dealer_assist.app import theme
    from dealer_assist.app.main_window import MainWindow
    from dealer_assist.app.models.capture import CaptureThread, SyntheticSource
    from dealer_assist.app.models.settings import Settings

    app = QApplication(sys.argv[:1])
    theme.apply_theme(app)
    tmp = Path(tempfile.mkdtemp())
    window = MainWindow(Settings(), tmp / "settings.json", tmp / "data", demo=True, step_ms=33,
                        start_capture=False)
    window.pause_ms = 500
    window.capture = CaptureThread(SyntheticSource(1280, 720, 30.0), window.slot)
    window.capture.start()
    window.resize(1600, 1000)
    window.show()
    ticks: list[float] = []
    steps = {"n": 0}

    def count_step() -> None:
        steps["n"] += 1

    window.demo_timer.timeout.connect(count_step)
    timer = QTimer()
    timer.setInterval(10)
    timer.timeout.connect(lambda: ticks.append(time.perf_counter()))
    shown_before = {"n": 0}

    def start() -> None:
        shown_before["n"] = window.live.video.shown
        ticks.clear()
        timer.start()
        QTimer.singleShot(int(seconds * 1000), finish)

    def finish() -> None:
        timer.stop()
        span = ticks[-1] - ticks[0]
        out = {
            **_gaps(ticks),
            "frames_per_s": (window.live.video.shown - shown_before["n"]) / span,
            "demo_steps": steps["n"],
            "hands": window.driver.hand_number if window.driver else 0,
            "rss_mb": _rss_mb(),
        }
        print(json.dumps(out), flush=True)
        window.close()
        app.quit()

    QTimer.singleShot(1000, start)  # let start-up settle
    app.exec()


def child_video(seconds: float) -> None:
    """In a fresh process: the demo on the simulated table's video at 30 frames/s; gaps between 10 ms ticks."""
    from PySide6.QtCore import QTimer
    from PySide6.QtWidgets import QApplication

    from dealer_assist.app import theme
    from dealer_assist.app.main_window import MainWindow
    from dealer_assist.app.models.settings import Settings

    app = QApplication(sys.argv[:1])
    theme.apply_theme(app)
    tmp = Path(tempfile.mkdtemp())
    window = MainWindow(Settings(), tmp / "settings.json", tmp / "data", start_capture=False)
    window.pause_ms = 500
    window.resize(1600, 1000)
    window.show()
    worker = window.start_video_demo(seed=3, fps=30.0)
    ticks: list[float] = []
    timer = QTimer()
    timer.setInterval(10)
    timer.timeout.connect(lambda: ticks.append(time.perf_counter()))
    before = {"shown": 0, "rendered": 0}

    def start() -> None:
        if not worker.ready.is_set() or worker.rendered < 3:
            QTimer.singleShot(100, start)
            return
        before.update(shown=window.live.video.shown, rendered=worker.rendered)
        ticks.clear()
        timer.start()
        QTimer.singleShot(int(seconds * 1000), finish)

    def finish() -> None:
        timer.stop()
        span = ticks[-1] - ticks[0]
        w = window.sim_worker or worker
        out = {
            **_gaps(ticks),
            "frames_per_s": (window.live.video.shown - before["shown"]) / span,
            "rendered_per_s": (w.rendered - before["rendered"]) / span if w is worker else float("nan"),
            "rss_mb": _rss_mb(),
            "renderer_rss_mb": _rss_mb(w._renderer._proc.pid) if w._renderer is not None else 0.0,
        }
        print(json.dumps(out), flush=True)
        window.close()
        app.quit()

    QTimer.singleShot(500, start)
    app.exec()


def _gaps(ticks: list[float]) -> dict[str, float]:
    """The longest and the 99th-percentile gap (ms) between a timer's ticks: how long the UI thread stalled."""
    gaps = sorted((b - a) * 1000 for a, b in itertools.pairwise(ticks))
    return {"max_gap_ms": gaps[-1], "p99_gap_ms": gaps[int(0.99 * (len(gaps) - 1))]}


def _run_child(args: list[str]) -> dict[str, float]:
    env = dict(os.environ)
    if not env.get("DISPLAY"):
        env["QT_QPA_PLATFORM"] = "offscreen"
    env.setdefault("DEALER_ASSIST_CONFIG_DIR", tempfile.mkdtemp())
    env.setdefault("DEALER_ASSIST_DATA_DIR", tempfile.mkdtemp())
    env.setdefault("DEALER_ASSIST_LOG", str(Path(tempfile.mkdtemp()) / "hand-log.sqlite"))
    out = subprocess.run([sys.executable, __file__, *args], capture_output=True, text=True, env=env, cwd=ROOT,
                         timeout=300, check=True)
    line = next(ln for ln in reversed(out.stdout.splitlines()) if ln.startswith("{"))
    result: dict[str, float] = json.loads(line)
    return result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--starts", type=int, default=5, help="fresh processes timed for start-up")
    parser.add_argument("--seconds", type=float, default=10.0, help="seconds of demo play for the UI gap")
    parser.add_argument("--child", choices=["start", "ui", "video"], help=argparse.SUPPRESS)
    parser.add_argument("--launched", type=float, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child == "start":
        child_start(args.launched)
        return
    if args.child == "ui":
        child_ui(args.seconds)
        return
    if args.child == "video":
        child_video(args.seconds)
        return
    platform = "xcb ($DISPLAY)" if os.environ.get("DISPLAY") else "offscreen"
    print(f"qt_platform: {platform}")
    starts = []
    for _ in range(args.starts):
        starts.append(_run_child(["--child", "start", "--launched", repr(time.time())]))
    print(f"window_shown_s: {statistics.median(s['shown_s'] for s in starts):.2f}")
    print(f"window_shown_max_s: {max(s['shown_s'] for s in starts):.2f}")
    print(f"rss_after_show_mb: {statistics.median(s['rss_mb'] for s in starts):.0f}")
    video = _run_child(["--child", "video", "--seconds", str(args.seconds)])
    print(f"video_ui_max_gap_ms: {video['max_gap_ms']:.1f}")
    print(f"video_ui_p99_gap_ms: {video['p99_gap_ms']:.1f}")
    print(f"video_frames_rendered_per_s: {video['rendered_per_s']:.1f}")
    print(f"video_frames_shown_per_s: {video['frames_per_s']:.1f}")
    print(f"video_rss_mb: {video['rss_mb']:.0f} (+ renderer process {video['renderer_rss_mb']:.0f})")
    ui = _run_child(["--child", "ui", "--seconds", str(args.seconds)])
    print(f"ui_max_gap_ms: {ui['max_gap_ms']:.1f}")
    print(f"ui_p99_gap_ms: {ui['p99_gap_ms']:.1f}")
    print(f"frames_shown_per_s: {ui['frames_per_s']:.1f}")
    print(f"demo_steps: {ui['demo_steps']:.0f} ({ui['hands']:.0f} hands)")
    print(f"rss_while_playing_mb: {ui['rss_mb']:.0f}")


if __name__ == "__main__":
    main()
