"""Scripted event + action streams: the referee's prompts, flags and awards, for clean hands and every flag kind."""

from __future__ import annotations

import functools
from collections.abc import Callable

import pytest
from referee_script import Script

from dealer_assist.audit.flags import make_flag
from dealer_assist.audit.outputs import AwardMade, Correction, KeyMoment
from dealer_assist.audit.records import DealerAction, Flag, FlagKind, LegalAction, Severity
from dealer_assist.audit.referee import HandRecord, Referee
from dealer_assist.audit.report import hand_to_dict, report_text
from dealer_assist.audit.sink import RecordingSink
from dealer_assist.audit.table import TableConfig
from dealer_assist.cards import parse_cards
from dealer_assist.rules.awards import award_sentences
from dealer_assist.rules.house_rules import HouseRules
from dealer_assist.vision.events import CardExposed, CardsShown

LIMIT = HouseRules.preset("badugi-limit")
ORDER = (1, 2, 3)          # button at seat 3: seat 1 small blind, seat 2 big blind, seat 3 first to act


def table(rules: HouseRules = LIMIT, seats: int = 3, button: int = 3, chips: int = 100) -> TableConfig:
    return TableConfig.make(rules, dict.fromkeys(range(1, seats + 1), chips), button=button)


def run(script: Script, config: TableConfig | None = None) -> Referee:
    referee = Referee(config or table(), RecordingSink())
    referee.feed_all(script.items)
    return referee


def kinds(referee: Referee) -> list[tuple[str, int | None]]:
    return [(f.kind.value, f.seat) for h in referee.hands for f in h.flags]


def clean_badugi() -> Script:
    """Seat 2 wins at showdown with a four-card badugi against seat 3; seat 1 folds after the first draw."""
    s = Script().deal_all(ORDER)
    s.act(3, "call").act(1, "call").act(2, "check")
    s.draw(1, 2).draw(2, 1).draw(3, 0)
    s.act(1, "check").act(2, "bet", 2).act(3, "call").act(1, "fold")
    s.draw(2, 1).draw(3, 2)
    s.act(2, "check").act(3, "check")
    s.draw(2, 0).draw(3, 1)
    s.act(2, "bet", 4).act(3, "raise", 8).act(2, "call")
    return s.show(3, "Kc Qd 9h 8s").show(2, "Ac 2d 3h 4s").gather()


# -- clean hands ---------------------------------------------------------------------------------------


def test_clean_badugi_hand_has_no_flags_and_the_right_award() -> None:
    referee = run(clean_badugi())
    hand = referee.hands[0]
    assert hand.flags == []
    assert hand.end is not None and hand.end.status == "complete"
    award = hand.awards[-1].award
    # Pot: 2 + 2 + 2 pre-draw, 2 + 2 after draw 1, 8 + 8 after draw 3 = 26.
    assert award.totals == {1: 0, 2: 26, 3: 0}
    assert "Seat 2 wins the main pot" in award.pots[0].explanation[-1]
    assert hand.awards[-1].uncontested is False


def test_clean_hand_key_moments() -> None:
    sink = RecordingSink()
    referee = Referee(table(), sink)
    referee.feed_all(clean_badugi().items)
    labels = [r[2].label for r in sink.records if r[0] == "output" and isinstance(r[2], KeyMoment)]
    assert labels == ["deal complete", "draw 1", "draw 2", "draw 3", "showdown"]
    assert sink.records[0][0] == "start" and sink.records[-1][0] == "end"


BADACEY_PL = HouseRules.preset("badacey-pot-limit-double")


def clean_badacey() -> Script:
    """Pot-limit double-draw Badacey, discard then replace: seat 2 scoops 54 against seat 3; seat 1 folds."""
    s = Script().deal_all(ORDER, size=5)
    s.act(3, "raise", 6).act(1, "call").act(2, "call")               # pot 18
    s.discard(1, 2).discard(2, 1).replace(1, 2).replace(2, 1)         # all discard, then replace; seat 3 pat
    s.act(1, "check").act(2, "bet", 18).act(3, "call").act(1, "fold")  # pot 54
    s.discard(2, 1).discard(3, 1).replace(2).replace(3)
    s.act(2, "check").act(3, "check")
    return s.show(2, "Ac 2d 3h 4s 7c").show(3, "Kh 5d 4c 3s 2h").gather()


def test_clean_badacey_pot_limit_double_draw() -> None:
    referee = run(clean_badacey(), table(BADACEY_PL))
    hand = referee.hands[0]
    assert hand.flags == []
    award = hand.awards[-1].award
    # Seat 3 has the better A-5 low (5-4-3-2... no: K high loses to 7-4-3-2-A); seat 2 scoops.
    assert award.totals[2] == 54 and sum(award.totals.values()) == 54
    assert any("A-5 low" in line for line in award.pots[0].explanation)


def test_uncontested_hand() -> None:
    s = Script().deal_all(ORDER).act(3, "fold").act(1, "fold").gather()
    referee = run(s)
    hand = referee.hands[0]
    assert hand.flags == [] and hand.awards[-1].uncontested
    assert hand.awards[-1].award.totals[2] == 3


def test_chips_keyed_after_the_hand_ended_hold_its_award() -> None:
    """Seat 2 wins uncontested, then a bet is keyed for it: chips the pots never got (a betting round the entries
    were behind on), so an error flag, and the award is made again as provisional. A check keyed then moves nothing:
    a warning, and the award stands."""
    referee = run(Script().deal_all(ORDER).act(3, "fold").act(1, "fold").act(2, "bet", 2).gather())
    flag = referee.flags[-1]
    assert (flag.kind, flag.seat, flag.severity) == (FlagKind.ACTION_OUT_OF_TURN, 2, Severity.ERROR)
    assert "after the hand ended" in flag.message
    assert referee.hands[0].awards[-1].provisional and referee.hands[0].awards[-1].award.totals[2] == 3
    checked = run(Script().deal_all(ORDER).act(3, "fold").act(1, "fold").act(2, "check").gather())
    assert [f.severity for f in checked.flags] == [Severity.WARNING]
    assert not checked.hands[0].awards[-1].provisional


# -- prompts -------------------------------------------------------------------------------------------


def test_prompts_follow_the_deal_the_betting_and_the_draw() -> None:
    referee = Referee(table())
    assert referee.prompt.phase == "between hands"
    s = Script().deal(1, 2)
    referee.feed_all(s.items)
    assert referee.prompt.next_card_seat == 3
    referee.feed_all(Script(frame=100).deal(3, *(ORDER * 3)).items)
    p = referee.prompt
    assert p.actor == 3
    assert p.legal == (LegalAction("fold"), LegalAction("call", 2, 2), LegalAction("raise", 4, 4))
    referee.feed_all(Script(frame=500).act(3, "call").act(1, "call").act(2, "check").discard(1, 3).items)
    p = referee.prompt
    assert p.phase == "drawing" and p.next_card_seat == 1 and p.replacements_owed == {1: 3}
    assert "burn" in p.message
    assert referee.vision_phase == "draw"


def test_drawing_seats_name_the_seat_whose_draw_comes_next() -> None:
    """For the tracker: the first seat in the draw's order yet to declare (a discard held until the next card counts
    as declared); none outside a draw; with discard_then_replace every seat yet to discard."""
    referee = run(Script().deal_all(ORDER))
    assert referee.vision_phase == "betting" and referee.drawing_seats == frozenset()
    referee.feed_all(Script(frame=500).act(3, "call").act(1, "call").act(2, "check").items)
    assert referee.vision_phase == "draw" and referee.drawing_seats == {1}
    referee.feed_all(Script(frame=700).discard(1, 2).items)
    assert referee.drawing_seats == {2}
    referee.feed_all(Script(frame=800).replace(1, 2).discard(2, 1).replace(2).items)
    assert referee.drawing_seats == {3}
    collected = run(Script().deal_all(ORDER).act(3, "call").act(1, "call").act(2, "check").discard(1, 2),
                    table(LIMIT.with_options(draw_procedure="discard_then_replace")))
    assert collected.drawing_seats == {2, 3}


def test_drawn_seats_are_those_done_with_this_draw() -> None:
    """For the tracker: seats whose discard is declared and whose replacements are all in (a seat that stood pat
    too, once the next seat discarded); none before the draw, and none once the betting round after it opens."""
    referee = run(Script().deal_all(ORDER).act(3, "call").act(1, "call").act(2, "check"))
    assert referee.vision_phase == "draw" and referee.drawn_seats == frozenset()
    referee.feed_all(Script(frame=700).discard(1, 2).replace(1).items)
    assert referee.drawn_seats == frozenset()                  # one replacement still owed
    referee.feed_all(Script(frame=800).replace(1).items)
    assert referee.drawn_seats == {1}
    referee.feed_all(Script(frame=900).discard(3, 1).items)
    assert referee.drawn_seats == {1, 2}                        # seat 2 stood pat; seat 3 is owed a card
    referee.feed_all(Script(frame=1000).replace(3).items)
    assert referee.vision_phase == "betting" and referee.drawn_seats == frozenset()     # the draw is over


def test_prompt_says_when_the_stub_needs_a_reshuffle() -> None:
    config = table(seats=10, button=10)
    s = Script().deal_all(tuple(range(1, 11)))
    s.act(3, "call")
    for seat in range(4, 11):
        s.act(seat, "fold")
    s.act(1, "call").act(2, "check")          # 7 folded hands (28 cards) wait in the muck
    s.discard(1, 4).replace(1, 4).discard(2, 4).replace(2, 4).discard(3, 3)
    referee = run(s, config)                   # stub: 52 - 40 - 1 burn - 8 = 3 cards, seat 3 is owed 3
    referee.feed_all(Script(frame=10_000).replace(3, 3).items)
    assert referee.prompt.reshuffle_needed is False
    assert referee.flags == []
    referee2 = run(Script(items=list(s.items)).replace(3, 3).discard(1, 4), config)  # wrong: seat 1 already drew
    assert ("draw_out_of_order", 1) in kinds(referee2)


def test_reshuffle_prompt_when_the_stub_runs_dry() -> None:
    config = table(seats=10, button=10)
    s = Script().deal_all(tuple(range(1, 11))).act(3, "call")
    for seat in range(4, 11):
        s.act(seat, "fold")
    s.act(1, "call").act(2, "check").discard(1, 4).replace(1, 4).discard(2, 4).replace(2, 4).discard(3, 4)
    s.replace(3, 3)
    referee = run(s, config)
    p = referee.prompt
    assert p.reshuffle_needed and p.stub_count == 0 and p.replacements_owed == {3: 1}
    assert "reshuffle" in p.message
    referee.feed_all(Script(frame=10_000).replace(3).items)     # the dealer reshuffled (not seen) and dealt
    assert referee.prompt.phase == "betting after draw 1" and referee.flags == []


# -- misdeal flags -------------------------------------------------------------------------------------


def test_card_to_the_wrong_seat() -> None:
    s = Script().deal(1, 3, 3, 1, 2, 3, 1, 2, 3, 1, 2, 3)      # the second card (due to 2) landed at 3
    s.act(3, "call").act(1, "call").act(2, "check")
    referee = run(s)
    assert kinds(referee) == [("card_to_wrong_seat", 3)]
    flag = referee.flags[0]
    assert flag.severity is Severity.MISDEAL and "seat 2" in flag.message and "Dealing" in flag.rule
    assert flag.frame == s.items[1].frame                     # type: ignore[union-attr]
    assert referee.prompt.phase == "drawing"                   # followed the table on


def test_a_hand_shown_short_after_a_misdeal_is_dead_and_the_story_says_so() -> None:
    """Seat 2's card went to seat 3, so seat 2 holds 3 cards: shown, its hand is dead (the award passes over it), and
    a key moment says why, besides the misdeal flag already raised."""
    sink = RecordingSink()
    referee = Referee(table(), sink)
    s = Script().deal(1, 3, 3, 1, 2, 3, 1, 2, 3, 1, 2, 3)
    s.act(3, "call").act(1, "fold").act(2, "check")
    s.act(2, "check").act(3, "check").act(2, "check").act(3, "check").act(2, "check").act(3, "check")
    referee.feed_all(s.show(2, "Ac 2d 3h").show(3, "Kc Qd Jh 9s 8c").items)
    assert kinds(referee) == [("card_to_wrong_seat", 3)]
    labels = [r[2].label for r in sink.records if r[0] == "output" and isinstance(r[2], KeyMoment)]
    assert "dead hand: seat 2 showed 3 cards, a badugi hand has 4" in labels


def dead_hand_after_a_misdeal() -> Script:
    """Seat 2's second card went to seat 3: seat 3 holds five cards and wins, seat 2's three-card hand is dead."""
    s = Script().deal(1, 3, 3, 1, 2, 3, 1, 2, 3, 1, 2, 3)
    s.act(3, "call").act(1, "fold").act(2, "check")
    s.act(2, "check").act(3, "check").act(2, "check").act(3, "check").act(2, "check").act(3, "check")
    return s.show(2, "Ac 2d 3h").show(3, "Kc Qd Jh 9s 8c")


def test_an_award_made_past_an_open_misdeal_flag_is_provisional() -> None:
    """The referee follows the table past a misdeal flag, so the award it makes waits on the floor: it names the
    open flag, the report says so, and the hand ends complete with the reason."""
    referee = run(dead_hand_after_a_misdeal().gather())
    hand = referee.hands[0]
    assert [f.kind.value for f in hand.flags] == ["card_to_wrong_seat"]
    assert hand.awards[-1].pending == (0,) and hand.awards[-1].provisional
    assert hand.awards[-1].award.totals[3] > 0
    assert hand.end is not None and hand.end.status == "complete"
    assert hand.end.reason == ("provisional: a flag is open (misdeal card_to_wrong_seat, seat 3); "
                               "the floor decides whether the hand stands")
    report = hand_to_dict(hand)
    assert report["awards"]["provisional"] is True and report["awards"]["pending_flags"] == [0]
    assert "Provisional: a flag is open (misdeal card_to_wrong_seat, seat 3)" in report_text(referee.hands)


