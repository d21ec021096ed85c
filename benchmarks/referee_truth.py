"""The referee on simulated hands' true events at a camera's table: exactly the injected flags, none on clean hands.

`dealer-assist audit` must raise exactly the injected dealer errors' flags on a simulated video and none on a clean
one. Here the camera is perfect (the simulator's true events, as `audit --detector fake:` takes them), so what is
left is the referee's own: for every preset and seed, dealer errors injected on odd seeds (all four kinds, as
`vision_events.py` does), the dealer's entries keyed on time or late (`--action-lag A[:B]`, as `vision_events.py`
keys them). Prints the injected errors flagged, other flags on hands with errors, flags on clean hands, and the
awards against the hand refereed with its entries on time; `--verbose` lists each hand that is off.

    .venv/bin/python benchmarks/referee_truth.py [--seeds 0-29] [--action-lag 0.3:1.2] [--verbose]
"""

from __future__ import annotations

import argparse
from collections import Counter
from dataclasses import dataclass, field

from vision_events import (
    _actions,
    award_outcome,
    flag_outcome,
    lagged,
    truth_referee,
    unexplained_flags,
    unflagged_errors,
)

from dealer_assist.audit.referee import Referee
from dealer_assist.rules.house_rules import PRESETS
from dealer_assist.synth.hand_video import ERROR_KINDS, SimulatedTable, SimulationError


@dataclass
class Tally:
    """What the referee raised and awarded over the hands."""

    hands: int = 0
    clean_hands: int = 0
    injected: int = 0
    flagged: int = 0
    other_with_errors: int = 0
    flags_on_clean: int = 0
    awards: Counter[str] = field(default_factory=Counter)


def refereed(sim: SimulatedTable, lag: str) -> Referee:
    """The hand's true events and its dealer's entries (keyed `lag` late, "0" on time) through a camera's referee."""
    return truth_referee(sim, None if lag == "0" else lagged(_actions(sim), lag, f"{sim.truth.game}-{sim.truth.seed}"))


def measure(seeds: range, lag: str, verbose: bool = False) -> Tally:
    """Every preset's hands of `seeds`, errors injected on the odd ones."""
    tally = Tally()
    for game in PRESETS:
        for seed in seeds:
            try:
                sim = SimulatedTable(game, seed, size=(320, 180), errors=ERROR_KINDS if seed % 2 else ())
            except SimulationError:
                continue
            referee = refereed(sim, lag)
            injected, flagged, other, _, _ = flag_outcome(sim, referee)
            award = award_outcome(sim, referee)
            tally.hands += 1
            tally.clean_hands += not injected
            tally.injected += injected
            tally.flagged += flagged
            if injected:
                tally.other_with_errors += other
            else:
                tally.flags_on_clean += other
            tally.awards[award + (" (errors)" if injected else " (clean)")] += 1
            if verbose and (other or flagged < injected or not award.startswith("right")):
                print(f"# {game} seed {seed}: award {award}; flags no error explains: "
                      f"{[f.message for f in unexplained_flags(sim, referee)]}; errors not flagged: "
                      f"{[(e.kind, e.seat, e.detail) for e in unflagged_errors(sim, referee)]}")
    return tally


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", default="0-29", help="FIRST-LAST seeds per preset")
    parser.add_argument("--action-lag", default="0", metavar="SECONDS[:SECONDS]",
                        help="each entry keyed this late, or a seeded time between the two (as vision_events.py)")
    parser.add_argument("--verbose", action="store_true")
    args = parser.parse_args()
    first, _, last = args.seeds.partition("-")
    try:
        seeds = range(int(first), int(last or first) + 1)
        [float(x) for x in args.action_lag.split(":")]
    except ValueError:
        parser.error(f"--seeds {args.seeds!r} / --action-lag {args.action_lag!r}: accepted: 0-29 and 1.0 or 0.3:1.2")
    tally = measure(seeds, args.action_lag, args.verbose)
    print(f"hands: {tally.hands} ({tally.clean_hands} clean)")
    print(f"injected_errors_flagged: {tally.flagged} of {tally.injected}")
    print(f"other_flags_with_errors: {tally.other_with_errors}")
    print(f"flags_on_clean_hands: {tally.flags_on_clean}")
    for outcome, n in sorted(tally.awards.items()):
        print(f"awards_{outcome.replace(' ', '_').replace('(', '').replace(')', '')}: {n}")


if __name__ == "__main__":
    main()
