"""Hand-evaluation speed against PokerKit, measured in the same process on the same hands.

Prints `name: value` lines, each the median of several repeats:

- `badugi_eval_per_s`: `evaluate_badugi` single calls on 4 Card objects (a full HandValue: rank,
  name and the cards that play); `badugi_pokerkit_per_s`: `BadugiHand.from_game` on the same
  hands; `badugi_eval_speedup_vs_pokerkit` is their ratio. `badugi_rank_per_s`: rank only.
- `badugi5_eval_per_s`: Badacey's Badugi half (best four of five).
- `badugi_batch_eval_per_s` (an (N, 4) int64 array), `badugi_batch_uint8_per_s`,
  `badugi5_batch_eval_per_s`.
- The same for ace-to-five low against `RegularLowHand.from_game` (`a5_*`).
- `badugi_table_build_s`, `a5_table_build_s`: building the lookup tables in a fresh interpreter.

Run: `.venv/bin/python benchmarks/rules_eval.py`.
"""

from __future__ import annotations

import random
import statistics
import subprocess
import sys
import time
from collections.abc import Callable, Sequence

import numpy as np
from pokerkit import BadugiHand, RegularLowHand
from pokerkit import Card as PKCard

from dealer_assist.cards import FULL_DECK, Card
from dealer_assist.rules import badugi, lowball

REPEATS = 5
SINGLE_HANDS = 20_000
POKERKIT_HANDS = 2_000
BATCH_HANDS = 1_000_000


def _pk(cards: Sequence[Card]) -> tuple[PKCard, ...]:
    return tuple(next(iter(PKCard.parse(str(c)))) for c in cards)


def _per_second(fn: Callable[[], object], count: int, repeats: int = REPEATS) -> float:
    """Median items per second of `fn`, which handles `count` items per call."""
    fn()
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return count / statistics.median(times)


def _loop(fn: Callable[[Sequence[Card]], object], hands: Sequence[Sequence[Card]]) -> Callable[[], None]:
    def run() -> None:
        for hand in hands:
            fn(hand)

    return run


def _pk_loop(cls: type[BadugiHand] | type[RegularLowHand], hands: Sequence[tuple[PKCard, ...]]) -> Callable[[], None]:
    def run() -> None:
        for hand in hands:
            cls.from_game(hand)

    return run


def _build_seconds(module: str) -> float:
    """Seconds to build a module's tables in a fresh interpreter (median of three)."""
    code = (
        "import time; import importlib; m = importlib.import_module('dealer_assist.rules." + module + "'); "
        "t = time.perf_counter(); m.warm_up(); print(time.perf_counter() - t)"
    )
    runs = [float(subprocess.check_output([sys.executable, "-c", code], text=True)) for _ in range(3)]
    return statistics.median(runs)


def _random_rows(count: int, size: int, seed: int) -> np.ndarray:
    rng = np.random.default_rng(seed)
    return np.ascontiguousarray(np.argsort(rng.random((count, 52)), axis=1)[:, :size])


def measure() -> dict[str, float]:
    """Every figure, PokerKit measured in the same run on the same hands."""
    rnd = random.Random(2024)
    out: dict[str, float] = {}
    out["badugi_table_build_s"] = _build_seconds("badugi")
    out["a5_table_build_s"] = _build_seconds("lowball")
    badugi.warm_up()
    lowball.warm_up()

    hands4 = [tuple(rnd.sample(FULL_DECK, 4)) for _ in range(SINGLE_HANDS)]
    hands5 = [tuple(rnd.sample(FULL_DECK, 5)) for _ in range(SINGLE_HANDS)]
    pk4 = [_pk(h) for h in hands4[:POKERKIT_HANDS]]
    pk5 = [_pk(h) for h in hands5[:POKERKIT_HANDS]]

    out["badugi_eval_per_s"] = _per_second(_loop(badugi.evaluate_badugi, hands4), SINGLE_HANDS)
    out["badugi_rank_per_s"] = _per_second(_loop(badugi.badugi_rank, hands4), SINGLE_HANDS)
    out["badugi_pokerkit_per_s"] = _per_second(_pk_loop(BadugiHand, pk4), POKERKIT_HANDS)
    out["badugi_eval_speedup_vs_pokerkit"] = out["badugi_eval_per_s"] / out["badugi_pokerkit_per_s"]
    out["badugi5_eval_per_s"] = _per_second(_loop(badugi.evaluate_badugi, hands5), SINGLE_HANDS)
    out["badugi5_pokerkit_per_s"] = _per_second(_pk_loop(BadugiHand, pk5), POKERKIT_HANDS)
    out["badugi5_eval_speedup_vs_pokerkit"] = out["badugi5_eval_per_s"] / out["badugi5_pokerkit_per_s"]

    out["a5_eval_per_s"] = _per_second(_loop(lowball.evaluate_a5, hands5), SINGLE_HANDS)
    out["a5_rank_per_s"] = _per_second(_loop(lowball.a5_rank, hands5), SINGLE_HANDS)
    out["a5_pokerkit_per_s"] = _per_second(_pk_loop(RegularLowHand, pk5), POKERKIT_HANDS)
    out["a5_eval_speedup_vs_pokerkit"] = out["a5_eval_per_s"] / out["a5_pokerkit_per_s"]
    out["a5_rank_speedup_vs_pokerkit"] = out["a5_rank_per_s"] / out["a5_pokerkit_per_s"]

    rows5 = _random_rows(BATCH_HANDS, 5, seed=1)
    rows4 = np.ascontiguousarray(rows5[:, :4])
    rows4_u8 = rows4.astype(np.uint8)
    out["badugi_batch_eval_per_s"] = _per_second(lambda: badugi.evaluate_badugi_batch(rows4), BATCH_HANDS)
    out["badugi_batch_uint8_per_s"] = _per_second(lambda: badugi.evaluate_badugi_batch(rows4_u8), BATCH_HANDS)
    out["badugi5_batch_eval_per_s"] = _per_second(lambda: badugi.evaluate_badugi_batch(rows5), BATCH_HANDS)
    out["a5_batch_eval_per_s"] = _per_second(lambda: lowball.evaluate_a5_batch(rows5), BATCH_HANDS)
    return out


def main() -> None:
    for name, value in measure().items():
        print(f"{name}: {value:.6g}" if value < 1000 else f"{name}: {value:.0f}")


if __name__ == "__main__":
    main()
