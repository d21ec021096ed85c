"""The referee when the dealer's entries go missing, come twice, late or for the wrong seat, on simulated hands.

For each clean simulated hand of every preset (the rules engine's simulator, as sim-video plays it, no camera), each
check or call is left out in turn, each fold is left out in turn (the camera still sees the cards go to the muck),
each entry is entered twice (a key pressed twice, 50 ms apart), each entry is entered for the wrong seat (the next
seat that makes entries in the hand), and each entry is moved after the next one, two or three entries. The figure
is how many of those hands end with another award than the clean hand's, split into a wrong award made as final
(the costly case), a wrong award made provisional (it waits on a flag for the floor) and none made (the referee
stopped and flagged the hand); and how many right awards were held as provisional (floor attention the hand did
not need). Prints `name: value` lines.

With `--keyed-late S,...`, instead: the same clean hands at a camera's table (the camera sees every event when it
happens), every entry keyed S seconds late, as a dealer keys the says after making them; how many hands are flagged
(each a false flag: the hands are clean) and how their awards fare against the hand refereed on time.

    .venv/bin/python benchmarks/referee_entries.py [--seeds 0-29] [--keyed-late 0.5,1,1.5,2]
"""

from __future__ import annotations

import argparse
import dataclasses
from collections.abc import Sequence

from dealer_assist.audit.records import DealerAction
from dealer_assist.audit.referee import Referee
from dealer_assist.audit.table import TableConfig
from dealer_assist.rules.house_rules import PRESETS, HouseRules
from dealer_assist.synth.hand_video import SimulationError, build_script
from dealer_assist.vision.events import TableEvent
from dealer_assist.vision.table_profile import oval_profile

Item = TableEvent | DealerAction


def simulated(game: str, seed: int) -> tuple[TableConfig, list[Item]]:
    """A clean simulated hand: its table and its events and entries in time order."""
    rules = HouseRules.preset(game)
    builder, hand = build_script(rules, oval_profile(9), seed, fps=15, errors=[])
    stacks = {s: hand.starting[i] for i, s in enumerate(hand.seats)}
    actions = [DealerAction(a["seat"], a["action"], a["amount"], t=a["t"]) for a in builder.actions]
    items = sorted([*builder.events, *actions], key=lambda x: (x.t, isinstance(x, DealerAction)))
    return TableConfig.make(rules, stacks, button=hand.button), items


def refereed(config: TableConfig, items: Sequence[Item]) -> Referee:
    """The hand refereed and the recording closed just after its last input."""
    referee = Referee(config)
    referee.feed_all(list(items))
    referee.close(items[-1].t + 0.01)
    return referee


def award(config: TableConfig, items: Sequence[Item]) -> tuple[dict[int, int] | None, bool]:
    """The hand's last award (None: none made) and whether it was provisional (made past a flag for the floor)."""
    referee = refereed(config, items)
    awards = referee.hands[0].awards if referee.hands else []
    return (dict(awards[-1].award.totals), awards[-1].provisional) if awards else (None, False)


def moved_late(items: Sequence[Item], i: int, j: int) -> list[Item]:
    """`items` with the entry at `i` moved to just after the item at `j` (the entry it is keyed after)."""
    late = dataclasses.replace(items[i], t=items[j].t + 0.01)
    return [*items[:i], *items[i + 1 : j + 1], late, *items[j + 1 :]]


def for_seat(items: Sequence[Item], i: int, seat: int) -> list[Item]:
    """`items` with the entry at `i` keyed for `seat`."""
    return [*items[:i], dataclasses.replace(items[i], seat=seat), *items[i + 1 :]]


