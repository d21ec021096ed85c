"""The hand log: SQLite (WAL) records of every event, hash-chained, with queries and exports."""

from dealer_assist.store.chain import ChainHead
from dealer_assist.store.handlog import HandLog, snapshot_file
from dealer_assist.store.paths import LOG_ENV, default_log_path, resolve_log_path
from dealer_assist.store.records import (
    CORRECTION_TARGETS,
    HAND_STATUSES,
    HandEnd,
    HandStory,
    HandSummary,
    RecordRef,
    StoredAction,
    StoredAward,
    StoredCorrection,
    StoredEvent,
    StoredFlag,
    StoredRecord,
    StoredSnapshot,
)
from dealer_assist.store.verify import Problem, VerifyReport

__all__ = [
    "CORRECTION_TARGETS",
    "HAND_STATUSES",
    "LOG_ENV",
    "ChainHead",
    "HandEnd",
    "HandLog",
    "HandStory",
    "HandSummary",
    "Problem",
    "RecordRef",
    "StoredAction",
    "StoredAward",
    "StoredCorrection",
    "StoredEvent",
    "StoredFlag",
    "StoredRecord",
    "StoredSnapshot",
    "VerifyReport",
    "default_log_path",
    "resolve_log_path",
    "snapshot_file",
]
