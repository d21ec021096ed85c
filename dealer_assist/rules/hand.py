"""The Hand: one deal as a sequence of dealer and player steps, checked against the house rules.

Every step is a trio, as in PokerKit: `verify_x(...)` raises IllegalStep naming the rule and the
house option behind it, `can_x(...)` answers yes or no, `x(...)` verifies then applies and returns
a frozen step record that is also appended to `history`. An illegal step changes nothing.

Seats are table seat numbers; internally each seat has an index, clockwise from the first seat
left of the button (the button is the last index). Cards may be known or None (face down, unseen):
the referee drives a Hand from camera events, the simulator from the Hand's own seeded deck.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable, Mapping, Sequence
from enum import StrEnum

from dealer_assist.cards import Card, Deck, card_from_index
from dealer_assist.rules.awards import Award, PotAward, Share, award_pots, pot_name
from dealer_assist.rules.betting import BettingRound, Options
from dealer_assist.rules.house_rules import HouseRules
from dealer_assist.rules.pots import Pot, build_pots
from dealer_assist.rules.steps import (
    CALLED_CACHE,
    CHECKED_CACHE,
    DEALT_CACHE,
    REPLACED_CACHE,
    Awarded,
    BetTo,
    Burned,
    Called,
    Checked,
    Dealt,
    Discarded,
    Folded,
    IllegalStep,
    Mucked,
    Posted,
    RaisedTo,
    Replaced,
    Reshuffled,
    Shown,
    Step,
    make_bet,
    make_burned,
    make_called,
    make_checked,
    make_dealt,
    make_discarded,
    make_folded,
    make_posted,
    make_raised,
    make_replaced,
    make_shown,
)
from dealer_assist.rules.stub import STUB, UNSEEN, USED, Stub, card_key, key_of_id

MAX_SEATS = 10


class Phase(StrEnum):
    """Where the hand stands."""

    POSTING = "posting"
    DEALING = "dealing"
    BETTING = "betting"
    DRAWING = "drawing"
    SHOWDOWN = "showdown"
    AWARDING = "awarding"
    DONE = "done"


_DEALT_RECORDS = DEALT_CACHE.records
_REPLACED_RECORDS = REPLACED_CACHE.records
_CHECKED_RECORDS = CHECKED_CACHE.records
_CALLED_RECORDS = CALLED_CACHE.records

# Module constants: looking a member up on an Enum class costs a slow attribute lookup per step.
_POSTING, _DEALING, _BETTING, _DRAWING, _SHOWDOWN, _AWARDING, _DONE = (
    Phase.POSTING, Phase.DEALING, Phase.BETTING, Phase.DRAWING, Phase.SHOWDOWN, Phase.AWARDING, Phase.DONE,
)


def _discard_what(seat: int | None) -> str:
    return "a discard" if seat is None else f"a discard by seat {seat}"


def _split_rule(text: str) -> tuple[str, str | None]:
    rule, _, option = text.partition("|")
    return rule, option or None


class Hand:
    """A deal from the forced bets to the award; see the module docstring for the step pattern."""

    __slots__ = (
        "_deal_total",
        "_declare_pos",
        "_reserve_cards",
        "_sequential",
        "_show_order",
        "_shown",
        "_small_seats",
        "_unread",
        "bets",
        "betting",
        "burn_owed",
        "button",
        "contributed",
        "deal_count",
        "draw",
        "draw_order",
        "hands",
        "history",
        "index_of",
        "live",
        "owed",
        "pending_posts",
        "phase",
        "replaced_any",
        "round",
        "rules",
        "seats",
        "stacks",
        "starting",
        "stub",
    )

    def __init__(
        self,
        rules: HouseRules,
        stacks: Mapping[int, int],
        button: int,
        *,
        deck: Deck | Iterable[Card] | None = None,
        seed: int | None = None,
        rng: random.Random | None = None,
    ) -> None:
        """`stacks` maps seat number to chips; `deck` (or `seed`) makes the cards known (simulation)."""
        if not 2 <= len(stacks) <= MAX_SEATS:
            raise IllegalStep(f"a hand with {len(stacks)} seats", f"a hand needs 2 to {MAX_SEATS} seats")
        for seat, chips in stacks.items():
            if chips <= 0:
                raise IllegalStep(f"seat {seat} has {chips} chips", "every seat dealt in needs chips")
        clockwise = sorted(stacks)
        at = next((k for k, s in enumerate(clockwise) if s > button), 0)
        self.seats: tuple[int, ...] = tuple(clockwise[at:] + clockwise[:at])
        self.index_of: dict[int, int] = {s: i for i, s in enumerate(self.seats)}
        self.rules = rules
        self.button = button
        n = len(self.seats)
        self.starting: tuple[int, ...] = tuple(stacks[s] for s in self.seats)
        self.stacks: list[int] = list(self.starting)
        self.bets: list[int] = [0] * n
        self.contributed: list[int] = [0] * n
        self.live: list[bool] = [True] * n
        self.hands: list[list[Card | None]] = [[] for _ in range(n)]
        self.history: list[Step] = []
        if rng is None and seed is not None:
            rng = random.Random(seed)
        if deck is None and rng is not None and seed is not None:
            deck = Deck.shuffled(rng.randrange(2**32))
        self.stub = Stub(None if deck is None else list(deck), rng)
        self.phase = _POSTING
        self.round = 0
        self.draw = 0
        self.deal_count = 0
        self.betting = BettingRound(rules, 0)
        self.draw_order: list[int] = []
        self._declare_pos = 0
        self.owed: list[int] = [0] * n
        self.burn_owed = False
        self.replaced_any = False
        self._show_order: list[int] = []
        self._shown: dict[int, tuple[Card, ...]] = {}
        self._unread: dict[int, int] = {}  # a shown hand's cards the camera did not read, by seat index
        self._deal_total = n * rules.hand_size
        self._sequential = rules.draw_procedure == "sequential"
        # seat numbers that fit the record caches' codes
        self._small_seats = min(self.seats) >= 0 and max(self.seats) < 1024
        self._reserve_cards = 0 if rules.last_card_dealable else 1
        self.pending_posts: list[tuple[int, str, int]] = self._forced_bets()
        if not self.pending_posts:
            self.phase = _DEALING

    # -- setup -------------------------------------------------------------------------------------

    def _forced_bets(self) -> list[tuple[int, str, int]]:
        """Antes for every seat, then the small and big blind (heads-up: the button posts the small)."""
        rules = self.rules
        n = len(self.seats)
        posts: list[tuple[int, str, int]] = []
        if rules.ante:
            posts += [(i, "ante", rules.ante) for i in range(n)]
        sb, bb = (1, 0) if self._big_blind_index() == 0 else (0, 1)
        if rules.small_blind:
            posts.append((sb, "small blind", rules.small_blind))
        posts.append((bb, "big blind", rules.big_blind))
        return posts

    def _big_blind_index(self) -> int:
        """The seat index that posts the big blind: the second left of the button; heads-up the one that is not the
        button, who posts the small blind (house option `heads_up_button_small_blind`)."""
        return 0 if len(self.seats) == 2 and self.rules.heads_up_button_small_blind else 1

    # -- queries -----------------------------------------------------------------------------------

    @property
    def actor(self) -> int | None:
        """The seat whose betting turn it is, or None outside betting."""
        if self.phase is not _BETTING or not self.betting.to_act:
            return None
        return self.seats[self.betting.to_act[0]]

    @property
    def done(self) -> bool:
        return self.phase is _DONE

    @property
    def stub_count(self) -> int:
        return self.stub.count

    @property
    def pot_total(self) -> int:
        """All chips put in so far, bets of the current round included."""
        return sum(self.contributed)

    def stack(self, seat: int) -> int:
        return self.stacks[self.index_of[seat]]

    def stacks_by_seat(self) -> dict[int, int]:
        return {s: self.stacks[i] for i, s in enumerate(self.seats)}

    def contributions(self) -> dict[int, int]:
        return {s: self.contributed[i] for i, s in enumerate(self.seats)}

    def cards(self, seat: int) -> tuple[Card | None, ...]:
        return tuple(self.hands[self.index_of[seat]])

    def in_hand(self) -> tuple[int, ...]:
        """Seats that have not folded, clockwise from the first left of the button."""
        return tuple(s for i, s in enumerate(self.seats) if self.live[i])

    def pots(self) -> tuple[Pot, ...]:
        """Main and side pots of the chips put in so far (uncalled excess left out)."""
        live = [s for i, s in enumerate(self.seats) if self.live[i]]
        return build_pots(self.contributions(), live)[0]

    @property
    def next_post(self) -> tuple[int, str, int] | None:
        """(seat, "ante"/"small blind"/"big blind", amount) due next, or None."""
        if self.phase is not _POSTING:
            return None
        i, kind, amount = self.pending_posts[0]
        return self.seats[i], kind, min(amount, self.stacks[i])

    @property
    def next_card_seat(self) -> int | None:
        """The seat the next dealt or replacement card goes to (None when no card is due)."""
        if self.phase is _DEALING:
            return self.seats[self.deal_count % len(self.seats)]
        if self.phase is _DRAWING:
            i = self._replacement_due()
            return None if i is None else self.seats[i]
        return None

    @property
    def next_discarder(self) -> int | None:
        """The seat due to declare its discards in this draw, or None."""
        if self.phase is not _DRAWING:
            return None
        i = self._declarer_due()
        return None if i is None else self.seats[i]

    def owed_to(self, seat: int) -> int:
        """Replacement cards the seat is still owed in this draw."""
        return self.owed[self.index_of[seat]] if self.phase is _DRAWING else 0

    @property
    def burn_due(self) -> bool:
        """The burn card must come before the next replacement (house option burn_before_draw)."""
        return self.phase is _DRAWING and self.burn_owed and self._replacement_due() is not None

    @property
    def needs_reshuffle(self) -> bool:
        """A card is due and the stub cannot give it (seed 004; house option last_card_dealable)."""
        if self.phase is not _DRAWING or self._replacement_due() is None:
            return False
        return self.stub.count <= self._reserve() and self.stub.pool_size(self.draw) > 0

    @property
    def next_shower(self) -> int | None:
        """The seat due to show (or muck) at showdown, in the house order."""
        if self.phase is not _SHOWDOWN or not self._show_order:
            return None
        return self.seats[self._show_order[0]]

    def options(self) -> Options | None:
        """What the seat to act may do, with exact amounts; None outside betting."""
        if self.phase is not _BETTING or not self.betting.to_act:
            return None
        i = self.betting.to_act[0]
        bets, stacks = self.bets, self.stacks
        top = max(bets)
        owed = top - bets[i]
        why = self.betting.why_no_raise(i, bets, stacks, self.live, self._collected())
        low = high = None
        kind = None
        if why is None:
            low, high = self.betting.raise_bounds(i, bets, stacks, self._collected())
            kind = "raise" if top > 0 else "bet"
        return Options(
            seat=self.seats[i],
            can_fold=True,
            can_check=owed == 0,
            call=min(owed, stacks[i]) if owed > 0 else None,
            raise_kind=kind,
            min_to=low,
            max_to=high,
            why_no_raise=None if why is None else _split_rule(why)[0],
        )

    def legal_actions(self) -> Options | None:
        """Same as `options()`: the betting actions open to the seat to act, with exact amounts."""
        return self.options()

    def snapshot(self) -> tuple[object, ...]:
        """Everything that can change, as a comparable value (for tests: an illegal step changes nothing)."""
        return (
            self.phase, self.round, self.draw, self.deal_count, tuple(self.stacks), tuple(self.bets),
            tuple(self.contributed), tuple(self.live), tuple(tuple(h) for h in self.hands), len(self.history),
            self.betting.snapshot(), tuple(self.draw_order), self._declare_pos, tuple(self.owed),
            self.burn_owed, self.replaced_any, tuple(self._show_order), tuple(sorted(self._shown.items())),
            tuple(sorted(self._unread.items())),
            tuple(self.pending_posts), self.stub.snapshot(),
        )

    # -- helpers -----------------------------------------------------------------------------------

    def _collected(self) -> int:
        return sum(self.contributed) - sum(self.bets)

    def _index(self, seat: int, what: str) -> int:
        i = self.index_of.get(seat)
        if i is None:
            raise IllegalStep(f"{what} by seat {seat}", f"seat {seat} is not dealt in this hand")
        return i

    def _reserve(self) -> int:
        """Stub cards that may not be dealt: the last one unless house option last_card_dealable."""
        return self._reserve_cards

    def _record(self, step: Step) -> Step:
        self.history.append(step)
        return step

    # -- posting -----------------------------------------------------------------------------------

    def verify_post(self, seat: int | None = None) -> int:
        if self.phase is not _POSTING:
            raise IllegalStep("a forced bet now", "antes and blinds are posted before the deal")
        i, kind, _ = self.pending_posts[0]
        if seat is not None and seat != self.seats[i]:
            rule = "antes first, then the small blind left of the button, then the big blind"
            option = "heads_up_button_small_blind" if len(self.seats) == 2 else None
            raise IllegalStep(f"seat {seat} posting", f"the {kind} of seat {self.seats[i]} is due: {rule}", option)
        return i

    def can_post(self, seat: int | None = None) -> bool:
        try:
            self.verify_post(seat)
        except IllegalStep:
            return False
        return True

    def post(self, seat: int | None = None) -> Posted:
        """Post the next due ante or blind (short if the stack is short)."""
        i = self.verify_post(seat)
        _, kind, amount = self.pending_posts.pop(0)
        amount = min(amount, self.stacks[i])
        self.stacks[i] -= amount
        self.contributed[i] += amount
        if kind != "ante":
            self.bets[i] += amount
        if not self.pending_posts:
            self.phase = _DEALING
        step = make_posted(self.seats[i], kind, amount)
        self.history.append(step)
        return step

    def post_all(self) -> None:
        while self.phase is _POSTING:
            self.post()

    # -- dealing -----------------------------------------------------------------------------------

    def _check_card(self, card: Card | None, what: str | Callable[[], str]) -> None:
        if card is None or self.stub.dealable(card):
            return
        if not isinstance(what, str):
            what = what()
        w = self.stub.locate(card)
        place = "already used this hand" if w == USED else (
            f"in seat {self.seats[w]}'s hand" if w >= 0 else "not in the stub")
        raise IllegalStep(what, f"card {card} is {place}; a card can be in one place only")

    def verify_deal_card(self, seat: int | None = None, card: Card | None = None) -> int:
        if self.phase is not _DEALING:
            raise IllegalStep("a card dealt now", f"the deal is over or has not started (phase {self.phase})")
        i = self.deal_count % len(self.seats)
        if seat is not None and seat != self.seats[i]:
            raise IllegalStep(
                f"a card dealt to seat {seat}",
                f"the next card goes to seat {self.seats[i]}: one card at a time, clockwise from the first "
                "seat left of the button (misdeal)",
            )
        if self.stub.count <= 0:
            raise IllegalStep("a card dealt", "the stub is empty")
        if card is not None and not self.stub.dealable(card):
            self._check_card(card, f"card {card} dealt to seat {self.seats[i]}")
        return i

    def can_deal_card(self, seat: int | None = None, card: Card | None = None) -> bool:
        try:
            self.verify_deal_card(seat, card)
        except IllegalStep:
            return False
        return True

    def deal_card(self, seat: int | None = None, card: Card | None = None) -> Dealt:
        """Deal one card of the initial deal to the seat due; None = face down (or the top card)."""
        stub = self.stub
        i = self.deal_count % len(self.seats)
        legal = self.phase is _DEALING and stub.count > 0 and (seat is None or seat == self.seats[i])
        key = -1
        if legal and card is not None:
            found = key_of_id(id(card))
            key = card_key(card) if found is None else found
            w = stub.where[key]
            legal = w == STUB or (w == UNSEEN and stub.known is None)
        if not legal:  # verify_deal_card names the rule (the checks above are its common case)
            i = self.verify_deal_card(seat, card)
        if stub.known is None and card is not None:  # the camera's case: the card is given, the stub unseen
            stub.count -= 1
            got: Card | None = card
        else:
            got = stub.take(card)
        if got is not None:
            if key < 0 or got is not card:
                key = card_key(got)
            stub.where[key] = i
        self.hands[i].append(got)
        self.deal_count += 1
        seat_no = self.seats[i]
        if self._small_seats:
            code = seat_no * 64 + (key if got is not None else 52)
            step: Dealt = _DEALT_RECORDS.get(code) or DEALT_CACHE.get(code, seat_no, got)
        else:
            step = make_dealt(seat_no, got)
        self.history.append(step)
        if self.deal_count == self._deal_total:
            self._start_betting(0)
        return step

    def deal_all(self) -> None:
        while self.phase is _DEALING:
            self.deal_card()

    # -- betting -----------------------------------------------------------------------------------

    def _start_betting(self, round_index: int) -> None:
        self.round = round_index
        self.betting = BettingRound(self.rules, round_index)
        self.phase = _BETTING
        self.betting.start(self.bets, self.stacks, self.live, self._big_blind_index())
        if not self.betting.to_act:
            self._end_betting()

    def _end_betting(self) -> None:
        self.bets = [0] * len(self.seats)
        if sum(self.live) <= 1:
            self.phase = _AWARDING
        elif self.round < self.rules.draws:
            self._start_draw(self.round + 1)
        else:
            self._start_showdown()

    def _after_action(self) -> None:
        if not self.betting.to_act or self.live.count(True) <= 1:
            self._end_betting()

    def _verify_turn(self, seat: int | None, what: str) -> int:
        if self.phase is not _BETTING or not self.betting.to_act:
            raise IllegalStep(f"{what} now", f"no betting round is under way (phase {self.phase})")
        i = self.betting.to_act[0]
        if seat is not None and seat != self.seats[i]:
            if seat not in self.index_of:
                raise IllegalStep(f"{what} by seat {seat}", f"seat {seat} is not dealt in this hand")
            raise IllegalStep(
                f"{what} by seat {seat}",
                f"action out of turn: seat {self.seats[i]} is to act (clockwise; pre-draw left of the big "
                "blind, after a draw left of the button)",
                "heads_up_button_small_blind" if len(self.seats) == 2 else None,
            )
        return i

    def verify_fold(self, seat: int | None = None) -> int:
        return self._verify_turn(seat, "a fold")

    def can_fold(self, seat: int | None = None) -> bool:
        try:
            self.verify_fold(seat)
        except IllegalStep:
            return False
        return True

    def fold(self, seat: int | None = None) -> Folded:
        i = self.verify_fold(seat)
        self.live[i] = False
        cards = self.hands[i]
        self.hands[i] = []
        self.stub.discard(cards, self.round)
        self.betting.on_fold(i)
        step = make_folded(self.round, self.seats[i])
        self.history.append(step)
        if not self.betting.to_act or self.live.count(True) <= 1:
            self._end_betting()
        return step

    def verify_check(self, seat: int | None = None) -> int:
        i = self._verify_turn(seat, "a check")
        owed = max(self.bets) - self.bets[i]
        if owed:
            raise IllegalStep(f"a check by seat {self.seats[i]}", f"there is a bet to call ({owed} more chips)")
        return i

    def can_check(self, seat: int | None = None) -> bool:
        try:
            self.verify_check(seat)
        except IllegalStep:
            return False
        return True

    def check(self, seat: int | None = None) -> Checked:
        betting = self.betting
        to_act = betting.to_act
        bets = self.bets
        # The common legal case inline (verify_check's conditions; it names the rule when one fails).
        if self.phase is _BETTING and to_act and (seat is None or seat == self.seats[to_act[0]]) and (
            bets[to_act[0]] >= max(bets)
        ):
            i = to_act[0]
        else:
            i = self.verify_check(seat)
        betting.on_call(i, bets[i])
        seat_no = self.seats[i]
        rnd = self.round
        step: Checked = (
            (_CHECKED_RECORDS.get(seat_no * 8 + rnd) or CHECKED_CACHE.get(seat_no * 8 + rnd, rnd, seat_no))
            if self._small_seats else make_checked(rnd, seat_no)
        )
        self.history.append(step)
        if not to_act or self.live.count(True) <= 1:
            self._end_betting()
        return step

    def verify_call(self, seat: int | None = None) -> int:
        i = self._verify_turn(seat, "a call")
        if max(self.bets) <= self.bets[i]:
            raise IllegalStep(f"a call by seat {self.seats[i]}", "there is no bet to call; check or bet")
        return i

    def can_call(self, seat: int | None = None) -> bool:
        try:
            self.verify_call(seat)
        except IllegalStep:
            return False
        return True

    def call(self, seat: int | None = None) -> Called:
        betting = self.betting
        to_act = betting.to_act
        bets = self.bets
        top = max(bets)
        # The common legal case inline (verify_call's conditions; it names the rule when one fails).
        if self.phase is _BETTING and to_act and (seat is None or seat == self.seats[to_act[0]]) and (
            top > bets[to_act[0]]
        ):
            i = to_act[0]
        else:
            i = self.verify_call(seat)
        stacks = self.stacks
        amount = top - bets[i]
        if amount > stacks[i]:
            amount = stacks[i]
        bets[i] += amount
        stacks[i] -= amount
        self.contributed[i] += amount
        betting.on_call(i, top)
        seat_no = self.seats[i]
        all_in = stacks[i] == 0
        rnd = self.round
        code = ((amount * 2 + all_in) * 1024 + seat_no) * 8 + rnd
        step: Called = (
            (_CALLED_RECORDS.get(code) or CALLED_CACHE.get(code, rnd, seat_no, amount, all_in))
            if self._small_seats else make_called(rnd, seat_no, amount, all_in)
        )
        self.history.append(step)
        if not to_act or self.live.count(True) <= 1:
            self._end_betting()
        return step

    def _verify_wager(self, amount: int, seat: int | None, bet: bool) -> int:
        word = "bet" if bet else "raise"
        if self.phase is not _BETTING or not self.betting.to_act:
            i = self._verify_turn(seat, f"a {word} to {amount}")
        i = self.betting.to_act[0]
        if seat is not None and seat != self.seats[i]:
            self._verify_turn(seat, f"a {word} to {amount}")
        bets = self.bets
        top = max(bets)
        if bet and top > 0:
            raise IllegalStep(self._wager_what(word, amount, i), f"there is already a bet of {top} this round; "
                              "raise instead")
        if not bet and top == 0:
            raise IllegalStep(self._wager_what(word, amount, i), "there is no bet to raise this round; bet instead")
        collected = self._collected() if self.rules.betting == "pot_limit" else 0  # only pot limit sizes by the pot
        why = self.betting.why_no_raise(i, bets, self.stacks, self.live, collected)
        if why is not None:
            rule, option = _split_rule(why)
            raise IllegalStep(self._wager_what(word, amount, i), rule, option)
        low, high = self.betting.raise_bounds(i, bets, self.stacks, collected)
        if not low <= amount <= high:
            raise IllegalStep(self._wager_what(word, amount, i), self._size_rule(low, high, bet))
        unit = self.rules.chip_unit
        if unit != 1 and amount % unit and amount != self.stacks[i] + bets[i]:
            raise IllegalStep(self._wager_what(word, amount, i),
                              f"wagers are in units of the table's smallest chip ({unit})", "chip_unit")
        return i

    def _wager_what(self, word: str, amount: int, i: int) -> str:
        return f"a {word} to {amount} by seat {self.seats[i]}"

    def _size_rule(self, low: int, high: int, bet: bool) -> str:
        betting = self.rules.betting
        word = "bet" if bet else "raise"
        if betting == "fixed_limit":
            return (f"fixed limit: the {word} is to exactly {low} (small bet {self.rules.small_bet} for the first "
                    f"two rounds, big bet {self.rules.big_bet} after; 001, 004)")
        if betting == "pot_limit":
            return (f"pot limit: the {word} is to {low} to {high} (at least the big blind or the previous bet or "
                    "raise; at most the pot plus all bets plus the call; 003, 004)")
        return (f"no limit: the {word} is to {low} to {high} (at least the big blind or the previous bet or raise; "
                "all-in for less allowed; 004)")

    def verify_bet(self, amount: int, seat: int | None = None) -> int:
        return self._verify_wager(amount, seat, True)

    def can_bet(self, amount: int, seat: int | None = None) -> bool:
        try:
            self.verify_bet(amount, seat)
        except IllegalStep:
            return False
        return True

    def bet(self, amount: int, seat: int | None = None) -> BetTo:
        """The first bet of a round, to a total of `amount`."""
        i = self.verify_bet(amount, seat)
        self._wager(i, amount)
        step = make_bet(self.round, self.seats[i], amount, self.stacks[i] == 0)
        self.history.append(step)
        if not self.betting.to_act or self.live.count(True) <= 1:
            self._end_betting()
        return step

    def verify_raise_to(self, amount: int, seat: int | None = None) -> int:
        return self._verify_wager(amount, seat, False)

    def can_raise_to(self, amount: int, seat: int | None = None) -> bool:
        try:
            self.verify_raise_to(amount, seat)
        except IllegalStep:
            return False
        return True

    def raise_to(self, amount: int, seat: int | None = None) -> RaisedTo:
        """Raise to a total bet of `amount` this round (all-in for less allowed)."""
        i = self.verify_raise_to(amount, seat)
        full = self._wager(i, amount)
        step = make_raised(self.round, self.seats[i], amount, self.stacks[i] == 0, full)
        self.history.append(step)
        if not self.betting.to_act or self.live.count(True) <= 1:
            self._end_betting()
        return step

    def _wager(self, i: int, amount: int) -> bool:
        top = max(self.bets)
        delta = amount - self.bets[i]
        self.bets[i] = amount
        self.stacks[i] -= delta
        self.contributed[i] += delta
        return self.betting.on_raise(i, amount, top, self.bets, self.stacks, self.live)

    # -- drawing -----------------------------------------------------------------------------------

    def _start_draw(self, draw: int) -> None:
        self.phase = _DRAWING
        self.draw = draw
        self.draw_order = [i for i in range(len(self.seats)) if self.live[i]]
        self._declare_pos = 0
        self.owed = [0] * len(self.seats)
        self.burn_owed = self.rules.burn_before_draw
        self.replaced_any = False

    def _declarer_due(self) -> int | None:
        pos = self._declare_pos
        if pos >= len(self.draw_order) or (self._sequential and any(self.owed)):
            return None
        return self.draw_order[pos]

    def _replacement_due(self) -> int | None:
        owed = self.owed
        if self.rules.draw_procedure == "discard_then_replace" and self._declare_pos < len(self.draw_order):
            return None
        for i in self.draw_order:
            if owed[i]:
                return i
        return None

    def _finish_draw_if_done(self) -> None:
        if self._declare_pos >= len(self.draw_order) and not any(self.owed):
            self._start_betting(self.draw)

    def supply(self) -> int:
        """Cards this draw can still give: the stub and what a reshuffle would add, less the reserve."""
        stub = self.stub
        return max(0, stub.count + len(stub.burns) + sum(stub.used_by_round[: self.draw]) - self._reserve_cards)

    def verify_discard(
        self, seat: int | None, cards: int | Sequence[Card | None]
    ) -> tuple[int, int, list[int], list[int]]:
        """The seat index, the count, which positions of its hand go and the keys of the faces given."""
        if self.phase is not _DRAWING:
            raise IllegalStep(f"{_discard_what(seat)} now", f"no draw is under way (phase {self.phase})")
        i = self._declarer_due()
        if i is None:
            raise IllegalStep(
                f"{_discard_what(seat)} now",
                "every seat has declared, or the replacements of the seat before are due first",
                "draw_procedure",
            )
        if seat is not None and seat != self.seats[i]:
            self._index(seat, _discard_what(seat))
            raise IllegalStep(
                _discard_what(seat),
                f"draw out of order: seat {self.seats[i]} declares next (clockwise from the first seat left of "
                "the button)",
                "draw_procedure",
            )
        hand = self.hands[i]
        count = cards if isinstance(cards, int) else len(cards)
        if not 0 <= count <= len(hand):
            raise IllegalStep(_discard_what(seat), f"a seat discards 0 to {len(hand)} cards, not {count}")
        picks: list[int] = []
        keys: list[int] = []
        if count and not isinstance(cards, int):
            picks, keys = self._discard_positions(i, cards)
        if count:
            need = sum(self.owed) + count + (1 if self.burn_owed and not self.replaced_any else 0)
            supply = self.supply()
            if need > supply:
                raise IllegalStep(
                    _discard_what(seat),
                    f"the stub and a reshuffle can give only {supply} more cards this draw (burns and earlier "
                    "rounds' discards are reshuffled, this round's are not; 004)",
                    "last_card_dealable",
                )
        return i, count, picks, keys

    def _discard_positions(self, i: int, cards: Sequence[Card | None]) -> tuple[list[int], list[int]]:
        """Positions in seat i's hand of the discarded cards (an unseen slot takes a face it never
        showed), and the keys of the faces given."""
        hand = self.hands[i]
        where = self.stub.where
        picks: list[int] = []
        keys: list[int] = []
        size = len(hand)
        for c in cards:
            k = -1
            if c is not None:
                key = card_key(c)
                keys.append(key)
                w = where[key]
                if w == i:
                    for k in range(size):
                        if hand[k] is c:
                            break
                    else:
                        k = next((k for k in range(size) if hand[k] == c), -1)
                elif w in (UNSEEN, STUB) and self.stub.known is None:
                    k = next((k for k in range(size) if hand[k] is None and k not in picks), -1)
                if k < 0:
                    raise IllegalStep(_discard_what(self.seats[i]), f"card {c} is not in seat {self.seats[i]}'s hand")
            else:
                k = next((k for k in range(size) if hand[k] is None and k not in picks), -1)
                if k < 0:  # a face-down discard from a hand whose cards are known: the last card not yet taken
                    k = max(k for k in range(size) if k not in picks)
            if k in picks:
                raise IllegalStep(_discard_what(self.seats[i]), f"card {c} is discarded twice")
            picks.append(k)
        return picks, keys

    def _known_discard(
        self, seat: int | None, cards: Sequence[Card | None]
    ) -> tuple[int, int, list[int], list[int]] | None:
        """`verify_discard`'s result in its common legal case (the seat due discards faces it holds, the
        stub can cover the draw); None when anything differs, and verify_discard decides."""
        i = self._declarer_due()
        if i is None or (seat is not None and seat != self.seats[i]):
            return None
        hand = self.hands[i]
        where = self.stub.where
        size = len(hand)
        picks: list[int] = []
        keys: list[int] = []
        for c in cards:
            key = key_of_id(id(c))
            if key is None or where[key] != i:
                return None
            for k in range(size):
                if hand[k] is c:
                    break
            else:
                return None
            if k in picks:
                return None
            picks.append(k)
            keys.append(key)
        count = len(picks)
        stub = self.stub
        supply = stub.count + len(stub.burns) + sum(stub.used_by_round[: self.draw]) - self._reserve_cards  # supply()
        if sum(self.owed) + count + (1 if self.burn_owed and not self.replaced_any else 0) > supply:
            return None
        return i, count, picks, keys

    def can_discard(self, seat: int | None, cards: int | Sequence[Card | None]) -> bool:
        try:
            self.verify_discard(seat, cards)
        except IllegalStep:
            return False
        return True

    def discard(self, seat: int | None, cards: int | Sequence[Card | None]) -> Discarded:
        """Declare a draw: a count (faces unseen) or the cards; 0 or () stands pat.

        A count with a known deck (simulation) discards the last cards held.
        """
        if not cards and self.phase is _DRAWING:  # standing pat: only the turn needs checking
            due = self._declarer_due()
            if due is not None and (seat is None or seat == self.seats[due]):
                self._declare_pos += 1
                step = make_discarded(self.draw, self.seats[due], 0, ())
                self.history.append(step)
                if self._declare_pos >= len(self.draw_order) and not any(self.owed):
                    self._start_betting(self.draw)
                return step
        fast = self._known_discard(seat, cards) if self.phase is _DRAWING and not isinstance(cards, int) else None
        i, count, picks, keys = self.verify_discard(seat, cards) if fast is None else fast
        hand = self.hands[i]
        stub = self.stub
        draw = self.draw
        if isinstance(cards, int):
            out: list[Card | None] = [None] * count
            if stub.known is not None:
                # A known deck: the cards are known, so a count means the last `count` cards held.
                out = hand[len(hand) - count :]
                del hand[len(hand) - count :]
            elif count <= hand.count(None):
                for _ in range(count):
                    hand.remove(None)
            else:
                # Which known cards went is unseen: the rest of the hand becomes unknown too.
                for c in hand:
                    if c is not None:
                        stub.place(c, UNSEEN)
                hand[:] = [None] * (len(hand) - count)
            faces = tuple(out)
            if count:
                stub.discard(out, draw)
        else:
            faces = tuple(cards)
            if count:
                for k in sorted(picks, reverse=True):
                    del hand[k]
                stub.discard_known(faces, keys, draw)
        self.owed[i] = count
        self._declare_pos += 1
        step = make_discarded(draw, self.seats[i], count, faces)
        self.history.append(step)
        if self._declare_pos >= len(self.draw_order) and not any(self.owed):
            self._start_betting(draw)
        return step

    def verify_burn(self, card: Card | None = None) -> None:
        if self.phase is not _DRAWING:
            raise IllegalStep("a burn now", f"cards are burned only in a draw (phase {self.phase})",
                              "burn_before_draw")
        if not self.burn_owed:
            why = "this draw's burn card is already out" if self.rules.burn_before_draw else "no burn at this table"
            raise IllegalStep("a burn now", why, "burn_before_draw")
        if self.replaced_any:
            raise IllegalStep("a burn now", "the burn comes before the first replacement", "burn_before_draw")
        if self.stub.count <= 0:
            raise IllegalStep("a burn now", "the stub is empty; reshuffle first (004)", "last_card_dealable")
        self._check_card(card, lambda: f"burning {card}")

    def can_burn(self, card: Card | None = None) -> bool:
        try:
            self.verify_burn(card)
        except IllegalStep:
            return False
        return True

    def burn(self, card: Card | None = None) -> Burned:
        self.verify_burn(card)
        got = self.stub.take(card)
        self.stub.burn(got)
        self.burn_owed = False
        step = make_burned(self.draw, got)
        self.history.append(step)
        return step

    def verify_reshuffle(self) -> None:
        if self.phase is not _DRAWING:
            raise IllegalStep("a reshuffle now", f"the stub is reshuffled only in a draw (phase {self.phase})")
        if self.stub.count > self._reserve() and not (self.burn_owed and self.stub.count == 0):
            raise IllegalStep(
                "a reshuffle now",
                f"the stub still has {self.stub.count} dealable cards; reshuffle only when it cannot complete the "
                "draw (004)",
                "last_card_dealable",
            )
        if self.stub.pool_size(self.draw) == 0:
            raise IllegalStep("a reshuffle now", "no burn cards or earlier discards to reshuffle (004)")

    def can_reshuffle(self) -> bool:
        try:
            self.verify_reshuffle()
        except IllegalStep:
            return False
        return True

    def reshuffle(self) -> Reshuffled:
        """Burns and earlier rounds' discards and folded hands become the new stub (004)."""
        self.verify_reshuffle()
        last = self.stub.count > 0
        count = self.stub.reshuffle(self.draw)
        return self._record(Reshuffled(self.draw, count, last))  # type: ignore[return-value]

    def verify_replace(self, seat: int | None = None, card: Card | None = None) -> int:
        if self.phase is _DRAWING and not self.burn_owed:  # the common case, checked fast
            i = self._replacement_due()
            if (
                i is not None
                and (seat is None or seat == self.seats[i])
                and self.stub.count > self._reserve()
                and (card is None or self.stub.dealable(card))
            ):
                return i
        what = "a replacement card" + ("" if seat is None else f" to seat {seat}")
        if self.phase is not _DRAWING:
            raise IllegalStep(f"{what} now", f"no draw is under way (phase {self.phase})")
        i = self._replacement_due()
        if i is None:
            if self.rules.draw_procedure == "discard_then_replace" and any(self.owed):
                raise IllegalStep(f"{what} now", "every seat declares before the dealer replaces (004)",
                                  "draw_procedure")
            raise IllegalStep(f"{what} now", "no seat is owed a replacement now", "draw_procedure")
        if seat is not None and seat != self.seats[i]:
            self._index(seat, what)
            raise IllegalStep(
                what,
                f"replacements out of order: seat {self.seats[i]} is owed {self.owed[i]} first (clockwise from "
                "the button)",
                "draw_procedure",
            )
        if self.burn_owed:
            raise IllegalStep(what, "one card is burned before the draw's first replacement (003)",
                              "burn_before_draw")
        if self.stub.count <= self._reserve():
            raise IllegalStep(what, "the stub cannot give this card; reshuffle first (004)", "last_card_dealable")
        if card is not None and self.stub.locate(card) == USED:
            raise IllegalStep(what, f"card {card} was already used this hand; a discard never comes back in the "
                              "same draw round, and earlier ones only through a reshuffle (004)")
        self._check_card(card, what)
        return i

    def can_replace(self, seat: int | None = None, card: Card | None = None) -> bool:
        try:
            self.verify_replace(seat, card)
        except IllegalStep:
            return False
        return True

    def replace(self, seat: int | None = None, card: Card | None = None) -> Replaced:
        """Give the seat due one replacement card (None: face down, or the top card of a known stub)."""
        # The common legal case is checked inline (the same conditions as verify_replace, which gives
        # the reason when any fails): a seat owed a card, no burn due, the stub can give the card.
        stub = self.stub
        owed = self.owed
        i = -1
        key = -1
        if self.phase is _DRAWING and not self.burn_owed and stub.count > self._reserve_cards and (
            self._sequential or self._declare_pos >= len(self.draw_order)
        ):
            for j in self.draw_order:
                if owed[j]:
                    i = j
                    break
            if i >= 0 and seat is not None and seat != self.seats[i]:
                i = -1
            if i >= 0 and card is not None:
                found = key_of_id(id(card))
                key = card_key(card) if found is None else found
                w = stub.where[key]
                if not (w == STUB or (w == UNSEEN and stub.known is None)):
                    i = -1
        if i < 0:
            i = self.verify_replace(seat, card)
        if stub.known is None and card is not None:
            stub.count -= 1
            got: Card | None = card
        else:
            got = stub.take(card)
        if got is not None:
            if key < 0 or got is not card:
                key = card_key(got)
            stub.where[key] = i
        self.hands[i].append(got)
        owed[i] -= 1
        self.replaced_any = True
        seat_no = self.seats[i]
        draw = self.draw
        if self._small_seats:
            code = (seat_no * 64 + (key if got is not None else 52)) * 8 + draw
            step: Replaced = _REPLACED_RECORDS.get(code) or REPLACED_CACHE.get(code, draw, seat_no, got)
        else:
            step = make_replaced(draw, seat_no, got)
        self.history.append(step)
        if self._declare_pos >= len(self.draw_order) and not any(owed):
            self._start_betting(self.draw)
        return step

    # -- showdown ----------------------------------------------------------------------------------

    def _start_showdown(self) -> None:
        self.phase = _SHOWDOWN
        n = len(self.seats)
        first = self.betting.last_aggressor if self.betting.round == self.rules.draws else None
        if first is None or not self.live[first]:
            first = 0
        self._show_order = [j for j in ((first + k) % n for k in range(n)) if self.live[j]]
        self._shown = {}
        self._unread = {}

    def _verify_shower(self, seat: int | None, what: str) -> int:
        if self.phase is not _SHOWDOWN or not self._show_order:
            raise IllegalStep(f"{what} now", f"no showdown is under way (phase {self.phase})")
        i = self._show_order[0]
        if seat is not None and seat != self.seats[i]:
            self._index(seat, what)
            raise IllegalStep(
                f"{what} by seat {seat}",
                f"show out of order: seat {self.seats[i]} shows first (the last aggressor of the final round, "
                "else the first seat left of the button; then clockwise; 001, 004)",
            )
        return i

    def verify_show(self, seat: int | None, cards: Sequence[Card], unread: int = 0) -> int:
        """The seat index of a legal show; `unread` of its cards face up but not read (a camera's show)."""
        i = self._verify_shower(seat, "a show")
        size = self.rules.hand_size
        keys: list[int] = []
        for c in cards:
            found = key_of_id(id(c))
            keys.append(card_key(c) if found is None else found)
        if unread < 0 or len(keys) + unread != size or len(set(keys)) != len(keys):
            more = f" and {unread} unread" if unread else ""
            raise IllegalStep(f"seat {self.seats[i]} showing",
                              f"a {self.rules.game} hand is {size} different cards, not {len(cards)}{more}")
        where = self.stub.where
        hand = self.hands[i]
        dealt = len(hand) - hand.count(None)
        if sum(1 for k in keys if where[k] == i) != dealt:
            missing = next((c for c in hand if c is not None and card_key(c) not in keys), None)
            # (none missing: a card dealt here is also recorded in another place, a stray read of the same card)
            raise IllegalStep(f"seat {self.seats[i]} showing",
                              f"card {missing} was dealt to this seat and is not among the cards shown"
                              if missing is not None else f"the cards shown are not the {dealt} cards this seat holds")
        for k in keys:
            w = where[k]
            if not (w in (i, STUB) or (w == UNSEEN and self.stub.known is None)):
                place = f"seat {self.seats[w]}'s hand" if w >= 0 else "the muck or the stub"
                raise IllegalStep(f"seat {self.seats[i]} showing",
                                  f"card {card_from_index(k)} is in {place}; a card can be in one place only")
        return i

    def can_show(self, seat: int | None, cards: Sequence[Card]) -> bool:
        try:
            self.verify_show(seat, cards)
        except IllegalStep:
            return False
        return True

    def show(self, seat: int | None = None, cards: Sequence[Card] | None = None, *, unread: int = 0) -> Shown:
        """Turn a hand face up (cards speak); with a known deck `cards` may be left out. `unread`: how many of the
        hand's cards were face up but not read (a camera's show); the award then bounds them (award_pots)."""
        if cards is None:
            i0 = self._verify_shower(seat, "a show")
            known = [c for c in self.hands[i0] if c is not None]
            if len(known) != self.rules.hand_size:
                raise IllegalStep(f"seat {self.seats[i0]} showing", "the cards shown must be given")
            cards = known
        elif unread:
            # A card of this hand seen before (exposed in the deal) is one of the unread ones: it is known.
            i0 = self._verify_shower(seat, "a show")
            read = {card_key(c) for c in cards}
            seen = [c for c in self.hands[i0] if c is not None and card_key(c) not in read]
            cards, unread = (*cards, *seen), unread - len(seen)
        i = self.verify_show(seat, cards, unread)
        shown = tuple(cards)
        hand = self.hands[i]
        if None in hand or len(hand) != len(shown):  # faces seen for the first time: record where they are
            for c in hand:
                if c is not None:
                    self.stub.place(c, UNSEEN)
            for c in shown:
                self.stub.place(c, i)
        # (a fully known hand shows exactly its cards: verify_show checked it, `where` is already right)
        self.hands[i] = [*shown, *[None] * unread]
        self._shown[i] = shown
        if unread:
            self._unread[i] = unread
        del self._show_order[0]
        step = make_shown(self.seats[i], shown, unread)
        self.history.append(step)
        self._after_show()
        return step

    def verify_muck(self, seat: int | None = None, *, out_of_turn: bool = False) -> int:
        """The seat index of a legal muck. `out_of_turn`: a seat still to show gives up its hand before its turn
        (a player may always concede; it is then dead, and a last hand in wins without showing)."""
        if out_of_turn and seat is not None and self.phase is _SHOWDOWN and self._show_order:
            i = self._index(seat, "a muck")
            if i not in self._show_order:
                raise IllegalStep(f"a muck by seat {seat}", "only a seat still to show at the showdown can muck")
        else:
            i = self._verify_shower(seat, "a muck")
        if not self._shown and len(self._show_order) == 1:
            raise IllegalStep(f"a muck by seat {self.seats[i]}", "the last hand in wins the pot; nothing to muck to")
        contrib = self.contributed
        second = sorted(contrib)[-2]
        level = min(contrib[i], second)  # what seat i has in play once an uncalled excess is returned
        contenders = (set(self._show_order) - {i}) | set(self._shown)
        if not any(contrib[j] >= level for j in contenders):
            raise IllegalStep(
                f"a muck by seat {self.seats[i]}",
                "no other hand still in contests this seat's top side pot: the last hand in a pot wins it "
                "without a showdown, so it cannot be mucked",
            )
        return i

    def can_muck(self, seat: int | None = None, *, out_of_turn: bool = False) -> bool:
        try:
            self.verify_muck(seat, out_of_turn=out_of_turn)
        except IllegalStep:
            return False
        return True

    def muck(self, seat: int | None = None, *, out_of_turn: bool = False) -> Mucked:
        """The seat due to show gives up its hand (with `out_of_turn`, any seat still to show: see verify_muck)."""
        i = self.verify_muck(seat, out_of_turn=out_of_turn)
        self.live[i] = False
        cards = self.hands[i]
        self.hands[i] = []
        self.stub.discard(cards, self.draw + 1)
        self._show_order.remove(i)
        step = Mucked(self.seats[i])
        self.history.append(step)
        self._after_show()
        return step

    def _after_show(self) -> None:
        if not self._show_order or (not self._shown and len(self._show_order) == 1):
            self.phase = _AWARDING

    # -- award -------------------------------------------------------------------------------------

    def verify_award(self) -> None:
        if self.phase is not _AWARDING:
            raise IllegalStep("an award now", f"pots are awarded after the showdown (phase {self.phase})")

    def can_award(self) -> bool:
        return self.phase is _AWARDING

    def award(self) -> Awarded:
        """Award every pot (award_pots); uncontested when one seat is left: it wins without showing. Raises
        AwardUndetermined (nothing changes) when a hand shown with unread cards could win or tie for a pot."""
        self.verify_award()
        contributions = self.contributions()
        rules = self.rules
        contenders = [i for i in range(len(self.seats)) if self.live[i]]
        uncontested = len(contenders) == 1 and contenders[0] not in self._shown
        if uncontested:
            result = _uncontested(self.seats[contenders[0]], contributions)
        else:
            hands: dict[int, Sequence[Card] | None] = {
                s: (self._shown.get(i) if self.live[i] else None) for i, s in enumerate(self.seats)
            }
            result = award_pots(
                game=rules.game,
                contributions=contributions,
                hands=hands,
                button=self.button,
                seat_order=sorted(self.seats),
                chip_unit=rules.chip_unit,
                odd_chip_rule=rules.odd_chip_rule,
                unread={self.seats[i]: n for i, n in self._unread.items()},
            )
        for seat, amount in result.totals.items():
            self.stacks[self.index_of[seat]] += amount
        self.phase = _DONE
        return self._record(Awarded(result, uncontested))  # type: ignore[return-value]


def _uncontested(winner: int, contributions: Mapping[int, int]) -> Award:
    """Every pot to the one seat left in: it wins without showing (HOUSE_RULES "Betting")."""
    pots, returned = build_pots(contributions, [winner])
    awards: list[PotAward] = []
    for index, pot in enumerate(pots):
        name = pot_name(index)
        reason = "every other seat folded or mucked; wins without showing"
        share = Share(winner, pot.amount, "whole", None, 0, reason)
        sentence = f"Seat {winner} wins the {name}, {pot.amount} chips, uncontested: every other seat folded or mucked."
        awards.append(PotAward(index, name, pot.amount, pot.eligible, (share,), (sentence,)))
    totals = {seat: returned.get(seat, 0) for seat in contributions}
    totals[winner] = totals.get(winner, 0) + sum(p.amount for p in pots)
    return Award(tuple(awards), dict(returned), totals)
