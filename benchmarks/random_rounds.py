"""Benchmark: random play, whole rounds from deal to end, one process.

The standard workload (issue 2): ``2019-classic``, 4 players; on each turn
a uniformly random playable card, then a uniformly random one of that
card's legal commands (any other pending choice: a uniformly random legal
command, whoever must give it: a Chancellor's keep, a Cardinal's look, a
Bishop's target's redraw). Rounds are dealt as games go on; a finished
game (at a round's end or, in Premium, mid-round) is followed by a new one
(an online match never ends: its rounds follow one another). "Turns"
counts the commands given (an answer to a pending choice counts as one).

Three engines play it:

``reference``
    ``loveletter``'s own: ``push`` (or ``step`` with ``--events``, the
    events built and returned, as a server or a logger needs).
``floor``
    ``benchmarks/floor.py``, a plain mutable Python engine of the same
    rules (every edition, online included), proven equal by
    ``tests/test_floor.py``: the yardstick of the ratios.
``fast``
    the compiled batched simulator, ``loveletter.fast`` (an optional
    extra), through its ``play_random_rounds``; says so in one line when it
    is not installed or not ready.

With no workload named (``make bench``), one run prints every figure of
issue 21, each workload's engines taking turns so that the machine's drift
favours none, medians of ``--repeat`` runs of about ``--seconds`` each:

- every edition and player count: rounds/s and turns/s through ``push``,
  ``step`` and the floor, and the ratios to the floor (of turns/s);
- the fast simulator at the standard workload and Premium at 8;
- per-call costs in microseconds (``legal_commands``, ``decide``,
  ``evolve``, ``push``, ``step``, ``view``, ``events_for``, ``dumps`` and
  ``loads`` of a state) over the states of random rounds;
- memory per retained state (tracemalloc over the states of random rounds,
  every one kept);
- the cost per event of replaying a long record (a whole Premium game of
  8 players).

Usage::

    python benchmarks/random_rounds.py [--seconds S] [--repeat N]
    python benchmarks/random_rounds.py --ruleset R --players P
        [--engine reference|floor|fast] [--events] [--seconds S | --rounds N] [--repeat N]
"""

from __future__ import annotations

import argparse
import gc
import importlib
import os
import platform
import random
import statistics
import sys
import time
import tracemalloc
from collections.abc import Callable, Sequence
from functools import partial
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))
sys.path.insert(1, str(HERE))

import floor  # noqa: E402  # the benchmark's own directory, put on the path above

from loveletter import (  # noqa: E402  # the checkout, put on the path above
    Command,
    Event,
    GameState,
    StartRound,
    decide,
    dumps,
    events_for,
    evolve,
    legal_commands,
    loads,
    new_game,
    playable_cards,
    push,
    replay,
    start_game,
    step,
    view,
)
from loveletter.simulation import simulate  # noqa: E402  # the checkout, as above

#: the standard workload
STANDARD = ("2019-classic", 4)
#: every workload of the table: each edition at each player count it plays
WORKLOADS = (
    *(("2019", n) for n in range(2, 7)),
    *(("2019-classic", n) for n in range(2, 5)),
    *(("premium", n) for n in range(2, 9)),
    *(("online", n) for n in range(3, 9)),
)
#: where the fast simulator is measured by default, with the issue's targets (rounds/s)
FAST_TARGETS = {("2019-classic", 4): 1_000_000, ("premium", 8): 250_000}
#: where simulate's two engines are compared (whole games between random bots)
SIMULATE_TABLES = (("2019-classic", 4), ("premium", 8))
#: the workloads of the per-call costs and the memory per state
DETAIL = (STANDARD, ("premium", 8))
ENGINES = ("reference", "floor", "fast")

#: (rounds, turns, seconds) of one measured run
Result = tuple[int, int, float]


# --------------------------------------------------------------------------
# the workload, per engine


def _step_state(state: GameState, command: Command) -> GameState:
    return step(state, command)[0]


def run(
    ruleset: str,
    players: int,
    rounds: int,
    seed: int,
    events: bool = False,
    seconds: float | None = None,
) -> Result:
    """The workload through the reference engine: ``rounds`` whole rounds,
    or as many as fit in ``seconds`` when given."""
    advance = _step_state if events else push
    rng = random.Random(seed)
    choice = rng.choice
    start_round = StartRound()
    games = 0
    turns = 0
    done = 0
    state = new_game(ruleset, players, seed=seed)
    clock = time.perf_counter
    started = clock()
    deadline = None if seconds is None else started + seconds
    while True:
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
        done += 1
        if state.is_over:
            games += 1
            state = new_game(ruleset, players, seed=seed + games)
        else:
            state = advance(state, start_round)
        if (clock() >= deadline) if deadline is not None else done >= rounds:
            break
    return done, turns, clock() - started


