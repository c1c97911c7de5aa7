"""``simulate(..., engine="fast")``: the compiled simulator plays the
reference's simulations, bots' choices and all, and reports the same
statistics (:mod:`loveletter.fast.simulate`, :mod:`loveletter.fast.mersenne`)."""

from __future__ import annotations

import random
import sys
from pathlib import Path

import numpy as np
import pytest

from loveletter import cli
from loveletter.cli import main
from loveletter.events import EliminationReason, TokenReason
from loveletter.fast import mersenne
from loveletter.fast import simulate as fast_simulate
from loveletter.fast.simulate import FastGameFailed, play_random_games
from loveletter.simulation import (
    SimulationFailed,
    SimulationReport,
    _Games,
    _play_games,
    _Tally,
    derive_seed,
    simulate,
)

Capture = pytest.CaptureFixture[str]

# CPython's generator: seeds of one word, two, many (abs taken), and the bounds
# a bot meets (1 still draws), up to 2**32 - 1.
SEEDS = (0, 1, 5, 2**32 - 1, 2**32, 2**63 - 1, 2**64 + 5, 2**200 + 3, -12345, 987654321987)


def _bounds() -> np.ndarray:
    chooser = random.Random(4)
    drawn = [chooser.randrange(1, 3000) for _ in range(2000)]
    return np.array([*drawn, 1, 1, 2, 2**31, 2**31 + 1, 2**32 - 1, *range(1, 70)], dtype=np.int64)


@pytest.mark.parametrize("seed", SEEDS)
def test_the_compiled_generator_draws_as_cpython_random(seed: int) -> None:
    bounds = _bounds()
    generators = np.zeros((mersenne.ROWS, 2), dtype=np.int64)
    mersenne.seed_key(generators, 1, mersenne.key_words(seed))
    drawn = np.zeros(len(bounds), dtype=np.int64)
    mersenne.draw_below(generators, 1, bounds, drawn)
    python = random.Random(seed)
    assert drawn.tolist() == [python.choice(range(int(n))) for n in bounds]


def test_seeding_generators_side_by_side_is_seeding_each() -> None:
    chooser = random.Random(9)
    for _ in range(20):
        seeds = [chooser.choice((0, 1, 2**32, chooser.getrandbits(32), chooser.getrandbits(63)))]
        seeds += [chooser.getrandbits(chooser.choice((31, 33, 63))) for _ in range(7)]
        side_by_side = np.zeros((mersenne.ROWS, 8), dtype=np.int64)
        mersenne.seed_columns(side_by_side, np.array(seeds, dtype=np.int64))
        for column, seed in enumerate(seeds):
            alone = np.zeros((mersenne.ROWS, 1), dtype=np.int64)
            mersenne.seed_key(alone, 0, mersenne.key_words(seed))
            assert (alone[:, 0] == side_by_side[:, column]).all(), seed


def _both(
    ruleset: str, players: int, games: int, seed: int, rounds: int | None = None, decks: int = 1
) -> SimulationReport:
    reference = simulate(ruleset, players, games, seed, rounds=rounds, decks=decks)
    fast = simulate(ruleset, players, games, seed, rounds=rounds, decks=decks, engine="fast")
    assert fast.to_data() == reference.to_data()
    assert fast == reference
    return reference


# Each case also shows that the counts it is there for arise (a seed chosen so).
@pytest.mark.parametrize(("players", "seed"), [(2, 3), (5, 0)])
def test_2019_reports_are_the_reference_s(players: int, seed: int) -> None:
    report = _both("2019", players, 30, seed)
    assert report.shared_games > 0 and all(report.spy_tokens)
    assert all(report.eliminations[reason] > 0 for reason in list(EliminationReason)[:3])


@pytest.mark.parametrize("players", [2, 4])
def test_classic_reports_are_the_reference_s(players: int) -> None:
    report = _both("2019-classic", players, 30, seed=3)
    assert report.rounds > report.games


def test_premium_reports_are_the_reference_s_tie_breaks_included() -> None:
    report = _both("premium", 8, 30, seed=4)
    # ruling 31's tie-break rounds, games won mid-round, every card's token
    assert report.tied_games > 0 and report.mid_round_wins > 0
    for reason in (TokenReason.BISHOP, TokenReason.CONSTABLE, TokenReason.JESTER):
        assert sum(report.bonus_tokens[reason]) > 0
    assert report.eliminations[EliminationReason.ASSASSIN] > 0
    assert report.eliminations[EliminationReason.DOWAGER_COMPARISON] > 0
    _both("premium", 3, 30, seed=5)


@pytest.mark.parametrize(("players", "rounds", "decks"), [(3, 5, 1), (5, 4, 2), (8, 3, 3)])
def test_online_reports_are_the_reference_s(players: int, rounds: int, decks: int) -> None:
    report = _both("online", players, 12, seed=6, rounds=rounds, decks=decks)
    assert report.rounds == 12 * rounds
    assert all(sum(counts) == report.games * rounds for counts in report.ranks)
    assert sum(report.win_counters) >= report.rounds


