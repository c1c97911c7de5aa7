"""``simulate(..., ray=address)`` and ``loveletter simulate --ray ADDRESS``
on a local Ray instance: the same report as in one process."""

from __future__ import annotations

import json
from collections.abc import Iterator

import attrs
import pytest
import ray

from loveletter import distributed
from loveletter.cli import main
from loveletter.records import GameRecord
from loveletter.simulation import (
    SimulationFailed,
    _Games,
    _gather,
    _Tally,
    derive_seed,
    simulate,
)


@pytest.fixture(scope="module")
def cluster() -> Iterator[None]:
    """One small local instance for the module (starting one takes seconds),
    which every simulation here joins."""
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
    try:
        yield
    finally:
        ray.shutdown()


# These two come first: they need no instance running, and the module's
# instance stays up from its first test to the module's end.


def test_an_address_with_no_ray_behind_it_is_one_error(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("RAY_ADDRESS", raising=False)
    assert not ray.is_initialized()
    with pytest.raises(SimulationFailed, match="cannot start or reach Ray at 'auto': "):
        simulate("2019", 2, 2, 0, ray="auto")


def test_a_run_starts_its_own_instance_and_stops_it() -> None:
    assert not ray.is_initialized()
    report = simulate("2019", 3, 4, 2, ray="local")
    assert not ray.is_initialized()
    assert report == simulate("2019", 3, 4, 2)


@pytest.mark.usefixtures("cluster")
@pytest.mark.parametrize(
    ("ruleset", "players", "rounds", "decks"),
    [("2019-classic", 4, None, 1), ("premium", 7, None, 1), ("online", 4, 3, 3)],
)
def test_the_report_on_ray_is_the_one_from_one_process(
    ruleset: str, players: int, rounds: int | None, decks: int
) -> None:
    # 30 games: runs of at most 2 (2 CPUs, 8 runs each), so many tasks
    on_ray = simulate(ruleset, players, 30, 4, rounds=rounds, decks=decks, ray="auto")
    assert on_ray == simulate(ruleset, players, 30, 4, rounds=rounds, decks=decks)
    assert ray.is_initialized()  # the connection it found stays open


@pytest.mark.usefixtures("cluster")
def test_keep_sees_every_record_in_index_order() -> None:
    alone: dict[int, GameRecord] = {}
    simulate("premium", 3, 20, 6, keep=alone.__setitem__)
    kept: list[tuple[int, GameRecord]] = []
    done: list[int] = []
    simulate(
        "premium",
        3,
        20,
        6,
        keep=lambda index, record: kept.append((index, record)),
        progress=lambda count, total: done.append(count),
        ray="auto",
    )
    assert kept == sorted(alone.items())
    assert done == sorted(done) and done[-1] == 20


@pytest.mark.usefixtures("cluster")
def test_a_game_that_raises_in_a_task_is_one_error_naming_it() -> None:
    good = _Games("2019", 3, 5, 0, 2, None, None, records=False)
    bad = attrs.evolve(good, ruleset="no-such-edition", start=2, stop=4)
    with pytest.raises(SimulationFailed) as caught:
        _gather(distributed.in_tasks([good, bad], 2), [good, bad], _Tally(3), None, None)
    error = caught.value
    assert (error.index, error.game_seed) == (2, derive_seed(5, "game", 2))
    assert str(error).startswith(f"game 2 (game seed {error.game_seed}) failed: SetupError: ")


@pytest.mark.usefixtures("cluster")
def test_the_command_line_runs_on_ray(capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["simulate", "--players", "5", "--games", "12", "--seed", "9", "--json"]
    assert main([*argv, "--ray", "auto", "--progress", "never"]) == 0
    assert json.loads(capsys.readouterr().out) == simulate("2019", 5, 12, 9).to_data()


@pytest.mark.usefixtures("cluster")
def test_a_tournament_on_ray_is_the_one_from_one_process() -> None:
    from loveletter.tournament import tournament

    entrants = ["counter", "random", "search:samples=2,candidates=2,playout=random"]
    on_ray = tournament(entrants, "2019", 2, games=12, seed=3, ray="auto")
    assert on_ray == tournament(entrants, "2019", 2, games=12, seed=3)
