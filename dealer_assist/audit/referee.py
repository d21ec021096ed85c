"""The Referee: one rules Hand per deal, fed by table events and dealer actions, raising flags and awards.

    referee = Referee(TableConfig.make(rules, {1: 200, 2: 200, 3: 200}, button=3), sink)
    referee.feed(CardDealt(t, frame, seat))          # vision events and DealerActions, in time order
    referee.prompt                                   # who acts, legal amounts, next card, owed, reshuffle
    referee.flags, referee.award                     # of the hand in progress
    referee.correct_card(index, card, reason=..., by=...)   # floor corrections are new inputs

A hand starts at its first dealt card (the button from the last ButtonMoved, else one seat on from
the last hand's) and ends when the cards are gathered, a new deal begins after the award, or the
floor voids it. Everything the referee does is a function of its inputs: `Referee.replay(table,
referee.inputs)` gives the same records, prompts, flags and awards.
"""

from __future__ import annotations

import copy
from collections.abc import Iterable
from dataclasses import dataclass, field, replace

from dealer_assist.audit.hand_run import HandRun
from dealer_assist.audit.outputs import (
    REFEREE_BY,
    AwardMade,
    Correction,
    EndStatus,
    HandEnded,
    HandStart,
    Output,
    RefereeInput,
)
from dealer_assist.audit.prompt import build_prompt
from dealer_assist.audit.records import DealerAction, Flag, FlagKind, Prompt, Severity
from dealer_assist.audit.sink import NullSink, RefereeSink
from dealer_assist.audit.table import TableConfig, next_button
from dealer_assist.cards import Card
from dealer_assist.errors import DealerAssistError
from dealer_assist.rules.awards import Award
from dealer_assist.rules.hand import Phase
from dealer_assist.vision.events import (
    ButtonMoved,
    CardDealt,
    CardExposed,
    CardReplaced,
    CardsDiscarded,
    CardsGathered,
    CardsShown,
    SeatFolded,
    TableEvent,
)

HandInput = TableEvent | DealerAction


@dataclass
class HandRecord:
    """Everything about one hand the referee refereed: inputs, flags and awards as emitted, how it ended."""

    start: HandStart
    inputs: list[HandInput] = field(default_factory=list)
    flags: list[Flag] = field(default_factory=list)
    awards: list[AwardMade] = field(default_factory=list)
    corrections: list[Correction] = field(default_factory=list)
    resolutions: dict[int, Correction] = field(default_factory=dict)
    misreads: dict[int, Correction] = field(default_factory=dict)
    end: HandEnded | None = None