def test_runs_of_games_add_up_to_the_whole() -> None:
    # What a worker process or a Ray task plays: a run of the games.
    whole = simulate("2019", 3, 30, 8, engine="fast")
    run = _Games("2019", 3, 8, 0, 30, None, None, False, "fast")
    tally = _Tally(3)
    for batch in run.split(2, most=7):
        assert batch.stop - batch.start <= 7
        tally.merge(_play_games(batch).tally)
    assert (tally.games, tally.turns, tally.round_wins) == (30, whole.turns, list(whole.round_wins))
    assert simulate("2019", 3, 30, 8, engine="fast", progress=lambda *_: None) == whole


def test_progress_is_reported_up_to_the_last_game() -> None:
    seen: list[tuple[int, int]] = []
    simulate("2019", 3, 20, 0, engine="fast", progress=lambda *counts: seen.append(counts))
    assert seen[-1] == (20, 20)
    assert [done for done, _ in seen] == sorted(done for done, _ in seen)


def test_the_engine_is_checked() -> None:
    with pytest.raises(ValueError, match="'reference' or 'fast'"):
        simulate("2019", 3, 2, 0, engine="compiled")
    with pytest.raises(ValueError, match="keeps no records"):
        simulate("2019", 3, 2, 0, keep=lambda index, record: None, engine="fast")


def test_without_numba_the_error_names_the_extra(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "loveletter.fast", None)  # as if it could not import
    with pytest.raises(SimulationFailed, match=r"pip install 'loveletter-rules\[fast\]'"):
        simulate("2019", 3, 2, 0, engine="fast")
    assert simulate("2019", 3, 2, 0).games == 2  # the reference needs none of it


def test_a_game_the_simulator_fails_is_named(monkeypatch: pytest.MonkeyPatch) -> None:
    honest = fast_simulate.simulate_games

    def failing(
        ruleset: str, players: int, seed: int, start: int, stop: int, **options: int
    ) -> object:
        if start <= 3 < stop:
            raise FastGameFailed(3, 2)
        return honest(ruleset, players, seed, start, stop, **options)

    monkeypatch.setattr(fast_simulate, "simulate_games", failing)
    with pytest.raises(SimulationFailed) as raised:
        simulate("2019", 3, 10, 7, engine="fast")
    assert raised.value.index == 3
    assert raised.value.game_seed == derive_seed(7, "game", 3)
    assert "error code 2" in str(raised.value)


@pytest.mark.parametrize("seed", [0, 7, 2**64 + 1, 10**150, 10**260])
def test_a_simulation_s_seeds_are_derived_as_derive_seed_derives_them(seed: int) -> None:
    # In compiled code (one BLAKE2b block or two), or in Python for a seed
    # too long for the compiled message.
    seeds = [derive_seed(seed, "game", i) for i in range(5, 17)]
    bots = [[derive_seed(game, "bot", seat) for seat in range(5)] for game in seeds]
    derived = fast_simulate.simulate_games("premium", 5, seed, 5, 17)
    assert derived == play_random_games("premium", 5, seeds, bots)


def test_play_random_games_checks_its_seeds() -> None:
    with pytest.raises(ValueError, match="one row of bot seeds per game"):
        play_random_games("2019", 2, [1, 2], [[1, 2]])
    with pytest.raises(ValueError, match="2\\*\\*63"):
        play_random_games("2019", 2, [2**63], [[1, 2]])
    with pytest.raises(ValueError, match="one seed per game and seat"):
        play_random_games("2019", 2, [1], [[1, 2, 3]])
    empty = play_random_games("2019", 2, [], [])
    assert empty.games == 0 and empty.bonus_tokens[TokenReason.SPY] == (0, 0)


def test_the_command_line_prints_the_same_report(capsys: Capture) -> None:
    argv = ["simulate", "--ruleset", "premium", "--players", "5", "--games", "8", "--seed", "2"]
    assert main([*argv, "--workers", "1"]) == 0
    reference = capsys.readouterr().out
    assert main([*argv, "--engine", "fast"]) == 0
    assert capsys.readouterr().out == reference


def test_the_command_line_refuses_what_the_fast_engine_cannot_do(
    capsys: Capture, tmp_path: Path
) -> None:
    assert main(["simulate", "--engine", "fast", "--save", str(tmp_path)]) == cli.USAGE_ERROR
    assert "keeps no records" in capsys.readouterr().err
    assert main(["simulate", "--engine", "fast", "--bots", "counter"]) == cli.USAGE_ERROR
    assert "random bots only" in capsys.readouterr().err
    assert main(["simulate", "--engine", "turbo"]) == cli.USAGE_ERROR