def test_an_award_stands_once_the_floor_resolves_the_misdeal_flag() -> None:
    """Dismissed (or accepted: "misdeal seen, play on") before the award, the flag leaves it final; resolved after
    it, the report no longer calls it provisional, and the hand ends without the reason."""
    for before in (True, False):
        referee = Referee(table(), RecordingSink())
        items = dead_hand_after_a_misdeal().gather().items
        referee.feed_all(items[:12])
        if before:
            referee.dismiss_flag(0, reason="the card was turned back to seat 2's pile", by="floor")
        referee.feed_all(items[12:-1])
        if not before:
            assert referee.hands[0].awards[-1].pending == (0,)
            referee.accept_flag(0, reason="misdeal seen; play on", by="floor")
        else:
            assert referee.hands[0].awards[-1].pending == ()
        referee.feed_all(items[-1:])
        hand = referee.hands[0]
        assert hand.end is not None and hand.end.status == "complete" and hand.end.reason is None
        assert hand_to_dict(hand)["awards"]["provisional"] is False
        assert "Provisional" not in report_text(referee.hands)


def test_a_clean_award_is_not_provisional() -> None:
    hand = run(clean_badugi()).hands[0]
    assert hand.awards[-1].pending == () and not hand.awards[-1].provisional
    assert hand_to_dict(hand)["awards"]["pending_flags"] == []


def test_error_and_misdeal_flags_wait_on_the_floor_warnings_do_not() -> None:
    """An open error (a card too many in the draw, a bet of the wrong size) may change who wins or how much, as a
    misdeal does; a warning (an action out of turn) or a note does not hold the award up."""
    from dealer_assist.audit.referee import HandRecord, flags_for_the_floor

    record = HandRecord(run(clean_badugi()).hands[0].start)
    record.flags = [Flag(kind, severity, 1, "rule", None, "m", 0.0) for kind, severity in [
        (FlagKind.ACTION_OUT_OF_TURN, Severity.WARNING), (FlagKind.REPLACEMENTS_MISMATCH, Severity.ERROR),
        (FlagKind.UNEXPECTED_EVENT, Severity.INFO), (FlagKind.SEAT_SKIPPED, Severity.MISDEAL)]]
    assert flags_for_the_floor(record) == (1, 3)
    record.resolutions[3] = Correction("dismiss_flag", "the card was pushed back", "floor", target=3)
    assert flags_for_the_floor(record) == (1,)


def test_a_show_the_camera_could_not_read_leaves_the_pot_unawarded() -> None:
    """Seat 3 turned its hand up but the camera read none of it (a show of no cards): at the gather the referee
    awards nothing and says why, instead of taking seat 3 for a seat that mucked and giving seat 2 the pot."""
    s = Script().deal_all(ORDER)
    s.act(3, "call").act(1, "fold").act(2, "check")
    for _ in range(3):
        s.act(2, "check").act(3, "check")
    referee = run(s.show(2, "Ac 2d 3h 4s").show(3, "").gather())
    hand = referee.hands[0]
    assert hand.awards == [] and hand.end is not None and hand.end.status == "void"
    assert [(f.kind.value, f.seat) for f in hand.flags] == [("unexpected_event", 3)]
    assert "seat 3's hand was shown, but the camera read only 0 of its 4 cards" in hand.flags[0].message
    mucked = Script().deal_all(ORDER).act(3, "call").act(1, "fold").act(2, "check")
    for _ in range(3):
        mucked.act(2, "check").act(3, "check")
    awarded = run(mucked.show(2, "Ac 2d 3h 4s").fold(3).gather()).hands[0]
    assert awarded.flags == [] and awarded.awards[-1].award.totals[2] > 0


def _showdown_2_and_3() -> Script:
    s = Script().deal_all(ORDER)
    s.act(3, "call").act(1, "fold").act(2, "check")
    for _ in range(3):
        s.act(2, "check").act(3, "check")
    return s


def test_a_show_read_in_part_is_awarded_when_no_unread_card_could_change_it() -> None:
    """Seat 3's hand was turned up and the camera read 3 of its 4 corners (Kc Kd Kh): whatever the fourth, it
    cannot beat seat 2's 4-3-2-A badugi, so seat 2 gets the pot, and the award says why seat 3 lost unread. The
    story keeps what was read and how much was not."""
    hand = run(_showdown_2_and_3().show(2, "Ac 2d 3h 4s").show(3, "Kc Kd Kh").gather()).hands[0]
    assert hand.flags == [] and hand.end is not None and hand.end.status == "complete"
    award = hand.awards[-1].award
    assert award.totals[2] > 0 and award.totals[3] == 0
    header = award.pots[0].explanation[0]
    assert "Seat 3's hand, read as Kc Kd Kh with 1 card unread: no card it could hold wins it a chip" in header


def test_a_show_read_in_part_that_could_win_holds_the_award_and_says_with_what() -> None:
    """Seat 3 read as 5c 6d 7h with one card unread: an ace of spades or clubs would make 7-6-5-A and beat seat 2's
    three-card 3-2-A, so nothing is awarded, and the flag names the hand it could make."""
    hand = run(_showdown_2_and_3().show(2, "Ac 2d 3h Ks").show(3, "5c 6d 7h").gather()).hands[0]
    assert hand.awards == [] and [(f.kind.value, f.seat) for f in hand.flags] == [("unexpected_event", 3)]
    assert "seat 3's hand, read as 5c 6d 7h with 1 card unread, could win the main pot (with 7-6-5-A badugi)" in (
        hand.flags[0].message)
    # the same seat shown whole with the card it held: seat 2 wins after all, the award seen only now
    whole = run(_showdown_2_and_3().show(2, "Ac 2d 3h Ks").show(3, "5c 6d 7h 7s").gather()).hands[0]
    assert whole.flags == [] and whole.awards[-1].award.totals[2] > 0


def test_a_whole_hands_worth_read_from_a_seat_holding_more_is_not_its_whole_show() -> None:
    """Seat 3 discarded 1 and got 2 replacements (flagged): the camera counts 5 cards there. A show read as 4 of
    them is not seat 3's whole hand: the fifth went unread, and a hand of 5 is dead, so the pot waits on the floor
    instead of going to seat 3 on the 4 read (badugi seed 9 of the hand videos at the face-up bar 0.5 gave the pot
    to such a hand). Shown whole, the 5 cards are a dead hand and seat 2 wins."""
    def hand(shown: str) -> HandRecord:
        s = Script().deal_all(ORDER)
        s.act(3, "call").act(1, "fold").act(2, "check")
        s.discard(3, 1).replace(3, 2)                          # draw 1: seat 2 stood pat
        for _ in range(3):
            s.act(2, "check").act(3, "check")
        return run(s.show(2, "Kc Qd Jh 9s").show(3, shown).gather()).hands[0]

    four = hand("Ac 2d 3h 4s")
    assert four.awards == []
    assert [(f.kind.value, f.seat) for f in four.flags] == [("replacements_mismatch", 3), ("unexpected_event", 3)]
    assert "seat 3's hand was shown, but the camera read only 4 of its 5 cards" in four.flags[1].message
    five = hand("Ac 2d 3h 4s 5c")
    assert [(f.kind.value, f.seat) for f in five.flags] == [("replacements_mismatch", 3)]
    assert five.awards[-1].award.totals[2] > 0 and five.awards[-1].award.totals[3] == 0


def test_a_show_read_one_card_of_four_is_bounded_by_that_card() -> None:
    """Read 1 of 4 (three unread): with the Kc read, seat 3's best is a king-high badugi, which seat 2's 4-3-2-A
    beats; with the 2c read it could be 4-3-2-A too (a tie), so the award waits."""
    hand = run(_showdown_2_and_3().show(2, "Ac 2d 3h 4s").show(3, "Kc").gather()).hands[0]
    assert hand.flags == [] and hand.awards[-1].award.totals[2] > 0
    held = run(_showdown_2_and_3().show(2, "Ac 2d 3h 4s").show(3, "2c").gather()).hands[0]
    assert held.awards == [] and "could tie for the main pot (with 4-3-2-A badugi)" in held.flags[0].message


def test_seat_skipped() -> None:
    s = Script().deal(1, 3, 1, 2, 3, 1, 2, 3, 1, 2, 3)         # seat 2 skipped in the first lap
    s.act(3, "call").act(1, "call").act(2, "check")
    referee = run(s)
    assert kinds(referee) == [("seat_skipped", 2)]
    assert referee.prompt.phase == "drawing"


def test_a_card_the_camera_saw_late_is_not_a_skipped_seat() -> None:
    """Seat 2's second card was covered as it landed and counted only with its third (two cards at once, which no
    dealer pitches): no flag. The same card coming alone in seat 2's turn a lap later is a skip, raised then with
    the time of the card that went past seat 2."""
    late = Script().deal(1, 2, 3, 1, 3, 1, 2).together(2).deal(3, 1, 2, 3)
    referee = run(late.act(3, "call").act(1, "call").act(2, "check"))
    assert kinds(referee) == [] and referee.prompt.phase == "drawing"
    skipped = Script().deal(1, 2, 3, 1, 3, 1, 2, 3, 1, 2, 3)
    skip_t = skipped.items[4].t                                  # seat 3's second card, dealt in seat 2's turn
    referee = run(skipped.act(3, "call").act(1, "call").act(2, "check"))
    assert kinds(referee) == [("seat_skipped", 2)] and referee.flags[0].t == skip_t
    # two cards at once at a seat that was not skipped, and every later turn of it filled: a card too many
    over = Script().deal(1, 2, 3, 1, 2, 3, 1, 2).together(2).deal(3, 1, 2, 3).act(3, "call")
    assert kinds(run(over)) == [("wrong_card_count", 2)]
    assert "seat 2 got 5 cards in the deal, not 4" in run(over).flags[0].message


def test_a_card_to_a_seat_after_the_deal_says_it_came_after_the_deal() -> None:
    """The deal was clean; in the betting a card lands at seat 2 (a camera table: a pile read one over for a while,
    badacey-limit-triple seed 2 at 1080p). The flag says when the card came, not that the deal gave seat 2 five."""
    s = Script().deal_all(ORDER).act(3, "call").deal(2).act(1, "call")
    referee = run(s, camera_table())
    assert kinds(referee) == [("wrong_card_count", 2)]
    assert referee.flags[0].message == "seat 2 got a card after the deal: it holds 5 cards, not 4"


def test_a_card_counted_early_fills_the_seats_next_turn() -> None:
    """The camera counts seat 2's last card early, with its third (two at once), and sees nothing land in seat 2's
    last turn: the early card was that turn's, no flag. Without the early count, the same deal skips seat 2."""
    early = Script().deal(1, 2, 3, 1, 2, 3, 1, 2).together(2).deal(3, 1, 3)
    referee = run(early.act(3, "call").act(1, "call").act(2, "check"))
    assert kinds(referee) == [] and referee.prompt.phase == "drawing"
    plain = Script().deal(1, 2, 3, 1, 2, 3, 1, 2, 3, 1, 3).act(3, "call").act(1, "call").act(2, "check")
    assert kinds(run(plain)) == [("seat_skipped", 2)]
    # the early card also covers the seat's last turn when the deal ends there
    last = Script().deal(1, 2, 3, 1, 2, 3, 1, 2, 3).together(3).deal(1, 2).act(3, "call")
    assert kinds(run(last)) == []
    assert kinds(run(Script().deal(1, 2, 3, 1, 2, 3, 1, 2, 3, 1, 2).act(3, "call"))) == [("seat_skipped", 3)]


def camera_table() -> TableConfig:
    return TableConfig.make(LIMIT, dict.fromkeys(range(1, 4), 100), button=3, camera=True)


def closed(script: Script, config: TableConfig) -> Referee:
    """The script refereed and the recording ended 2 s after its last item: findings held for a late camera are out."""
    referee = run(script, config)
    referee.close(script.items[-1].t + 2.0)
    return referee


def test_a_fold_keyed_after_the_camera_saw_it_does_not_end_the_draw_the_fold_began() -> None:
    """Seat 2, the big blind, folds the pre-draw round closed; the camera sees its cards go and the draw begins. The
    dealer keys that fold half a second later. That entry had been taken as a say of the betting after the draw, so
    every seat was taken to stand pat, and each discard after it was "after draw 1 was over" (a dealer keying 0.7 s
    late raised 37 such flags on 24 clean simulated hands). A fold keyed for a seat already folded is no say."""
    s = Script().deal_all(ORDER).act(3, "call").act(1, "call").fold(2).act(2, "fold")
    referee = run(s.draw(1, 2).draw(3, 1), camera_table())
    assert kinds(referee) == [] and referee.prompt.phase == "betting after draw 1", referee.prompt.phase


def test_a_fold_the_camera_saw_before_the_seats_before_it_were_keyed_is_out_of_turn_only_past_the_entry_lag() -> None:
    """At a camera's table the dealer keys each say a second or so after it is made, while the camera sees a fold as
    the cards go: seat 1's cards go half a second before seat 3's call is keyed. That is the entry's lag, not a fold
    out of turn. Keyed more than `ENTRY_LAG_S` after the fold, it is out of turn, flagged with the fold's time; and
    so it is when the dealer keys it, or away from a camera."""
    def hand(gap: float) -> Script:
        s = Script().deal_all(ORDER).fold(1)
        return s.wait(gap).act(3, "call").act(2, "check")

    assert kinds(closed(hand(0.5), camera_table())) == []
    late = closed(hand(1.5), camera_table())
    assert kinds(late) == [("fold_out_of_order", 1)]
    assert late.flags[0].t == hand(1.5).items[12].t and "seat 3 is to act" in late.flags[0].message
    assert kinds(closed(hand(0.5), table())) == [("fold_out_of_order", 1)]
    keyed = Script().deal_all(ORDER).act(1, "fold").act(3, "call").act(2, "check")
    assert kinds(closed(keyed, camera_table())) == [("fold_out_of_order", 1)]


