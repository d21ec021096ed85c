"""A shown hand the camera could not read, keyed in on the Live view's pad ("Shown hand…", key H) at a camera's table:
it reaches the referee as the seat's show marked entered, in time order with the camera's events, and the pots are
awarded on it as on a read show; the hand log says the hand was entered. Refused in one line, recording nothing,
before the showdown, for cards that are not a hand, for a dead seat, and once the camera is lost.

Driven through the real `MainWindow.start_live` with a fake detector and a scripted camera (`test_app_reconnect`):
the camera deals seats 1, 3 and 5 and then holds the table as it lies; the betting goes in on the pad, and the
camera's unread shows (a show whose corners it could not read) are queued as its worker queues events."""

from __future__ import annotations

import threading
import time
from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication, QDialogButtonBox
from table_camera import GatedCamera
from test_app_reconnect import FPS, FRAMES, Plug, _lost
from test_app_reconnect import _window as camera_window

from dealer_assist.app.main_window import MainWindow
from dealer_assist.app.models.live_session import LiveSession
from dealer_assist.app.widgets.action_pad import ShownHandDialog
from dealer_assist.audit.hand_run import UNREAD_SHOW
from dealer_assist.audit.records import DealerAction
from dealer_assist.cards import parse_cards
from dealer_assist.store.handlog import HandLog
from dealer_assist.store.render import render_story
from dealer_assist.vision.events import CardsGathered, CardsShown
from dealer_assist.vision.frames import Frame, SourceError

HANDS = {1: "Ah 2c 3d 4s", 3: "Kh Qc Jd Ts", 5: "5h 6c 7d 8s"}  # seat 1 holds the best badugi
LOST = "No hand in progress: the camera is lost; entries resume when it is back"


class HoldingCamera(GatedCamera):
    """The scripted deal as fast as it is read, then the table held as it lies, a frame every 1/fps s (the fake
    detector repeats its last detections), as a camera goes on filming; `lose()` makes it vanish."""

    def __init__(self) -> None:
        super().__init__(FRAMES, fps=FPS)
        self.lost = threading.Event()

    def lose(self) -> None:
        self.lost.set()

    def read(self) -> Frame | None:
        if self.lost.is_set():
            raise SourceError("camera 0: 30 frames in a row could not be read (the camera or stream vanished)")
        if self.index >= self.count:
            time.sleep(1 / self.frame_rate)
            self.count += 1
        return super().read()


def _window(qtbot, qapp: QApplication, app_dirs: Path, monkeypatch: pytest.MonkeyPatch,  # type: ignore[no-untyped-def]
            ) -> tuple[MainWindow, LiveSession, HoldingCamera, Plug]:
    plug = Plug(lambda n: HoldingCamera())
    window = camera_window(qtbot, qapp, app_dirs, monkeypatch, plug, seats="1,3,5")
    session = window.session
    assert session is not None, window.live.banner.text()
    qtbot.waitUntil(lambda: window.live.pad_model.prompt.actor == 5, timeout=20_000)   # dealt: betting begins
    return window, session, plug.opened[0], plug


def _next_frame(qtbot, session: LiveSession) -> None:  # type: ignore[no-untyped-def]
    """Wait for the camera's next frame: entries a frame apart, as a dealer's are."""
    assert session.worker is not None
    t = session.worker.last_t
    qtbot.waitUntil(lambda: session.worker is not None and session.worker.last_t > t, timeout=5000)


def _key(qtbot, window: MainWindow, *keys: Qt.Key) -> None:  # type: ignore[no-untyped-def]
    window.activateWindow()
    for key in keys:
        qtbot.keyClick(window.live.pad, key)


def _to_showdown(qtbot, window: MainWindow, session: LiveSession, fold: int | None = None) -> None:  # type: ignore[no-untyped-def]
    """Every betting round checked or called on the pad (`fold`: that seat folds when first to act); each draw stood
    pat by all, which the first entry after it says (the camera sees no card move)."""
    model = window.live.pad_model
    for _ in range(40):
        prompt = model.prompt
        if prompt.phase == "showdown":
            return
        assert not window.live.pad.show_button.isEnabled(), prompt
        _next_frame(qtbot, session)
        if prompt.actor is None:
            assert prompt.phase == "drawing", prompt
            model.submitted.emit(DealerAction(1, "check"))    # seat 1 acts first after a draw (the button is on 5)
        elif prompt.actor == fold:
            _key(qtbot, window, Qt.Key.Key_F, Qt.Key.Key_Return)
            fold = None
        else:
            _key(qtbot, window, Qt.Key.Key_C, Qt.Key.Key_Return)
        assert not model.message.startswith("Refused"), model.message
    raise AssertionError(f"the hand never reached the showdown: {model.prompt}")


def _camera_shows_unread(qtbot, session: LiveSession, seats: tuple[int, ...]) -> None:  # type: ignore[no-untyped-def]
    """The camera sees each seat's hand turned up and reads none of its corners (720p, small indices)."""
    worker = session.worker
    assert worker is not None
    t, frame = worker.last_seen
    for seat in seats:
        worker.events.put(CardsShown(t, frame, seat, ()))
    qtbot.waitUntil(lambda: sum(isinstance(i, CardsShown) for i in session.view.hands[-1].inputs) == len(seats),
                    timeout=5000)