def run_floor(
    ruleset: str, players: int, rounds: int, seed: int, seconds: float | None = None
) -> Result:
    """The same workload through the floor (:mod:`floor`)."""
    rng = random.Random(seed)
    choice = rng.choice
    next_round = floor.NEXT_ROUND
    games = 0
    turns = 0
    done = 0
    game = floor.FloorGame(ruleset, players, seed=seed)
    clock = time.perf_counter
    started = clock()
    deadline = None if seconds is None else started + seconds
    while True:
        while game.decision < next_round:
            cards = game.playable_cards()
            if cards:
                action = choice(game.legal_actions(choice(cards)))
            else:
                action = choice(game.legal_actions())
            game.apply(action)
            turns += 1
        done += 1
        if game.decision == floor.GAME_OVER:
            games += 1
            game = floor.FloorGame(ruleset, players, seed=seed + games)
        else:
            game.start_round()
        if (clock() >= deadline) if deadline is not None else done >= rounds:
            break
    return done, turns, clock() - started


def floor_plays(ruleset: str) -> bool:
    """Whether the floor models ``ruleset`` (every edition does, online
    included; an edition added to the reference first has no floor yet)."""
    return ruleset in floor.EDITIONS


class EngineUnavailable(Exception):
    """The fast simulator cannot run here: the message says why, in one line."""


# ---- the hook of the fast simulator (loveletter.fast, an optional extra) --
# Its batch API is expected to offer ``play_random_rounds(ruleset, players,
# rounds, seed) -> stats``, the stats giving the rounds played and the turns
# (attributes or keys ``rounds`` and ``turns``). Until it does, or where it
# is not installed, ``--engine fast`` and the table say so in one line.


def _fast_player() -> Callable[..., Any]:
    try:
        fast = importlib.import_module("loveletter.fast")
    except ImportError as error:
        raise EngineUnavailable(
            f"not installed ({error}; pip install 'loveletter-rules[fast]')"
        ) from None
    play: object = getattr(fast, "play_random_rounds", None)
    if not callable(play):
        raise EngineUnavailable("not ready (loveletter.fast has no play_random_rounds yet)")
    return play


def _stat(stats: Any, name: str) -> int:
    value = stats[name] if isinstance(stats, dict) else getattr(stats, name, None)
    if not isinstance(value, int):
        raise EngineUnavailable(f"not ready (its stats give no {name!r} count)")
    return value


def run_fast(
    ruleset: str, players: int, rounds: int, seed: int, seconds: float | None = None
) -> Result:
    """The workload through ``loveletter.fast``. Compilation happens in a
    first small call, not timed; with ``seconds`` a short run sizes the
    measured one."""
    play = _fast_player()
    try:
        play(ruleset, players, 64, seed)  # compiles, or loads the compiled code
        if seconds is not None:
            probe = max(1_000, rounds)
            started = time.perf_counter()
            done = _stat(play(ruleset, players, probe, seed + 1), "rounds")
            elapsed = max(time.perf_counter() - started, 1e-6)
            rounds = max(1_000, int(done / elapsed * seconds))
        started = time.perf_counter()
        stats = play(ruleset, players, rounds, seed)
        elapsed = time.perf_counter() - started
    except EngineUnavailable:
        raise
    except Exception as error:  # the fast engine's own refusal (an edition it lacks)
        raise EngineUnavailable(f"{type(error).__name__}: {error}".splitlines()[0]) from None
    return _stat(stats, "rounds"), _stat(stats, "turns"), elapsed


def measure(
    engine: str,
    ruleset: str,
    players: int,
    rounds: int,
    seed: int,
    events: bool = False,
    seconds: float | None = None,
) -> Result:
    """One run of the workload through ``engine``."""
    if engine == "reference":
        return run(ruleset, players, rounds, seed, events, seconds)
    if engine == "floor":
        if not floor_plays(ruleset):
            raise EngineUnavailable(f"the floor does not play {ruleset}")
        return run_floor(ruleset, players, rounds, seed, seconds)
    if engine == "fast":
        return run_fast(ruleset, players, rounds, seed, seconds)
    raise ValueError(f"unknown engine {engine!r}")