def test_a_discard_seen_before_the_betting_rounds_entries_are_keyed_is_the_next_draws() -> None:
    """At a camera's table, after draw 1 the dealer keys the checks a second or so late, and the camera sees seat 1
    discard for draw 2 before the first of them: it had read as a second discard in draw 1 ("after draw 1 was
    over"), and a dealer keying 1 s late raised such flags on most simulated hands. Held until an entry of the round
    comes within `ENTRY_LAG_S`, it is draw 2's. With no entry within that time, or with a card to the seat first, it
    is late for draw 1, as before."""
    def hand(gap: float = 0.0, card_first: bool = False) -> Script:
        s = pre_draw().draw(1, 2).draw(2, 1).draw(3, 1).discard(1, 1)
        if card_first:
            s.replace(1, 1)
        s.wait(gap).act(1, "check").act(2, "check").act(3, "check")
        return s if card_first else s.replace(1, 1)

    assert kinds(closed(hand(), camera_table())) == []
    assert run(hand(), camera_table()).prompt.phase == "drawing"          # draw 2, seats 2 and 3 still to draw
    assert kinds(closed(hand(gap=1.5), camera_table()))[:1] == [("draw_out_of_order", 1)]
    assert kinds(closed(hand(card_first=True), camera_table()))[:1] == [("draw_out_of_order", 1)]
    assert kinds(closed(hand(), table()))[:1] == [("draw_out_of_order", 1)]


def test_a_fold_the_camera_saw_that_ends_the_hand_waits_for_a_say_keyed_late() -> None:
    """At a camera's table the camera sees seat 2's cards go, which leaves seat 1 alone: the pot is seat 1's. But the
    dealer keys each say a second or so late (badugi-limit seed 10 with entries keyed 0.3 to 1.2 s late: an award
    made at once, final and wrong). A fold the camera saw in the seat's turn waits `ENTRY_LAG_S` for that seat's say
    keyed late, which goes first (seat 2 checked, the draw began); so does one seen before its turn, from when its
    turn comes (the entries before it keyed late too). Once another input applied the fold, the hand is over and its
    award waits as long: a say of that seat keyed then is an error flag, so the award is provisional. With none, the
    award is made as before, final; past the wait the fold goes first; away from a camera the late entry is the
    warning it was."""
    in_turn = Script().deal_all(ORDER).act(3, "fold").act(1, "call").fold(2)
    checked = run(Script(items=list(in_turn.items), frame=in_turn.frame).act(2, "check"), camera_table())
    assert kinds(checked) == [] and checked.prompt.phase == "drawing" and not checked.hands[-1].awards
    early = run(Script().deal_all(ORDER).act(3, "fold").fold(2).act(1, "call").act(2, "check"), camera_table())
    assert kinds(early) == [] and early.prompt.phase == "drawing" and not early.hands[-1].awards
    waited = closed(Script(items=list(in_turn.items), frame=in_turn.frame).burn().act(2, "check"), camera_table())
    assert kinds(waited) == [("illegal_action", 2)] and waited.flags[0].severity is Severity.ERROR
    assert "keyed 1.0 s after the camera saw its cards go to the muck" in waited.flags[0].message
    [award] = waited.hands[-1].awards
    assert isinstance(award, AwardMade) and award.provisional and dict(award.award.totals)[1] > 0
    clean = closed(Script(items=list(in_turn.items), frame=in_turn.frame), camera_table())
    [award] = clean.hands[-1].awards
    assert kinds(clean) == [] and isinstance(award, AwardMade) and not award.provisional
    assert clean.hands[-1].end is not None and clean.hands[-1].end.status == "complete"
    past = closed(Script(items=list(in_turn.items), frame=in_turn.frame).wait(1.5).act(2, "check"), camera_table())
    assert kinds(past) == [("illegal_action", 2)] and past.flags[0].severity is Severity.WARNING
    assert not past.hands[-1].awards[0].provisional
    away = closed(Script(items=list(in_turn.items), frame=in_turn.frame).act(2, "check"), table())
    assert kinds(away) == [("illegal_action", 2)] and away.flags[0].severity is Severity.WARNING


def test_a_seats_say_keyed_late_after_its_fold_came_due_goes_first() -> None:
    """Heads-up after the draw: seat 1 checks, seat 2 bets, seat 1 raises, seat 2 folds, each keyed 1.5 s late, so the
    camera sees seat 2's cards go before seat 1's check is keyed. The check makes the fold due; seat 2's bet, keyed
    within `ENTRY_LAG_S` of its cards going, was made before them and goes first, and the fold stands facing the
    raise: the pot is 10 with the bet and the raise, no flag. Applied at once, the fold had ended the hand, the bet
    was an error flag and the award provisional and wrong (4): 5 of 180 clean simulated hands at entries keyed 1.5 s
    late (`benchmarks/referee_entries.py --keyed-late 1.5`), and 4 more flagged "has folded; check not applied"."""
    def hand(wait_s: float) -> Script:
        s = Script().deal_all(ORDER).act(3, "fold").act(1, "call").act(2, "check").draw(1, 1).draw(2, 1).fold(2)
        return s.wait(wait_s).act(1, "check").act(2, "bet", 2).act(1, "raise", 4).act(2, "fold")

    referee = closed(hand(0.0), camera_table())
    assert kinds(referee) == []
    [award] = referee.hands[0].awards
    assert not award.provisional and dict(award.award.totals) == {1: 10, 2: 0, 3: 0}
    late = closed(hand(1.5), camera_table())
    assert kinds(late)[:1] == [("fold_out_of_order", 2)]


def test_an_error_flag_after_the_award_makes_it_again_provisional_and_the_log_keeps_both() -> None:
    """Seat 2's cards go 2 s before the entries say its turn came (out of turn, past `ENTRY_LAG_S`): at its turn the
    fold ends the hand and the pot (4) is awarded, final. Then its bet is keyed, and seat 1's raise: chips the pots do
    not hold, an error flag after the award. The award is made again, the same, provisional on that flag, so the
    floor decides (at entries keyed 3 s late, 2 of 180 clean simulated hands had a wrong award left final so); the log
    keeps the award as first made and the provisional one after it. Seat 1's raise, chips keyed after the hand ended,
    is a second error: the award is made once more, provisional on both. A warning after the award changes nothing."""
    s = Script().deal_all(ORDER).act(3, "fold").act(1, "call").act(2, "check").draw(1, 1).draw(2, 1).fold(2)
    s.wait(1.5).act(1, "check").act(2, "bet", 2).act(1, "raise", 4).act(2, "fold")
    referee = closed(s, camera_table())
    record = referee.hands[0]
    error = next(n for n, f in enumerate(record.flags) if f.severity is Severity.ERROR)
    assert "seat 2 has folded; bet not applied" in record.flags[error].message
    raised = next(n for n, f in enumerate(record.flags) if n > error and f.severity is Severity.ERROR)
    assert "seat 1 raise to 4 after the hand ended" in record.flags[raised].message
    first, again, last = record.awards
    assert not first.provisional and again.provisional and again.pending == (error,)
    assert again.award == first.award and dict(again.award.totals) == {1: 4, 2: 0, 3: 0}
    assert again.t == record.flags[error].t > first.t
    assert last.award == first.award and last.pending == (error, raised)
    story = _logged_story(s)
    assert story.count("AWARD") == 3 and "Provisional: flags #" in story.split("AWARD")[-1]
    # a flag held for a late camera bears an earlier time than the award: the award made again is not dated before it
    held = make_flag(FlagKind.ILLEGAL_ACTION, 2, "held", first.t - 1.0, None, severity=Severity.ERROR)
    referee._emit(record, [held])
    assert record.awards[-1].t == last.t and record.awards[-1].pending == (error, raised, len(record.flags) - 1)
    checked = Script().deal_all(ORDER).act(3, "fold").act(1, "call").act(2, "check").draw(1, 1).draw(2, 1).fold(2)
    checked.wait(1.5).act(1, "check").act(2, "check")
    [award] = closed(checked, camera_table()).hands[0].awards
    assert not award.provisional


def test_cards_seen_landing_out_of_turn_that_fill_their_seats_turns_are_no_flag_at_a_camera_table() -> None:
    """A camera confirms seat 2's last card a frame before seat 1's, or counts it a pitch early (a card pitched past
    it), or seat 3's two turns early: each early card fills its seat's turn when no card lands there then, and every
    seat ends with 4: no flag. From a scripted or entered stream (no camera) the same order is the dealer's: flagged.
    A card out of turn whose seat's own turn then gets a card too is one misdeal flag, with the early card's time,
    raised when the deal ends."""
    for script in (Script().deal(1, 2, 3, 1, 2, 3, 1, 2, 3, 2).together(1).deal(3),
                   Script().deal(1, 2, 3, 1, 2, 3, 1, 2, 3, 2, 1, 3),
                   Script().deal(1, 2, 3, 1, 2, 3, 1, 2, 3, 3).together(1).deal(2)):
        script.act(3, "call").act(1, "call").act(2, "check")
        referee = run(script, camera_table())
        assert kinds(referee) == []
        assert kinds(run(script)) != []
    over = Script().deal(1, 2, 3, 1, 2, 3, 2, 1)
    early_t = over.items[-2].t
    referee = Referee(camera_table(), RecordingSink())
    referee.feed_all(over.deal(2, 3, 1, 2, 3).items)           # seat 2's own turns get cards too: 5 cards
    assert kinds(referee) == []                                # the deal has not ended
    referee.feed_all(over.act(3, "call").items[-1:])
    assert kinds(referee) == []                                # a card confirmed late may still come (1 s)
    referee.close(over.items[-1].t + 2.0)
    assert kinds(referee) == [("card_to_wrong_seat", 2)] and referee.flags[0].t == early_t


def test_order_findings_at_a_camera_table_wait_for_the_deal_to_end() -> None:
    """At a camera table a skip made up at the end leaves every seat its 4 cards: the camera's timing, no flag (from a
    scripted stream it is a skip). A skip the deal does not make up leaves the seat short: flagged, with its own time,
    once the deal ends (and no late card came within a second)."""
    made_up = Script().deal(1, 3, 1, 2, 3, 1, 2, 3, 1, 2, 3, 2).act(3, "call")
    assert kinds(run(made_up, camera_table())) == []
    assert kinds(run(made_up)) == [("seat_skipped", 2)]
    short = Script().deal(1, 3, 1, 2, 3, 1, 2, 3, 1, 2, 3)
    skip_t = short.items[1].t
    referee = Referee(camera_table(), RecordingSink())
    referee.feed_all(short.items)
    assert kinds(referee) == []
    referee.feed_all(short.act(3, "call").items[-1:])
    referee.close(short.items[-1].t + 2.0)
    assert kinds(referee) == [("seat_skipped", 2)] and referee.flags[0].t == skip_t


@pytest.mark.parametrize("late_s", [0.5, 1.5])
def test_the_deals_last_card_confirmed_late_after_the_first_entry_is_in_time_at_a_camera_table(late_s: float) -> None:
    """Seat 3's last card of the deal is seen half a second after the first entry (a camera confirms a pitched card
    up to a second late; a clean hand of the videos had seat 3 skipped): the deal was whole, no flag. Seen 1.5 s
    after, seat 3 was skipped, flagged with the time the table moved on. From an entered stream, flagged at once."""
    def hand() -> Script:
        s = Script().deal(1, 2, 3, 1, 2, 3, 1, 2, 3, 1, 2).act(3, "call")
        s.frame += round((late_s - 0.5) * 30)
        return s.deal(3).act(1, "call").act(2, "check")

    moved_on = next(i for i in hand().items if isinstance(i, DealerAction)).t
    referee = closed(hand(), camera_table())
    if late_s < 1.0:
        assert kinds(referee) == []
    else:
        assert kinds(referee) == [("seat_skipped", 3)] and referee.flags[0].t <= moved_on
    assert kinds(closed(hand(), table())) != []


def test_two_deal_mistakes_side_by_side_are_read_as_the_fewest_at_a_camera_table() -> None:
    """Seat 1 is skipped in the third round and the card for seat 2 lands one place on, in seat 3 (which then gets
    its own): a skip and a card to the wrong seat, at the seats they happened. Looking one card ahead, the deal read
    as seat 1's card pitched two places on and seat 2 skipped. And at four seats, seat 4 skipped at the end of a
    round, then the next round's second card pitched one place on: two mistakes, not three (seat 1's next card taken
    for seat 4's, seat 3's for seat 1's, then seat 2 skipped). Both are settled at the deal's end over the whole deal
    (`deal_alignment`)."""
    side_by_side = Script().deal(1, 2, 3, 1, 2, 3, 3, 3, 1, 2, 3)
    skip_t = side_by_side.items[6].t
    referee = closed(side_by_side.act(3, "call"), camera_table())
    assert sorted(kinds(referee)) == [("card_to_wrong_seat", 3), ("seat_skipped", 1)]
    skipped = next(f for f in referee.flags if f.kind.value == "seat_skipped")
    assert skipped.t == skip_t and "the card due to it went to seat 3" in skipped.message
    wrong = next(f for f in referee.flags if f.kind.value == "card_to_wrong_seat")
    assert wrong.t == skip_t and "a card due to seat 2 went to seat 3" in wrong.message
    across_rounds = Script().deal(1, 2, 3, 4, 1, 2, 3, 1, 3, 3, 4, 1, 2, 3, 4).act(3, "call")
    four_seats = TableConfig.make(LIMIT, dict.fromkeys(range(1, 5), 100), button=4, camera=True)
    assert sorted(kinds(closed(across_rounds, four_seats))) == [("card_to_wrong_seat", 3), ("seat_skipped", 4)]


def test_the_whole_deals_account_keeps_the_findings_at_its_ends() -> None:
    """The account over the whole deal still says a deal one card short at its last turn skipped that seat, that
    cards past the deal's last turn are too many for their seat, and that a card at a seat not dealt in was a card to
    the wrong seat."""
    last_short = Script().deal(1, 2, 3, 1, 3, 1, 2, 3, 1, 2).act(3, "call")
    flags = closed(last_short, camera_table()).flags
    assert sorted((f.kind.value, f.seat) for f in flags) == [("seat_skipped", 2), ("seat_skipped", 3)]
    assert any("the deal ended one card short, at its turn" in f.message for f in flags)
    too_many = Script().deal(1, 2, 3, 1, 3, 1, 2, 3, 1, 2, 3, 2, 2).act(3, "call")
    flags = closed(too_many, camera_table()).flags
    assert sorted((f.kind.value, f.seat) for f in flags) == [("seat_skipped", 2), ("wrong_card_count", 2)]
    assert any("seat 2 got 5 cards in the deal, not 4" in f.message for f in flags)
    config = TableConfig.make(LIMIT, dict.fromkeys((1, 2, 4), 100), button=4, camera=True)
    referee = closed(Script().deal(1, 2, 4, 1, 2, 3, 1, 2, 4, 1, 2, 4).act(4, "call"), config)
    assert [(f.kind.value, f.seat) for f in referee.flags] == [("card_to_wrong_seat", 3)]
    assert "a card due to seat 4 went to seat 3 (not dealt in)" in referee.flags[0].message