def _entered(session: LiveSession) -> list[CardsShown]:
    """The shown hands keyed in, as the table stands (the referee itself takes them 3 s of video later)."""
    return [i for i in session.view.hands[-1].inputs if isinstance(i, CardsShown) and i.entered]


def _open_dialog(qtbot, window: MainWindow, by_key: bool = True) -> ShownHandDialog:  # type: ignore[no-untyped-def]
    pad = window.live.pad
    if by_key:
        _key(qtbot, window, Qt.Key.Key_H)
    else:
        qtbot.mouseClick(pad.show_button, Qt.MouseButton.LeftButton)
    dialog = pad.show_dialog
    assert dialog is not None and dialog.isVisible(), window.live.pad.status.text()
    return dialog


def _ok(qtbot, dialog: ShownHandDialog, cards: str, seat: int | None = None) -> None:  # type: ignore[no-untyped-def]
    if seat is not None:
        dialog.seat.setValue(seat)
    dialog.cards.setText(cards)
    qtbot.mouseClick(dialog.buttons.button(QDialogButtonBox.StandardButton.Ok), Qt.MouseButton.LeftButton)


def _story(app_dirs: Path) -> str:
    log = HandLog.open_readonly(app_dirs / "log" / "hand-log.sqlite")
    try:
        hands = log.list_hands()
        return render_story(log.story(hands[-1].id))
    finally:
        log.close()


