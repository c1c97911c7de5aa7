"""Benchmark: random play, whole rounds from deal to end, one process.

The standard workload (issue 2): ``2019-classic``, 4 players; on each turn
a uniformly random playable card, then a uniformly random one of that
card's legal commands (any other pending choice: a uniformly random legal
command). Rounds are dealt with ``StartRound`` as games go on; a finished
game is followed by a new one. Prints rounds/s and turns/s.

    python benchmarks/random_rounds.py [--rounds N] [--ruleset R] [--players P] [--events]

``--events`` advances with ``step`` (the events are built and returned, as a
server or a logger needs) instead of ``push``.
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


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--ruleset", default="2019-classic")
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--rounds", type=int, default=50_000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--repeat", type=int, default=3, help="report the best of N runs")
    parser.add_argument("--events", action="store_true", help="advance with step, not push")
    args = parser.parse_args(argv)
    best = None
    for _ in range(args.repeat):
        rounds, turns, elapsed = run(
            args.ruleset, args.players, args.rounds, args.seed, args.events
        )
        if best is None or elapsed < best[2]:
            best = (rounds, turns, elapsed)
    assert best is not None
    rounds, turns, elapsed = best
    how = "step (events built)" if args.events else "push"
    print(f"workload      {args.ruleset}, {args.players} players, random card then command")
    print(f"advanced by   {how}")
    print(f"rounds        {rounds}")
    print(f"turns         {turns} ({turns / rounds:.2f} per round)")
    print(f"seconds       {elapsed:.3f} (best of {args.repeat})")
    print(f"rounds/s      {rounds / elapsed:,.0f}")
    print(f"turns/s       {turns / elapsed:,.0f}")


if __name__ == "__main__":
    main()
