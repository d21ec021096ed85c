"""A hand with a whole story for the hand-log tests: the deal, a misread corrected, actions, a key frame, a flag and
its dismissal, a draw and a show (then the tests add what they need: more shows, the award, the end)."""

from __future__ import annotations

from dealer_assist.audit.records import DealerAction, Flag, FlagKind, Severity
from dealer_assist.cards import parse_card, parse_cards
from dealer_assist.store import HandLog
from dealer_assist.vision.events import CardDealt, CardReplaced, CardsDiscarded, CardsShown

JPEG = b"\xff\xd8\xff\xe0frame"


def record_story(log: HandLog, session: int) -> int:
    """Start a hand in `session` at button 3 (seats 1 to 3) and record its story up to seat 3's show; its id."""
    h = log.start_hand(session, button=3, stacks={1: 500, 2: 400, 3: 300})
    for i, card in enumerate(parse_cards("Ac 2d 3h 4s 5c 6d 7h 8s 9c Td Jh Qs")):
        log.record_event(h, CardDealt(t=i * 0.5, frame=i * 15, seat=1 + i % 3, card=card))
    log.record_correction(h, "misread_card", target_id=2, data={"card": "Kd"}, reason="glare", by="floor bob")
    log.record_action(h, DealerAction(seat=1, action="raise", amount=4, t=6.0))
    log.record_action(h, DealerAction(seat=2, action="fold", t=6.5, source="vision"))
    log.record_action(h, DealerAction(seat=3, action="call", t=7.0))
    sha = log.save_snapshot(h, "exposed", JPEG, t=3.0, frame=45)
    flag = log.record_flag(h, Flag(FlagKind.CARD_EXPOSED, Severity.WARNING, 2, "deal: exposed card",
                                   "exposed_card_policy", "5c flashed", 3.0, 45), snapshot=sha)
    log.record_correction(h, "dismiss_flag", target_id=flag.id, reason="player flashed it", by="floor bob")
    log.record_event(h, CardsDiscarded(t=8.0, frame=240, seat=1, count=1, cards=(parse_card("Td"),)))
    log.record_event(h, CardReplaced(t=8.5, frame=255, seat=1, card=parse_card("Kh")))
    log.record_event(h, CardsShown(t=9.0, frame=300, seat=3, cards=parse_cards("3h 6d 9c Qs")))
    return h