def median_rates(results: Sequence[Result]) -> tuple[float, float]:
    """The medians of the runs' rounds/s and turns/s."""
    return (
        statistics.median(r / s for r, _, s in results),
        statistics.median(t / s for _, t, s in results),
    )


# --------------------------------------------------------------------------
# the table of workloads


#: the columns of a workload's row: (engine, advanced by step)
_COLUMNS = (("floor", False), ("reference", False), ("reference", True))


def measure_table(
    workloads: Sequence[tuple[str, int]], seconds: float, repeat: int, seed: int
) -> dict[tuple[str, int, str], tuple[float, float] | None]:
    """Rates by (ruleset, players, column name), medians of ``repeat``
    runs; each repetition runs every workload's columns one after another,
    so that a machine slowing down over the minutes favours none."""
    runs: dict[tuple[str, int, str], list[Result]] = {}
    for ruleset, players in workloads:  # untimed: the engines' caches fill up
        for engine, events in _COLUMNS:
            if engine == "reference" or floor_plays(ruleset):
                measure(engine, ruleset, players, 0, seed, events, seconds=seconds / 5)
    for repetition in range(repeat):
        for ruleset, players in workloads:
            for engine, events in _COLUMNS:
                if engine == "floor" and not floor_plays(ruleset):
                    continue
                name = "step" if events else "push" if engine == "reference" else engine
                result = measure(
                    engine, ruleset, players, 0, seed + repetition, events, seconds=seconds
                )
                runs.setdefault((ruleset, players, name), []).append(result)
    rates: dict[tuple[str, int, str], tuple[float, float] | None] = {}
    for ruleset, players in workloads:
        for name in ("floor", "push", "step"):
            found = runs.get((ruleset, players, name))
            rates[(ruleset, players, name)] = median_rates(found) if found else None
    return rates


def _n(value: float) -> str:
    return f"{value:,.0f}"


def print_table(
    workloads: Sequence[tuple[str, int]],
    rates: dict[tuple[str, int, str], tuple[float, float] | None],
) -> None:
    """One row per workload: the floor's rates, then push's and step's with
    their ratios to the floor (``-`` where the floor does not play)."""
    header = (
        f"{'edition':<13} {'n':>1}  {'floor r/s':>10} {'floor t/s':>10}"
        f"  {'push r/s':>9} {'push t/s':>9} {'x floor':>7}"
        f"  {'step r/s':>9} {'step t/s':>9} {'x floor':>7}"
    )
    print(header)
    print("-" * len(header))
    for ruleset, players in workloads:
        base = rates[(ruleset, players, "floor")]
        cells = [f"{ruleset:<13} {players:>1} "]
        cells.append(f"{_n(base[0]):>10} {_n(base[1]):>10}" if base else f"{'-':>10} {'-':>10}")
        for name in ("push", "step"):
            mine = rates[(ruleset, players, name)]
            assert mine is not None
            ratio = f"{mine[1] / base[1]:.2f}" if base else "-"
            cells.append(f" {_n(mine[0]):>9} {_n(mine[1]):>9} {ratio:>7}")
        print(" ".join(cells))


#: issue 21's targets for the reference: turns/s over the floor's at the
#: standard workload, and Premium at 8 per turn over the standard workload
TARGETS = {"push": 0.45, "step": 0.3, "premium 8 per turn": 0.8}
#: the target lines' runs: this many times longer than the table's, this many more
TARGET_LONGER = 3
TARGET_MORE = 2


def _against(figure: float, target: float) -> str:
    return f"{figure:.2f} (target {target:g}: {'met' if figure >= target else 'missed'})"


def print_targets(rates: dict[tuple[str, int, str], tuple[float, float] | None]) -> None:
    """The ratios issue 21 sets targets for, each against its target."""
    base = rates.get((*STANDARD, "floor"))
    parts = []
    for name in ("push", "step"):
        mine = rates.get((*STANDARD, name))
        if base and mine:
            parts.append(f"{name} {_against(mine[1] / base[1], TARGETS[name])}")
    if parts:
        print(f"{STANDARD[0]} {STANDARD[1]}, turns/s over the floor's: " + ", ".join(parts))
    parts = []
    for name in ("push", "step", "floor"):
        big = rates.get(("premium", 8, name))
        standard = rates.get((*STANDARD, name))
        if big and standard:
            ratio = big[1] / standard[1]
            text = (
                _against(ratio, TARGETS["premium 8 per turn"]) if name == "push" else f"{ratio:.2f}"
            )
            parts.append(f"{name} {text}")
    if parts:
        print(f"premium 8 per turn over {STANDARD[0]} {STANDARD[1]}'s: " + ", ".join(parts))


