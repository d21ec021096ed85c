"""Tracker: smooths zone observations over frames and emits the table events the referee trusts.

A zone's contents change only when the new contents persist: cards landing for `arrive_s`
(0.15 s: within the 300 ms budget at 30 fps), a flip for `flip_s`, cards leaving for `leave_s`
(0.6 s, with what is left steady for `settle_s`) and a zone emptying for `empty_s` (0.8 s), so a
hand or chip passing over cards, a detection missing for a few frames, or a spurious one for a
couple of frames, makes no event; up to `max_gap` odd frames inside a change do not break it.
Cards count as leaving only when they were seen going (loose near the seat outside every zone, the muck
growing, or the muck gathered: the hands swept in with it); cards that merely vanish (a hand resting over
them) must stay gone `vanish_s` (2.5 s), and a sign of going after that is not theirs (the gather sweeping in a hand
turned up unread). Events carry the timestamp and index of the frame where the change
began (the card landed), not the frame where it was confirmed; cards that vanished (a hand lay over them) and
were seen going to the muck `covered_s` or more later (loose beside the seat, then the muck grew) went when
they were seen going.

Event rules (Badugi / Badacey, cards stay on the felt in front of each seat):
- cards arriving at a seat: `CardDealt`, or `CardReplaced` once the deal is over and that seat has discarded
  this hand (a card to a seat that did not discard is dealt: in the draw, the referee flags it);
  a card arriving face up also gives `CardExposed`. While the hint has a draw on, an arrival must be seen in two
  frames running (up to `max_gap` odd frames are let in otherwise): a replacement pitched to another seat that
  flies over this one shows in it only every other frame, and would be a replacement out of turn here.
  At a seat that lately showed more cards than it held in a fair share of frames (`flicker_share`: the detector
  splitting a squared pile into one box more now and then), an arrival must be seen in every frame for
  `flicker_hold_s`, so bursts of the extra box make no dealt card or replacement.
- a seat losing some of its cards: `CardsDiscarded`; but not when nothing was seen going and the referee's hint
  says the deal or a betting round was on then (no card leaves a seat then but in a fold: the detector lost a box),
  or that the seat was done drawing in the draw under way (`drawn`).
  Seen going or not, such a loss in the deal or a betting round (the hint says so, or lags and last said the
  deal) followed by the seat's next cards is no discard either: as much of the count as comes back is no new card.
- a seat losing all of its cards: with a phase hint (`set_hint`, from the referee, which knows
  whether a betting or a draw round is on) `SeatFolded` or `CardsDiscarded` at once. A hint that lags
  the video (`as_of`: the referee follows the table some seconds behind, in time order) speaks for the
  moment the cards went once it has caught up with it: the seat waits until then (a seat the referee
  knows has folded, `folded`, or a betting round or showdown then: `SeatFolded`; a draw round:
  `CardsDiscarded`); `hint_lag_s` behind the video it is not waited for. Without a word from a hint,
  it waits: `CardsDiscarded` if the seat's next cards arrive first, else `SeatFolded` (stamped when
  the cards left) once another seat changes (draw procedure "sequential": each seat is served
  before the next declares) or once no seat has changed and the muck has not grown (a burn) for
  `fold_wait_s` ("discard_then_replace", and always as a backstop). No event when it was the last
  seat holding cards (the pot is being pushed) or its hand had been shown. If 2 or more cards come
  back together (within `together_s`: a dealer pitches replacements one at a time) they are the
  seat's own cards uncovered (a hand lay over what a partial discard left): the discard counts the
  rest, and only the cards after them are replacements; but when the cards were seen going and the hint has that
  seat next to draw (`drawing`), all of them coming back at once are its replacements. With the draw procedure
  "discard_then_replace", one card back within `leave_s` of the seat settling on what it kept, while another seat
  waits to be served, is its own card uncovered too (a dealer takes longer to gather the discards and pitch one),
  and so are cards that went after the dealer began serving the draw (every seat discards before the first is
  served) and all came back at once.
  A card landing at a seat out of the hand (in the deal too: no player dealt in there), or past the deal at one
  holding a whole hand that has not discarded this hand, must be seen there in every frame for `stray_hold_s` (a hand
  taken for a back, a pile read one over).
  A seat drawing is one that held a whole hand, or any seat that loses cards once some seat did (a seat dealt
  short draws too).
- a face-down card turned up: `CardExposed`, unless a showdown has begun; in the deal, also a face-up card read
  at a seat in `expose_votes` frames within `expose_s` (a card dealt face up that the next card covers is read too
  seldom to hold the seat's view); each card once per seat and hand. Every card of a seat
  face up (at least 2, after it held `hand_size` cards, or 2 or more turned up at once by a seat
  that was dealt short): `CardsShown`. A spread's small corners are read a few at a time: a card
  read at a showing seat in `show_votes` frames joins its show (no more cards than the seat held),
  and the seat's whole show comes again, stamped when it was turned up; it is told once whole or settled
  (`ShowHold`: `show_settle_s`, the first no later than `show_wait_s` after the turn). At showdown, cards that
  vanish in place (turned up, fewer than 2 read; a muck is seen going) are a show of what was read, not a
  fold, and cards a showing seat seems to lose are unread, not discarded. Every back of a whole hand gone and one
  face read where they lay, as the cards were seen moving (or at the showdown), is the hand turned up (cards
  leave face down) in any phase but the deal: a show of that card. A hand turned up whose reads differ from frame
  to frame (no one set of them holds) settles, once no back has been seen for `settle_s`, on the cards read in at
  least half the frames.
- a face-up card on the stub: `CardExposed` with seat None.
- the button settling at a new seat: `ButtonMoved`; every seat and the muck clear (or every seat
  clear and the button moved on): `CardsGathered`, which starts a new hand.
Timing assumption: replacements land at least `leave_s` after the discards leave the seat's zone
(`empty_s` when a seat discards every card); a dealer does take that long to pick discards up.
"""

from __future__ import annotations

from collections import Counter, deque
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field, replace
from itertools import pairwise

from dealer_assist.cards import Card
from dealer_assist.errors import DealerAssistError
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
from dealer_assist.vision.mapper import EMPTY, TableObservation, ZoneView
from dealer_assist.vision.show_hold import ShowHold

_EPS = 1e-6
PHASE_HISTORY = 64      # the referee's phase changes the tracker remembers (a hand has a dozen)
DRAW_PROCEDURES = ("sequential", "discard_then_replace")
PHASES = ("deal", "betting", "draw", "showdown")


@dataclass(frozen=True, slots=True)
class PhaseHint:
    """What the referee knows of the hand in progress, for the tracker (`Tracker.set_hint`).

    `phase`: "deal", "betting", "draw", "showdown", or None (no word: the tracker infers). `as_of`: the
    video time up to which the referee has followed the table (None: it is up to date, the hint holds now).
    `folded`: the seats the referee knows have folded (the dealer entered it), whose cards going is a fold
    whatever the phase (a fold that closes a betting round has already opened the draw). `drawing`: the seats whose
    draw may be under way (the next to discard in the draw's order): cards seen going from such a seat and as many
    coming back at once are its replacements, not its own cards uncovered. `drawn`: the seats done drawing in the
    draw under way (discard declared, every replacement in): a count such a seat loses without being seen going is
    a box gone, not a second discard. `owed`: the seats that declared a discard in the draw under way and still wait for
    replacements; with the draw procedure "sequential" no other seat's cards go before they are served, so a count
    another seat loses without being seen going is a box gone too. `seated`: the seats dealt into the hand (empty:
    not known); a card arriving at any other seat (in the deal too), or at a folded one, must hold longer
    (`TrackerConfig.stray_hold_s`).
    """

    phase: str | None = None
    as_of: float | None = None
    folded: frozenset[int] = frozenset()
    drawing: frozenset[int] = frozenset()
    drawn: frozenset[int] = frozenset()
    owed: frozenset[int] = frozenset()
    seated: frozenset[int] = frozenset()

    def __post_init__(self) -> None:
        if self.phase is not None and self.phase not in PHASES:
            raise DealerAssistError(f"unknown phase {self.phase!r}; accepted: {', '.join(PHASES)} or None")


