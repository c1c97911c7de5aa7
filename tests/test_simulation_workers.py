"""``simulate(..., workers=N)`` and ``loveletter simulate --workers N``: the
games split over processes give the same report as one process."""

from __future__ import annotations

import json
import os
import pickle
import signal

import attrs
import pytest

from loveletter import cli, simulation
from loveletter.cli import SIMULATION_FAILED, USAGE_ERROR, main
from loveletter.records import GameRecord
from loveletter.simulation import (
    SimulationFailed,
    SimulationReport,
    _Games,
    _gather,
    _in_processes,
    _interrupts_ignored,
    _Tally,
    available_cores,
    derive_seed,
    simulate,
)

#: every edition (ruleset, players, rounds, decks), online with two decks
RUNS: list[tuple[str, int, int | None, int]] = [
    ("2019", 4, None, 1),
    ("2019-classic", 3, None, 1),
    ("premium", 6, None, 1),
    ("online", 5, 3, 2),
]


@pytest.fixture
def pooled(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """Every run of a few games gets its processes (a real run needs 50
    games a process), and each pool started is counted by its size."""
    monkeypatch.setattr(simulation, "MIN_GAMES_PER_PROCESS", 1)
    pools: list[int] = []

    def counted(batches: list[_Games], processes: int) -> simulation._Results:
        pools.append(processes)
        return _in_processes(batches, processes)

    monkeypatch.setattr(simulation, "_in_processes", counted)
    return pools


@pytest.mark.parametrize(("ruleset", "players", "rounds", "decks"), RUNS)
def test_the_report_is_the_same_for_any_number_of_workers(
    pooled: list[int], ruleset: str, players: int, rounds: int | None, decks: int
) -> None:
    # A pool takes a moment to start: two seeds, one with each split.
    for seed, workers in ((1, 2), (8, 3)):
        alone = simulate(ruleset, players, 7, seed, rounds=rounds, decks=decks)
        pooled_run = simulate(
            ruleset, players, 7, seed, rounds=rounds, decks=decks, workers=workers
        )
        assert pooled_run == alone
    assert pooled == [2, 3]


def test_keep_sees_every_record_in_index_order_and_progress_ends_at_the_total(
    pooled: list[int],
) -> None:
    alone: dict[int, GameRecord] = {}
    simulate("premium", 4, 9, 3, keep=alone.__setitem__)
    kept: list[tuple[int, GameRecord]] = []
    calls: list[tuple[int, int]] = []
    simulate(
        "premium",
        4,
        9,
        3,
        keep=lambda index, record: kept.append((index, record)),
        progress=lambda done, total: calls.append((done, total)),
        workers=2,
    )
    assert pooled == [2]
    assert kept == sorted(alone.items())
    done = [n for n, _ in calls]
    assert done == sorted(done) and calls[-1] == (9, 9)
    assert {total for _, total in calls} == {9}


def test_an_error_from_keep_reaches_the_caller_as_it_is(pooled: list[int]) -> None:
    def failing(index: int, record: GameRecord) -> None:
        if index == 3:
            raise OSError("disk full")

    with pytest.raises(OSError, match="disk full"):
        simulate("2019", 3, 8, 0, keep=failing, workers=2)
    assert pooled == [2]


def test_workers_start_with_ctrl_c_ignored_and_it_comes_back_after() -> None:
    before = signal.getsignal(signal.SIGINT)
    with _interrupts_ignored():
        # what a process started now inherits
        assert signal.getsignal(signal.SIGINT) is signal.SIG_IGN
    assert signal.getsignal(signal.SIGINT) is before


def test_a_short_run_plays_in_this_process(
    pooled: list[int], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(simulation, "MIN_GAMES_PER_PROCESS", 3)
    simulate("2019", 2, 5, 0, workers=4)  # 5 games: one process's worth
    simulate("2019", 2, 6, 0, workers=4)  # 6: two processes, not four
    assert pooled == [2]


def test_runs_cover_every_game_once_in_order() -> None:
    run = _Games("2019", 4, 0, 0, 1000, None, None, records=False)
    for workers in (1, 2, 3, 7, 2000):
        batches = run.split(workers)
        games = [index for batch in batches for index in range(batch.start, batch.stop)]
        assert games == list(range(1000))
        assert all(batch.stop > batch.start for batch in batches)
        assert len(batches) >= min(1000, workers)  # every worker has work
    assert run.split(1) == run.split(1)
    assert _Games("2019", 4, 0, 0, 0, None, None, records=False).split(2) == []


def test_a_game_that_raises_in_a_worker_is_one_error_naming_it() -> None:
    good = _Games("2019", 3, 5, 0, 2, None, None, records=False)
    # A ruleset the worker does not know makes its games raise there.
    bad = attrs.evolve(good, ruleset="no-such-edition", start=2, stop=4)
    with pytest.raises(SimulationFailed) as caught:
        _gather(_in_processes([good, bad], 2), [good, bad], _Tally(3), None, None)
    error = caught.value
    assert error.index == 2 and error.game_seed == derive_seed(5, "game", 2)
    assert str(error).startswith(f"game 2 (game seed {error.game_seed}) failed: SetupError: ")
    assert "no-such-edition" in str(error)
    assert "Traceback" in str(error.__cause__)  # the worker's, as text


@attrs.frozen
class _Dying(_Games):
    """Games whose worker process ends abruptly (as if killed)."""

    def play(self, index: int) -> GameRecord:
        os._exit(9)


def test_a_worker_that_dies_is_one_error() -> None:
    dying = _Dying("2019", 3, 5, 0, 2, None, None, records=False)
    with pytest.raises(SimulationFailed, match="a worker process stopped") as caught:
        _gather(_in_processes([dying], 2), [dying], _Tally(3), None, None)
    assert caught.value.index is None and caught.value.game_seed is None


def test_a_failure_crosses_processes_whole() -> None:
    error = SimulationFailed.in_game(4, 99, KeyError("x"))
    again = pickle.loads(pickle.dumps(error))
    assert (str(again), again.index, again.game_seed) == (str(error), 4, 99)
    assert str(error) == "game 4 (game seed 99) failed: KeyError: 'x'"


def test_a_failing_game_names_itself_in_this_process_too(monkeypatch: pytest.MonkeyPatch) -> None:
    def broken(*args: object, **kwargs: object) -> GameRecord:
        raise RuntimeError("engine bug")

    monkeypatch.setattr(simulation, "play_game", broken)
    with pytest.raises(SimulationFailed, match=r"^game 0 \(game seed \d+\) failed: RuntimeError"):
        simulate("2019", 2, 3, 0)


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"workers": 0}, "workers must be a whole number from 1, not 0"),
        ({"workers": 2.0}, "workers must be a whole number from 1, not 2.0"),
        ({"workers": 2, "ray": "local"}, "with ray, the cluster runs the games"),
    ],
)
def test_bad_workers_are_refused(options: dict[str, object], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        simulate("2019", 2, 3, 0, **options)  # type: ignore[arg-type]  # wrong types on purpose


def test_the_cores_available_are_counted() -> None:
    assert 1 <= available_cores() <= (os.cpu_count() or 1)


Capture = pytest.CaptureFixture[str]


def test_the_command_line_gives_the_same_report_with_workers(
    pooled: list[int], capsys: Capture
) -> None:
    argv = ["simulate", "--ruleset", "online", "--players", "4", "--rounds", "2", "--json"]
    assert main([*argv, "--games", "5", "--workers", "2"]) == 0
    assert pooled == [2]
    data = json.loads(capsys.readouterr().out)
    assert data == simulate("online", 4, 5, 0, rounds=2).to_data()


def test_the_command_line_uses_every_core_by_default(
    monkeypatch: pytest.MonkeyPatch, capsys: Capture
) -> None:
    seen: list[object] = []

    def recorded(*args: object, **kwargs: object) -> SimulationReport:
        seen.append(kwargs["workers"])
        return simulate("2019", 4, 1, 0)

    monkeypatch.setattr(cli, "simulate", recorded)
    monkeypatch.setattr(cli, "available_cores", lambda: 5)
    assert main(["simulate", "--games", "1"]) == 0
    assert main(["simulate", "--games", "1", "--workers", "3"]) == 0
    assert seen == [5, 3]
    capsys.readouterr()


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--workers", "0"], "--workers must be at least 1, not 0"),
        (["--workers", "2", "--ray", "local"], "with --ray, the cluster runs the games"),
    ],
)
def test_the_command_line_refuses_bad_workers(
    argv: list[str], message: str, capsys: Capture
) -> None:
    assert main(["simulate", "--games", "2", *argv]) == USAGE_ERROR
    err = capsys.readouterr().err
    assert err.startswith("loveletter simulate: error: ") and message in err


def test_the_command_line_tells_a_failed_simulation_in_one_line(
    monkeypatch: pytest.MonkeyPatch, capsys: Capture
) -> None:
    def failing(*args: object, **kwargs: object) -> SimulationReport:
        raise SimulationFailed.in_game(3, 42, RuntimeError("engine bug"))

    monkeypatch.setattr(cli, "simulate", failing)
    assert main(["simulate", "--games", "5"]) == SIMULATION_FAILED
    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err == (
        "loveletter simulate: game 3 (game seed 42) failed: RuntimeError: engine bug\n"
    )
