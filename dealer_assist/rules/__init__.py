"""The house rules engine: hand evaluators, house options, the hand state machine, pots and awards."""

from dealer_assist.rules.awards import Award, PotAward, Share, award_pots
from dealer_assist.rules.badugi import evaluate_badugi, evaluate_badugi_batch
from dealer_assist.rules.hand import Hand
from dealer_assist.rules.hand_value import HandValue
from dealer_assist.rules.house_rules import HouseRules
from dealer_assist.rules.lowball import evaluate_a5, evaluate_a5_batch
from dealer_assist.rules.pots import Pot, build_pots

__all__ = [
    "Award",
    "Hand",
    "HandValue",
    "HouseRules",
    "Pot",
    "PotAward",
    "Share",
    "award_pots",
    "build_pots",
    "evaluate_a5",
    "evaluate_a5_batch",
    "evaluate_badugi",
    "evaluate_badugi_batch",
]