@dataclass(frozen=True, slots=True)
class TrackerConfig:
    """How long a change must persist before it counts, and the hand size (4 Badugi, 5 Badacey)."""

    arrive_s: float = 0.15
    flip_s: float = 0.2
    leave_s: float = 0.6
    settle_s: float = 0.3
    empty_s: float = 0.8
    button_s: float = 0.4
    min_frames: int = 3
    max_gap: int = 1
    hold_share: float = 0.75
    vanish_s: float = 2.5
    evidence_lead_s: float = 0.05
    evidence_keep_s: float = 1.0
    fold_wait_s: float = 2.5
    together_s: float = 0.1   # cards arriving at a seat this close together came uncovered, not dealt
    partial_hold_s: float = 1.5   # a partial discard waits this long for cards coming back uncovered (0: never)
    covered_s: float = 0.3   # cards gone this long before they were seen going to the muck had been covered first
    hand_size: int = 4
    draw_procedure: str = "sequential"
    adopt_s: float = 0.0     # > 0: a source that starts mid-hand; what settles in this time makes no events
    hint_lag_s: float = 8.0  # a phase hint further behind the video than this is not waited for (> audit --horizon)
    show_votes: int = 3      # frames a card must be read in at a seat showing its hand to join the shown cards
    # A show is told once its read is whole, or has not grown for `show_settle_s`, or after `show_wait_s` (`ShowHold`;
    # 0: each growth at once). On the 48 hand videos at 720p a spread's read grew for up to 1.8 s.
    show_settle_s: float = 1.5
    show_wait_s: float = 2.5
    expose_votes: int = 3    # in the deal, frames within `expose_s` a face-up card must be read in at a seat (0: off)
    expose_s: float = 2.0
    expose_hold_s: float = 0.5   # ... and first read this long ago (a card read well lands face up: a seat's change)
    # A seat that showed more cards than it holds in `flicker_share` of its frames (at least `flicker_frames`) in the
    # `flicker_s` before a change (the detector now and then splitting a squared pile into one box more: one frame in
    # three to six) must show the new count in every frame for `flicker_hold_s` before a card counts as landing there,
    # so a flickering extra back makes no dealt card. A stray box now and then (a few frames in a hundred), or a card
    # landing whose first frames a hand cut short, stays under the share (0.14 on the 56 hand videos: the share of
    # the one seat read as 4, 5, 4 that made a misdeal flag was 0.15; at 0.10, the first frames of cards cut short
    # by a hand counted, and deals came out of order).
    flicker_s: float = 3.0
    flicker_share: float = 0.14
    flicker_frames: int = 3
    flicker_hold_s: float = 0.3
    # A seat the referee has out of the hand (no player dealt in, in the deal too; or folded) gets a card only if it
    # is seen there in every frame for `stray_hold_s`: a player's hand or sleeve taken for a back for a few frames at
    # an empty seat is no card pitched there (a card pitched there stays until the dealer takes it back).
    stray_hold_s: float = 0.6

    def __post_init__(self) -> None:
        if self.draw_procedure not in DRAW_PROCEDURES:
            raise DealerAssistError(
                f"unknown draw procedure {self.draw_procedure!r}; accepted: {', '.join(DRAW_PROCEDURES)}"
            )
        if self.min_frames < 1 or self.max_gap < 0 or min(self.arrive_s, self.leave_s, self.empty_s) < 0:
            raise DealerAssistError("tracker windows must be >= 0 and min_frames >= 1")


@dataclass(frozen=True, slots=True)
class Entry:
    """One observed frame inside a change."""

    t: float
    frame: int
    view: ZoneView
    after_odd: bool = False    # the frame before it was odd (the stable view, or another change's)


@dataclass(frozen=True, slots=True)
class Commit:
    """A zone's stable contents changed from `old` to `new`; `entries` are the frames of the change; `seen_going`:
    cards were seen going (loose beside the zone or the muck growing), not merely gone from view."""

    old: ZoneView
    new: ZoneView
    entries: tuple[Entry, ...]
    seen_going: bool = False

    @property
    def start(self) -> Entry:
        return self.entries[0]

    def first_reaching(self, count: int) -> Entry:
        """The first frame of the change whose card count reached `count` (for stamping each arrival)."""
        return next((e for e in self.entries if e.view.count >= count), self.entries[-1])


