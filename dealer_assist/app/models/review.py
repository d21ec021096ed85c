"""Review mode as pure logic: browse the hand log with filters, open a hand's story, verify, export.

The log is opened read-only (the recorder may be writing it at the same time); a missing or foreign
file gives a message, never an exception.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from dealer_assist.app.models.table import SeatState
from dealer_assist.audit.records import DealerAction
from dealer_assist.errors import DealerAssistError
from dealer_assist.store.camera_text import calibration_line
from dealer_assist.store.export import chain_links, export_csv, export_json
from dealer_assist.store.handlog import HandLog, snapshot_file
from dealer_assist.store.log_key import KEY_ENV, load_key
from dealer_assist.store.paths import resolve_log_path
from dealer_assist.store.records import (
    HandStory,
    HandSummary,
    StoredAction,
    StoredAward,
    StoredCorrection,
    StoredEvent,
    StoredFlag,
    StoredSnapshot,
)
from dealer_assist.store.render import (
    UNREFEREED_NOTE,
    action_sentence,
    correction_sentence,
    event_sentence,
    flag_sentence,
    render_story,
)


@dataclass(frozen=True, slots=True)
class Filters:
    """The review filters; empty strings and None mean "any"."""

    table: str = ""
    date: str = ""
    dealer: str = ""
    seat: int | None = None
    flag: str = ""
    unawarded: bool = False      # only hands ended with no award yet, not voided (the floor still has to settle)


@dataclass(frozen=True, slots=True)
class TimelineLine:
    """One line of a hand's story, and what kind of record it comes from (for colour and stepping).

    `t` is the record's time; `seats` each seat's state just after it (replayed through the referee);
    `snapshot` the SHA-256 of the key frame that goes with the line (its own, a flag's, or the latest
    saved at or before it)."""

    text: str
    kind: str  # "header", "event", "action", "flag", "correction", "award", "snapshot", "end"
    t: float | None = None
    seats: tuple[SeatState, ...] = field(default=())
    snapshot: str | None = None


EXPORT_FORMATS = ("json", "csv", "phh")


class ReviewModel:
    """Opens the log lazily on first use; `problem` holds why it could not be opened."""

    def __init__(self, log_path: Path | None = None) -> None:
        self.path = resolve_log_path(log_path)
        self.problem: str | None = None
        self._log: HandLog | None = None
        self.writer: Callable[[], HandLog | None] | None = None
        """The window's open writer of this log, if any (the log takes one writer: the floor's reads go through it)."""

    def _open(self) -> HandLog | None:
        if self._log is not None:
            return self._log
        if not self.path.exists():
            self.problem = f"No hand log at {self.path} yet: hands appear here once a table records them."
            return None
        try:
            self._log = HandLog.open_readonly(self.path)
        except (DealerAssistError, OSError) as exc:
            self.problem = f"Cannot open the hand log {self.path}: {exc}"
            return None
        self.problem = None
        return self._log

    def close(self) -> None:
        if self._log is not None:
            self._log.close()
            self._log = None

    def reload(self) -> None:
        self.close()

    def hands(self, filters: Filters = Filters(), limit: int | None = 500) -> list[HandSummary]:
        log = self._open()
        if log is None:
            return []
        try:
            found = log.list_hands(table=filters.table or None, date=filters.date or None,
                                   dealer=filters.dealer or None, seat=filters.seat, flag=filters.flag or None,
                                   unawarded=filters.unawarded)
        except (DealerAssistError, ValueError) as exc:
            self.problem = f"Filter not understood: {exc}"
            return []
        return found[-limit:] if limit else found

    def story(self, hand_id: int) -> HandStory | None:
        log = self._open()
        return None if log is None else log.story(hand_id)

    def story_text(self, hand_id: int) -> str:
        story = self.story(hand_id)
        return self.problem or "" if story is None else render_story(story)

    def timeline(self, hand_id: int) -> list[TimelineLine]:
        """The hand record by record, each tagged with its kind, the seats' state after it and its key frame."""
        story = self.story(hand_id)
        if story is None:
            return []
        hand = story.hand
        seats = ", ".join(f"seat {s} ({stack})" for s, stack in hand.seats.items())
        replay = _SeatReplay(story)
        out = [TimelineLine(f"Hand {hand.id}: {hand.table} #{hand.number}, {hand.game}, dealer {hand.dealer}; "
                            f"button seat {hand.button}; stacks {seats}", "header", None, replay.states)]
        if story.calibration is not None:      # the camera the cards were mapped into seats by
            out.append(TimelineLine(calibration_line(story.calibration), "header", None, replay.states))
        frame: str | None = None
        held = story.unrefereed
        for record in story.records:
            t = record.event.t if isinstance(record, StoredEvent) else getattr(record, "t", None)
            when = f"{t:7.2f}s  " if isinstance(t, int | float) else " " * 10
            t = float(t) if isinstance(t, int | float) else None
            note = UNREFEREED_NOTE if record.seq in held else ""
            if isinstance(record, StoredEvent):
                replay.feed(record.event)
                out.append(TimelineLine(when + event_sentence(record.event) + note, "event", t, replay.states, frame))
            elif isinstance(record, StoredAction):
                replay.feed(DealerAction(record.seat, record.action, record.amount, t=record.t))  # type: ignore[arg-type]
                out.append(TimelineLine(when + action_sentence(record) + note, "action", t, replay.states, frame))
            elif isinstance(record, StoredFlag):
                out.append(TimelineLine(when + flag_sentence(record), "flag", t, replay.states,
                                        record.snapshot or frame))
            elif isinstance(record, StoredCorrection):
                out.append(TimelineLine(when + correction_sentence(record), "correction", t, replay.states, frame))
                if record.kind == "award":        # the floor's award after the hand, sentence by sentence
                    out += [TimelineLine("    " + str(line), "award", t, replay.states, frame)
                            for line in record.data.get("explanation") or ()]
            elif isinstance(record, StoredAward):
                out.append(TimelineLine(when + "Award:", "award", t, replay.states, frame))
                out += [TimelineLine("    " + line, "award", t, replay.states, frame) for line in record.explanation]
            elif isinstance(record, StoredSnapshot):
                frame = record.sha256
                out.append(TimelineLine(when + f"Key frame: {record.label}", "snapshot", t, replay.states, frame))
        end = story.end
        if end is None:
            out.append(TimelineLine("Not ended yet (still being recorded).", "end", None, replay.states, frame))
        else:
            reason = f": {end.reason}" if end.reason else ""
            out.append(TimelineLine(f"Ended {end.status}{reason}", "end", None, replay.states, frame))
        return out

    def snapshots(self, hand_id: int) -> list[StoredSnapshot]:
        story = self.story(hand_id)
        return [] if story is None else [r for r in story.records if isinstance(r, StoredSnapshot)]

    def snapshot_bytes(self, sha256: str) -> bytes | None:
        """A key frame's JPEG bytes, read back from beside the database (None if the file is missing)."""
        try:
            return snapshot_file(self.path, sha256).read_bytes()
        except OSError:
            return None

    def flags(self, hand_id: int) -> list[StoredFlag]:
        story = self.story(hand_id)
        return [] if story is None else [r for r in story.records if isinstance(r, StoredFlag)]

    def award_lines(self, hand_id: int) -> tuple[str, ...]:
        story = self.story(hand_id)
        if story is None:
            return ()
        awards = [r for r in story.records if isinstance(r, StoredAward)]
        return awards[-1].explanation if awards else ()

    def verify(self) -> tuple[bool, str]:
        """Check the log's hash chain; (ok, a sentence for the floor)."""
        log = self._open()
        if log is None:
            return False, self.problem or "no hand log"
        try:
            key = load_key()
        except DealerAssistError as exc:
            return False, str(exc)
        report = log.verify(key=key)
        if report.ok:
            signed = {"verified": " The chain head carries the signing key's signature.",
                      "not checked": f" The chain head is signed; set {KEY_ENV} to check the signature."}
            return True, (f"Hand log intact: {report.records:,} records checked, {report.snapshots} key frames; "
                          f"no row edited, inserted or deleted.{signed.get(report.signature, '')}")
        shown = "; ".join(str(p) for p in report.problems[:5])
        more = f" (and {len(report.problems) - 5} more)" if len(report.problems) > 5 else ""
        return False, f"Hand log TAMPERED or damaged: {len(report.problems)} problem(s): {shown}{more}"

    def recheck(self, hand_id: int) -> tuple[bool, str]:
        """Referee the hand again from its records (`store.recheck`); (same as recorded, a sentence for the floor)."""
        story = self.story(hand_id)
        if story is None:
            return False, self.problem or f"no hand {hand_id} in the log"
        if story.end is None:
            return False, f"Hand {hand_id} is still being recorded; recheck it once it has ended."
        from dealer_assist.store.recheck import recheck  # the referee: only when asked

        try:
            result = recheck(story)
        except DealerAssistError as exc:
            return False, f"Hand {hand_id} cannot be refereed again: {exc}."
        if result.same:
            return True, (f"Hand {hand_id} rechecked: refereed again from its {result.inputs} recorded events and "
                          f"actions, it gives the same {result.flags} flag(s) and {result.awards} award(s).")
        shown = "; ".join(result.differences[:3])
        more = f" (and {len(result.differences) - 3} more)" if len(result.differences) > 3 else ""
        return False, f"Hand {hand_id} DIFFERS from its record: {shown}{more}"

    def floor_reads(self, hand_id: int, shown: str, mucked: str = "", missed: str = "", *, by: str,
                    reason: str) -> tuple[bool, str]:
        """The floor's reads of an ended hand (`log correct --shown/--mucked/--missed`): `shown` one "SEAT: CARDS" per
        line, `mucked` seat numbers, `missed` one event the camera did not report per line ("replaced:3:27.9");
        recorded through the window's writer when it holds the log (`writer`), else through one opened for this; the
        hand is then refereed again and its award recorded as the floor's. (recorded, a sentence for the floor);
        nothing is written when anything is wrong."""
        from dealer_assist.store.floor_award import (  # the referee
            FloorReads,
            parse_missed,
            parse_shown,
            record_floor_reads,
        )

        try:
            if not by.strip() or not reason.strip():
                raise DealerAssistError("give who makes the ruling and why")
            seats = mucked.replace(",", " ").split()
            bad = next((s for s in seats if not (s.isascii() and s.isdigit())), None)
            if bad is not None:
                raise DealerAssistError(f"bad seat {bad!r} among those that mucked; give seat numbers, e.g. 4 6")
            reads = FloorReads(tuple(parse_shown(line) for line in shown.splitlines() if line.strip()),
                               tuple(int(s) for s in seats),
                               missed=tuple(parse_missed(line.strip()) for line in missed.splitlines() if line.strip()))
            if not reads:
                raise DealerAssistError("key in a hand shown (SEAT: CARDS), a seat that mucked or an event the camera "
                                        "missed (KIND:SEAT:SECONDS)")
            reads.check()
            writer = self.writer() if self.writer is not None else None
            if writer is None and not self.path.is_file():
                raise DealerAssistError(f"no hand log at {self.path}")
            if writer is not None:
                lines, result = record_floor_reads(writer, hand_id, reads, by=by.strip(), reason=reason.strip())
            else:
                with HandLog.open(self.path, key=load_key()) as log:
                    lines, result = record_floor_reads(log, hand_id, reads, by=by.strip(), reason=reason.strip())
        except (DealerAssistError, OSError, sqlite3.Error) as exc:
            return False, f"Nothing recorded: {exc}"
        self.reload()
        done = f"Hand {hand_id}: {len(lines)} floor read{'s' if len(lines) != 1 else ''} recorded. "
        if result.award is None:
            return True, done + "No award yet: " + "; ".join(result.lines)
        award = " ".join(result.lines)
        if result.recorded is None:
            return True, done + "The award stands as recorded: " + award
        return True, done + f"The floor's award (correction #{result.recorded}): " + award

    def export_json(self, hand_id: int) -> str:
        return self.export(hand_id, "json")

    def export(self, hand_id: int, fmt: str = "json") -> str:
        """The hand in the store's export format: json, csv, or phh (the hand-history standard)."""
        log = self._open()
        story = None if log is None else log.story(hand_id)
        if log is None or story is None:
            return ""
        links = chain_links(log.conn, hand_id)   # each row's stored hash: `log verify --export` checks the file
        if fmt == "json":
            return "".join(export_json([story], single=True, chain=lambda _: links))
        if fmt == "csv":
            return "".join(export_csv([story], chain=lambda _: links))
        if fmt == "phh":
            from dealer_assist.store.phh import export_phh  # pulls in the rules engine: only when asked

            return "".join(export_phh([story]))
        raise ValueError(f"unknown export format {fmt!r}; one of {', '.join(EXPORT_FORMATS)}")