class Referee:
    """See the module docstring. `feed` takes one input and returns what it raised."""

    def __init__(self, table: TableConfig, sink: RefereeSink | None = None) -> None:
        self.table = table
        self.sink: RefereeSink = sink or NullSink()
        self.inputs: list[RefereeInput] = []
        self.hands: list[HandRecord] = []
        self.run: HandRun | None = None
        self._stacks = table.stacks_by_seat
        self._button = table.button
        self._button_moved: int | None = None
        self._first = True
        self._early: list[HandInput] = []
        self._time_ordered: dict[int, bool] = {}
        self.between_hands: list[HandInput] = []
        """Inputs that came with no deal under way (a late action, a fold after the gather): kept, not refereed."""

    # -- reading -----------------------------------------------------------------------------------

    @property
    def record(self) -> HandRecord | None:
        """The hand in progress (None between hands)."""
        return self.hands[-1] if self.hands and self.run is not None else None

    @property
    def prompt(self) -> Prompt:
        return build_prompt(self.run, self.upcoming_button)

    @property
    def flags(self) -> list[Flag]:
        """Flags of the hand in progress (or of the last hand, between hands)."""
        return list(self.hands[-1].flags) if self.hands else []

    @property
    def award(self) -> Award | None:
        """The award of the hand in progress (or the last hand), once made."""
        if not self.hands or not self.hands[-1].awards:
            return None
        return self.hands[-1].awards[-1].award

    @property
    def upcoming_button(self) -> int:
        """Where the button will be for the next hand."""
        if self._button_moved is not None:
            return self._button_moved
        if self._first:
            return self._button
        return next_button(self._button, list(self._stacks))

    @property
    def vision_phase(self) -> str:
        """The tracker's phase hint ("deal", "betting", "draw", "showdown")."""
        return self.run.vision_phase if self.run is not None else "deal"

    @property
    def folded_seats(self) -> frozenset[int]:
        """Seats of the hand in progress that have folded (for the tracker, with `vision_phase`)."""
        return self.run.folded_seats if self.run is not None else frozenset()

    @property
    def drawing_seats(self) -> frozenset[int]:
        """Seats of the hand in progress whose draw may be under way (for the tracker, with `vision_phase`)."""
        return self.run.drawing_seats if self.run is not None else frozenset()

    @property
    def drawn_seats(self) -> frozenset[int]:
        """Seats of the hand in progress done drawing in the draw under way (for the tracker, with `vision_phase`)."""
        return self.run.drawn_seats if self.run is not None else frozenset()

    @property
    def seated_seats(self) -> frozenset[int]:
        """Seats dealt into the hand in progress (for the tracker: a card arriving anywhere else is a stray)."""
        return frozenset(self.run.hand.seats) if self.run is not None else frozenset()

    @property
    def owed_seats(self) -> frozenset[int]:
        """Seats of the hand in progress still owed replacements in the draw under way (for the tracker)."""
        return self.run.owed_seats if self.run is not None else frozenset()

    # -- feeding -----------------------------------------------------------------------------------

    def feed(self, item: RefereeInput) -> list[Output]:
        """One event, action or correction, in time order; returns the flags, awards and key moments it caused."""
        self.inputs.append(item)
        if isinstance(item, Correction):
            return self._correct(item)
        if isinstance(item, ButtonMoved):
            self._button_moved = item.seat
            if self.run is None:
                self._early.append(item)
                return []
        if isinstance(item, CardsGathered):
            if self.run is None:
                return []
            outs = self._record_and_feed(item, settle=True)
            self._end_by_gather(item.t)
            return outs
        if self.run is not None and self.run.done and isinstance(item, CardDealt):
            self._end_complete(item.t)
        if self.run is None:
            if not isinstance(item, CardDealt | CardExposed):
                self.between_hands.append(item)       # nothing to referee: no deal is under way
                return []
            self._start(item.t, item.frame)
        return self._record_and_feed(item)

    def feed_all(self, items: Iterable[RefereeInput]) -> list[Output]:
        out: list[Output] = []
        for item in items:
            out += self.feed(item)
        return out

    def close(self, t: float) -> None:
        """The stream ended: a finished hand is complete, one cut short is incomplete."""
        if self.run is None:
            return
        self.run.outputs.clear()
        self.run.release_held()
        self.run.finish_award(t)
        self._emit(self.hands[-1], list(self.run.outputs))
        if self.run.done:
            self._end_complete(t)
        else:
            self._end("incomplete", "the recording ended before the hand did", t)

    @classmethod
    def replay(cls, table: TableConfig, inputs: Iterable[RefereeInput], sink: RefereeSink | None = None,
               *, close_at: float | None = None) -> Referee:
        """A new referee fed the same inputs: the same records, prompts, flags and awards."""
        referee = cls(table, sink)
        referee.feed_all(inputs)
        if close_at is not None:
            referee.close(close_at)
        return referee

    def look_ahead(self, items: Iterable[RefereeInput] = ()) -> Referee:
        """A copy of this referee that records nothing, fed `items` (inputs this one has not reached yet): the table
        as it stands now, for a prompt that must not wait. Only the hand in progress is copied deep; the hands before
        it are shared, read only, so a copy costs the same late in a session as early. Its flags are not the record."""
        ahead = copy.copy(self)
        ahead.sink = NullSink()
        ahead.inputs = []
        ahead.hands = list(self.hands)
        if self.run is not None:
            ahead.hands[-1] = copy.deepcopy(self.hands[-1])
            ahead.run = copy.deepcopy(self.run)
        ahead._stacks = dict(self._stacks)
        ahead._early = list(self._early)
        ahead._time_ordered = dict(self._time_ordered)
        ahead.between_hands = list(self.between_hands)
        for item in items:
            try:
                ahead.feed(item)
            except DealerAssistError:
                continue  # the record's referee will flag it when it gets there; the look-ahead only shows the table
        return ahead

    # -- corrections (new records; nothing seen is overwritten) --------------------------------------

    def correct_card(self, index: int, card: Card, *, reason: str, by: str, was: Card | None = None,
                     t: float = 0.0) -> list[Output]:
        """The hand's `index`-th input showed the wrong card: referee the hand again with `card`."""
        return self.feed(Correction("misread_card", reason, by, target=index, card=card, was=was, t=t))

    def void_hand(self, *, reason: str, by: str, status: EndStatus = "void", t: float = 0.0) -> list[Output]:
        """The floor voids the hand (or declares a misdeal); it ends now."""
        return self.feed(Correction("void_hand", reason, by, status=status, t=t))

    def accept_flag(self, number: int, *, reason: str, by: str, t: float = 0.0) -> list[Output]:
        return self.feed(Correction("accept_flag", reason, by, target=number, t=t))

    def dismiss_flag(self, number: int, *, reason: str, by: str, t: float = 0.0) -> list[Output]:
        return self.feed(Correction("dismiss_flag", reason, by, target=number, t=t))

    def _correct(self, c: Correction) -> list[Output]:
        record = self.record
        if record is None or self.run is None:
            self.inputs.pop()
            raise DealerAssistError("no hand in progress to correct; correct an ended hand in the log")
        if c.kind == "misread_card":
            if c.target is None or not 0 <= c.target < len(record.inputs) or c.card is None:
                self.inputs.pop()
                raise DealerAssistError(f"hand {record.start.number} has no input {c.target} to correct")
            record.misreads[c.target] = c
        elif c.kind in ("accept_flag", "dismiss_flag"):
            if c.target is None or not 0 <= c.target < len(record.flags):
                self.inputs.pop()
                raise DealerAssistError(f"hand {record.start.number} has no flag {c.target}")
            record.resolutions[c.target] = c
        record.corrections.append(c)
        self.sink.corrected(record.start.number, c)
        if c.kind == "void_hand":
            self._end(c.status or "void", c.reason, c.t)
            return []
        if c.kind == "misread_card":
            return self._rebuild(record)
        return []

    def _rebuild(self, record: HandRecord, *, in_time_order: bool = False,
                 keyed_in: CardsShown | None = None) -> list[Output]:
        """Referee the hand again from its start (corrected, or in time order); emit only what is new."""
        run = HandRun(record.start, camera=record.start.camera)
        placed, mucks = _with_entered_shows(record.inputs)
        items = [(i, item if (fix := record.misreads.get(i)) is None else _with_card(item, fix)) for i, item in placed]
        if in_time_order or self._time_ordered.get(record.start.number):
            self._time_ordered[record.start.number] = True
            run.reordered = True
            items.sort(key=lambda p: (p[1].t, isinstance(p[1], DealerAction), p[0]))
        swapped: set[int] = set()         # the entries that took the place of a muck the camera saw at the showdown
        for i, item in items:
            if i in mucks and run.shows_at_showdown():
                item, entry = mucks[i]
                swapped.add(entry)
            elif i in swapped:
                continue                  # that entry was fed in the muck's place
            if isinstance(item, CardsGathered):
                run.settle(item.t, item.frame)
            elif not isinstance(item, ButtonMoved):
                run.feed(item)
        out: list[Output] = []
        for flag in run.flags:
            if flag not in record.flags:
                out.append(flag)
        if keyed_in is not None:
            # What the camera's read of the show (or muck) raised before the dealer keyed the hand in, that the hand
            # refereed again on the entry does not raise, the entry settled: it no longer holds the award.
            for n, flag in enumerate(record.flags):
                if flag.severity in FLOOR_SEVERITIES and n not in record.resolutions and flag not in run.flags:
                    fix = Correction("dismiss_flag", f"seat {keyed_in.seat}'s shown hand was keyed in by the dealer; "
                                     "refereed again on it, the hand does not raise this", REFEREE_BY, target=n,
                                     t=keyed_in.t)
                    record.resolutions[n] = fix
                    record.corrections.append(fix)
                    self.sink.corrected(record.start.number, fix)
        if run.award is not None and (not record.awards or record.awards[-1].award != run.award):
            last = next((o for o in reversed(run.outputs) if isinstance(o, AwardMade)), None)
            if last is not None:
                out.append(last)
        self.run = run
        self._emit(record, out)
        return out

    # -- internals ---------------------------------------------------------------------------------

    def _start(self, t: float, frame: int | None) -> None:
        button = self.upcoming_button
        stacks = dict(self._stacks)
        start = HandStart(len(self.hands) + 1, button, tuple(sorted(stacks.items())), self.table.rules, t, frame,
                          self.table.camera)
        self.hands.append(HandRecord(start))
        self.run = HandRun(start, camera=start.camera)
        self._button, self._button_moved, self._first = button, None, False
        self.sink.hand_started(start)
        early, self._early = self._early, []
        for item in early:
            self._record_and_feed(item)

    def _record_and_feed(self, item: HandInput, *, settle: bool = False) -> list[Output]:
        run, record = self.run, self.hands[-1]
        assert run is not None
        index = len(record.inputs)
        record.inputs.append(item)
        self.sink.recorded(record.start.number, index, item, str(_taken_in(run, item)))
        run.outputs.clear()
        if settle:
            run.settle(item.t, getattr(item, "frame", None))
        elif not isinstance(item, ButtonMoved | CardsGathered):
            run.feed(item)
        if run.reorder:
            return self._rebuild(record, in_time_order=True)
        if isinstance(item, CardsShown) and item.entered and (
                _camera_muck_of(record.inputs[:-1], item.seat) is not None
                or _camera_show_of(record.inputs[:-1], item.seat) is not None
                or any(isinstance(p, CardsShown) and p.entered and p.seat == item.seat for p in record.inputs[:-1])):
            # the hand keyed in is what the camera's show (or muck, or an earlier entry) held: from there
            return self._rebuild(record, keyed_in=item)
        out = list(run.outputs)
        self._emit(record, out)
        return out

    def _settle_short_draws(self, record: HandRecord) -> None:
        """A seat that shows a whole hand (every card read, or keyed in) held every card it was owed, so a draw the
        camera saw leave it short was the camera's miss (a replacement pitched onto the seat's pile): that flag is
        dismissed by the referee, saying why, before an award is made past it (the flag may come after the show: a
        short seat is flagged once the replacement has not come for a second). Not where the seat also has a draw
        flag of another kind (a card too many): two real errors can also add up to a whole hand."""
        run = self.run
        if run is None or not run.short_flags:
            return
        size = run.rules.hand_size
        for seat, short in run.short_flags.items():
            shows = [p for p in record.inputs if isinstance(p, CardsShown) and p.seat == seat]
            shown = next((p for p in reversed(shows) if p.entered), shows[-1] if shows else None)
            if shown is None or len(set(shown.cards)) != size:
                continue
            if any(f.kind is FlagKind.REPLACEMENTS_MISMATCH and f.seat == seat and f not in short for f in run.flags):
                continue
            how = "keyed in by the dealer" if shown.entered else "read by the camera"
            for flag in short:
                n = next((k for k, f in enumerate(record.flags) if f == flag and k not in record.resolutions), None)
                if n is None:
                    continue
                fix = Correction("dismiss_flag", f"seat {seat} showed a whole hand at the showdown ({size} cards, "
                                 f"{how}): the replacement the camera did not see land had come", REFEREE_BY,
                                 target=n, t=max(shown.t, flag.t))
                record.resolutions[n] = fix
                record.corrections.append(fix)
                self.sink.corrected(record.start.number, fix)

    def _emit(self, record: HandRecord, out: list[Output]) -> None:
        k = 0
        while k < len(out):
            o = out[k]
            k += 1
            number = None
            if isinstance(o, Flag):
                number = len(record.flags)
                record.flags.append(o)
            elif isinstance(o, AwardMade):
                self._settle_short_draws(record)
                o = replace(o, pending=flags_for_the_floor(record))
                record.awards.append(o)
            self.sink.output(record.start.number, o, number)
            if isinstance(o, Flag) and o.severity in FLOOR_SEVERITIES and record.awards:
                again = self._award_again(record, o)
                if again is not None:
                    out.insert(k, again)      # next, and among the outputs returned (Live's board shows it)
        self._settle_short_draws(record)

    @staticmethod
    def _award_again(record: HandRecord, flag: Flag) -> AwardMade | None:
        """An error or misdeal flag raised after the hand's award (a say keyed after the fold that ended the hand, a
        card after its last muck) says the award may be wrong: it is made again, the same, now provisional on that
        flag, so the floor decides. A new record: the award made before it stays in the log as it was made."""
        last = record.awards[-1]
        if set(flags_for_the_floor(record)) <= set(last.pending):
            return None
        # (a flag held for a late camera bears the time of what it is about, which may be before the award)
        later = flag.t >= last.t
        return replace(last, t=flag.t if later else last.t, frame=flag.frame if later else last.frame)

    def _end_by_gather(self, t: float) -> None:
        run = self.run
        assert run is not None
        if run.done:
            self._end_complete(t)
        elif any(f.severity is Severity.MISDEAL for f in run.flags):
            self._end("misdeal", "the cards were gathered after a misdeal flag", t)
        else:
            self._end("void", "the cards were gathered before the hand was finished", t)

    def _end_complete(self, t: float) -> None:
        """The hand was awarded; if a flag for the floor is still open, the end says the award waits on it."""
        record = self.hands[-1]
        pending = flags_for_the_floor(record)
        self._end("complete", pending_reason([record.flags[n] for n in pending]) if pending else None, t)

    def _end(self, status: EndStatus, reason: str | None, t: float) -> None:
        run, record = self.run, self.hands[-1]
        assert run is not None
        record.end = HandEnded(record.start.number, status, reason, t)
        stacks = run.hand.stacks_by_seat() if status == "complete" else record.start.stacks_by_seat
        kept = {s: c for s, c in stacks.items() if c > 0}
        if len(kept) >= 2:
            self._stacks = kept
        self.run = None
        self.sink.hand_ended(record.end)