def test_a_replacement_the_camera_confirms_just_after_the_next_entry_is_in_time_at_a_camera_table() -> None:
    """Seat 2 discards 2; its second replacement is seen half a second after seat 1's check opened the betting (a camera
    confirms a pitched card up to a second late): at a camera's table it was in time, no flag. Seen 1.5 s after, seat 2
    was short-changed: flagged with the time the table moved on. From an entered stream, flagged at once."""
    def hand(late_s: float) -> Script:
        s = Script().deal_all(ORDER).act(3, "call").act(1, "call").act(2, "check")
        s.discard(2, 2).replace(2, 1).act(1, "check")
        s.frame += round((late_s - 0.5) * 30)
        return s.replace(2, 1).act(2, "check").act(3, "check")

    assert kinds(run(hand(0.5), camera_table())) == []
    late = run(hand(1.5), camera_table())
    assert kinds(late) == [("replacements_mismatch", 2)]
    assert "seat 2 discarded 2 and got 1 replacement (1 short)" in late.flags[0].message
    moved_on = next(i for i in hand(1.5).items if isinstance(i, DealerAction) and i.seat == 1 and i.action == "check")
    assert late.flags[0].t == moved_on.t
    assert kinds(run(hand(0.5))) == [("replacements_mismatch", 2)]
    # the next draw opening within that second does not change what the flag says of this one
    quick = Script().deal_all(ORDER).act(3, "call").act(1, "call").act(2, "check").discard(2, 2).replace(2, 1)
    for seat, step in ((1, "check"), (2, "check"), (3, "check"), (1, "discard")):
        quick.frame -= 6                                       # entries 0.3 s apart
        if step == "check":
            quick.act(seat, "check")
        else:
            quick.discard(seat, 1)
    quick.replace(1).act(1, "check")
    flags = run(quick, camera_table()).flags
    assert [(f.kind.value, f.seat) for f in flags] == [("replacements_mismatch", 2)]
    assert "seat 2 discarded 2 and got 1 replacement (1 short)" in flags[0].message
    # the hand gathered, or the recording ended, within that second: the seat was short all the same
    ended = Script().deal_all(ORDER).act(3, "call").act(1, "call").act(2, "check").discard(2, 2).replace(2, 1)
    ended.act(1, "check")
    for tail in ("gather", "close"):
        referee = Referee(camera_table(), RecordingSink())
        script = Script(list(ended.items), ended.frame)
        script.frame -= 9
        referee.feed_all(script.gather().items if tail == "gather" else script.items)
        if tail == "close":
            referee.close(script.items[-1].t + 0.2)
        assert kinds(referee) == [("replacements_mismatch", 2)], tail
    # ... and the showdown that follows within the second: the flag is raised before the shows (the award waits on it
    # unless seat 2 shows a whole hand: `test_a_seat_left_short_that_shows_a_whole_hand_...`)
    referee = run(short_last_draw("Kc Qd 9h 8s"), camera_table())
    assert kinds(referee) == [("replacements_mismatch", 2)]
    first_show = next(i for i in short_last_draw("Kc Qd 9h 8s").items if type(i).__name__ == "CardsShown")
    assert referee.hands[0].flags[0].t < first_show.t


def short_last_draw(seat_2_shows: str, extra: bool = False) -> Script:
    """The last draw: seat 2 discards 2 and the camera sees 1 replacement; the showdown follows within the second
    (0.1 s apart). `extra`: in the first draw seat 2 got a card too many (discarded 1, 2 replacements), and in the last
    it discards 3 and gets 1, so it is left short all the same (3 cards)."""
    last = Script().deal_all(ORDER).act(3, "call").act(1, "call").act(2, "check")
    if extra:
        last.discard(2, 1).replace(2, 2)
        last.act(1, "check").act(2, "check").act(3, "check")
    else:
        last.act(1, "check").act(2, "check").act(3, "check")
    last.act(1, "check").act(2, "check").act(3, "check")        # the next draw: every seat stands pat
    last.discard(2, 3 if extra else 2).replace(2, 1)
    for seat, cards in ((1, ""), (2, ""), (3, ""), (1, "Ac 2d 3h 4s"), (2, seat_2_shows), (3, "Kd Qc 9s 8h")):
        last.frame -= 12
        if cards:
            last.show(seat, cards)
        else:
            last.act(seat, "check")
    return last


def _logged_story(script: Script) -> str:
    """`log show` of the hand `script` plays at a camera's table, recorded in a new hand log."""
    import tempfile
    from pathlib import Path

    from dealer_assist.store import HandLog
    from dealer_assist.store.render import render_story
    from dealer_assist.store.sink import HandLogSink

    with HandLog.open(Path(tempfile.mkdtemp()) / "log.sqlite") as log:
        referee = Referee(camera_table(), HandLogSink(log, log.open_session("T1", "ann")))
        referee.feed_all(script.items)
        return render_story(log.story(log.hand_ids()[-1]))


def test_a_seat_left_short_that_shows_a_whole_hand_had_its_replacement_the_camera_missed() -> None:
    """A replacement pitched onto the seat's pile is sometimes not counted (badugi-limit seed 6: seat 3 discarded 1,
    the camera saw its pile stay at 3). Seat 2 then shows four cards: it held every card it was owed, so the referee
    dismisses its own "short" flag, saying why, and the award stands. Showing three cards (the camera read three),
    or with a card too many in an earlier draw as well (two errors can add up to a whole hand), the flag stays and
    the award waits on the floor."""
    sink = RecordingSink()
    referee = Referee(camera_table(), sink)
    referee.feed_all(short_last_draw("Kc Qd 9h 8s").items)
    record = referee.hands[0]
    assert kinds(referee) == [("replacements_mismatch", 2)] and 0 in record.resolutions
    fix = record.resolutions[0]
    assert fix.kind == "dismiss_flag" and fix.by == "the referee"
    assert "seat 2 showed a whole hand at the showdown (4 cards, read by the camera)" in fix.reason
    assert record.awards and record.awards[-1].pending == ()
    assert ("correction", 1, fix) in sink.records                # recorded, as the floor's corrections are
    shown = _logged_story(short_last_draw("Kc Qd 9h 8s"))            # `log show` says whose ruling it is
    assert "^ ruled by the referee (#1): dismisses flag #1: seat 2 showed a whole hand at the showdown" in shown
    assert Referee.replay(camera_table(), referee.inputs).hands[0].resolutions == record.resolutions
    text = report_text(referee.hands, "t")                       # the audit's report says so under the flag
    assert "  FLAG replacements_mismatch (error)" in text and f"    dismissed by the referee: {fix.reason}" in text
    [flag] = hand_to_dict(record)["flags"]
    assert (flag["resolution"], flag["resolved_by"], flag["resolution_reason"]) == ("dismiss_flag", "the referee",
                                                                                   fix.reason)

    partly = run(short_last_draw("Kc Qd 9h"), camera_table()).hands[0]
    assert [f.seat for f in partly.flags if f.kind is FlagKind.REPLACEMENTS_MISMATCH] == [2]
    assert not partly.resolutions
    both = run(short_last_draw("Kc Qd 9h 8s", extra=True), camera_table()).hands[0]
    assert sorted(f.message.split(" (")[0] for f in both.flags) == [
        "seat 2 discarded 1 and got 2 replacements", "seat 2 discarded 3 and got 1 replacement"]
    assert not both.resolutions and both.awards and both.awards[-1].pending


def test_a_discard_seen_before_the_replacement_the_camera_confirms_late_is_in_order_at_a_camera_table() -> None:
    """Seat 1 discards 1; seat 2's discard is seen half a second before seat 1's replacement (a camera confirms a
    pitched card up to a second late): at a camera's table the replacement may have landed first, no flag. Seen 1.5 s
    after, seat 2 discarded before seat 1 was served. From an entered stream, flagged at once."""
    def hand(late_s: float) -> Script:
        s = Script().deal_all(ORDER).act(3, "call").act(1, "call").act(2, "check")
        s.discard(1, 1).discard(2, 1)
        s.frame += round((late_s - 0.5) * 30)
        return s.replace(1).replace(2).act(1, "check").act(2, "check").act(3, "check")

    assert kinds(run(hand(0.5), camera_table())) == []
    assert kinds(run(hand(1.5), camera_table())) == [("draw_out_of_order", 2)]
    assert kinds(run(hand(0.5))) == [("draw_out_of_order", 2)]


def test_a_card_too_many_out_of_turn_is_one_flag() -> None:
    """Seat 1 gets a card out of turn, then the seat due (2) gets the next and the deal goes on: one misdeal flag
    for seat 1's extra card, not a skip of seats 2 and 3 around the table and a count flag."""
    s = Script().deal(1, 2, 3, 1, 1, 2, 3, 1, 2, 3, 1, 2, 3).act(3, "call")
    referee = run(s)
    assert kinds(referee) == [("card_to_wrong_seat", 1)]
    assert "out of turn (seat 2 was due, and got the next card)" in referee.flags[0].message
    assert referee.flags[0].severity is Severity.MISDEAL


def test_seat_skipped_then_made_up_at_the_end() -> None:
    s = Script().deal(1, 3, 1, 2, 3, 1, 2, 3, 1, 2, 3, 2).act(3, "call")
    assert kinds(run(s)) == [("seat_skipped", 2)]


def test_wrong_card_count_short_and_over() -> None:
    short = Script().deal(*(ORDER * 3), 1).act(3, "call")      # seats 2 and 3 got 3 cards: the deal stopped
    referee = run(short)
    assert kinds(referee) == [("wrong_card_count", 2), ("wrong_card_count", 3)]
    assert referee.prompt.actor == 1                           # the action was applied after the flag
    last = Script().deal(*(ORDER * 3), 1, 2).act(3, "call")    # one card short at the end: the button skipped
    assert kinds(run(last)) == [("seat_skipped", 3)]
    over = Script().deal_all(ORDER).deal(2).act(3, "call")      # seat 2 got a fifth card
    assert kinds(run(over)) == [("wrong_card_count", 2)]


def test_card_exposed_in_the_deal() -> None:
    s = Script().deal(1, 2).up(3, "Kh").deal(*(ORDER * 3)).act(3, "call")
    referee = run(s)
    assert kinds(referee) == [("card_exposed", 3)]
    assert referee.flags[0].severity is Severity.MISDEAL and "Kh" in referee.flags[0].message


def test_a_card_left_face_up_and_seen_again_is_one_exposure() -> None:
    """The card exposed in the deal stays face up; the camera reads it again when the pile is read afresh (after the
    deal, and again in the betting). One card, one exposure: one flag (badacey-limit-triple seed 17, seat 1's 8s).
    A different card seen face up at the seat later is another exposure."""
    s = Script().deal(1, 2).up(3, "Kh").deal(*(ORDER * 3)).act(3, "call").seen_up(3, "Kh").act(1, "call")
    referee = run(s.seen_up(3, "Kh", "Qs"))
    assert kinds(referee) == [("card_exposed", 3), ("card_exposed", 3)]
    assert "Kh" in referee.flags[0].message and "Qs" in referee.flags[1].message


# -- draw flags ----------------------------------------------------------------------------------------


def pre_draw() -> Script:
    return Script().deal_all(ORDER).act(3, "call").act(1, "call").act(2, "check")


def test_three_replacements_for_two_discards() -> None:
    s = pre_draw().discard(1, 2).replace(1, 3).draw(2, 1).act(1, "check")
    referee = run(s)
    assert kinds(referee) == [("replacements_mismatch", 1)]
    assert "discarded 2 and got 3" in referee.flags[0].message


def test_replacements_short() -> None:
    s = pre_draw().discard(1, 2).replace(1, 1).draw(2, 1).act(1, "check")
    referee = run(s)
    assert kinds(referee) == [("replacements_mismatch", 1)]
    assert "1 short" in referee.flags[0].message
    assert referee.prompt.actor == 2                            # the check stood; betting moved on


def test_a_card_in_the_draw_to_a_seat_that_did_not_discard_says_so() -> None:
    """Seat 1, first to draw, gets a card without discarding: not "discarded 0 and got 1 replacements"."""
    referee = run(pre_draw().replace(1, 1).draw(2, 1).draw(3, 0).act(1, "check"))
    assert kinds(referee) == [("replacements_mismatch", 1)]
    assert referee.flags[0].message == "seat 1 got 1 card in the draw without discarding"


def test_replacements_short_for_the_last_seat() -> None:
    s = pre_draw().draw(1, 1).discard(3, 2).replace(3, 1).act(1, "check")
    assert kinds(run(s)) == [("replacements_mismatch", 3)]


def test_draw_out_of_order_after_the_next_seat_drew() -> None:
    s = pre_draw().draw(2, 1).draw(1, 2).act(1, "check")        # seat 1 (first to draw) drew after seat 2
    referee = run(s)
    assert kinds(referee) == [("draw_out_of_order", 1)]
    assert referee.prompt.actor == 2


def test_draw_out_of_order_discarding_before_the_seat_before_is_served() -> None:
    s = pre_draw().discard(1, 2).discard(2, 1).replace(1, 2).replace(2, 1).act(1, "check")
    assert kinds(run(s)) == [("draw_out_of_order", 2)]


def test_discard_returned_in_the_same_round() -> None:
    s = pre_draw().discard(1, 1, ("Kh",)).replace(1, 1, "Kh").act(1, "check")
    referee = run(s)
    assert kinds(referee) == [("discard_returned", 1)]
    assert referee.flags[0].option == "last_card_dealable"


# -- betting flags -------------------------------------------------------------------------------------


def test_action_out_of_turn_stands_when_its_turn_comes() -> None:
    s = Script().deal_all(ORDER).act(1, "call").act(3, "call").act(2, "check")
    referee = run(s)
    assert kinds(referee) == [("action_out_of_turn", 1)]
    assert referee.prompt.phase == "drawing"                    # seat 1's call stood after seat 3 acted