def print_fast(
    seconds: float, repeat: int, seed: int, floor_rates: dict[tuple[str, int], float]
) -> None:
    """The fast simulator's lines, or one line saying why there are none."""
    try:
        _fast_player()
    except EngineUnavailable as why:
        print(f"fast simulator (loveletter.fast): {why}")
        return
    print(
        "fast simulator (loveletter.fast.play_random_rounds, one core, median of runs;"
        " its turns are the turns started):"
    )
    for (ruleset, players), target in FAST_TARGETS.items():
        label = f"  {ruleset}, {players} players"
        try:
            results = [
                run_fast(ruleset, players, 0, seed + i, seconds=seconds) for i in range(repeat)
            ]
        except EngineUnavailable as why:
            print(f"{label:<26} {why}")
            continue
        per_round, per_turn = median_rates(results)
        base = floor_rates.get((ruleset, players))
        versus = f", {per_round / base:,.0f} x the floor's rounds/s" if base else ""
        met = "met" if per_round >= target else "missed"
        print(
            f"{label:<26} {_n(per_round):>12} rounds/s {_n(per_turn):>13} turns/s"
            f"  (target {_n(target)}: {met}{versus})"
        )
    print(
        "simulate (whole games between random bots, the same report from both engines,"
        " one core, median of runs):"
    )
    for ruleset, players in SIMULATE_TABLES:
        games = {
            engine: statistics.median(
                simulate_rate(engine, ruleset, players, seconds, seed + i) for i in range(repeat)
            )
            for engine in ("reference", "fast")
        }
        print(
            f"  {ruleset}, {players} players".ljust(27)
            + f"reference {_n(games['reference'])} games/s, fast {_n(games['fast'])} games/s"
            f" ({games['fast'] / games['reference']:,.0f} x)"
        )


def simulate_rate(engine: str, ruleset: str, players: int, seconds: float, seed: int) -> float:
    """Games a second of ``simulate(..., engine=engine)``, in runs of games
    until about ``seconds`` have passed (after a first game, not timed,
    that loads the compiled code)."""
    simulate(ruleset, players, 1, seed, engine=engine)
    run = 10 if engine == "reference" else 1_000
    played = 0
    started = time.perf_counter()
    while True:
        simulate(ruleset, players, run, seed + played, engine=engine)
        played += run
        elapsed = time.perf_counter() - started
        if elapsed >= seconds:
            return played / elapsed


# --------------------------------------------------------------------------
# per-call costs, memory, replay


def sample_positions(
    ruleset: str, players: int, rounds: int, seed: int
) -> list[tuple[GameState, Command]]:
    """(state, command) for every command of ``rounds`` random rounds."""
    rng = random.Random(seed)
    state = new_game(ruleset, players, seed=seed)
    pairs: list[tuple[GameState, Command]] = []
    done = games = 0
    while done < rounds:
        if state.round_over:
            done += 1
            games += state.is_over
            state = (
                new_game(ruleset, players, seed=seed + games)
                if state.is_over
                else push(state, StartRound())
            )
            continue
        command = rng.choice(legal_commands(state))
        pairs.append((state, command))
        state = push(state, command)
    return pairs


def _per_call(calls: Sequence[Callable[[], object]], seconds: float, repeat: int) -> float:
    """Microseconds per call: the median over ``repeat`` timings, each
    going through ``calls`` as many times as fit in about ``seconds``."""
    clock = time.perf_counter
    started = clock()
    for call in calls:
        call()
    once = max(clock() - started, 1e-9)
    passes = max(1, int(seconds / once))
    timings = []
    for _ in range(repeat):
        started = clock()
        for _ in range(passes):
            for call in calls:
                call()
        timings.append((clock() - started) / (passes * len(calls)))
    return statistics.median(timings) * 1e6