FLOOR_SEVERITIES = (Severity.ERROR, Severity.MISDEAL)
"""Flags the floor must decide before an award stands: a misdeal, or an error in the draw or the betting (a seat
holding a card too many, a bet of the wrong size) that may change who wins or how much."""


def flags_for_the_floor(record: HandRecord) -> tuple[int, ...]:
    """The numbers of the hand's error and misdeal flags the floor has neither accepted nor dismissed."""
    return tuple(n for n, f in enumerate(record.flags)
                 if f.severity in FLOOR_SEVERITIES and n not in record.resolutions)


def award_waits_on(record: HandRecord) -> tuple[int, ...]:
    """The numbers of the flags the hand's last award was made past that the floor has still not resolved."""
    if not record.awards:
        return ()
    return tuple(n for n in record.awards[-1].pending if n not in record.resolutions)


def pending_reason(flags: list[Flag]) -> str:
    """Why an award is provisional: "a flag is open (misdeal card_to_wrong_seat, seat 3); the floor decides ..."."""
    named = "; ".join(f"{f.severity.value} {f.kind.value}" + (f", seat {f.seat}" if f.seat is not None else "")
                      for f in flags)
    some = "a flag is" if len(flags) == 1 else f"{len(flags)} flags are"
    return f"provisional: {some} open ({named}); the floor decides whether the hand stands"