class ZoneSmoother:
    """One zone's stable contents: a change commits once it persisted long enough (see TrackerConfig)."""

    def __init__(self, config: TrackerConfig, initial: ZoneView = EMPTY, *, flicker: bool = False) -> None:
        self.config = config
        self.stable = initial
        self._run: list[Entry] = []
        self._gap = 0
        self._flicker = flicker     # keep `_seen` (a seat; the muck's count flickers as a matter of course)
        self._seen: deque[tuple[float, int]] = deque()   # (time, count) of the frames since the stable state began
        self._loose_t = self._muck_t = float("-inf")
        self._now = float("-inf")
        self._fly_over = False
        self._stray = False
        self._seen_in: float | None = None   # the start of the change whose cards were seen going in time

    def _empty_hold(self) -> float:
        """How long an emptied zone must stay empty: `empty_s` if its cards were seen going, else `vanish_s`."""
        return self.config.empty_s if self._seen_leaving() else self.config.vanish_s

    def _seen_leaving(self) -> bool:
        """Whether cards were seen going during this change: loose beside the zone (as it began or since),
        or the muck growing after it began, within `vanish_s` of its start (latched once seen)."""
        if not self._run:
            return False
        start = self._run[0].t
        if self._seen_in == start:
            return True
        seen = self._loose_t + _EPS >= start - self.config.evidence_lead_s or self._muck_t > start + _EPS
        # Cards gone from view for `vanish_s` had gone unseen by then (turned up and not read, under a hand): a sign
        # of going after that is of something later (the gather sweeping them in), not of this change.
        return seen and self._now <= start + self.config.vanish_s + _EPS

    def _note_evidence(self) -> None:
        """Latch, once a frame, that this change's cards were seen going while that was still in time."""
        if self._seen_leaving():
            self._seen_in = self._run[0].t

    def _leave_s(self) -> float:
        return self.config.leave_s if self._seen_leaving() else self.config.vanish_s

    def _side(self, view: ZoneView) -> int:
        return (view.count > self.stable.count) - (view.count < self.stable.count)

    def _turning(self, view: ZoneView) -> bool:
        """Whether `view` is the stable pile being turned face up: backs gone, no more cards than it held, some read."""
        return bool(view.face_up) and view.backs < self.stable.backs and view.count <= self.stable.count

    def _same_change(self, view: ZoneView, last: ZoneView) -> bool:
        """Whether `view` goes on the change `last` belongs to: on the same side of the stable count, or both the pile
        turned face up (the classifier reads all of a spread's corners in one frame and one fewer in the next, so the
        count flickers between the pile's and one less; that is one change, not one turning around every frame)."""
        return self._side(view) == self._side(last) or (self._turning(view) and self._turning(last))

    @property
    def leaving_since(self) -> float | None:
        """When the change under way began, if it is cards leaving (fewer than the stable state); else None."""
        return self._run[0].t if self._run and self._side(self._run[-1].view) < 0 else None

    @property
    def arriving(self) -> bool:
        """Whether more cards than the stable state are being seen (a landing not yet confirmed)."""
        return bool(self._run) and self._side(self._run[-1].view) > 0

    def update(self, t: float, frame: int, view: ZoneView, loose_t: float = float("-inf"),
               muck_t: float = float("-inf"), fly_over: bool = False, stray: bool = False) -> list[Commit]:
        """Feed one frame's view; returns the commits it completed (usually none).

        `loose_t` is the last time cards were seen loose beside this zone, `muck_t` the last time the muck
        grew that may be this zone's doing; without either, cards that merely vanished (a hand resting
        over them) must stay gone for `vanish_s` before they count as gone. `fly_over`: cards are being pitched
        across the table (a draw's replacements), so a card arriving must be seen in two frames running: one
        flying over the zone to another seat shows in it only every other frame. `stray`: the seat is out of the hand
        (see `TrackerConfig.stray_hold_s`).
        """
        self._loose_t, self._muck_t, self._now = loose_t, muck_t, t
        self._fly_over, self._stray = fly_over, stray
        if self._flicker:
            self._seen.append((t, view.count))
            while self._seen[0][0] < t - 2 * self.config.flicker_s:   # what a change begun since may look back on
                self._seen.popleft()
        self._note_evidence()
        if view == self.stable:
            if self._run:
                self._gap += 1
                if self._gap > self.config.max_gap:
                    return self._back_to_stable(Entry(t, frame, view))
            return []
        if self._run and not self._same_change(view, self._run[-1].view):
            self._gap += 1
            if self._gap <= self.config.max_gap:
                return self._try_commit(t)          # one odd frame inside a change: ignored
            self._run = []                          # the change turned around: start over here
        odd = self._gap > 0
        self._gap = 0
        self._run.append(Entry(t, frame, view, odd))
        return self._try_commit(t)

    def _latest_steady(self, whole: bool = False) -> int:
        """Index of the last frame of the value seen most in the run's last `arrive_s` (or all of it).

        Ties go to the smaller change (a missed or extra detection must not make an extra event), then
        to the latest.
        """
        run = self._run
        recent = [i for i in range(len(run)) if whole or run[-1].t - run[i].t <= self.config.arrive_s + _EPS]
        tally: dict[ZoneView, int] = {}
        for i in recent:
            tally[run[i].view] = tally.get(run[i].view, 0) + 1
        stable = self.stable.count
        return max(recent, key=lambda i: (tally[run[i].view], -abs(run[i].view.count - stable), i))

    def _floor(self) -> tuple[int, float] | None:
        """While leaving: the last frame and duration of the fewest-cards value held long enough, if any.

        Held long enough is `settle_s` (`empty_s` for an empty zone), with up to `max_gap` odd frames inside.
        """
        run, cfg = self._run, self.config
        best: tuple[int, float] | None = None
        i = 0
        while i < len(run):
            value, last, odd = run[i].view, i, 0
            for k in range(i + 1, len(run)):
                if run[k].view == value:
                    last, odd = k, 0
                else:
                    odd += 1
                    if odd > cfg.max_gap:
                        break
            held = run[last].t - run[i].t
            if (value.count < self.stable.count
                    and held + _EPS >= (self._empty_hold() if value.count == 0 else cfg.settle_s)
                    and (best is None or value.count <= run[best[0]].view.count)):
                best = (last, held)
            i = last + 1
        return best

    def _commit_to(self, i: int, now: float, extra: Entry | None = None, view: ZoneView | None = None) -> list[Commit]:
        """Make run[i]'s value (or `view`) the stable state; the frames after it (and `extra`) start the next
        change."""
        run = self._run
        target = run[i].view if view is None else view
        commit = Commit(self.stable, target, tuple(run[: i + 1]), self._seen_leaving())
        if self._flicker:
            # the frames since it settled on the new state are its history (a discard's count flickers as it settles)
            first = next((k for k, e in enumerate(run) if e.view == target), i)
            self._seen = deque((e.t, e.view.count) for e in run[first: i + 1])
        self.stable = target
        rest = [e for e in [*run[i + 1:], *([extra] if extra else [])] if e.view != target]
        if rest:                                   # keep only the trailing frames on one side of the new state
            side = self._side(rest[-1].view)
            while rest and self._side(rest[0].view) != side:
                rest.pop(0)
        self._run, self._gap = rest, 0
        return [commit, *(self._try_commit(now) if rest else [])]

    def _back_to_stable(self, entry: Entry) -> list[Commit]:
        """The zone looks as before again: a passing occluder, unless cards were gone for `leave_s` (then
        they left and others came: a quick discard and replacement)."""
        floor = self._floor() if self._run and self._side(self._run[-1].view) < 0 else None
        if floor is not None and floor[1] + _EPS >= self._leave_s():
            return self._commit_to(floor[0], entry.t, entry)
        self._run, self._gap = [], 0
        return []

    def _flickering(self, target: ZoneView) -> bool:
        """Whether the zone showed `target`'s count (or more) in `flicker_share` of its frames (and at least
        `flicker_frames`) in the `flicker_s` before the change under way began (see `TrackerConfig.flicker_s`)."""
        cfg, began = self.config, self._run[0].t
        window = [n for t, n in self._seen if began - cfg.flicker_s - _EPS <= t < began - _EPS]
        above = sum(n >= target.count for n in window)
        return above >= cfg.flicker_frames and above >= cfg.flicker_share * len(window)

    def _held_up(self, target: ZoneView, hold_s: float) -> bool:
        """An arrival at a flickering zone (or a seat out of the hand): `target`'s count (or more) seen in every frame
        for the last `hold_s` (a split pile's extra box comes and goes from frame to frame; a card landing stays)."""
        run, reach = self._run, target.count
        if run[-1].view.count < reach:
            return False
        j = len(run) - 1
        while j > 0 and not run[j].after_odd and run[j - 1].view.count >= reach:
            j -= 1
        return run[-1].t - run[j].t + _EPS >= hold_s

    def _held_since(self, value: ZoneView) -> float:
        """When `value` began to hold: the earliest frame from which it makes `hold_share` of the run."""
        since, match = self._run[-1].t, 0
        for total, e in enumerate(reversed(self._run), 1):
            if e.view == value:
                match += 1
                if match >= self.config.hold_share * total:
                    since = e.t
        return since

    def _try_commit(self, now: float) -> list[Commit]:
        run, cfg = self._run, self.config
        if len(run) < cfg.min_frames:
            return []
        i = self._latest_steady()
        target = run[i].view
        side = self._side(target)
        if side >= 0:                               # arriving or turning: what the whole change shows most
            i = self._latest_steady(whole=True)
            target = run[i].view
            seen = sum(e.view == target for e in run)
            if seen < cfg.min_frames or seen * 2 < len(run):
                return []                           # odd frames that merely differ from each other
            if side > 0 and self._fly_over and not any(a.view == target == b.view and not b.after_odd
                                                       for a, b in pairwise(run)):
                return []                           # never in two frames running: a card flying over the zone
            if side > 0:
                hold = (cfg.stray_hold_s if self._stray else
                        cfg.flicker_hold_s if self._flickering(target) else 0.0)
                if hold and not self._held_up(target, hold):
                    return []                       # flickering up and back, or at a seat out of the hand: wait
        floor = self._floor() if side < 0 else None
        if floor is not None and run[floor[0]].view.count < target.count and now - run[0].t + _EPS >= self._leave_s():
            i = floor[0]                            # cards left, then others came: commit the leaving first
        elif side < 0:
            # Leaving: the change must last `leave_s`, and what is left must have held for `settle_s` (an
            # empty zone for `empty_s`), so a hand covering the rest of a seat's cards mid-discard is waited out.
            hold = self._empty_hold() if target.count == 0 else cfg.settle_s
            if now - run[0].t + _EPS < self._leave_s():
                return []
            if now - self._held_since(target) + _EPS < hold:
                turned = self._turned_up(now)
                return self._commit_to(len(run) - 1, now, view=turned) if turned is not None else []
        elif now - run[0].t + _EPS < (cfg.arrive_s if side > 0 else cfg.flip_s):
            return []
        return self._commit_to(i, now)

    def _turned_up(self, now: float) -> ZoneView | None:
        """A leaving zone whose backs have all been gone for `settle_s` while its face-up reads differ from frame to
        frame (a hand turned up: the classifier reads a different few of a spread's small corners in each frame, so
        no one set of them holds): the cards read in at least half of those frames. None otherwise."""
        frames: list[Entry] = []
        for e in reversed(self._run):
            if e.view.backs:
                break
            frames.append(e)
        if not frames or now - frames[-1].t + _EPS < self.config.settle_s:
            return None
        faces = frozenset(_read_in(frames, share=2))
        return ZoneView(0, faces) if faces and len(faces) < self.stable.count else None