def test_a_missing_action_costs_one_flag_not_the_hand() -> None:
    """Seat 3's pre-draw call was never entered; the table drew: one flag, the rest refereed, the right award."""
    s = Script().deal_all(ORDER).act(1, "call").act(2, "check")
    rest = clean_badugi().items[len(Script().deal_all(ORDER).items) + 3:]
    referee = run(Script(items=s.items + rest, frame=10_000))
    assert kinds(referee) == [("action_out_of_turn", 1), ("action_out_of_turn", 2), ("action_missing", 3)]
    flag = referee.flags[-1]
    assert "taken as a call" in flag.message and "seats 1 and 2 waited on it" in flag.message
    hand = referee.hands[0]
    assert hand.end is not None and hand.end.status == "complete"
    assert hand.awards[-1].award.totals == {1: 0, 2: 26, 3: 0}


def pat_badugi() -> Script:
    """Every seat stands pat in the first and second draws, so nothing is seen between those betting rounds; seat 2
    wins 26 at showdown against seat 3; seat 1 folds after the first draw."""
    s = Script().deal_all(ORDER)
    s.act(3, "call").act(1, "call").act(2, "check")
    s.act(1, "check").act(2, "bet", 2).act(3, "call").act(1, "fold")
    s.act(2, "check").act(3, "check")
    s.draw(2, 0).draw(3, 1)
    s.act(2, "bet", 4).act(3, "raise", 8).act(2, "call")
    return s.show(3, "Kc Qd 9h 8s").show(2, "Ac 2d 3h 4s").gather()


HANDS = {"badugi": (clean_badugi, LIMIT), "badacey": (clean_badacey, BADACEY_PL), "badugi-pat": (pat_badugi, LIMIT)}
PASSIVE = [(name, i) for name, (make, _) in HANDS.items()
           for i, x in enumerate(make().items) if isinstance(x, DealerAction) and x.action in ("check", "call")]


def test_a_hand_where_every_seat_stands_pat_is_clean() -> None:
    hand = run(pat_badugi()).hands[0]
    assert hand.flags == []
    assert hand.awards[-1].award.totals == {1: 0, 2: 26, 3: 0}


def test_a_missing_action_before_a_draw_where_every_seat_stood_pat() -> None:
    """No card shows that the table went on, but the next entries (seat 1's check, then seat 2's bet 2, which cannot
    stand before the draw) fit the betting after it: the round is closed there, not stalled until the hand is voided
    at the gather (seat 2's missing check made its bet 2 a wrong-size raise, and the hand had no award)."""
    items = pat_badugi().items
    check = next(i for i, x in enumerate(items) if isinstance(x, DealerAction) and (x.seat, x.action) == (2, "check"))
    referee = run(Script(items=items[:check] + items[check + 1:]))
    assert kinds(referee) == [("action_out_of_turn", 1), ("action_missing", 2)]
    message = referee.flags[1].message
    assert "taken as a check" in message and "seat 2's bet the last, fit the betting after draw 1" in message
    hand = referee.hands[0]
    assert hand.end is not None and hand.end.status == "complete"
    assert hand.awards[-1].award.totals == {1: 0, 2: 26, 3: 0}


def reraised_badugi(skip_first_call: bool = False) -> Script:
    """Pre-draw, seat 2 raises and seat 3 re-raises, so seat 1 acts twice; seat 2 wins 18 at showdown (all pat)."""
    s = Script().deal_all(ORDER).act(3, "call")
    if not skip_first_call:
        s.act(1, "call")
    s.act(2, "raise", 4).act(3, "raise", 6).act(1, "call").act(2, "call")
    s.act(1, "check").act(2, "check").act(3, "check")
    s.act(1, "check").act(2, "check").act(3, "check")
    s.act(1, "check").act(2, "check").act(3, "check")
    return s.show(1, "Kc Qd 9h 8s").show(2, "Ac 2d 3h 4s").show(3, "Kd Qs 9c 8h").gather()


def test_a_missing_action_shown_by_the_seats_next_entry_after_the_rest_of_the_round() -> None:
    """Seat 1's first call was never entered: seats 2 and 3 raise out of turn, then seat 1's call comes, which fits
    only as its second say after their raises. Seat 1's missing call is flagged, not its real one applied in its place
    (that left seat 1 owing the re-raise and the hand stalled)."""
    referee = run(reraised_badugi(skip_first_call=True))
    assert kinds(referee) == [("action_out_of_turn", 2), ("action_out_of_turn", 3), ("action_missing", 1)]
    assert "seat 1's call came after every other seat still to act had entered its action" in referee.flags[-1].message
    hand = referee.hands[0]
    assert hand.end is not None and hand.end.status == "complete"
    clean = run(reraised_badugi()).hands[0].awards[-1].award.totals
    assert hand.awards[-1].award.totals == clean == {1: 0, 2: 18, 3: 0}


def test_an_entry_from_a_seat_still_to_act_in_the_round_is_only_out_of_turn() -> None:
    """Seat 2 (the big blind) still has its option when seat 1's call is missing: its check waits, nothing is closed."""
    referee = run(Script().deal_all(ORDER).act(3, "call").act(2, "check"))
    assert kinds(referee) == [("action_out_of_turn", 2)]
    assert referee.prompt.phase == "betting before the draw" and referee.prompt.actor == 1


@pytest.mark.parametrize(("name", "drop"), PASSIVE)
def test_any_one_check_or_call_left_unentered_keeps_the_award(name: str, drop: int) -> None:
    """The table went on without the entry: the award stands and only the action order is flagged, with at most
    one missing action, the dropped seat's (or its next entry in the round fills its turn)."""
    make, rules = HANDS[name]
    script, config = make(), table(rules)
    whole = run(script, config).hands[0].awards[-1].award.totals
    dropped = script.items[drop]
    assert isinstance(dropped, DealerAction)
    referee = run(Script(items=script.items[:drop] + script.items[drop + 1:]), config)
    hand = referee.hands[0]
    assert hand.end is not None and hand.end.status == "complete"
    assert hand.awards[-1].award.totals == whole
    order = {"action_out_of_turn", "fold_out_of_order", "action_missing"}
    assert {kind for kind, _ in kinds(referee)} <= order
    assert [seat for kind, seat in kinds(referee) if kind == "action_missing"] in ([dropped.seat], [])


def test_a_missing_action_after_the_last_draw_is_settled_when_the_cards_are_gathered() -> None:
    items = clean_badugi().items
    call = next(i for i, x in enumerate(items) if isinstance(x, DealerAction) and x.seat == 2 and x.action == "call")
    referee = run(Script(items=items[:call] + items[call + 1:]))
    assert kinds(referee) == [("action_missing", 2)]
    assert "after draw 3" in referee.flags[0].message and "taken as a call" in referee.flags[0].message
    assert referee.hands[0].awards[-1].award.totals == {1: 0, 2: 26, 3: 0}


def test_a_call_taken_as_missing_then_entered_late_is_that_call() -> None:
    """Seat 1's pre-draw call is entered only after the draw: the draw cards made the referee take it as called
    (one flag), and the late entry, with nothing to call now, is that call, not seat 1's next action (it stood for
    seat 1's check after the draw, and seat 1's real check then came out of turn)."""
    items = clean_badugi().items
    call = next(i for i, x in enumerate(items) if isinstance(x, DealerAction) and (x.seat, x.action) == (1, "call"))
    check = next(i for i, x in enumerate(items) if isinstance(x, DealerAction) and (x.seat, x.action) == (1, "check"))
    late = items[:call] + items[call + 1 : check] + [items[call]] + items[check:]
    referee = run(Script(items=late))
    assert kinds(referee) == [("action_out_of_turn", 2), ("action_missing", 1)]
    assert referee.hands[0].awards[-1].award.totals == {1: 0, 2: 26, 3: 0}


def _keyed_in_time_then_late(hand: Callable[[float], Script], totals: dict[int, int]) -> tuple[Referee, Referee]:
    """`hand(gap)` at a camera's table with its late entry keyed in time (gap 0) is clean, awarded `totals` as final;
    the hand keyed past `ENTRY_LAG_S` at a camera's table, and in time away from one, refereed for the caller."""
    referee = closed(hand(0.0), camera_table())
    assert kinds(referee) == []
    award = referee.hands[0].awards[-1]
    assert not award.provisional and dict(award.award.totals) == totals
    return closed(hand(1.5), camera_table()), closed(hand(0.0), table())


def test_a_check_keyed_late_as_the_camera_sees_the_draw_begin_is_no_missing_action_at_a_camera_table() -> None:
    """The big blind checks; the dealer keys it a second late, after the camera saw seat 1 discard and take its draw
    cards, which showed the round was over: seat 2 was taken to check (a missing-action flag), and the check, keyed
    then, ended the draw as if every other seat stood pat, so seat 2's discard after it was "after draw 1 was over".
    At a camera's table the flag waits `ENTRY_LAG_S` for the entry, which is then the check seat 2 was taken to make:
    no flag, and the draw goes on. Keyed later, or away from a camera, as before."""
    def hand(gap: float) -> Script:
        s = Script().deal_all(ORDER).act(3, "call").act(1, "call").discard(1, 2).replace(1, 2)
        s.wait(gap).act(2, "check").draw(2, 1).draw(3, 0)
        for _ in range(3):
            s.act(1, "check").act(2, "check").act(3, "check")
        return s.show(1, "Ac 2d 3h 4s").show(2, "Kc Qd 9h 8s").show(3, "Kd Qc 9s 8h").gather()

    for late in _keyed_in_time_then_late(hand, {1: 6, 2: 0, 3: 0}):
        assert kinds(late) == [("action_missing", 2), ("draw_out_of_order", 2)]
        assert late.flags[0].t == hand(0.0).items[15].t          # the time the draw card showed the round over


def test_a_call_taken_as_missing_entered_after_the_seats_next_say_is_still_that_call() -> None:
    """Seat 1's pre-draw call comes only after its check after the draw: it is still the call it was taken to make,
    not a say of its own (it waited for seat 1's next turn, stood there for its fold, and moved chips)."""
    items = clean_badugi().items
    call = next(i for i, x in enumerate(items) if isinstance(x, DealerAction) and (x.seat, x.action) == (1, "call"))
    check = next(i for i, x in enumerate(items) if isinstance(x, DealerAction) and (x.seat, x.action) == (1, "check"))
    late = items[:call] + items[call + 1 : check + 1] + [items[call]] + items[check + 1 :]
    referee = run(Script(items=late))
    assert kinds(referee) == [("action_out_of_turn", 2), ("action_missing", 1)]
    hand = referee.hands[0]
    assert hand.awards[-1].award.totals == {1: 0, 2: 26, 3: 0} and not hand.awards[-1].provisional


def reraised_after_the_draw(late_call: bool) -> Script:
    """Seat 1 calls before the draw (or that entry comes only when seat 1 faces seat 3's raise after it), then checks
    and, facing the raise, folds; seat 2 wins 22 at showdown against seat 3."""
    s = Script().deal_all(ORDER).act(3, "call")
    if not late_call:
        s.act(1, "call")
    s.act(2, "check").draw(1, 2).draw(2, 1).draw(3, 0)
    s.act(1, "check").act(2, "bet", 2).act(3, "raise", 4)
    if late_call:
        s.act(1, "call")
    s.act(1, "fold").act(2, "call")
    s.draw(2, 0).draw(3, 0).act(2, "check").act(3, "check").draw(2, 0).draw(3, 0)
    s.act(2, "bet", 4).act(3, "call")
    return s.show(2, "Ac 2d 3h 4s").show(3, "Kc Qd 9h 8s").gather()


def test_a_call_that_may_be_a_late_one_holds_the_award_when_the_seats_next_entry_does_not_fit() -> None:
    """Seat 1's pre-draw call comes only when seat 1 faces seat 3's raise after the draw. It stands there (a call is
    due), but seat 1's real fold then comes after the seat has acted: the call was the late one, the chips are wrong
    (seat 1 is in for the raise), and the award waits on the floor instead of being made as final."""
    assert run(reraised_after_the_draw(late_call=False)).hands[0].awards[-1].award.totals == {1: 0, 2: 22, 3: 0}
    referee = run(reraised_after_the_draw(late_call=True))
    errors = [f for f in referee.flags if f.severity is Severity.ERROR]
    assert [(f.kind, f.seat) for f in errors] == [(FlagKind.ACTION_OUT_OF_TURN, 1)]
    assert "seat 1's call" in errors[0].message and "entered late" in errors[0].message
    hand = referee.hands[0]
    assert hand.awards[-1].provisional and referee.flags.index(errors[0]) in hand.awards[-1].pending


def _call_keyed_a_place_late(late: bool, shown: bool = False) -> Script:
    """Seats 2 and 3 draw to the end; after draw 2 seat 2 bets and seat 3 calls, after draw 3 seat 2 bets and seat 3
    folds. With `late`, seat 3's call after draw 2 is keyed only after seat 2's bet after draw 3 (with `shown`, seat
    2's hand is turned up before seat 3's fold)."""
    s = Script().deal_all(ORDER).act(3, "call").act(1, "fold").act(2, "check")
    s.draw(2, 1).draw(3, 1).act(2, "check").act(3, "check")
    s.draw(2, 1).draw(3, 2).act(2, "bet", 4)
    if not late:
        s.act(3, "call")
    s.draw(2, 0).draw(3, 1).act(2, "bet", 4)
    if late:
        s.act(3, "call")
    if shown:
        s.show(2, "Ac 2d 3h 4s")
    return s.act(3, "fold").gather()


def test_a_fold_right_after_a_call_that_may_be_a_late_one_holds_the_award() -> None:
    """Seat 3's call after draw 2 is keyed a place late, when seat 3 faces seat 2's bet after draw 3: the draw cards
    had the referee take it as called (a warning), and the late call fits as seat 3's say now, so it stood, and
    seat 3's fold right after it was read as a muck at the showdown: seat 2 got 21, not 17, final (2 of 2,323 such
    moves in `benchmarks/referee_entries.py`). A fold right after a doubted call, nothing between, is what a seat
    facing the bet would do: an error flag now holds the award. With seat 2's hand shown before the fold, it reads as
    a muck after the show: the award stands, as before."""
    assert dict(run(_call_keyed_a_place_late(False)).hands[0].awards[-1].award.totals) == {1: 0, 2: 17, 3: 0}
    referee = run(_call_keyed_a_place_late(True))
    assert kinds(referee) == [("action_missing", 3), ("action_out_of_turn", 3)]
    assert referee.flags[1].severity is Severity.ERROR and "folded right after it" in referee.flags[1].message
    award = referee.hands[0].awards[-1]
    assert award.provisional and award.pending == (1,)
    shown = run(_call_keyed_a_place_late(True, shown=True))
    assert kinds(shown) == [("action_missing", 3)] and not shown.hands[0].awards[-1].provisional