def _taken_in(run: HandRun, item: HandInput) -> Phase:
    """The phase an input is taken in, recorded with a dealer's entry: the phase now, but for an entry that ends a
    draw still on (the seats not seen drawing stood pat), which belongs to the betting round after it. Found on a
    copy of the hand, since the entry is recorded before it is followed (nothing is lost if following it fails)."""
    if not isinstance(item, DealerAction) or run.phase is not Phase.DRAWING:
        return run.phase
    probe = copy.deepcopy(run)
    probe.outputs.clear()
    probe.feed(item)
    return probe.taken_in or run.phase


def _camera_show_of(inputs: list[HandInput], seat: int) -> int | None:
    """The index of the camera's first show of `seat` among `inputs`, or None."""
    return next((i for i, p in enumerate(inputs) if isinstance(p, CardsShown) and p.seat == seat and not p.entered),
                None)


def _camera_muck_of(inputs: list[HandInput], seat: int) -> int | None:
    """The index of the camera's first sight of `seat`'s cards going to the muck among `inputs`, or None: a muck, or a
    discard (the tracker reads a whole hand going as one while the referee has a draw on: the muck that ends an
    all-in last draw) that no card to the seat followed (a discard with replacements after it was a draw)."""
    for i, p in enumerate(inputs):
        if not isinstance(p, SeatFolded | CardsDiscarded) or p.seat != seat:
            continue
        if isinstance(p, CardsDiscarded) and any(isinstance(q, CardDealt | CardReplaced) and q.seat == seat
                                                 for q in inputs[i + 1:]):
            continue
        return i
    return None


