"""Check all 2,598,960 five-card hands: ace-to-five ranks order exactly as PokerKit's RegularLowHand.

For every hand, PokerKit's lookup entry is compared with our batch rank: the two must map one to
one, and our rank order must be PokerKit's order (checked on one PokerKit hand per class). The
single-call path is checked against the batch path on every 13th hand. Takes a minute or two.

Run: `.venv/bin/python benchmarks/a5_full_check.py`; prints `name: value` lines, exits 1 on a mismatch.
"""

from __future__ import annotations

import sys
import time
from itertools import chain, combinations, pairwise

import numpy as np
from pokerkit import Card as PKCard
from pokerkit import RegularLowHand

from dealer_assist.cards import card_from_index
from dealer_assist.rules.lowball import CLASS_COUNT, a5_rank, evaluate_a5_batch

HANDS = 2_598_960


def main() -> int:
    start = time.perf_counter()
    pk_cards = tuple(next(iter(PKCard.parse(str(card_from_index(i))))) for i in range(52))
    ours_cards = tuple(card_from_index(i) for i in range(52))
    flat = np.fromiter(chain.from_iterable(combinations(range(52), 5)), dtype=np.int8, count=HANDS * 5)
    rows = flat.reshape(-1, 5)
    ranks = evaluate_a5_batch(rows).tolist()
    lookup = RegularLowHand.lookup
    entry_of_rank: dict[int, object] = {}
    rank_of_entry: dict[object, int] = {}
    hand_of_rank: dict[int, RegularLowHand] = {}
    problems = 0
    single_checked = 0
    for n, (row, rank) in enumerate(zip(rows.tolist(), ranks, strict=True)):
        cards = tuple(pk_cards[i] for i in row)
        entry = lookup.get_entry(cards)
        if rank not in entry_of_rank:
            entry_of_rank[rank] = entry
            hand_of_rank[rank] = RegularLowHand(cards)
        if entry_of_rank[rank] != entry or rank_of_entry.setdefault(entry, rank) != rank:
            problems += 1
            if problems <= 10:
                print(f"mismatch: {row} rank {rank} entry {entry}", file=sys.stderr)
        if n % 13 == 0:
            single_checked += 1
            if a5_rank([ours_cards[i] for i in row]) != rank:
                problems += 1
                print(f"single path differs on {row}", file=sys.stderr)
    ordered = [hand_of_rank[r] for r in sorted(hand_of_rank)]
    order_ok = all(better > worse for better, worse in pairwise(ordered))
    classes_ok = sorted(hand_of_rank) == list(range(1, CLASS_COUNT + 1))
    print(f"a5_hands_checked: {len(ranks)}")
    print(f"a5_classes_seen: {len(hand_of_rank)}")
    print(f"a5_single_path_checked: {single_checked}")
    print(f"a5_mismatches: {problems}")
    print(f"a5_order_matches_pokerkit: {int(order_ok and classes_ok)}")
    print(f"a5_full_check_s: {time.perf_counter() - start:.1f}")
    return 0 if problems == 0 and order_ok and classes_ok else 1


if __name__ == "__main__":
    sys.exit(main())
