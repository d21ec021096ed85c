"""What the hand-video benchmark counts against the truth (`synth.track_eval.TrackedVideo`): events invented outright
and events never reported, each by kind and seat within 2 s, not merely late or out of order."""

from __future__ import annotations

from dealer_assist.synth.track_eval import TrackedVideo
from dealer_assist.vision.events import CardDealt, CardReplaced, CardsDiscarded, TableEvent


def video(truth: list[TableEvent], found: list[TableEvent]) -> TrackedVideo:
    return TrackedVideo(0, "badugi-limit", 150, tuple(truth), tuple(found), tuple(e.t for e in found), (), 15.0)


def test_invented_and_unseen_are_what_no_event_of_that_kind_and_seat_explains_within_two_seconds() -> None:
    truth: list[TableEvent] = [CardDealt(1.0, 15, 1, None), CardsDiscarded(4.0, 60, 3, 2),
                               CardReplaced(5.0, 75, 2, None)]
    found: list[TableEvent] = [CardDealt(1.1, 16, 1, None), CardDealt(3.0, 45, 4, None),
                               CardReplaced(6.8, 102, 2, None)]          # late: out of the score's tolerance
    tracked = video(truth, found)
    score = tracked.score()
    assert CardReplaced(5.0, 75, 2, None) in score.missed            # missed by the score, but seen 1.8 s late
    assert tracked.unseen() == (CardsDiscarded(4.0, 60, 3, 2),)
    assert tracked.invented() == (CardDealt(3.0, 45, 4, None),)
    assert video(truth, []).unseen() == tuple(truth)


def test_landing_latency_counts_the_cards_dealt_and_replaced_alone() -> None:
    """The issue's 300 ms budget is for a card landing: the summary's landing latencies are those of the matched
    dealt and replaced cards, from the truth's landing to the frame that reported it (a discard's wait is its own)."""
    import math

    from pytest import approx

    from dealer_assist.synth.track_eval import summarise

    truth: list[TableEvent] = [CardDealt(1.0, 15, 1, None), CardsDiscarded(4.0, 60, 3, 2),
                               CardReplaced(5.0, 75, 3, None)]
    found: list[TableEvent] = [CardDealt(1.0, 15, 1, None), CardsDiscarded(4.0, 60, 3, 2),
                               CardReplaced(5.0, 75, 3, None)]
    emitted = (1.2, 6.0, 5.4)                  # the discard told 2 s late, the replacement 400 ms after it landed
    tracked = TrackedVideo(0, "badugi-limit", 150, tuple(truth), tuple(found), emitted, (), 15.0)
    s = summarise([tracked])
    assert s.landings_ms == approx((200.0, 400.0))
    assert s.landing_share_within(300) == approx(0.5)
    assert s.latency_max_ms == approx(2000.0)
    assert math.isnan(summarise([video(truth, [])]).landing_share_within(300))      # nothing matched: no figure