class ButtonSmoother:
    """The button's stable seat; frames without a button (occluded) change nothing."""

    def __init__(self, config: TrackerConfig) -> None:
        self.config = config
        self.stable: int | None = None
        self._run: list[Entry] = []
        self._seat: int | None = None

    def update(self, t: float, frame: int, seat: int | None) -> Entry | None:
        """Returns the first frame of a move once the button has sat at a new seat long enough."""
        if seat is None:
            return None
        if seat == self.stable or seat != self._seat:
            self._run = []
            self._seat = None if seat == self.stable else seat
            if seat == self.stable:
                return None
        self._run.append(Entry(t, frame, EMPTY))
        if len(self._run) >= self.config.min_frames and t - self._run[0].t + _EPS >= self.config.button_s:
            start = self._run[0]
            self.stable, self._run, self._seat = seat, [], None
            return start
        return None


@dataclass(slots=True)
class _Pending:
    """A seat that emptied: a fold, or a full discard if its replacements come next; or (`partial`) a seat that
    lost some of its cards, held until its next cards come or `partial_hold_s` passed (a hand lying over part of
    a pile makes cards vanish and then come back together)."""

    t: float
    frame: int
    count: int
    cards: tuple[Card, ...]
    partial: bool = False
    due: float = 0.0
    vanished: bool = False   # the cards were not seen going (no card loose beside the seat, no muck growth)
    box: bool = False        # partial: the rest of a count lost as boxes (not cards): no event if it never comes back
    settled: float = 0.0     # partial: when the seat first showed what it kept


@dataclass(slots=True)
class _Hand:
    """What the tracker remembers about the hand in progress."""

    active: bool = False
    drawing: bool = False
    drew: set[int] = field(default_factory=set)   # seats that discarded this hand: only they get replacements
    max_count: dict[int, int] = field(default_factory=dict)
    shown: dict[int, frozenset[Card]] = field(default_factory=dict)
    shown_at: dict[int, Entry] = field(default_factory=dict)          # when each seat turned its hand up
    show_votes: dict[int, Counter[Card]] = field(default_factory=dict)  # frames each face-up card was read there
    pending: dict[int, _Pending] = field(default_factory=dict)
    owed: dict[int, int] = field(default_factory=dict)   # the seat that discarded last: replacements not yet seen
    owed_t: float = float("-inf")                          # ... when it discarded
    serving_since: float | None = None   # the draw's first replacement, once no discard came after it
    up_reads: dict[int, deque[tuple[float, int, Card]]] = field(default_factory=dict)   # face-up reads in the deal
    exposed: set[tuple[int, Card]] = field(default_factory=set)   # (seat, card) reported exposed this hand


def _read_in(frames: Sequence[Entry], share: int, least: int = 1) -> list[Card]:
    """The face-up cards read in at least 1/`share` of `frames` and in `least` of them (a spread's corners are read
    a different few at a time; a stray misread now and then is not among them)."""
    votes = Counter(c for e in frames for c in e.view.face_up)
    return [c for c, n in votes.items() if n >= least and share * n >= len(frames)]


def _turned_at(commit: Commit, start: Entry) -> Entry:
    """When a hand was turned up: the first frame of the change from `start` on with a face read at the seat (a hand
    or an arm over its cards before that is not the show), else `start`."""
    return next((e for e in commit.entries if e.view.face_up and e.t + _EPS >= start.t), start)


def _sorted(cards: frozenset[Card] | set[Card]) -> tuple[Card, ...]:
    return tuple(sorted(cards, key=lambda c: c.index))