def per_call_costs(
    ruleset: str, players: int, seconds: float, repeat: int, seed: int
) -> dict[str, float]:
    """Microseconds per call of each public verb, over the states of random
    rounds (``evolve``: per event, each command's events applied in turn)."""
    pairs = sample_positions(ruleset, players, 12, seed)
    decided = [(state, command, decide(state, command)) for state, command in pairs]
    stored = [state for state, _ in pairs[::4]]
    texts = [dumps(state) for state in stored]

    def chained(state: GameState, events: tuple[Event, ...]) -> Callable[[], GameState]:
        def go() -> GameState:
            now = state
            for event in events:
                now = evolve(now, event)
            return now

        return go

    events = sum(len(e) for _, _, e in decided)
    costs: dict[str, list[Callable[[], object]]] = {
        "legal_commands(state)": [partial(legal_commands, s) for s, _ in pairs],
        "decide(state, command)": [partial(decide, s, c) for s, c in pairs],
        "push(state, command)": [partial(push, s, c) for s, c in pairs],
        "step(state, command)": [partial(step, s, c) for s, c in pairs],
        "view(state, player)": [partial(view, s, s.to_act or 0) for s, _ in pairs],
        "events_for(player, events)": [
            partial(events_for, s.to_act or 0, e) for s, _, e in decided
        ],
        "dumps(state)": [partial(dumps, s) for s in stored],
        "loads(text)": [partial(loads, t, GameState) for t in texts],
    }
    figures = {name: _per_call(calls, seconds, repeat) for name, calls in costs.items()}
    # evolve takes one event: the cost of a command's events, per event
    per_command = _per_call([chained(s, e) for s, _, e in decided], seconds, repeat)
    figures["evolve(state, event)"] = per_command * len(decided) / events
    figures["(events per command)"] = events / len(decided)
    return figures


def game_commands(
    ruleset: str, players: int, rounds: int, seed: int
) -> tuple[GameState, list[Command]]:
    """A new game and the commands of up to ``rounds`` random rounds of it
    (each deal a ``StartRound``)."""
    rng = random.Random(seed)
    first = state = new_game(ruleset, players, seed=seed)
    commands: list[Command] = []
    done = 0
    while not state.is_over:
        if state.round_over:
            done += 1
            if done == rounds:
                break
            command: Command = StartRound()
        else:
            command = rng.choice(legal_commands(state))
        commands.append(command)
        state = push(state, command)
    return first, commands


def memory_per_state(ruleset: str, players: int, rounds: int, seed: int) -> tuple[float, int]:
    """Bytes per state kept, and the states kept: tracemalloc's count over
    the states of up to ``rounds`` random rounds of one game, every state
    retained in a list. A first pass through the same commands warms the
    engine's caches, so that only the states are counted."""
    first, commands = game_commands(ruleset, players, rounds, seed)
    state = first
    for command in commands:
        state = push(state, command)
    gc.collect()
    tracemalloc.start()
    before = tracemalloc.get_traced_memory()[0]
    kept: list[GameState] = [first]
    state = first
    for command in commands:
        state = push(state, command)
        kept.append(state)
    after = tracemalloc.get_traced_memory()[0]
    tracemalloc.stop()
    return (after - before) / len(kept), len(kept)


def long_record(ruleset: str, players: int, seed: int) -> tuple[Event, ...]:
    """The events of a whole random game, from ``GameStarted``."""
    rng = random.Random(seed)
    log = list(start_game(ruleset, players, seed=seed))
    state = replay(log)
    while not state.is_over:
        state, events = step(state, rng.choice(legal_commands(state)))
        log.extend(events)
    return tuple(log)


def replay_cost(ruleset: str, players: int, seed: int, repeat: int) -> tuple[float, int]:
    """Microseconds per event of ``replay`` over a long record, and its length."""
    log = long_record(ruleset, players, seed)
    timings = []
    for _ in range(repeat):
        started = time.perf_counter()
        replay(log)
        timings.append(time.perf_counter() - started)
    return statistics.median(timings) / len(log) * 1e6, len(log)


# --------------------------------------------------------------------------
# the command line


def _machine() -> str:
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
    load = "n/a"
    if hasattr(os, "getloadavg"):
        load = ", ".join(f"{x:.2f}" for x in os.getloadavg())
    return (
        f"{platform.python_implementation()} {platform.python_version()}, {cores} cores,"
        f" load average {load}"
    )