def test_an_entry_left_waiting_when_its_round_closes_is_dropped_and_holds_the_award() -> None:
    """Seat 3's re-raise entered while seat 2 was to act never came due (seat 2 called and the round closed): it is
    dropped, not carried into a later turn, and since it moved chips the award waits on the floor."""
    s = Script().deal_all(ORDER)
    s.act(3, "call").act(1, "call").act(2, "check")
    s.act(1, "check").act(2, "check").act(3, "check")
    s.act(1, "check").act(2, "check").act(3, "check")
    s.act(1, "fold").act(2, "bet", 4).act(3, "raise", 8).act(3, "raise", 12).act(1, "check").act(2, "call")
    referee = run(s.show(3, "Kc Qd 9h 8s").show(2, "Ac 2d 3h 4s").gather())
    dropped = [f for f in referee.flags if "the betting round closed without" in f.message]
    assert [(f.seat, f.severity) for f in dropped] == [(3, Severity.ERROR)]
    assert "raise to 12" in dropped[0].message and "chips in the pots may be wrong" in dropped[0].message
    hand = referee.hands[0]
    assert hand.awards[-1].award.totals == {1: 0, 2: 22, 3: 0}
    assert hand.awards[-1].provisional


def test_a_fold_entered_that_never_came_due_holds_the_award() -> None:
    """Seat 3's fold is entered out of turn, then seats 1 and 2 fold: seat 3 is the last hand in and its fold never
    came due. The pot goes to a seat the dealer said folded, so the award waits on the floor."""
    s = Script().deal_all(ORDER).act(3, "call").act(1, "call").act(2, "check")
    s.draw(1, 0).draw(2, 0).draw(3, 0)
    referee = run(s.act(3, "fold").act(1, "fold").act(2, "fold"))
    never = [f for f in referee.flags if "never came due" in f.message]
    assert [(f.seat, f.severity) for f in never] == [(3, Severity.ERROR)]
    assert "a seat the dealer said folded" in never[0].message
    assert referee.hands[0].awards[-1].provisional


def _bet_and_called_after_the_last_draw() -> Script:
    """Seats 1 to 3 dealt; seat 1 folds, seats 2 and 3 check and stand pat to the last draw, then seat 2 bets and seat
    3 calls: seat 2, the last aggressor, shows first."""
    s = Script().deal_all(ORDER)
    s.act(3, "call").act(1, "fold").act(2, "check")
    s.act(2, "check").act(3, "check").act(2, "check").act(3, "check")  # after draws 1 and 2 (all stand pat)
    return s.act(2, "bet", 4).act(3, "call")                           # after draw 3


def test_a_muck_before_the_first_shower_gathered_its_cards_concedes_the_pot() -> None:
    """Seat 2 bet last, so it shows first; seat 3's cards go to the muck before that (the camera saw them go) and seat
    2's are gathered unshown, with the pot pushed to it. Seat 3 gave up its hand: it is dead whatever the show order,
    and seat 2, the last hand in, wins without showing (HOUSE_RULES, Betting), as a final award with no flag. Taking
    seat 2 as mucking first at the gather handed the pot to seat 3's dead hand (badugi seed 10 of the hand videos)."""
    s = _bet_and_called_after_the_last_draw()
    referee = run(s.fold(3).gather())
    assert referee.flags == []
    award = referee.hands[0].awards[-1]
    assert award.award.totals == {1: 0, 2: 13, 3: 0} and not award.provisional
    assert "uncontested: every other seat folded or mucked" in " ".join(award_sentences(award.award))
    # the same hand with seat 2 showing first: the same award, and seat 3's muck comes after the show
    referee = run(Script(items=[*s.items[:-2]]).show(2, "Ac 2d 3h 4s").fold(3).gather())
    assert referee.flags == [] and referee.hands[0].awards[-1].award.totals == {1: 0, 2: 13, 3: 0}


def test_a_hand_shown_unread_wins_when_the_others_mucked() -> None:
    """Seat 2, due to show first, turns its hand up but the camera reads none of it; seat 3 sees it and mucks. The pot
    is seat 2's whatever it holds: seat 3's hand is dead, and a last hand in needs no reading. Before, the unread show
    held the award for the floor (badugi seed 10 of the hand videos, once the tracker reported that show)."""
    s = _bet_and_called_after_the_last_draw()
    referee = run(s.show(2, "").fold(3).gather())
    assert referee.flags == []
    award = referee.hands[0].awards[-1]
    assert award.award.totals == {1: 0, 2: 13, 3: 0} and not award.provisional
    # no muck: the unread show still leaves the pot to the floor
    referee = run(_bet_and_called_after_the_last_draw().show(2, "").gather())
    assert referee.hands[0].awards == [] and [f.kind.value for f in referee.flags] == ["unexpected_event"]


def test_a_hand_kept_unseen_to_the_gather_at_a_camera_table_leaves_the_pot_to_the_floor() -> None:
    """Seat 2, due to show first, is neither seen face up nor seen going to the muck; seat 3 shows, and the cards are
    gathered. From an entered stream seat 2 kept its cards and is taken to muck: the pot is seat 3's. At a camera's
    table the camera may have missed seat 2's show (the tracker once left a hand it read for 4 s face down to the
    gather, and the pot went whole to the other seat, final): no award, the floor decides, told which hand."""
    entered = run(_bet_and_called_after_the_last_draw().show(3, "Kc Qd 9h 8s").gather())
    assert entered.flags == [] and entered.hands[0].awards[-1].award.totals == {1: 0, 2: 0, 3: 13}
    seen = run(_bet_and_called_after_the_last_draw().show(3, "Kc Qd 9h 8s").gather(), camera_table())
    assert seen.hands[0].awards == [] and kinds(seen) == [("unexpected_event", 2)]
    assert "seat 2's hand was gathered without being seen face up or going to the muck" in seen.flags[0].message
    # seen going to the muck, it is a muck at the camera's table too
    mucked = run(_bet_and_called_after_the_last_draw().fold(2).show(3, "Kc Qd 9h 8s").gather(), camera_table())
    assert mucked.flags == [] and mucked.hands[0].awards[-1].award.totals == {1: 0, 2: 0, 3: 13}


def test_a_muck_before_the_first_shower_mucks_is_dead_first() -> None:
    """Seat 2 bet last, so it shows first; seat 3's cards go to the muck, then seat 2's (tossed after seat 3 gave up,
    or taken in by the dealer with the pot pushed). Seat 3's hand was dead first: seat 2 was then the last hand in and
    wins. Taking the mucks in show order handed the pot, as a final award, to the hand mucked first."""
    s = _bet_and_called_after_the_last_draw()
    referee = run(s.fold(3).fold(2).gather())
    assert referee.flags == []
    assert referee.hands[0].awards[-1].award.totals == {1: 0, 2: 13, 3: 0}


@pytest.mark.parametrize("which", [(3, "call"), (2, "bet"), (3, "raise")])
def test_an_entry_keyed_twice_is_one_entry(which: tuple[int, str]) -> None:
    """The dealer's key pressed twice: the second entry, 50 ms later and not the seat's turn, is a repeat with an info
    flag, not the seat's next say (it waited for that turn and moved chips there)."""
    import dataclasses

    items = clean_badugi().items
    i = next(i for i, x in enumerate(items) if isinstance(x, DealerAction) and (x.seat, x.action) == which)
    twice = dataclasses.replace(items[i], t=items[i].t + 0.05)
    referee = run(Script(items=[*items[:i + 1], twice, *items[i + 1:]]))
    assert [(f.kind, f.severity, f.seat) for f in referee.flags] == [
        (FlagKind.UNEXPECTED_EVENT, Severity.INFO, which[0])]
    assert "entered twice in a row" in referee.flags[0].message
    award = referee.hands[0].awards[-1]
    assert award.award.totals == {1: 0, 2: 26, 3: 0} and not award.provisional


def test_the_same_entry_a_round_later_is_a_say_of_its_own() -> None:
    """Seat 2 checks after draw 2 and seat 3's check is never entered; seat 2's check after draw 3 repeats its last
    entry, but seconds later (a draw between): it is a say of its own, out of turn while seat 3 is to act, not a
    repeat to drop."""
    s = Script().deal_all(ORDER).act(3, "call").act(1, "fold").act(2, "check")
    s.frame += 90                                   # each draw all pat: 3 s and nothing for the camera to see
    s.act(2, "check").act(3, "check")
    s.frame += 90
    s.act(2, "check")
    s.frame += 90
    s.act(2, "check").act(3, "bet", 4).act(2, "call")
    referee = run(s.show(3, "Kc Qd 9h 8s").show(2, "Ac 2d 3h 4s").gather())
    assert [(f.kind, f.seat) for f in referee.flags] == [(FlagKind.ACTION_OUT_OF_TURN, 2)]


def test_a_raise_entered_for_the_wrong_seat_holds_the_award() -> None:
    """Seat 2's re-raise is keyed in for seat 3 while seat 2 is to act; seat 3's own call then replaces it before its
    turn. The raise is lost and seat 2 is taken to have called: the award is wrong, so it must not be final."""
    s = Script().deal_all(ORDER).act(3, "call").act(1, "call").act(2, "check")
    s.act(1, "check").act(2, "check").act(3, "check")
    s.act(1, "check").act(2, "check").act(3, "check")
    s.act(1, "bet", 4).act(3, "raise", 8).act(3, "call").act(1, "call")   # seat 2's raise, entered as seat 3's
    referee = run(s.show(2, "Ac 2d 3h 4s").show(3, "Kc Qd 9h 8s").show(1, "Kd Qs 9c 8h").gather())
    errors = [f for f in referee.flags if f.severity is Severity.ERROR]
    assert (errors[0].kind, errors[0].seat) == (FlagKind.ACTION_OUT_OF_TURN, 3)
    assert "seat 3's raise to 8" in errors[0].message and "another seat's say" in errors[0].message
    assert referee.hands[0].awards[-1].provisional


def four_seats(wrong_fold: bool) -> Script:
    """Four seats, button 4: after the first draw seat 1 folds (the camera sees its cards go to the muck), seat 2 bets
    and seats 3 and 4 call; seat 2 wins 14 at showdown. `wrong_fold`: seat 1's fold is keyed in for seat 2."""
    s = Script().deal_all((1, 2, 3, 4)).act(3, "call").act(4, "call").act(1, "call").act(2, "check")
    s.draw(1, 0).draw(2, 0).draw(3, 0).draw(4, 0)
    s.act(2 if wrong_fold else 1, "fold").fold(1).act(2, "bet", 2).act(3, "call").act(4, "call")
    for _ in range(2):
        s.draw(2, 0).draw(3, 0).draw(4, 0).act(2, "check").act(3, "check").act(4, "check")
    return s.show(2, "Ac 2d 3h 4s").show(3, "Kc Qd 9h 8s").show(4, "Kd Qs 9c 8h").gather()


def test_a_fold_keyed_in_for_the_wrong_seat_is_the_fold_the_camera_saw() -> None:
    """Seat 1's fold is keyed in for seat 2 while seat 1 is to act, and the camera sees seat 1's cards go to the muck
    and seat 2's stay: the entry was seat 1's fold. One flag, and the award is the clean hand's (before, seat 2 was
    folded too and its winning hand lost the pot)."""
    config = table(seats=4, button=4)
    clean = run(four_seats(wrong_fold=False), config).hands[0].awards[-1].award.totals
    assert clean == {1: 0, 2: 14, 3: 0, 4: 0}
    referee = run(four_seats(wrong_fold=True), config)
    assert [(f.kind, f.seat) for f in referee.flags] == [(FlagKind.FOLD_OUT_OF_ORDER, 2)] * 2
    assert "keyed in for the wrong seat" in referee.flags[1].message
    award = referee.hands[0].awards[-1]
    assert award.award.totals == clean and not award.provisional


def test_a_seat_entered_as_folded_that_acts_again_with_its_cards_holds_the_award() -> None:
    """Seat 2's fold is entered in its turn, but the camera never sees its cards go to the muck, and it acts again
    after the draw: the fold was probably another seat's, so an error flag holds the award."""
    s = Script().deal_all((1, 2, 3, 4)).act(3, "call").act(4, "call").act(1, "call").act(2, "check")
    s.draw(1, 0).draw(2, 0).draw(3, 0).draw(4, 0)
    s.act(1, "check").act(2, "fold").act(3, "check").act(4, "check")
    s.draw(1, 0).draw(2, 0).draw(3, 0).draw(4, 0).act(1, "check").act(2, "check").act(3, "check").act(4, "check")
    s.act(1, "check").act(3, "check").act(4, "check")
    referee = run(s.show(1, "Ac 2d 3h 4s").show(3, "Kc Qd 9h 8s").show(4, "Kd Qs 9c 8h").gather(),
                  table(seats=4, button=4))
    errors = [f for f in referee.flags if f.severity is Severity.ERROR]
    assert [(f.kind, f.seat) for f in errors] == [(FlagKind.ILLEGAL_ACTION, 2)]
    assert "entered as folded, but its cards never went to the muck" in errors[0].message
    assert referee.hands[0].awards[-1].provisional


def test_a_discard_before_the_round_closes_is_flagged_and_counts_in_the_draw() -> None:
    s = Script().deal_all(ORDER).act(3, "call").act(1, "call").discard(1, 2).act(2, "check")
    s.replace(1, 2).draw(2, 1).draw(3, 0).act(1, "check")
    referee = run(s)
    assert kinds(referee) == [("unexpected_event", 1)]
    assert "while seat 2 was still to act" in referee.flags[0].message
    assert referee.prompt.phase == "betting after draw 1" and referee.prompt.actor == 2


