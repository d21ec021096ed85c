"""The referee: checks table events and dealer actions against the rules and raises flags and awards."""

from dealer_assist.audit.outputs import AwardMade, Correction, HandEnded, HandStart, KeyMoment
from dealer_assist.audit.records import DealerAction, Flag, FlagKind, LegalAction, Prompt, Severity
from dealer_assist.audit.referee import HandRecord, Referee
from dealer_assist.audit.sink import NullSink, RecordingSink, RefereeSink
from dealer_assist.audit.table import TableConfig

__all__ = [
    "AwardMade",
    "Correction",
    "DealerAction",
    "Flag",
    "FlagKind",
    "HandEnded",
    "HandRecord",
    "HandStart",
    "KeyMoment",
    "LegalAction",
    "NullSink",
    "Prompt",
    "RecordingSink",
    "Referee",
    "RefereeSink",
    "Severity",
    "TableConfig",
]