def _with_entered_shows(inputs: list[HandInput],
                        ) -> tuple[list[tuple[int, HandInput]], dict[int, tuple[CardsShown, int]]]:
    """The hand's inputs by index, each hand the dealer keyed in taking the place of the camera's first show of that
    seat (its time and frame: when the hand was turned up, which decides the order of the shows); the entry itself is
    then left out, and the camera's later reads of the seat count for nothing (`HandRun.feed`).

    A seat the camera saw put its cards in the muck and never saw show, whose hand the dealer keyed in: the camera
    took the show for a muck if the hand was at its showdown then. Returned apart, by the muck's index: the entry at the
    muck's time and frame, and the entry's own index (`_rebuild` swaps them when the hand is at its showdown there)."""
    placed: dict[int, HandInput] = {}
    dropped: set[int] = set()
    mucks: dict[int, tuple[CardsShown, int]] = {}
    # A seat keyed in again (the dealer mistyped the hand): the last entry's cards are the hand, in the first's place.
    latest = {p.seat: p.cards for p in inputs if isinstance(p, CardsShown) and p.entered}
    keyed: set[int] = set()
    for i, item in enumerate(inputs):
        if isinstance(item, CardsShown) and item.entered:
            if item.seat in keyed:
                dropped.add(i)
                continue
            keyed.add(item.seat)
            item = placed[i] = replace(item, cards=latest[item.seat])
            first = _camera_show_of(inputs[:i], item.seat)
            if first is not None:
                seen = inputs[first]
                assert isinstance(seen, CardsShown)
                placed[first] = replace(item, t=seen.t, frame=seen.frame)
                dropped.add(i)
            elif (muck := _camera_muck_of(inputs[:i], item.seat)) is not None:
                went = inputs[muck]
                assert isinstance(went, SeatFolded | CardsDiscarded)
                mucks[muck] = (replace(item, t=went.t, frame=went.frame), i)
    return [(i, placed.get(i, item)) for i, item in enumerate(inputs) if i not in dropped], mucks


def _with_card(item: HandInput, fix: Correction) -> HandInput:
    """`item` with the card the floor says it really was."""
    if isinstance(item, CardsShown | CardsDiscarded):
        if fix.was is None or fix.was not in item.cards or fix.card is None:
            raise DealerAssistError("a misread card in a shown or discarded hand needs `was`: the card it was read as")
        cards = tuple(fix.card if c == fix.was else c for c in item.cards)
        return replace(item, cards=cards)
    if isinstance(item, CardDealt | CardExposed | CardReplaced):
        return replace(item, card=fix.card)
    raise DealerAssistError(f"input {fix.target} ({type(item).__name__}) has no card to correct")
