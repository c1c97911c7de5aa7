"""Speed figures of the compiled simulator: rounds and turns per second.

``python -m loveletter.fast.speed`` prints, for each edition and player
count asked, the best of a few timed runs of
:func:`loveletter.fast.play_random_rounds` (4,096 games at once, one
thread, random moves: a playable card, then one of its commands). The time
is the CPU time of this process (what one core gave it), so other work on
a shared machine lowers the figures less than it would wall-clock time.
Figures only, never a test: the machine still decides them.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Sequence

from loveletter.fast.batch import play_random_rounds

__all__ = ["main", "measure"]

#: the tables measured by default: the issue's two targets first
DEFAULT = (("2019-classic", 4), ("premium", 8), ("2019", 6), ("online", 8))


def measure(
    ruleset: str, players: int, rounds: int = 1_000_000, repeats: int = 3, games: int = 4096
) -> tuple[float, float]:
    """The best rounds/s and turns/s of ``repeats`` runs of ``rounds``
    rounds, in CPU seconds (after one short run that compiles and warms up)."""
    play_random_rounds(ruleset, players, 1000, seed=0, games=games)
    best = (0.0, 0.0)
    for repeat in range(repeats):
        started = time.process_time()
        result = play_random_rounds(ruleset, players, rounds, seed=repeat + 1, games=games)
        seconds = time.process_time() - started
        if result.rounds / seconds > best[0]:
            best = (result.rounds / seconds, result.turns / seconds)
    return best


def main(argv: Sequence[str] | None = None) -> int:
    """``python -m loveletter.fast.speed [--rounds N] [--repeats K] [RULESET:PLAYERS ...]``"""
    parser = argparse.ArgumentParser(prog="python -m loveletter.fast.speed")
    parser.add_argument("tables", nargs="*", help="e.g. premium:8 (default: the targets and more)")
    parser.add_argument("--rounds", type=int, default=1_000_000)
    parser.add_argument("--repeats", type=int, default=3)
    args = parser.parse_args(argv)
    tables = [(t.split(":")[0], int(t.split(":")[1])) for t in args.tables] or list(DEFAULT)
    for ruleset, players in tables:
        rounds, turns = measure(ruleset, players, args.rounds, args.repeats)
        print(f"{ruleset:>13} {players}: {rounds:>12,.0f} rounds/s {turns:>14,.0f} turns/s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