def test_a_stray_card_in_a_betting_round_does_not_close_it() -> None:
    referee = run(Script().deal_all(ORDER).act(3, "call").replace(1))
    assert kinds(referee) == [("unexpected_event", 1)]
    assert referee.prompt.phase == "betting before the draw" and referee.prompt.actor == 1


def test_wrong_bet_size_fixed_limit() -> None:
    s = pre_draw().draw(1, 1).act(1, "bet", 3).act(2, "call").act(3, "call")
    referee = run(s)
    assert kinds(referee) == [("wrong_bet_size", 1)]
    flag = referee.flags[0]
    assert flag.option == "betting" and "exactly 2" in flag.message
    assert referee.run is not None and referee.run.hand.contributions() == {1: 4, 2: 4, 3: 4}


def test_wrong_bet_size_pot_limit_over_the_pot() -> None:
    rules = HouseRules.preset("badugi-pot-limit")
    s = Script().deal_all(ORDER).act(3, "raise", 20)           # pot limit: max raise to 7 (2 + 3 + 2)
    referee = run(s, table(rules))
    assert kinds(referee) == [("wrong_bet_size", 3)]
    assert "to 4 to 7 now; taken as a raise to 7" in referee.flags[0].message


@pytest.mark.parametrize(("stack", "word", "amount", "flags"), [
    (15, "raise", 15, []),                                 # every chip, short of the 30 to call: the all-in call
    (15, "bet", 15, []),                                   # the word pressed does not matter
    (15, "raise", 20, [("wrong_bet_size", 3)]),            # more than it has: taken as the all-in call, flagged
    (30, "raise", 30, []),                                 # every chip, exactly the call
])
def test_a_raise_to_every_chip_a_seat_has_no_more_than_the_call_is_its_all_in_call(
        stack: int, word: str, amount: int, flags: list[tuple[str, int]]) -> None:
    rules = HouseRules.preset("badugi-no-limit")
    config = TableConfig.make(rules, {1: 100, 2: 100, 3: stack}, button=3)
    s = Script().deal_all(ORDER).act(3, "call").act(1, "raise", 30).act(2, "fold").act(3, word, amount)  # type: ignore[arg-type]
    referee = run(s, config)
    assert kinds(referee) == flags
    assert referee.run is not None and referee.run.hand.contributions()[3] == stack
    assert referee.prompt.phase.startswith("draw")


def test_a_raise_below_the_all_in_call_is_still_refused() -> None:
    """A raise to fewer chips than the seat has, short of the call: not what any seat could do (a typo): refused."""
    config = TableConfig.make(HouseRules.preset("badugi-no-limit"), {1: 100, 2: 100, 3: 15}, button=3)
    referee = run(Script().deal_all(ORDER).act(3, "call").act(1, "raise", 30).act(2, "fold").act(3, "raise", 10),
                  config)
    assert kinds(referee) == [("illegal_action", 3)] and referee.prompt.actor == 3


def test_illegal_check_facing_a_bet() -> None:
    s = Script().deal_all(ORDER).act(3, "check").act(3, "call")
    referee = run(s)
    assert kinds(referee) == [("illegal_action", 3)]
    assert referee.prompt.actor == 1


def test_fold_out_of_order_seen_by_the_camera() -> None:
    s = Script().deal_all(ORDER).fold(1).act(3, "call").act(2, "check")
    referee = run(s)
    assert kinds(referee) == [("fold_out_of_order", 1)]
    assert referee.run is not None and referee.run.hand.in_hand() == (2, 3)


def test_fold_entered_and_seen_is_one_fold() -> None:
    s = Script().deal_all(ORDER).act(3, "fold").fold(3).act(1, "call").act(2, "check")
    referee = run(s)
    assert kinds(referee) == []


# -- showdown ------------------------------------------------------------------------------------------


def test_show_out_of_order() -> None:
    s = clean_badugi()
    items = s.items[:-3]
    s2 = Script(items=items, frame=10_000).show(2, "Ac 2d 3h 4s").show(3, "Kc Qd 9h 8s").gather()
    referee = run(s2)
    assert kinds(referee) == [("show_out_of_order", 2)]        # seat 3 raised last: it shows first
    assert referee.hands[0].awards[-1].award.totals[2] == 26


def test_split_pot_odd_chip_reason() -> None:
    s = Script().deal_all(ORDER).act(3, "call").act(1, "call").act(2, "check")
    s.act(1, "check").act(2, "check").act(3, "check")
    s.act(1, "check").act(2, "check").act(3, "check")
    s.act(1, "bet", 4).act(2, "call").act(3, "fold")
    s.show(1, "Ac 2d 3h 4s").show(2, "As 2c 3d 4h").gather()
    referee = run(s)
    award = referee.hands[0].awards[-1].award
    assert kinds(referee) == []
    assert award.totals == {1: 7, 2: 7, 3: 0}


# -- hands, corrections, determinism -------------------------------------------------------------------


def test_new_hand_after_gather_and_button_move() -> None:
    s = clean_badugi().button(1).deal_all((2, 3, 1)).act(1, "fold").act(2, "fold").gather()
    referee = run(s)
    assert [h.start.button for h in referee.hands] == [3, 1]
    assert referee.hands[1].start.stacks_by_seat == {1: 98, 2: 114, 3: 88}
    assert kinds(referee) == []
    assert referee.hands[1].end is not None and referee.hands[1].end.status == "complete"


def test_button_moves_on_by_itself() -> None:
    s = clean_badugi().deal_all((2, 3, 1)).act(1, "fold").act(2, "fold").gather()
    referee = run(s)
    assert referee.hands[1].start.button == 1 and kinds(referee) == []


def test_gathered_after_a_misdeal_flag_ends_as_misdeal() -> None:
    s = Script().deal(1, 3, 3, 1, 2).gather()
    referee = run(s)
    end = referee.hands[0].end
    assert end is not None and end.status == "misdeal"


def test_corrections_are_new_records() -> None:
    sink = RecordingSink()
    referee = Referee(table(), sink)
    s = pre_draw().discard(1, 1, ("Kh",)).replace(1, 1, "Kh")
    referee.feed_all(s.items)
    assert [f.kind for f in referee.flags] == [FlagKind.DISCARD_RETURNED]
    index = len(referee.hands[0].inputs) - 1
    assert referee.correct_card(index, card=_card("Qs"), reason="the replacement was the Qs", by="floor") == []
    referee.dismiss_flag(0, reason="misread: the card was the Qs", by="floor")
    assert referee.hands[0].resolutions[0].kind == "dismiss_flag"
    assert referee.hands[0].inputs[index].card is not None                         # type: ignore[union-attr]
    referee.void_hand(reason="player dispute", by="floor")
    assert referee.hands[0].end is not None and referee.hands[0].end.status == "void"
    assert [getattr(r[2], "kind", None) for r in sink.records if r[0] == "correction"] == [
        "misread_card", "dismiss_flag", "void_hand"]


def test_misread_correction_referees_the_hand_again() -> None:
    s = Script().deal_all(ORDER).act(3, "fold").act(1, "call").act(2, "check")
    for _ in range(3):
        s.act(1, "check").act(2, "check")
    s.show(1, "Ac 2d 3h 4s").show(2, "Kc Qd Jh Ts")
    sink = RecordingSink()
    referee = Referee(table(), sink)
    referee.feed_all(s.items)
    before = referee.award
    assert before is not None and before.totals == {1: 4, 2: 0, 3: 0}
    index = len(referee.hands[0].inputs) - 2
    out = referee.correct_card(index, card=_card("4h"), was=_card("4s"), reason="the 4s was the 4h", by="floor")
    awards = [o for o in out if isinstance(o, AwardMade)]
    assert len(awards) == 1 and awards[0].award.totals == {1: 0, 2: 4, 3: 0}
    assert referee.award == awards[0].award
    assert str(referee.hands[0].inputs[index].cards[3]) == "4s"     # type: ignore[union-attr]  # what was seen stays
    assert [r[0] for r in sink.records].count("output") >= 2


def _card(text: str):  # type: ignore[no-untyped-def]
    from dealer_assist.cards import parse_card

    return parse_card(text)


@pytest.mark.parametrize("make", [clean_badugi, lambda: Script().deal(1, 3, 1, 2, 3, 1, 2, 3, 1, 2, 3).act(1, "call")
                                  .act(3, "bet", 5).act(3, "call").act(1, "call").act(2, "check")
                                  .discard(2, 1).discard(1, 2).replace(1, 3).replace(2).act(2, "check").gather()])
def test_replay_is_deterministic(make) -> None:  # type: ignore[no-untyped-def]
    items = make().items
    first, second = RecordingSink(), RecordingSink()
    a = Referee(table(), first)
    prompts_a = []
    for item in items:
        a.feed(item)
        prompts_a.append(a.prompt)
    b = Referee.replay(table(), a.inputs, second)
    assert first.records == second.records
    c = Referee(table())
    prompts_c = []
    for item in a.inputs:
        c.feed(item)
        prompts_c.append(c.prompt)
    assert prompts_a == prompts_c
    assert [h.flags for h in a.hands] == [h.flags for h in b.hands]
    assert [h.awards for h in a.hands] == [h.awards for h in b.hands]


def test_heads_up_button_posts_the_small_blind_and_acts_first() -> None:
    config = TableConfig.make(LIMIT, {1: 50, 2: 50}, button=2)
    s = Script().deal_all((1, 2)).act(1, "check")                 # seat 1 is the big blind: not its turn
    referee = run(s, config)
    assert kinds(referee) == [("action_out_of_turn", 1)]
    assert referee.flags[0].option == "heads_up_button_small_blind"
    assert referee.prompt.actor == 2
    referee.feed_all(Script(frame=1000).act(2, "call").draw(1, 1).draw(2, 2).act(1, "check").act(2, "check").items)
    assert referee.prompt.phase == "drawing" and kinds(referee) == [("action_out_of_turn", 1)]


def test_all_cards_to_the_muck_in_a_draw_is_a_discard() -> None:
    s = pre_draw().fold(1).replace(1, 4).draw(2, 1).act(1, "check")   # the camera took a full discard for a fold
    referee = run(s)
    assert kinds(referee) == [] and referee.prompt.actor == 2


def test_table_config_from_a_profile() -> None:
    from dealer_assist.errors import DealerAssistError
    from dealer_assist.vision.table_profile import oval_profile

    profile = oval_profile(6)
    config = TableConfig.for_profile(profile, LIMIT, button=4)
    assert [s for s, _ in config.stacks] == [1, 2, 3, 4, 5, 6] and config.button == 4
    assert TableConfig.for_profile(profile, LIMIT, {2: 50, 5: 80}).stacks_by_seat == {2: 50, 5: 80}
    with pytest.raises(DealerAssistError, match="not at table"):
        TableConfig.for_profile(profile, LIMIT, {2: 50, 9: 80})


def test_a_full_discard_confirmed_late_is_refereed_in_time_order() -> None:
    """Discard-then-replace: the camera confirms a seat's full discard only when its own cards come."""
    from dealer_assist.vision.events import CardsDiscarded

    rules = HouseRules.preset("badacey-pot-limit-double")
    s = Script().deal_all(ORDER, size=5).act(3, "call").act(1, "call").act(2, "check")
    early_t = s.frame / 30 + 0.1                                  # seat 3 pushed all 5 cards in first
    s.discard(1, 2).replace(1, 2)
    late = CardsDiscarded(early_t, round(early_t * 30), 3, 5)
    s.items.append(late)                                          # ... seen only now
    s.replace(3, 5).act(1, "check").act(2, "check").act(3, "check")
    referee = run(s, table(rules))
    assert kinds(referee) == []
    assert referee.prompt.phase == "drawing" and referee.run is not None and referee.run.hand.draw == 2
    replayed = Referee.replay(table(rules), referee.inputs)
    assert [h.flags for h in replayed.hands] == [h.flags for h in referee.hands]


def test_a_live_hand_drawing_at_the_showdown_holds_the_award() -> None:
    """Every betting round entered, then seat 3 discards and draws at the showdown: the table had a draw the entries
    did not give the referee, so the chips it followed may be wrong. An error flag holds the award (a warning
    before); a folded seat's cards going in stay a warning."""
    s = _bet_and_called_after_the_last_draw()
    betting = list(s.items)
    clean = run(Script(items=list(betting)).show(2, "Ac 2d 3h 4s").show(3, "Kc Qd 9h 8s").gather())
    assert not clean.flags and not clean.hands[0].awards[-1].provisional
    referee = run(s.draw(3, 1).show(2, "Ac 2d 3h 4s").show(3, "Kc Qd 9h 8s").gather())
    errors = [f for f in referee.flags if f.severity is Severity.ERROR]
    assert [(f.kind, f.seat) for f in errors] == [(FlagKind.UNEXPECTED_EVENT, 3)]
    assert "after the last draw, at the showdown" in errors[0].message
    hand = referee.hands[0]
    assert hand.awards[-1].award.totals == clean.hands[0].awards[-1].award.totals and hand.awards[-1].provisional
    folded = run(Script(items=list(betting)).discard(1, 4).show(2, "Ac 2d 3h 4s").show(3, "Kc Qd 9h 8s").gather())
    assert folded.flags and all(f.severity is not Severity.ERROR for f in folded.flags)


@pytest.mark.parametrize(("entry", "severity"), [(("bet", 4), Severity.ERROR), (("call", None), Severity.ERROR),
                                                 (("check", None), Severity.WARNING)])
def test_chips_entered_at_the_showdown_hold_the_award(entry: tuple[str, int | None], severity: Severity) -> None:
    """Every betting round entered, then seat 3's bet (or call) is keyed in while the hands are being shown: a betting
    round the entries had not given the referee, so its pots may be wrong and the award waits on the floor. A check
    moves no chips: a warning, as before."""
    s = _bet_and_called_after_the_last_draw()
    referee = run(s.show(2, "Ac 2d 3h 4s").act(3, entry[0], entry[1]).show(3, "Kc Qd 9h 8s").gather())
    late = [f for f in referee.flags if f.seat == 3 and f.kind is FlagKind.ACTION_OUT_OF_TURN]
    assert [f.severity for f in late] == [severity]
    assert referee.hands[0].awards[-1].provisional == (severity is Severity.ERROR)
    if severity is Severity.ERROR:
        assert "at the showdown" in late[0].message and "chips in the pots may be wrong" in late[0].message


