"""Benchmark: random play, whole rounds from deal to end, one process.

The standard workload (issue 2): ``2019-classic``, 4 players; on each turn
a uniformly random playable card, then a uniformly random one of that
card's legal commands (any other pending choice: a uniformly random legal
command, whoever must give it: a Chancellor's keep, a Cardinal's look, a
Bishop's target's redraw). Rounds are dealt with ``StartRound`` as games go
on; a finished game (at a round's end or, in Premium, mid-round) is
followed by a new one (an online match never ends: its rounds follow one
another). Prints rounds/s and turns/s, where "turns" counts the commands
given (an answer to a pending choice counts as one).

The default run measures the standard workload, then the same workload in
Premium at 4 and at 8 players (8 players: a fifth of the rounds, which are
about two and a half times as long) and in the online edition at 4 players
(one deck, the table's default settings), one line each, the runs
interleaved so the figures compare:

    python benchmarks/random_rounds.py [--rounds N] [--events]
    python benchmarks/random_rounds.py --ruleset R --players P [--rounds N] [--events]

Naming ``--ruleset`` or ``--players`` measures that workload only.
``--events`` advances with ``step`` (the events are built and returned, as
a server or a logger needs) instead of ``push``.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from loveletter import legal_commands, new_game, playable_cards, push, step
from loveletter.commands import Command, StartRound
from loveletter.state import GameState

#: the standard workload
STANDARD = ("2019-classic", 4)
#: measured beside it by default: (ruleset, players, share of ``--rounds``)
COMPARED = (("premium", 4, 1.0), ("premium", 8, 0.2), ("online", 4, 1.0))


def _step_state(state: GameState, command: Command) -> GameState:
    return step(state, command)[0]


def run(
    ruleset: str, players: int, rounds: int, seed: int, events: bool = False
) -> tuple[int, int, float]:
    advance = _step_state if events else push
    rng = random.Random(seed)
    choice = rng.choice
    start_round = StartRound()
    games = 0
    turns = 0
    state = new_game(ruleset, players, seed=seed)
    started = time.perf_counter()
    for _ in range(rounds):
        # round_over: the round ended, or the game did (in Premium, a token
        # can win the game mid-round)
        while not state.round_over:
            cards = playable_cards(state)
            if cards:
                command = choice(legal_commands(state, choice(cards)))
            else:
                command = choice(legal_commands(state))
            state = advance(state, command)
            turns += 1
        if state.is_over:
            games += 1
            state = new_game(ruleset, players, seed=seed + games)
        else:
            state = advance(state, start_round)
    elapsed = time.perf_counter() - started
    return rounds, turns, elapsed


def best_of(
    repeat: int, ruleset: str, players: int, rounds: int, seed: int, events: bool
) -> tuple[int, int, float]:
    """The fastest of ``repeat`` runs (the least disturbed by the machine)."""
    return interleaved(repeat, [(ruleset, players, rounds)], seed, events)[0]


def interleaved(
    repeat: int, workloads: list[tuple[str, int, int]], seed: int, events: bool
) -> list[tuple[int, int, float]]:
    """The fastest of ``repeat`` runs of each workload, taking turns (one
    run of each, then again), so that a machine slowing down or speeding up
    over the minutes does not favour whichever workload ran first."""
    best: list[tuple[int, int, float] | None] = [None] * len(workloads)
    for _ in range(repeat):
        for index, (ruleset, players, rounds) in enumerate(workloads):
            result = run(ruleset, players, rounds, seed, events)
            known = best[index]
            if known is None or result[2] < known[2]:
                best[index] = result
    assert all(b is not None for b in best)
    return [b for b in best if b is not None]


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--ruleset", help=f"default: {STANDARD[0]}, then the comparison")
    parser.add_argument("--players", type=int, help=f"default: {STANDARD[1]}")
    parser.add_argument("--rounds", type=int, default=50_000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--repeat", type=int, default=3, help="report the best of N runs")
    parser.add_argument("--events", action="store_true", help="advance with step, not push")
    args = parser.parse_args(argv)
    compare = args.ruleset is None and args.players is None
    ruleset = args.ruleset if args.ruleset is not None else STANDARD[0]
    players = args.players if args.players is not None else STANDARD[1]
    workloads = [(ruleset, players, args.rounds)]
    if compare:
        workloads += [
            (other, count, max(1, int(args.rounds * share))) for other, count, share in COMPARED
        ]
    results = interleaved(args.repeat, workloads, args.seed, args.events)
    rounds, turns, elapsed = results[0]
    how = "step (events built)" if args.events else "push"
    print(f"workload      {ruleset}, {players} players, random card then command")
    print(f"advanced by   {how}")
    print(f"rounds        {rounds}")
    print(f"turns         {turns} ({turns / rounds:.2f} per round)")
    print(f"seconds       {elapsed:.3f} (best of {args.repeat})")
    print(f"rounds/s      {rounds / elapsed:,.0f}")
    print(f"turns/s       {turns / elapsed:,.0f}")
    if not compare:
        return
    print()
    print(f"same workload, other editions (best of {args.repeat}, runs interleaved, {how}):")
    rows = [
        (f"{name}, {count} players", *result)
        for (name, count, _), result in zip(workloads, results, strict=True)
    ]
    for label, done, commands, seconds in rows:
        print(
            f"  {label:<24} {done / seconds:>9,.0f} rounds/s {commands / seconds:>10,.0f} turns/s"
            f"  ({commands / done:.2f} turns per round, {done} rounds)"
        )


if __name__ == "__main__":
    main()