class Tracker:
    """Per-seat smoothing and event rules: `update(observation) -> [TableEvent, ...]`."""

    def __init__(self, seats: int, config: TrackerConfig | None = None) -> None:
        self.config = config or TrackerConfig()
        self.seat_count = seats
        self._seats = [ZoneSmoother(self.config, flicker=True) for _ in range(seats)]
        self._muck = ZoneSmoother(self.config)
        self._stub = ZoneSmoother(self.config)
        self._button = ButtonSmoother(self.config)
        self._hand = _Hand()
        self._shows = ShowHold(self.config.show_settle_s, self.config.show_wait_s)
        self._hint = PhaseHint()
        self._out_of_hand: frozenset[int] = frozenset()     # seats a card must hold longer at (`stray_hold_s`)
        self._phases: list[tuple[float, str | None]] = []   # (video time as of which the referee was in it, phase)
        self._now = float("-inf")
        self._last_change_t = float("-inf")
        self._first_t: float | None = None
        self._loose_t = [float("-inf")] * seats
        self._loose_prev = [False] * seats                      # cards loose beside a seat not short, last frame
        self._muck_t = [float("-inf")] * seats
        self._loose_since: list[Entry | None] = [None] * seats      # when each seat's last loose cards began to move
        self._went: list[Entry | None] = [None] * seats             # ... when that was followed by the muck growing
        self._emptied_t = [float("-inf")] * seats                  # when each seat last began to empty
        self._muck_pile = ZoneSmoother(self.config)            # the muck zone alone: did it just grow?
        self.events_emitted = 0

    def set_hint(self, hint: PhaseHint) -> None:
        """What the referee knows of the hand, as of `hint.as_of` (it follows the table behind the video); it holds
        until the next hint. See `PhaseHint`."""
        self._hint = hint
        self._out_of_hand = (hint.folded | (frozenset(range(1, self.seat_count + 1)) - hint.seated)
                             if hint.seated and hint.phase is not None else frozenset())
        at = self._now if hint.as_of is None else hint.as_of
        if not self._phases or self._phases[-1][1] != hint.phase:
            self._phases.append((at, hint.phase))
            del self._phases[:-PHASE_HISTORY]

    @property
    def _phase(self) -> str | None:
        """The phase the hint says the table is in now (None when it lags the video: it says nothing of now)."""
        return self._hint.phase if self._hint.as_of is None else None

    def _behind(self, since: float) -> str | None:
        """Whether the hint has caught up with video time `since`: None if so; "wait" while it lags but is within
        `hint_lag_s` of the video; "gone" when it lags further (it is not waited for)."""
        hint = self._hint
        if hint.as_of is None or hint.as_of + _EPS >= since:
            return None
        return "wait" if hint.as_of + self.config.hint_lag_s + _EPS >= self._now else "gone"

    def _phase_at(self, since: float) -> str | None:
        """The referee's phase at `since`: "wait" while a lagging hint has not caught up with it, None without one.
        Once it has, the phase it had then, not now (a seat's cards may be judged seconds after they went, when the
        table has moved on from a betting round to the draw)."""
        behind = self._behind(since)
        if behind is not None:
            return "wait" if behind == "wait" else None
        return self._phase_then(since)

    def _phase_then(self, since: float) -> str | None:
        """The phase the hints reported as of `since` (the latest change at or before it)."""
        return next((phase for at, phase in reversed(self._phases) if at <= since + _EPS), self._hint.phase)

    def _showdown_by(self, since: float) -> bool:
        """Whether the referee had the table at its showdown at `since`: it said so as of then, or, while it still
        lags within `hint_lag_s`, as of earlier in this hand (no phase follows the showdown but the next hand's deal,
        which comes after the gather)."""
        phase = self._phase_at(since)
        return phase == "showdown" or (phase == "wait" and self._hint.phase == "showdown")

    def _no_draw(self, since: float) -> bool:
        """Whether the referee had the deal or a betting round on at `since` (no card leaves a seat then but in a
        fold). While its hint lags behind that moment (an arrival must not wait for it), whether it last said the
        deal: a betting round may have closed since, and the draw begun with this seat's discard."""
        phase = self._phase_at(since)
        return phase in ("deal", "betting") or (phase == "wait" and self._hint.phase == "deal")

    def _told(self, seat: int, since: float) -> str | None:
        """What the hint says of a seat whose cards all went at `since`: "fold", "discard", "wait" (a lagging hint
        has not caught up with `since` yet), or None (no word: the tracker's own rules decide)."""
        behind = self._behind(since)
        if behind is not None:
            return "wait" if behind == "wait" else None
        hint = self._hint
        phase = self._phase_then(since)
        if seat in hint.folded or phase in ("betting", "showdown"):
            return "fold"
        return "discard" if phase == "draw" else None

    # -- state for the UI -----------------------------------------------------------------------

    @property
    def seats(self) -> tuple[ZoneView, ...]:
        """Each seat's stable contents (seat 1 first)."""
        return tuple(s.stable for s in self._seats)

    @property
    def button_seat(self) -> int | None:
        return self._button.stable

    @property
    def muck_count(self) -> int:
        return self._muck.stable.count

    # -- the per-frame step ---------------------------------------------------------------------

    def update(self, obs: TableObservation) -> list[TableEvent]:
        """Feed one frame's observation; returns the events it confirmed, oldest first."""
        if len(obs.seats) != self.seat_count:
            raise ValueError(f"observation has {len(obs.seats)} seats, tracker has {self.seat_count}")
        t, frame = obs.t, obs.frame
        self._now = t
        if self._first_t is None:
            self._first_t = t
        if t - self._first_t < self.config.adopt_s:
            return self._adopt(obs)
        # Evidence that cards are really leaving a seat: cards loose beside it, or the muck growing (which
        # is put down to the seats that just had loose cards, if any, else to the seats whose cards began to go
        # shortly before it began).
        for i in range(self.seat_count):                        # loose beside a seat that is short: going
            loose = bool(obs.loose and obs.loose[i])
            short = obs.seats[i].count < self._seats[i].stable.count
            # cards loose beside the seat the frame before its count fell were already on their way
            if short and (loose or self._loose_prev[i]):
                if t - self._loose_t[i] > self.config.covered_s + _EPS:
                    self._loose_since[i] = Entry(t, frame, EMPTY)     # a new movement began
                self._loose_t[i] = t
            self._loose_prev[i] = loose and not short
        grown = [c for c in self._muck_pile.update(t, frame, ZoneView(obs.muck.count)) if c.new.count > c.old.count]
        if grown:                                               # the muck pile settled bigger
            self._last_change_t = t                             # a burn or a discard landing: the table is busy
            # the seats whose cards were seen loose shortly before the muck began to grow (it may take a while
            # to settle when the cards land scattered)
            began = grown[0].start.t
            recent = [i for i in range(self.seat_count) if began - self._loose_t[i] <= self.config.evidence_keep_s]
            # with no cards seen loose, the growth is put down to the seats whose cards began to go shortly before
            # it began (a flicker of the pile's count long after a hand covered a seat explains nothing there)
            going = [i for i, z in enumerate(self._seats) if (since := z.leaving_since) is not None
                     and began - since <= self.config.evidence_keep_s + _EPS]
            for i in recent or going:
                self._muck_t[i] = t
            for i in recent:                                    # their cards went when last seen moving
                self._went[i] = self._loose_since[i]
        muck_view = ZoneView(obs.muck.count + obs.pot.count)
        muck_commits = self._muck.update(t, frame, muck_view, loose_t=t)     # the muck is only ever gathered
        if any(c.new.count == 0 < c.old.count for c in muck_commits):
            # The dealer gathered the muck: cards vanishing at the seats now are being swept up with it (a shown
            # hand, the winner's cards), seen going, not a hand resting over them.
            self._muck_t = [t] * self.seat_count
        commits: list[tuple[int, Commit]] = []
        for number, (smoother, view) in enumerate(zip(self._seats, obs.seats, strict=True), 1):
            commits += [(number, c) for c in smoother.update(t, frame, view, self._loose_t[number - 1],
                                                             self._muck_t[number - 1], self._hint.phase == "draw",
                                                             stray=number in self._out_of_hand
                                                             or self._full_and_idle(number))]
        commits.sort(key=lambda nc: (nc[1].start.frame, nc[0]))
        stub_commits = self._stub.update(t, frame, ZoneView(0, obs.stub.face_up))
        button_move = self._button.update(t, frame, obs.button_seat)

        events: list[TableEvent] = []
        for seat, p in list(self._hand.pending.items()):
            arriving = self._seats[seat - 1].arriving           # its replacements may be landing right now
            if not arriving:
                self._restamp(seat, p)
            told = None if p.partial else self._told(seat, p.t)
            if told == "discard" or (told == "fold" and not arriving):
                events += self._resolve_fold(seat, discard=told == "discard")
                continue
            due = p.due if p.partial else max(p.t, self._last_change_t) + self.config.fold_wait_s
            if p.vanished and self._phase_at(p.t) == "wait":
                continue                                    # the referee has not yet seen that moment
            if told is None and t + _EPS >= due and not arriving:
                events += self._resolve_fold(seat)
        for seat, commit in commits:
            if commit.new.count == 0:
                self._emptied_t[seat - 1] = commit.start.t
        for seat, commit in commits:
            if self.config.draw_procedure == "sequential":
                for other in [s for s, p in self._hand.pending.items()
                              if s != seat and not p.partial and self._told(s, p.t) is None]:
                    events += self._resolve_fold(other)
            events += self._seat_events(seat, commit)
        if commits:
            self._last_change_t = max(self._last_change_t, *(c.start.t for _, c in commits))
        events += self._read_shown(obs)
        events += self._read_exposed(obs)
        for commit in stub_commits:
            start = commit.start
            events += [CardExposed(start.t, start.frame, None, card)
                       for card in _sorted(commit.new.face_up - commit.old.face_up)]
        events += self._folds_before_shows(events)
        events = self._shows.take(events, t, self._holds)
        seats_clear = all(s.stable.count == 0 for s in self._seats)
        if self._hand.active and seats_clear and (self._muck.stable.count == 0 or button_move is not None):
            # the hand is over: every seat and the muck cleared, or the button moved on with the seats clear
            events += self._shows.release()
            for seat in list(self._hand.pending):
                events += self._resolve_fold(seat)
            # a seat's change began when its cards were seen going; one that vanished unseen long before (a hand turned
            # up unread) ends only now, swept in with the rest
            stamps = [c.start if c.seen_going else c.entries[-1] for _, c in commits] + [c.start for c in muck_commits]
            last = max(stamps, key=lambda e: e.frame) if stamps else Entry(t, frame, EMPTY)
            if button_move is not None and button_move.frame < last.frame:
                last = button_move
            events.append(CardsGathered(last.t, last.frame))
            self._hand = _Hand()
        if button_move is not None:
            events.append(ButtonMoved(button_move.t, button_move.frame, self._button.stable or 0))
        events.sort(key=lambda e: e.frame)
        self.events_emitted += len(events)
        self._count_owed(events)
        return events

    def _folds_before_shows(self, events: Sequence[TableEvent]) -> list[TableEvent]:
        """A hand turned up means the showdown has begun, so no draw is left to discard in: a seat whose whole hand was
        seen going before it, still waiting for a word (no hint, and the muck still settling), folded. Without this it
        waited out the showdown's changes and came after the shows, out of order."""
        shown = [e for e in events if isinstance(e, CardsShown)]
        if not shown:
            return []
        first, showing = min(e.t for e in shown), {e.seat for e in shown}
        out: list[TableEvent] = []
        for seat, p in list(self._hand.pending.items()):
            if (seat not in showing and not p.partial and not p.vanished and p.t < first
                    and self._told(seat, p.t) is None):
                out += self._resolve_fold(seat)
        return out

    def _count_owed(self, events: Iterable[TableEvent]) -> None:
        """Keep the tracker's account of the replacements owed: the seat that discarded last (a discard elsewhere
        moves the draw on), until its replacements are in, or the referee has followed the table past that discard into
        another phase (a replacement the camera missed must not hold the next draw)."""
        hand = self._hand
        owed, hint = hand.owed, self._hint
        if owed and hint.phase not in (None, "draw") and (hint.as_of is None or hint.as_of > hand.owed_t + _EPS):
            owed.clear()
        if (hand.serving_since is not None and hint.phase not in (None, "draw")
                and (hint.as_of is None or hint.as_of > hand.serving_since + _EPS)):
            hand.serving_since = None
        for e in events:
            if isinstance(e, CardsDiscarded):
                owed.clear()
                owed[e.seat] = e.count
                hand.owed_t = e.t
                if hand.serving_since is not None and e.t > hand.serving_since + _EPS:
                    hand.serving_since = None       # a discard after the serving began: the next draw's (a late one
                    #                                 found now, with an earlier time, leaves the serving as it is)
            elif isinstance(e, CardReplaced):
                hand.serving_since = e.t if hand.serving_since is None else min(e.t, hand.serving_since)
                if e.seat in owed:
                    owed[e.seat] -= 1
                    if owed[e.seat] <= 0:
                        del owed[e.seat]

    def _adopt(self, obs: TableObservation) -> list[TableEvent]:
        """Started mid-hand: take what is on the table as the starting state, without events."""
        for smoother, view in zip(self._seats, obs.seats, strict=True):
            smoother.update(obs.t, obs.frame, view)
        self._muck.update(obs.t, obs.frame, ZoneView(obs.muck.count + obs.pot.count))
        self._stub.update(obs.t, obs.frame, ZoneView(0, obs.stub.face_up))
        self._button.update(obs.t, obs.frame, obs.button_seat)
        for number, smoother in enumerate(self._seats, 1):
            if smoother.stable.count:
                self._hand.active = True
                self._hand.max_count[number] = max(self._hand.max_count.get(number, 0), smoother.stable.count)
        return []

    def flush(self) -> list[TableEvent]:
        """At the end of a source: settle seats still waiting between fold and full discard (as folds)."""
        events: list[TableEvent] = self._shows.release()
        for seat, p in list(self._hand.pending.items()):
            events += self._resolve_fold(seat, discard=not p.partial and self._told(seat, p.t) == "discard")
        return sorted(events, key=lambda e: e.frame)

    def _holds(self, seat: int) -> int:
        """How many cards a seat held in this hand: a show of that many is whole."""
        return self._hand.max_count.get(seat, 0)

    # -- rules ----------------------------------------------------------------------------------

    def _resolve_fold(self, seat: int, discard: bool = False) -> list[TableEvent]:
        """A seat waiting: a fold (it emptied; with `discard`, the referee said a draw was on), or a partial discard
        held long enough."""
        p = self._hand.pending.pop(seat, None)
        if p is None or p.box:
            return []
        if p.partial and p.vanished and (self._phase_at(p.t) in ("deal", "betting") or self._box_gone(seat, p)):
            # no card leaves a seat in the deal or a betting round but in a fold, nor a seat done drawing in this
            # draw or waiting for another to be served: a box gone, not a card
            return []
        if p.partial and self._showdown_by(p.t):
            # No card is discarded at the showdown: part of a hand gone is a muck, or a hand turned up, with a card
            # still seen at the seat; what becomes of that card (gone, or gathered) says the rest (as when the hint is
            # current: `_seat_events`).
            return []
        if p.partial or discard:
            self._discarding(seat)
            return [CardsDiscarded(p.t, p.frame, seat, p.count, p.cards)]
        if p.vanished and seat not in self._hint.folded and self._showdown_by(p.t):
            # A whole hand gone in place, unseen going, with the table at its showdown: turned up and not read, as
            # when the hint is current (`_seat_events`), not a muck; however the wait ends (the hint catching up, the
            # gather, the end of the video).
            return self._show_more(seat, (), Entry(p.t, p.frame, EMPTY))
        return [SeatFolded(p.t, p.frame, seat)]

    def _drew_already(self, seat: int, p: _Pending) -> bool:
        """Whether cards a seat lost without being seen going went while the referee, as far as it has followed the
        table, has that seat done drawing in the draw under way: no card leaves it again in this draw (but by a
        dealer error, and discards are seen going), so a box was lost, not a card (a hand over the seat, a card
        pitched past it)."""
        return (p.partial and p.vanished and self._behind(p.t) != "gone" and self._hint.phase == "draw"
                and seat in self._hint.drawn)

    def _before_its_turn(self, seat: int, p: _Pending) -> bool:
        """Whether cards a seat lost without being seen going went while the referee, as far as it has followed the
        table, had another seat in this draw still waiting for replacements (draw procedure "sequential"): no other
        seat discards before it is served (but by a dealer error, and discards are seen going), so a box was lost."""
        if not (p.partial and p.vanished and self.config.draw_procedure == "sequential") or seat in self._hint.owed:
            return False
        hand = self._hand
        # the tracker's own account first (the referee's hint lags the video): the seat that discarded last and has not
        # had all its replacements, or a seat emptied in the draw whose replacements have not begun
        return (self._serving_another(seat)
                or (hand.drawing and any(s != seat and not q.partial for s, q in hand.pending.items()))
                or (self._behind(p.t) != "gone" and self._hint.phase == "draw" and bool(self._hint.owed - {seat})))

    def _serving_another(self, seat: int) -> bool:
        """Whether, by the tracker's own account, the dealer is still serving another seat's replacements (draw
        procedure "sequential"): cards coming back to a seat that lost some are then its own (a card pitched past
        it, or the dealer's hand, hid them), not replacements, whether or not they seemed to go."""
        return (self.config.draw_procedure == "sequential" and seat not in self._hint.owed
                and any(s != seat for s in self._hand.owed))

    def _too_soon(self, seat: int, commit: Commit, p: _Pending) -> bool:
        """Whether a card arriving at a seat that lost some is one of them uncovered (a hand lay over the pile), not a
        replacement: draw procedure "discard_then_replace", another seat waiting to be served first, and the card in
        view within `leave_s` of the seat settling on what it kept (the dealer takes that long to gather the discards
        and pitch one)."""
        hand = self._hand
        waiting = (any(s != seat for s in hand.pending) or any(s != seat for s in hand.owed)
                   or bool(self._hint.owed - {seat}))
        return (self.config.draw_procedure == "discard_then_replace" and p.partial and waiting
                and commit.start.t - p.settled < self.config.leave_s - _EPS)

    def _while_serving(self, p: _Pending) -> bool:
        """Whether a seat's cards went after the dealer began serving the draw's replacements (draw procedure
        "discard_then_replace": every seat discards before the first is served), so that cards coming back to it all
        at once are its own, uncovered (the dealer's hand pitching past it hid them), not its replacements."""
        since = self._hand.serving_since
        return (self.config.draw_procedure == "discard_then_replace" and since is not None
                and p.t > since + _EPS)

    def _box_gone(self, seat: int, p: _Pending) -> bool:
        """Whether a count a seat lost in the draw, not seen going, was a box gone rather than a discard."""
        return self._drew_already(seat, p) or self._before_its_turn(seat, p) or self._awaiting_service(seat, p)

    def _awaiting_service(self, seat: int, p: _Pending) -> bool:
        """Whether cards a seat lost went after it discarded in this draw, its replacements not all in, by the
        tracker's own account (the referee's hint lags the video), and no card was seen loose beside it: a seat waiting
        to be served discards nothing more, so a box was lost (a hand over the seat). The muck growing then is no sign
        of its cards going: another seat's discard, a burn, or the muck's count flickering (badacey-limit-triple seed
        16, seat 2: a discard and a replacement made of an arm, on a clean hand)."""
        hand = self._hand
        loose = self._loose_t[seat - 1] + _EPS >= p.t - self.config.evidence_lead_s
        return p.partial and not loose and seat in hand.owed and p.t > hand.owed_t + _EPS

    def _drawing(self, seat: int, p: _Pending) -> bool:
        """Whether cards a seat lost were seen going (not a hand lying over them) while the referee, as far as it has
        followed the table, has that seat next to draw: as many cards coming back is its replacements, however close
        together the camera sees them land (it often finds a pitched card a few frames late, with the next one)."""
        return p.partial and not p.vanished and self._behind(p.t) != "gone" and seat in self._hint.drawing

    def _discarding(self, seat: int) -> None:
        """A seat discarded: its next cards are replacements, once the deal is over."""
        self._hand.drew.add(seat)
        self._hand.drawing = self._hand.drawing or self._dealt_out(seat)

    def _dealt_out(self, seat: int) -> bool:
        """Whether the deal is over, so a seat losing cards is drawing: it held a whole hand, or (dealt short) any
        seat did."""
        counts = self._hand.max_count
        return counts.get(seat, 0) >= self.config.hand_size or any(v >= self.config.hand_size for v in counts.values())

    def _reappeared(self, commit: Commit, pending: _Pending) -> int:
        """How many of the cards arriving at a seat that just emptied are its own cards uncovered again (a hand had
        lain over what a partial discard left): cards that show up together within `together_s` of the first, when
        more than one (a dealer pitches replacements one at a time), and no more than went."""
        entries = commit.entries
        first = entries[0]

        def settled(count: int) -> float:         # from when on the seat showed at least `count` cards
            below = [i for i, e in enumerate(entries) if e.view.count < count]
            return entries[below[-1] + 1].t if below and below[-1] + 1 < len(entries) else (
                entries[-1].t if below else first.t)

        together = sum(settled(commit.old.count + k) - first.t <= self.config.together_s + _EPS
                       for k in range(1, commit.new.count - commit.old.count + 1))
        return together if 2 <= together <= pending.count else 0

    def _left_at(self, seat: int, commit: Commit) -> Entry:
        """When a seat's cards left: when they were last seen going to the muck, if that was at least `covered_s` after
        they vanished (a hand lay over them, then they went), else the first frame of the change."""
        start, went = commit.start, self._went[seat - 1]
        if went is not None and start.t + self.config.covered_s - _EPS <= went.t <= commit.entries[-1].t + _EPS:
            return went
        return start

    def _restamp(self, seat: int, p: _Pending) -> None:
        """A seat waiting whose cards were seen going to the muck `covered_s` or more after they vanished: they went
        then (a hand had lain over them first)."""
        went = self._went[seat - 1]
        if went is not None and went.t + _EPS >= p.t + self.config.covered_s:
            p.t, p.frame = went.t, went.frame

    def _at_showdown(self) -> bool:
        """Whether the hand has reached its showdown: a seat showed, or the referee says so."""
        return bool(self._hand.shown) or self._hint.phase == "showdown"

    def _show_more(self, seat: int, cards: Iterable[Card], at: Entry | None = None) -> list[TableEvent]:
        """Cards read at a seat showing its hand join what it showed (no more than the cards it held: the most read
        first); when that grows (or the seat first shows, turning its hand up at `at`), the seat's whole show
        again, stamped when its hand was turned up."""
        hand = self._hand
        if at is not None:
            hand.shown_at.setdefault(seat, at)
        before = hand.shown.get(seat, frozenset())
        votes = hand.show_votes.setdefault(seat, Counter())
        room = max(hand.max_count.get(seat, 0), len(before)) - len(before)
        new = sorted((c for c in cards if c not in before), key=lambda c: (-votes[c], c.index))[:room]
        if not new and seat in hand.shown:
            return []
        hand.shown[seat] = before | frozenset(new)
        first = hand.shown_at[seat]
        return [CardsShown(first.t, first.frame, seat, _sorted(hand.shown[seat]))]

    def _read_turned(self, commit: Commit) -> list[Card]:
        """The cards read face up, with no back beside them, in `show_votes` frames or more of a change and in a fifth
        of its frames without backs (a stray misread now and then, over seconds, gathers votes too: no show of it)."""
        return _read_in([e for e in commit.entries if not e.view.backs], share=5, least=self.config.show_votes)

    def _read_shown(self, obs: TableObservation) -> list[TableEvent]:
        """Each frame, the face-up cards read at seats already showing: a card read in `show_votes` frames joins the
        show (the classifier reads a different few of a spread's small corners in each frame)."""
        events: list[TableEvent] = []
        for seat in list(self._hand.shown):
            view = obs.seats[seat - 1]
            if view.backs or not view.face_up:
                continue
            votes = self._hand.show_votes.setdefault(seat, Counter())
            votes.update(view.face_up)
            read = [c for c in view.face_up if votes[c] >= self.config.show_votes]
            events += self._show_more(seat, read) if read else []
        return events

    def _full_and_idle(self, seat: int) -> bool:
        """Whether a seat holds a whole hand past the deal and has not discarded this hand: a card landing there is
        no replacement and no deal card, so it must hold like one at a seat out of the hand (`stray_hold_s`): a pile
        read one card over now and then is no card."""
        return (self._hint.phase in ("betting", "draw") and seat not in self._hand.drew
                and seat not in self._hand.pending and self._seats[seat - 1].stable.count >= self.config.hand_size)

    def _read_exposed(self, obs: TableObservation) -> list[TableEvent]:
        """In the deal, a face-up card read at a seat in `expose_votes` frames within `expose_s`, the first
        `expose_hold_s` ago: a card dealt face up whose index the next card covers is read now and then, too seldom
        to hold the seat's count (a misdeal the referee must flag). Reported once per seat and card, stamped with its
        first read."""
        cfg, hand = self.config, self._hand
        if cfg.expose_votes <= 0 or self._hint.phase != "deal":       # (a lagging hint: the deal as far as known)
            hand.up_reads.clear()
            return []
        events: list[TableEvent] = []
        for seat, view in enumerate(obs.seats, 1):
            reads = hand.up_reads.setdefault(seat, deque())
            reads.extend((obs.t, obs.frame, card) for card in view.face_up)
            while reads and reads[0][0] < obs.t - cfg.expose_s - _EPS:
                reads.popleft()
            for card in view.face_up:
                if (seat, card) in hand.exposed or sum(c == card for _, _, c in reads) < cfg.expose_votes:
                    continue
                t, frame = next((t, f) for t, f, c in reads if c == card)
                if obs.t - t + _EPS < cfg.expose_hold_s:
                    continue        # a card landing face up and read well is the seat's change to report
                hand.exposed.add((seat, card))
                events.append(CardExposed(t, frame, seat, card))
        return events

    def _seat_events(self, seat: int, commit: Commit) -> list[TableEvent]:
        hand, cfg = self._hand, self.config
        old, new = commit.old, commit.new
        delta = new.count - old.count
        new_up = new.face_up - old.face_up
        lost_up = old.face_up - new.face_up
        flipped_n = min(len(new_up), max(0, old.backs - new.backs))
        ups = _sorted(new_up)
        flipped = ups[:flipped_n]
        arrived_up = ups[flipped_n:] if delta > 0 else ()
        start = self._left_at(seat, commit) if delta < 0 else commit.start
        events: list[TableEvent] = []
        held = hand.pending.get(seat)
        merge: _Pending | None = None
        whole = max(hand.max_count.get(seat, 0), new.count) >= cfg.hand_size
        # Every back gone and one face read where they lay, after a whole hand, as the cards were seen moving (players
        # spread them): the hand turned up with one corner read (cards leave face down), whatever a lagging hint says
        # of the phase; only the deal has no show. Cards that vanished in place are that only at the showdown (else a
        # hand rests over them, and the face is a misread).
        turned = (new.backs == 0 and len(new.face_up) == 1 and flipped_n == 1 and delta < 0 and whole
                  and self._phase_at(start.t) != "deal" and (commit.seen_going or self._at_showdown()))
        showing = (new.backs == 0 and len(new.face_up) >= 2 and old.count > 0 and whole) or turned
        if held is not None and held.partial and (showing or seat in hand.shown):
            del hand.pending[seat]      # cards that went unread as the hand was turned up (the count fell): no discard
        elif held is not None and held.partial and delta < 0 and not lost_up and self._phase is None:
            merge = hand.pending.pop(seat)              # more cards went: one discard, from when the first went
        elif held is not None and held.partial and delta <= 0:
            events += self._resolve_fold(seat)          # the seat changed otherwise: its partial discard stands
        if delta > 0 and showing:
            pass                                    # a hand spread face up shows cards the pile had hidden
        elif delta > 0:
            hand.active = True
            if seat in hand.shown and arrived_up:
                # No card comes to a seat once it has shown its hand: faces coming into view there (a hand moved off
                # the spread, the dealer pushing it) are its show's, never a card dealt, replaced or exposed.
                events += self._show_more(seat, arrived_up)
                delta -= len(arrived_up)
                arrived_up = ()
            p = hand.pending.pop(seat, None)
            back = 0
            if p is not None and p.partial and (p.box or self._no_draw(p.t) or self._box_gone(seat, p)
                                                or self._serving_another(seat)):
                # No card leaves a seat in the deal or a betting round but in a fold, nor (unseen) a seat done drawing
                # in this draw or waiting for another seat to be served: the count lost was a box gone (a second box
                # on one card, a card of a dealt row missed, a hand over the seat); as much of it as comes back is no
                # card, and the rest may come back with the next frames.
                back = min(p.count, delta - len(arrived_up))
                if p.count > back:
                    hand.pending[seat] = replace(p, count=p.count - back, due=commit.entries[-1].t + cfg.partial_hold_s,
                                                 box=True)
            elif p is not None:                     # it emptied (or lost some) to draw, not to fold
                back = self._reappeared(commit, p) if not arrived_up else 0
                if back == p.count and self._drawing(seat, p) and not self._while_serving(p):
                    back = 0        # all that went came back at once: with the draw on, its replacements
                if not back and not arrived_up and p.count > 1 and self._too_soon(seat, commit, p):
                    back = 1        # a card back sooner than the dealer could serve it: its own, uncovered
                if p.count > back:
                    events.append(CardsDiscarded(p.t, p.frame, seat, p.count - back, p.cards))
                    self._discarding(seat)
            arrivals: list[Card | None] = [None] * (delta - back - len(arrived_up)) + list(arrived_up)
            for k, card in enumerate(arrivals, back + 1):
                at = commit.first_reaching(old.count + k)
                drawing = self._phase == "draw" or (hand.drawing and self._phase != "deal")
                # only a seat that discarded is due replacements: a card to any other seat is dealt (a deal card,
                # or in the draw a dealer error the referee flags as such), so one seat's miscount during the
                # deal does not turn every seat's next cards into replacements
                cls = CardReplaced if drawing and seat in hand.drew else CardDealt
                events.append(cls(at.t, at.frame, seat, card))
                if card is not None and (seat, card) not in hand.exposed:
                    hand.exposed.add((seat, card))
                    events.append(CardExposed(at.t, at.frame, seat, card))
        elif delta < 0:
            # other seats held cards when this change began (not only now: a hand turned up unread long before the
            # gather clears every seat at once is no last hand pushed away)
            others_hold = any(s.stable.count or self._emptied_t[i - 1] > start.t + _EPS
                              for i, s in enumerate(self._seats, 1) if i != seat)
            if seat in hand.shown or showing or (new.count == 0 and not others_hold):
                pass                                # a shown hand (some cards unread) or the last hand pushed away
            elif new.count == 0 and self._at_showdown() and (read := self._read_turned(commit)):
                # At showdown a pile whose backs were gone while faces were read where it lay, in `show_votes` frames
                # or more, was turned up, whatever took it after (the gather sweeping it in reads as cards going): a
                # show of those cards, never a muck that hands the pot to the other seat.
                events += self._show_more(seat, read, _turned_at(commit, start))
            elif not commit.seen_going and self._at_showdown():
                # At showdown cards that vanish in place were turned up and not read (a muck is seen going): a show
                # of what was read (one corner of four, or none), so the referee waits for the rest instead of
                # handing the pot to another seat.
                if new.backs == 0:
                    events += self._show_more(seat, new.face_up, _turned_at(commit, start))
            elif new.count == 0:
                went = (_Pending(merge.t, merge.frame, old.count + merge.count, (),
                                 vanished=merge.vanished and not commit.seen_going) if merge else
                        _Pending(start.t, start.frame, old.count, _sorted(lost_up), vanished=not commit.seen_going))
                told = self._told(seat, went.t)
                if told == "fold":
                    events.append(SeatFolded(went.t, went.frame, seat))
                elif told == "discard":
                    events.append(CardsDiscarded(went.t, went.frame, seat, went.count, went.cards))
                    self._discarding(seat)
                else:
                    hand.pending[seat] = went
            elif cfg.partial_hold_s > 0 and not lost_up:
                first = merge or _Pending(start.t, start.frame, 0, ())
                kept = next((e.t for e in commit.entries if e.view.count == new.count), commit.entries[-1].t)
                hand.pending[seat] = _Pending(first.t, first.frame, first.count - delta, (), partial=True,
                                              due=commit.entries[-1].t + cfg.partial_hold_s,
                                              vanished=not commit.seen_going and (merge is None or merge.vanished),
                                              settled=kept)
            else:
                events.append(CardsDiscarded(start.t, start.frame, seat, -delta, _sorted(lost_up)))
                self._discarding(seat)

        hand.max_count[seat] = max(hand.max_count.get(seat, 0), new.count)
        # a show: every card face up, after the seat held a whole hand or, short-dealt, turning 2 or more at once
        full = whole or (len(flipped) >= 2 and delta == 0)
        if (new.backs == 0 and len(new.face_up) >= 2 and full) or turned:
            events += self._show_more(seat, new.face_up, _turned_at(commit, start))
        elif flipped and not hand.shown:
            at = start
            events += [CardExposed(at.t, at.frame, seat, card) for card in flipped if (seat, card) not in hand.exposed]
            hand.exposed.update((seat, card) for card in flipped)
        return events