def keyed_late(seeds: range, lags: Sequence[float]) -> tuple[int, dict[float, dict[str, int]]]:
    """Clean hands at a camera's table with every entry keyed `lag` s late: how many hands, and for each lag the hands
    flagged and their awards against the hand refereed on time (right, right but provisional, none, wrong
    provisional, wrong final)."""
    hands = [(config, items, award(config, items)[0]) for game in PRESETS for seed in seeds
             for config, items in [_simulated_or_none(game, seed)] if config is not None]
    tallies: dict[float, dict[str, int]] = {}
    for lag in lags:
        tally = tallies[lag] = dict.fromkeys(("flagged", "right", "right_provisional", "none", "wrong_provisional",
                                              "wrong_final"), 0)
        for config, items, want in hands:
            camera = dataclasses.replace(config, camera=True)
            late = sorted((dataclasses.replace(x, t=x.t + lag) if isinstance(x, DealerAction) else x for x in items),
                          key=lambda x: (x.t, isinstance(x, DealerAction)))
            referee = refereed(camera, late)
            tally["flagged"] += any(h.flags for h in referee.hands)
            awards = referee.hands[0].awards if referee.hands else []
            if not awards:
                tally["none"] += 1
            else:
                right = dict(awards[-1].award.totals) == want
                tally[("right" if right else "wrong") + ("_provisional" if awards[-1].provisional else
                                                         "" if right else "_final")] += 1
    return len(hands), tallies


def _simulated_or_none(game: str, seed: int) -> tuple[TableConfig | None, list[Item]]:
    try:
        return simulated(game, seed)
    except SimulationError:
        return None, []


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", default="0-29", help="FIRST-LAST seeds per preset")
    parser.add_argument("--keyed-late", metavar="S,...", help="instead: every entry keyed S s late at a camera's "
                        "table, for each S")
    args = parser.parse_args()
    first, _, last = args.seeds.partition("-")
    seeds = range(int(first), int(last or first) + 1)
    if args.keyed_late:
        try:
            lags = [float(x) for x in args.keyed_late.split(",")]
        except ValueError:
            parser.error(f"--keyed-late {args.keyed_late!r}: accepted: seconds, comma separated (0.5,1,1.5)")
        hands, tallies = keyed_late(seeds, lags)
        print(f"hands: {hands}")
        for lag, tally in tallies.items():
            for name, n in tally.items():
                print(f"keyed_{lag:g}s_late_{name}: {n} of {hands}")
        return
    outcomes = ("wrong_final", "wrong_provisional", "none", "right_provisional", "cases")
    tally: dict[str, dict[str, int]] = {k: dict.fromkeys(outcomes, 0) for k in (
        "missing_check_or_call", "missing_fold", "entered_twice", "wrong_seat", "late_by_1", "late_by_2", "late_by_3")}

    def count(name: str, got: tuple[dict[int, int] | None, bool], want: dict[int, int] | None) -> None:
        totals, provisional = got
        t = tally[name]
        t["cases"] += 1
        if totals is None:
            t["none"] += want is not None
        elif totals != want:
            t["wrong_provisional" if provisional else "wrong_final"] += 1
        elif provisional:
            t["right_provisional"] += 1

    hands = 0
    for game in PRESETS:
        for seed in seeds:
            try:
                config, items = simulated(game, seed)
            except SimulationError:
                continue
            hands += 1
            want, _ = award(config, items)
            entries = [i for i, x in enumerate(items) if isinstance(x, DealerAction)]
            for i in entries:
                kind = items[i].action  # type: ignore[union-attr]
                name = "missing_fold" if kind == "fold" else "missing_check_or_call" if kind in ("check", "call") \
                    else None
                if name:
                    count(name, award(config, items[:i] + items[i + 1:]), want)
            for i in entries:
                twice = dataclasses.replace(items[i], t=items[i].t + 0.05)
                count("entered_twice", award(config, [*items[:i + 1], twice, *items[i + 1:]]), want)
            seats = sorted({items[i].seat for i in entries})  # type: ignore[union-attr]
            for i in entries:
                seat = items[i].seat  # type: ignore[union-attr]
                count("wrong_seat", award(config, for_seat(items, i, seats[(seats.index(seat) + 1) % len(seats)])),
                      want)
            for shift in (1, 2, 3):
                for k, i in enumerate(entries[:-shift]):
                    count(f"late_by_{shift}", award(config, moved_late(items, i, entries[k + shift])), want)
    print(f"hands: {hands}")
    for name, t in tally.items():
        cases = max(t["cases"], 1)
        changed = t["wrong_final"] + t["wrong_provisional"] + t["none"]
        print(f"{name}_award_changed: {changed} of {t['cases']} ({changed / cases:.1%})")
        for outcome in outcomes[:-1]:
            print(f"{name}_{outcome}: {t[outcome]} of {t['cases']} ({t[outcome] / cases:.1%})")


if __name__ == "__main__":
    main()