class _SeatReplay:
    """Replays a stored hand's events and actions through a fresh Referee to know each seat's state
    after every record (the log keeps what was seen; the state is derived, deterministically)."""

    def __init__(self, story: HandStory) -> None:
        button = story.hand.button
        self.states: tuple[SeatState, ...] = tuple(  # before the first card: the stacks the hand started with
            SeatState(seat, "button" if seat == button else "", stack, (), "in")
            for seat, stack in sorted(story.hand.seats.items()))
        self.referee = None
        try:
            from dealer_assist.app.models.demo_driver import hand_seat_states
            from dealer_assist.audit.referee import Referee
            from dealer_assist.rules.house_rules import HouseRules
            from dealer_assist.store.recheck import table_config

            self.referee = Referee(table_config(story, HouseRules()))
            self._states = hand_seat_states
        except (DealerAssistError, ValueError, TypeError, KeyError):  # unknown rules: no seat states
            self.referee = None

    def feed(self, item: object) -> None:
        if self.referee is None:
            return
        try:
            self.referee.feed(item)  # type: ignore[arg-type]
        except DealerAssistError:
            self.referee = None
            return
        run = self.referee.run
        if run is not None:
            self.states = self._states(run.hand, labels=())


def summary_line(hand: HandSummary) -> str:
    status = hand.status or "in progress"
    flags = f" · {hand.flags} flag{'s' if hand.flags != 1 else ''}" if hand.flags else ""
    when = hand.started_at[:16].replace("T", " ")
    won = ", ".join(f"seat {seat}" for seat in hand.won)
    by = " (floor)" if hand.floor_award else ""     # the floor's award after the hand (`log correct --shown`)
    pot = f" · pot {hand.pot}{by}" + (f" to {won}" if won else "") if hand.pot is not None else ""
    return (f"#{hand.id} · {hand.table} · hand {hand.number}{pot}\n{when} · {hand.game} · {hand.dealer} · "
            f"{status}{flags}")