def test_shown_hands_keyed_in_at_the_showdown_are_awarded_and_logged_as_entered(  # type: ignore[no-untyped-def]
        qtbot, qapp, app_dirs: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The camera reads none of the three hands shown: the pots wait on the floor. The dealer keys each in on the pad
    (the dialog offers the seat the referee waits on): the award appears on the showdown board, the seat panels show
    the hands, and the hand log tells each as entered by the dealer. The button opens only at the showdown."""
    window, session, _, _ = _window(qtbot, qapp, app_dirs, monkeypatch)
    model, pad = window.live.pad_model, window.live.pad
    assert not pad.show_button.isEnabled()                       # betting before the draw: no show yet
    assert "not at the showdown yet (betting before the draw)" in pad.show_button.toolTip(), pad.show_button.toolTip()
    _key(qtbot, window, Qt.Key.Key_H)                            # its key is refused, saying why
    assert pad.show_dialog is None and model.message.startswith("Refused: no shown hand can be entered now: the "
                                                                "hand is not at the showdown yet"), model.message
    _to_showdown(qtbot, window, session)
    assert pad.show_button.isEnabled() and "seat 1 first" in pad.show_button.toolTip(), pad.show_button.toolTip()
    assert "[H]" in pad.show_button.text()

    _camera_shows_unread(qtbot, session, (1, 3, 5))
    assert session.award is None and session.view.run is not None
    assert session.view.run.hand.next_shower == 1

    dialog = _open_dialog(qtbot, window)                          # H: the seat the referee waits on is offered
    assert dialog.seat.value() == 1
    _ok(qtbot, dialog, HANDS[1])
    assert pad.show_dialog is None and not dialog.isVisible()
    assert [(e.seat, e.cards) for e in _entered(session)] == [(1, parse_cards(HANDS[1]))]
    entry = _entered(session)[0]                                  # stamped with the video's latest frame
    assert entry.frame > FRAMES // 2 and entry.t == pytest.approx(entry.frame / FPS)
    assert "Shown hand entered for seat 1: Ah 2c 3d 4s" in window.statusBar().currentMessage()
    assert window.table.seat(1).cards == parse_cards(HANDS[1])    # the seat panel shows the hand
    assert session.award is None and pad.show_button.isEnabled() and "seat 3 first" in pad.show_button.toolTip()

    dialog = _open_dialog(qtbot, window, by_key=False)            # the button: the next seat to show is offered
    assert dialog.seat.value() == 3
    _ok(qtbot, dialog, "kh,qc,jd,ts")
    dialog = _open_dialog(qtbot, window)
    assert dialog.seat.value() == 5
    _ok(qtbot, dialog, "5h6c7d8s")
    assert [e.seat for e in _entered(session)] == [1, 3, 5]
    qtbot.waitUntil(lambda: session.award is not None, timeout=10_000)   # the referee, 3 s of video behind
    award = session.award
    assert award is not None and max(award.totals.items(), key=lambda kv: kv[1])[0] == 1, award
    assert window.live.showdown.award == award and window.live.center.currentWidget() is window.live.showdown
    assert not any(UNREAD_SHOW in f.message for f in session.referee.hands[-1].flags)
    assert pad.show_button.isEnabled()                             # awarded, not gathered: a fix may still go in

    text = _story(app_dirs)                                         # recorded as it happened
    assert "\nCamera: " in text                                     # with the camera file the cards were mapped by
    for seat, cards in HANDS.items():
        shown = " ".join(str(c) for c in parse_cards(cards))
        assert f"seat {seat} shows {shown} (entered by the dealer: the camera could not read it)" in text, text

    worker = session.worker                                         # the cards are gathered: the hand is over
    assert worker is not None
    worker.events.put(CardsGathered(*worker.last_seen))
    qtbot.waitUntil(lambda: session.referee.run is None, timeout=10_000)
    assert not pad.show_button.isEnabled() and "no hand in progress" in pad.show_button.toolTip()
    assert session.enter_show(1, parse_cards(HANDS[1])) is not None and len(_entered(session)) == 3
    window.close()


def test_shown_hand_entries_that_cannot_be_taken_are_refused_in_one_line(  # type: ignore[no-untyped-def]
        qtbot, qapp, app_dirs: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Before the showdown, text that is not cards, the wrong number of cards, a card twice, a seat that folded or is
    not in the hand: each refused with its reason in one line (the dialog stays open to fix it), nothing recorded."""
    window, session, _, _ = _window(qtbot, qapp, app_dirs, monkeypatch)
    model = window.live.pad_model
    inputs = len(session.view.hands[-1].inputs)
    reason = model.submit_show(1, HANDS[1])                      # an entry that reaches the window all the same
    assert reason is not None and reason.startswith("the hand is not at the showdown yet (betting before the draw)")
    assert model.message == f"Refused: {reason}" and "\n" not in reason
    assert window.statusBar().currentMessage() == f"Shown hand not entered: {reason}."
    assert session.enter_show(1, parse_cards(HANDS[1])) == reason
    assert len(session.view.hands[-1].inputs) == inputs and not _entered(session)

    _to_showdown(qtbot, window, session, fold=5)                  # seat 5 folds before the draw
    _camera_shows_unread(qtbot, session, (1, 3))
    dialog = _open_dialog(qtbot, window)
    cases = [
        ("Ah 2c 3x 4s", 1, "not a card: '3x'; accepted: a rank (A 2-9 T 10 J Q K) then a suit (c d h s)"),
        ("", 1, "type the seat's cards, e.g. Ah 2c 3d 4s"),
        ("Ah Ah 2c 3d", 1, "card Ah appears twice"),
        ("Ah 2c 3d", 1, "a badugi hand is 4 cards, not 3"),
        ("Ah 2c 3d 4s 5h", 1, "a badugi hand is 4 cards, not 5"),
        (HANDS[5], 5, "seat 5 has folded or mucked: its hand is dead"),
        (HANDS[5], 2, "seat 2 is not in the hand (seats 1, 3, 5)"),
    ]
    for cards, seat, said in cases:
        _ok(qtbot, dialog, cards, seat)
        text = dialog.error.text()
        assert dialog.isVisible() and text.startswith("Not entered: ") and said in text and "\n" not in text, text
        assert not _entered(session)
    assert model.message == "Refused: seat 2 is not in the hand (seats 1, 3, 5)"   # the referee's refusals, on the pad
    assert session.enter_show(1, parse_cards("Ah 2c 3d Ah", unique=False)) == \
        "card Ah is entered twice; each card exists once in a deck"
    assert session.award is None and not _entered(session)
    assert "the camera could not read it" not in _story(app_dirs)

    _ok(qtbot, dialog, HANDS[1], 1)                               # fixed: taken, the dialog closes
    assert not dialog.isVisible() and [e.seat for e in _entered(session)] == [1]
    window.close()


def test_a_shown_hand_is_refused_once_the_camera_is_lost(  # type: ignore[no-untyped-def]
        qtbot, qapp, app_dirs: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The camera vanishes at the showdown: its hand ends (incomplete), the button closes saying why, and an entry
    that comes all the same is refused in one line, recording nothing."""
    window, session, camera, plug = _window(qtbot, qapp, app_dirs, monkeypatch)
    pad, model = window.live.pad, window.live.pad_model
    _to_showdown(qtbot, window, session)
    _camera_shows_unread(qtbot, session, (1, 3, 5))
    assert pad.show_button.isEnabled()
    inputs = list(session.view.hands[-1].inputs)      # the camera lost, the referee takes all it held (below)
    plug.plugged = False
    camera.lose()
    _lost(qtbot, window)
    assert session.closed and not pad.show_button.isEnabled()
    assert pad.show_button.toolTip() == f"No shown hand can be entered now: {LOST}", pad.show_button.toolTip()
    _key(qtbot, window, Qt.Key.Key_H)
    assert pad.show_dialog is None and model.message == f"Refused: no shown hand can be entered now: {LOST}"
    assert model.submit_show(1, HANDS[1]) == LOST                 # an entry that reaches the window all the same
    assert model.message == f"Refused: {LOST}" and window.statusBar().currentMessage() == \
        f"Shown hand not entered: {LOST}."
    assert session.enter_show(1, parse_cards(HANDS[1])) is not None
    assert session.referee.hands[-1].inputs == inputs and not _entered(session)
    assert "the camera could not read it" not in _story(app_dirs)
    window.close()