def full_run(seconds: float, repeat: int, seed: int) -> None:
    """``make bench``: every figure of issue 21, in one run."""
    started = time.perf_counter()
    print(f"machine       {_machine()}")
    print(
        f"workload      random playable card, then random command for it; whole rounds"
        f" (a new game when one ends); about {seconds:g} s per run, median of {repeat} runs,"
        f" each workload's engines in turn; ratios are turns/s over the floor's"
    )
    print()
    rates = measure_table(WORKLOADS, seconds, repeat, seed)
    print_table(WORKLOADS, rates)
    # The targets compare two workloads within a few percent: measured again
    # with runs long and many enough that a slow second does not decide them.
    target_seconds, target_repeat = seconds * TARGET_LONGER, repeat + TARGET_MORE
    print(
        f"targets (the two workloads again, about {target_seconds:g} s per run,"
        f" median of {target_repeat} runs):"
    )
    print_targets(measure_table([STANDARD, ("premium", 8)], target_seconds, target_repeat, seed))
    print()
    floor_rounds = {
        (r, n): found[0] for (r, n, name), found in rates.items() if name == "floor" and found
    }
    print_fast(seconds, repeat, seed, floor_rounds)
    print()
    print(
        "per-call costs, microseconds (the states of random rounds, the engine's caches"
        " warm as in any long run; median of runs)"
    )
    costs = {w: per_call_costs(*w, seconds / 3, repeat, seed) for w in DETAIL}
    labels = [f"{r} {n}" for r, n in DETAIL]
    print(f"  {'call':<28}" + "".join(f"{label:>16}" for label in labels))
    for name in costs[DETAIL[0]]:
        cells = "".join(
            f"{costs[w][name]:>16.2f}" if name.startswith("(") else f"{costs[w][name]:>16.1f}"
            for w in DETAIL
        )
        print(f"  {name:<28}{cells}")
    print()
    print("memory per retained state (tracemalloc, every state of random rounds kept)")
    for ruleset, players in DETAIL:
        per_state, kept = memory_per_state(ruleset, players, 10, seed)
        print(f"  {ruleset} {players:<12} {per_state:>10,.0f} bytes per state ({kept} states)")
    print()
    per_event, length = replay_cost("premium", 8, seed, repeat)
    print(
        f"replay of a long record (a whole premium game of 8 players, {length:,} events):"
        f" {per_event:.1f} microseconds per event"
    )
    print()
    print(f"machine       {_machine()} (at the end); {time.perf_counter() - started:.0f} s in all")


def single_run(args: argparse.Namespace) -> None:
    """One workload through one engine."""
    ruleset = args.ruleset if args.ruleset is not None else STANDARD[0]
    players = args.players if args.players is not None else STANDARD[1]
    seconds = args.seconds if args.rounds is None else None
    rounds = args.rounds if args.rounds is not None else 0
    try:
        results = [
            measure(args.engine, ruleset, players, rounds, args.seed + i, args.events, seconds)
            for i in range(args.repeat)
        ]
    except EngineUnavailable as why:
        print(f"{args.engine} engine: {why}")
        raise SystemExit(1) from None
    per_round, per_turn = median_rates(results)
    done = sum(r for r, _, _ in results)
    turns = sum(t for _, t, _ in results)
    how = {
        "reference": "step (events built)" if args.events else "push",
        "floor": "benchmarks/floor.py",
        "fast": "loveletter.fast.play_random_rounds (its turns: the turns started)",
    }[args.engine]
    print(f"workload      {ruleset}, {players} players, random card then command")
    print(f"engine        {args.engine}: {how}")
    print(f"rounds        {done} in {args.repeat} runs ({turns / done:.2f} turns per round)")
    print(f"rounds/s      {per_round:,.0f} (median of {args.repeat})")
    print(f"turns/s       {per_turn:,.0f}")


def main(argv: list[str] | None = None) -> None:
    """The whole table with no workload named, else one workload."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--ruleset", help=f"one workload only (default: {STANDARD[0]})")
    parser.add_argument("--players", type=int, help=f"one workload only (default: {STANDARD[1]})")
    parser.add_argument("--engine", choices=ENGINES, default="reference")
    parser.add_argument("--events", action="store_true", help="advance with step, not push")
    parser.add_argument("--rounds", type=int, help="a fixed count of rounds per run")
    parser.add_argument(
        "--seconds", type=float, default=0.6, help="run each workload for about S seconds"
    )
    parser.add_argument("--repeat", type=int, default=3, help="report the median of N runs")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    if args.ruleset is None and args.players is None and args.engine == "reference":
        if args.events or args.rounds is not None:
            parser.error("--events and --rounds measure one workload: name it (--ruleset)")
        full_run(args.seconds, args.repeat, args.seed)
    else:
        single_run(args)


if __name__ == "__main__":
    main()