def test_an_entry_that_ends_a_draw_is_recorded_in_the_betting_round_it_opens() -> None:
    """Seat 3, last to draw, stands pat (the camera sees nothing): seat 1's check ends the draw. It is the next betting
    round's entry, and is recorded so (the story read "seat 1 checks [drawing]" before)."""
    referee = Referee(table(), sink := RecordingSink())
    referee.feed_all(clean_badugi().items)
    phases = [(item.seat, item.action, phase) for kind, _, _, item, phase in
              (r for r in sink.records if r[0] == "input") if isinstance(item, DealerAction)]
    assert phases[3] == (1, "check", "betting")          # the first entry after draw 1, where seat 3 stood pat
    assert all(phase == "betting" for *_, phase in phases)
    assert referee.hands[0].flags == []


def _bet_then_muck(wait_s: float) -> Script:
    """Every round checked through the draws (all stand pat); after the last draw seat 3 bets, its cards go to the muck
    (the camera), and the calls of seats 1 and 2 are keyed `wait_s` + 0.5 and + 1.0 s after that (a dealer keying
    late); then the showdown."""
    s = Script().deal_all(ORDER).act(3, "call").act(1, "call").act(2, "check")
    for _ in range(2):
        s.act(1, "check").act(2, "check").act(3, "check")
    s.act(1, "check").act(2, "check").act(3, "bet", 4).fold(3)
    s.wait(wait_s)
    return s.act(1, "call").act(2, "call").show(1, "Ac 2d 3h 5s").show(2, "Kc Qd 9h 8s")


def test_a_card_seen_face_up_before_the_last_check_is_keyed_is_the_show_beginning_at_a_camera_table() -> None:
    """After the last draw every seat checks; seat 3's check is keyed late, after the camera saw seat 3 turn a card
    up for the showdown: that read "card Kd was seen face up at seat 3 (betting)" (through the detector, entries keyed
    0.3 to 1.2 s late, 2 such flags on clean hand videos). At a camera's table a card seen face up in the last betting
    round waits `ENTRY_LAG_S` for the showdown; it comes, so it was the show beginning: no flag. So does one seen
    while the last draw is still on as far as the entries tell (every check of the last round keyed late). Keyed
    later, or away from a camera, an exposure, flagged at the time and in the phase it was seen."""
    def hand(gap: float, in_draw: bool = False) -> Script:
        s = Script().deal_all(ORDER).act(3, "call").act(1, "call").act(2, "check")
        for _ in range(2):
            s.act(1, "check").act(2, "check").act(3, "check")
        if in_draw:
            s.seen_up(3, "Kd").wait(gap)
        s.act(1, "check").act(2, "check")
        if not in_draw:
            s.seen_up(3, "Kd").wait(gap)
        s.act(3, "check")
        return s.show(1, "Ac 2d 3h 5s").show(2, "Kc Qd 9h 8s").show(3, "Kd Qc 9s 8h").gather()

    for in_draw in (False, True):
        for late in _keyed_in_time_then_late(functools.partial(hand, in_draw=in_draw), {1: 6, 2: 0, 3: 0}):
            assert kinds(late) == [("card_exposed", 3)]
            phase = "drawing" if in_draw else "betting"
            assert late.flags[0].message == f"card Kd was seen face up at seat 3 ({phase})"
            assert late.flags[0].t == next(x.t for x in hand(0.0, in_draw).items if isinstance(x, CardExposed))


def test_cards_seen_going_before_the_last_calls_keyed_late_are_not_out_of_turn_nor_a_muck() -> None:
    """The bettor's cards go 0.5 s before the first call is keyed (the calls were made, the dealer keys them late):
    the round closes within `ENTRY_LAG_S` of it, so no out-of-turn flag (badugi-limit seed 2, entries 0.3 to 1.2 s
    late). Nor is it taken as a muck: cards picked up to be turned face up look the same, and a show the camera then
    misses, keyed in by the dealer, must count (badugi-limit seed 10: taken as a muck, the pot went to the other seat,
    a wrong award made final). Keyed 2 s after, the cards went while the round was open: out of turn, as before."""
    referee = run(_bet_then_muck(0.0), camera_table())
    assert kinds(referee) == [] and not referee.hands[0].awards          # seat 3's hand is not known: no award yet
    keyed = _bet_then_muck(0.0)
    keyed.frame += 15
    keyed.items.append(CardsShown(keyed.frame / 30, keyed.frame, 3, parse_cards("As 2h 3c 4d"), entered=True))
    referee = run(keyed, camera_table())
    award = referee.hands[0].awards[-1]
    assert kinds(referee) == [] and award.award.totals[3] > 0 and award.award.totals[1] == 0
    late = run(_bet_then_muck(1.5), camera_table())
    assert kinds(late) == [("fold_out_of_order", 3)]


def test_cards_seen_going_before_the_last_calls_keyed_late_are_the_seats_muck_at_the_gather() -> None:
    """The same hand gathered with seat 3's hand neither shown nor keyed in: the cards the camera saw go were its muck
    at its showdown turn, so the pot goes to the best hand shown (seat 1), with no flag; at entries keyed 1 s late, 8
    of 180 clean simulated hands were left to the floor ("gathered without being seen face up or going to the muck").
    Out of turn by more than `ENTRY_LAG_S` (the round was open when they went), it stays the floor's, as before."""
    referee = run(_bet_then_muck(0.0).gather(), camera_table())
    assert kinds(referee) == []
    award = referee.hands[0].awards[-1]
    assert not award.provisional and award.award.totals[1] > 0 and award.award.totals[3] == 0
    late = run(_bet_then_muck(1.5).gather(), camera_table())
    assert kinds(late) == [("fold_out_of_order", 3), ("unexpected_event", 3)] and not late.hands[0].awards


def _muck_while_the_last_seat_draws(wait_s: float = 0.0, card: bool = False, as_discard: bool = False) -> Script:
    """Seats 1 and 2 draw; seat 3, last to draw, stands pat (the camera sees nothing) and its whole hand goes to the
    muck: it folds facing seat 1's bet, keyed `wait_s` + 0.5 s later (a dealer keying late). With `card`, 4 cards
    land at seat 3 at once instead: it drew 4, and plays on. With `as_discard`, the camera reports the cards going as
    a discard of 4 (the tracker, told the draw is on, reads a whole hand going so), not a fold."""
    s = Script().deal_all(ORDER).act(3, "call").act(1, "call").act(2, "check")
    s.draw(1, 2).draw(2, 1)
    s.discard(3, 4) if as_discard else s.fold(3)
    if card:
        s.replace(3, 4)
    s.wait(wait_s).act(1, "bet", 2).act(2, "call").act(3, "call" if card else "fold")
    for _ in range(2):
        s.act(1, "check").act(2, "check")
        if card:
            s.act(3, "check")
    s.show(1, "Ac 2d 3h 4s").show(2, "Kc Qd 9h 8s")
    return (s.show(3, "Kd Qc 9s 8h") if card else s).gather()


def test_a_whole_hand_seen_going_before_the_entry_that_ends_the_draw_keyed_late_is_a_fold_in_the_betting() -> None:
    """At a camera's table, seat 3's cards go while draw 1 is still on as far as the entries tell (seat 3 to draw):
    that read as a discard of all 4, then "discarded 4 and got 0 replacements" (at entries keyed 1 s late, 2 of 180
    clean simulated hands). Seat 1's bet keyed within `ENTRY_LAG_S` says the draw was over: seat 3 stood pat and
    folded facing the bet. Past that time, or with cards landing at the seat first (it drew 4), or away from a camera,
    it is a discard of all 4, as before. The same when the camera reports the cards going as a discard of all 4 (2 of
    the 56 hand videos through the detector, entries keyed 0.3 to 1.2 s late)."""
    for as_discard in (False, True):
        referee = closed(_muck_while_the_last_seat_draws(as_discard=as_discard), camera_table())
        assert kinds(referee) == [], as_discard
        award = referee.hands[0].awards[-1]
        assert not award.provisional and dict(award.award.totals) == {1: 10, 2: 0, 3: 0}
        for late in (closed(_muck_while_the_last_seat_draws(1.5, as_discard=as_discard), camera_table()),
                     closed(_muck_while_the_last_seat_draws(as_discard=as_discard), table())):
            assert kinds(late) == [("replacements_mismatch", 3)]
            assert "seat 3 discarded 4 and got 0 replacements" in late.flags[0].message
        drew = closed(_muck_while_the_last_seat_draws(card=True, as_discard=as_discard), camera_table())
        assert kinds(drew) == [] and dict(drew.hands[0].awards[-1].award.totals)[1] == 12


@pytest.mark.parametrize("camera", [True, False])
def test_chips_keyed_for_a_folded_seat_hold_the_award(camera: bool) -> None:
    """Seat 2 folds (the camera sees its cards go; the dealer keys the fold), then a call or a raise is keyed for it:
    chips the referee could not put in the pots (a say keyed after the fold that replaced it, or another seat's keyed
    for it), so the pots may be wrong: an error, and the award waits on the floor. A check moves nothing: a warning,
    the award final. The camera saw the cards go, so the flag does not say they never did."""
    def hand(entry: tuple[str, int | None] | None) -> Referee:
        s = Script().deal_all(ORDER).act(3, "call").act(1, "call").act(2, "check")
        s.draw(1, 2).draw(2, 1).draw(3, 0).act(1, "bet", 2).fold(2).act(2, "fold").act(3, "call")
        if entry is not None:
            s.act(2, entry[0], entry[1])  # type: ignore[arg-type]
        for _ in range(2):
            s.act(1, "check").act(3, "check")
        s.show(1, "Ac 2d 3h 4s").show(3, "Kc Qd 9h 8s").gather()
        return closed(s, camera_table() if camera else table())

    for entry, severity in ((("call", None), Severity.ERROR), (("raise", 4), Severity.ERROR),
                            (("check", None), Severity.WARNING), (None, None)):
        referee = hand(entry)
        assert [(f.kind, f.severity) for f in referee.flags] == ([] if severity is None else
                                                                  [(FlagKind.ILLEGAL_ACTION, severity)])
        award = referee.hands[0].awards[-1]
        assert dict(award.award.totals) == {1: 10, 2: 0, 3: 0} and award.provisional == (severity is Severity.ERROR)
        if entry is not None:
            message = referee.flags[0].message
            assert message.startswith(f"seat 2 has folded; {entry[0]} not applied")
            assert ("the chips in the pots may be wrong" in message) == (severity is Severity.ERROR)


def _fold_after_drawing(wait_s: float) -> Script:
    """Seats 1 and 2 draw; seat 2's cards go to the muck (the camera: it folds facing seat 1's bet), and the entries
    that end the draw come `wait_s` + 0.5 s after (seat 1's bet, keyed late; seat 2's fold keyed too)."""
    s = Script().deal_all(ORDER).act(3, "call").act(1, "call").act(2, "check")
    s.draw(1, 2).draw(2, 1).fold(2)
    s.wait(wait_s)
    s.act(1, "bet", 2).act(2, "fold").act(3, "call")
    s.act(1, "check").act(3, "check").act(1, "check").act(3, "check")
    return s.show(1, "Ac 2d 3h 4s").show(3, "Kc Qd 9h 8s")


def _discard_before_the_checks(wait_s: float) -> Script:
    """Seat 1 draws 2 in draw 1; the round after it is all checks, keyed late: seat 1's discard in draw 2 is seen
    `wait_s` + 0.5 s before the first check is keyed."""
    s = Script().deal_all(ORDER).act(3, "call").act(1, "call").act(2, "check")
    s.draw(1, 2).discard(1, 1)
    s.wait(wait_s)
    s.act(1, "check").act(2, "check").act(3, "check").replace(1, 1)
    for _ in range(2):
        s.act(1, "check").act(2, "check").act(3, "check")
    return s.show(1, "Ac 2d 3h 4s").show(2, "Kc Qd 9h 8s").show(3, "Kd Qc 9s 8h")


def test_what_the_camera_sees_before_the_entries_that_end_a_draw_keyed_late_belongs_after_it() -> None:
    """At a camera's table the dealer keys the betting's first entries late, so the camera can see the table past
    the draw before the referee knows the draw is over (true events, entries keyed 1 s late: 10 of 180 clean hands
    flagged, 2 now). A seat done drawing whose cards go to the muck folded in the betting; a seat done drawing that
    discards again is drawing in the next draw, the round between all checks. Held for `ENTRY_LAG_S`: the entries
    ending the draw came within it, no flag; 2 s later, the fold during the draw and the second discard are flagged
    as before."""
    for script, flag in ((_fold_after_drawing, ("fold_out_of_order", 2)),
                         (_discard_before_the_checks, ("draw_out_of_order", 1))):
        referee = run(script(0.0), camera_table())
        assert kinds(referee) == [], script.__name__
        assert referee.hands[0].awards and referee.hands[0].awards[-1].award.totals[1] > 0
        assert kinds(run(script(1.5), camera_table())) == [flag], script.__name__
        assert kinds(run(script(0.0))) == [flag], script.__name__          # strictly refereed: at once


def test_a_false_second_discard_as_the_draw_closes_on_time_stays_in_its_draw() -> None:
    """The camera reads seat 1, done drawing, discarding again just before the first entry of the betting keyed on time
    closes the draw; the round then takes seconds (a bet, calls). The next draw does not open within `ENTRY_LAG_S`,
    so it was no early discard of the next draw: flagged in its own draw, and the rest of the hand follows in order
    (taken for the next draw's, it had the referee jump a betting round: badacey-limit-triple seed 17)."""
    s = Script().deal_all(ORDER).act(3, "call").act(1, "call").act(2, "check")
    s.draw(1, 2).discard(1, 1)
    s.act(1, "check").act(2, "bet", 2).act(3, "call").act(1, "call")
    for _ in range(2):
        s.act(1, "check").act(2, "check").act(3, "check")
    s.show(1, "Ac 2d 3h 4s").show(2, "Kc Qd 9h 8s").show(3, "Kd Qc 9s 8h")
    referee = run(s, camera_table())
    assert kinds(referee) == [("draw_out_of_order", 1)], [f.message for f in referee.flags]
    assert "seat 1 discarded 1 during draw 1 after it had drawn in it" in referee.flags[0].message
    assert referee.hands[0].awards and referee.prompt.phase != "betting"
