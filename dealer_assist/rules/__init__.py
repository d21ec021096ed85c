"""The house rules engine: hand evaluators, house options, the hand state machine, pots and awards."""

from dealer_assist.rules.badugi import evaluate_badugi, evaluate_badugi_batch
from dealer_assist.rules.hand_value import HandValue
from dealer_assist.rules.lowball import evaluate_a5, evaluate_a5_batch

__all__ = ["HandValue", "evaluate_a5", "evaluate_a5_batch", "evaluate_badugi", "evaluate_badugi_batch"]
