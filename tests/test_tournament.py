"""``tournament(...)`` and ``loveletter tournament``: seats rotated over
every seating, the same report however the games are run, and the
statistics (Wilson intervals, the Bradley-Terry ratings) on known values."""

from __future__ import annotations

import json
import math
from collections import Counter

import pytest

from loveletter.cli import main
from loveletter.simulation import SimulationFailed
from loveletter.tournament import (
    HeadToHead,
    _Matches,
    bradley_terry,
    format_tournament,
    seatings,
    tournament,
    wilson_interval,
)

# --------------------------------------------------------------------------
# the statistics


@pytest.mark.parametrize(
    ("successes", "trials", "low", "high"),
    [
        # by hand from the formula, z = 1.959964 (and in Newcombe 1998, table I)
        (5, 10, 0.2366, 0.7634),
        (0, 10, 0.0, 0.2775),
        (10, 10, 0.7225, 1.0),
        (60, 100, 0.5020, 0.6906),
        (81, 263, 0.2553, 0.3662),
    ],
)
def test_wilson_intervals_on_known_values(
    successes: int, trials: int, low: float, high: float
) -> None:
    got = wilson_interval(successes, trials)
    assert got == pytest.approx((low, high), abs=5e-5)


def test_wilson_intervals_at_the_edges() -> None:
    assert wilson_interval(0, 0) == (0.0, 1.0)
    narrow = wilson_interval(500, 1000, confidence=0.5)
    assert narrow[1] - narrow[0] < wilson_interval(500, 1000)[1] - wilson_interval(500, 1000)[0]
    for bad in [(3, 2), (-1, 2)]:
        with pytest.raises(ValueError, match="not a rate"):
            wilson_interval(*bad)
    with pytest.raises(ValueError, match="confidence"):
        wilson_interval(1, 2, confidence=1.0)


def test_bradley_terry_ratings_on_known_values() -> None:
    # 3 to 1 odds are 400 log10(3) = 190.8 Elo points, centred on 1500
    first, second = bradley_terry([[0, 75], [25, 0]], prior=0)
    assert first - second == pytest.approx(400 * math.log10(3))
    assert first + second == pytest.approx(3000)
    # strengths 4 : 2 : 1 give every pair its expected results exactly
    strengths = (4.0, 2.0, 1.0)
    wins = [
        [0.0 if i == j else 700 * s / (s + t) for j, t in enumerate(strengths)]
        for i, s in enumerate(strengths)
    ]
    ratings = bradley_terry(wins, prior=0)
    for i, j in [(0, 1), (1, 2), (0, 2)]:
        expected = 400 * math.log10(strengths[i] / strengths[j])
        assert ratings[i] - ratings[j] == pytest.approx(expected, abs=1e-6)


def test_the_prior_keeps_an_unbeaten_rating_finite() -> None:
    best, worst = bradley_terry([[0, 20], [0, 0]])
    assert math.isfinite(best) and math.isfinite(worst) and best > worst
    # with one virtual game split evenly: 20.5 wins to 0.5
    assert best - worst == pytest.approx(400 * math.log10(41))
    # players that never met stay level
    assert bradley_terry([[0, 0], [0, 0]]) == (1500.0, 1500.0)


# --------------------------------------------------------------------------
# seatings


@pytest.mark.parametrize(
    ("entrants", "players", "count"), [(2, 2, 2), (3, 2, 6), (3, 3, 6), (2, 4, 6), (4, 3, 24)]
)
def test_every_entrant_sits_in_every_seat_equally_often(
    entrants: int, players: int, count: int
) -> None:
    lineups = seatings(entrants, players)
    assert len(lineups) == len(set(lineups)) == count
    for seat in range(players):
        at_seat = Counter(lineup[seat] for lineup in lineups)
        assert set(at_seat) == set(range(entrants))
        assert len(set(at_seat.values())) == 1


def test_seatings_that_cannot_be_even_are_refused() -> None:
    with pytest.raises(ValueError, match="cannot share 3 seats evenly"):
        seatings(2, 3)
    with pytest.raises(ValueError, match="too many"):
        seatings(8, 8)
    with pytest.raises(ValueError, match="at least two"):
        seatings(1, 2)


def test_a_cycle_deals_the_same_first_shuffle_to_every_seating() -> None:
    run = _Matches("2019", 2, ("counter", "random"), seatings(2, 2), 3, 0, 4, None, None)
    deals = [run.play(index) for index in range(4)]
    assert [deal.seating for deal in deals] == [0, 1, 0, 1]


# --------------------------------------------------------------------------
# tournaments


def test_rotation_and_the_report() -> None:
    report = tournament(["counter", "random"], "2019-classic", 4, games=6, seed=2)
    assert report.seatings == 6
    for standing in report.standings:
        # two copies of each bot at four seats: each seat, half the games
        assert standing.seat_games == (3, 3, 3, 3)
        assert standing.games == 12
        assert standing.wins == sum(standing.seat_wins)
        assert standing.low <= standing.win_rate <= standing.high
    assert sum(seat.wins for seat in report.seats) == sum(s.wins for s in report.standings)
    assert sum(seat.games for seat in report.seats) == 4 * 6
    (pair,) = report.head_to_head
    assert pair == HeadToHead(
        "counter", "random", 6, pair.first_ahead, pair.second_ahead, pair.level
    )
    assert pair.first_ahead + pair.second_ahead + pair.level == 6
    assert report.chance_rate == 0.25
    counter, _ = report.standings
    assert counter.rating > 1500  # it wins more than random bots
    text = "\n".join(format_tournament(report))
    assert "6 games (1 cycles of 6 seatings)" in text
    assert "counter v random: 6 games" in text


def test_the_same_report_on_one_core_and_on_two_workers() -> None:
    alone = tournament(["random", "counter"], "2019", 2, games=8, seed=5)
    assert tournament(["random", "counter"], "2019", 2, games=8, seed=5, workers=2) == alone
    assert tournament(["random", "counter"], "2019", 2, games=8, seed=6) != alone


def test_online_matches_are_won_on_the_win_counter() -> None:
    report = tournament(
        ["counter", "random", "search:samples=1,candidates=2,playout=random"],
        "online",
        3,
        games=6,
        seed=1,
        rounds=1,
        decks=2,
    )
    assert report.match_rounds == 1 and report.decks == 2 and report.rounds == 6
    # a one-round match: won by the seats ranked first, one or more
    assert sum(seat.wins for seat in report.seats) >= 6
    assert report.to_data()["match_rounds"] == 1
    # three bots at three seats: each pair met in every game, and when the
    # third won, neither of the two did
    assert len(report.head_to_head) == 3
    for pair in report.head_to_head:
        assert pair.games == 6 == pair.first_ahead + pair.second_ahead + pair.level
    assert sum(pair.level for pair in report.head_to_head) >= 6


def test_bad_tournaments_are_refused() -> None:
    with pytest.raises(ValueError, match="multiple of 6"):
        tournament(["counter", "random", "search"], "2019", 2, games=7)
    with pytest.raises(ValueError, match="each entrant once"):
        tournament(["counter", "counter"], "2019", 2, games=2)
    with pytest.raises(ValueError, match="randy"):
        tournament(["counter", "randy"], "2019", 2, games=2)
    with pytest.raises(ValueError, match="2-4 players"):
        tournament(["counter", "random"], "2019-classic", 6, games=2)
    with pytest.raises(ValueError, match="rounds"):
        tournament(["counter", "random"], "online", 4, games=6)
    with pytest.raises(ValueError, match="workers"):
        tournament(["counter", "random"], "2019", 2, games=2, workers=2, ray="local")


def test_a_game_that_fails_names_itself(monkeypatch: pytest.MonkeyPatch) -> None:
    def broken(spec: str, seed: int) -> object:
        raise RuntimeError("no bot today")

    monkeypatch.setattr("loveletter.tournament.make_bot", broken)
    with pytest.raises(SimulationFailed, match=r"game 0 .*no bot today") as caught:
        tournament(["counter", "random"], "2019", 2, games=2)
    assert caught.value.index == 0


# --------------------------------------------------------------------------
# the command line


def test_the_command_prints_the_report(capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["tournament", "--bots", "counter,random", "--games", "4", "--workers", "1"]
    assert main([*argv, "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data == tournament(["counter", "random"], "2019", 2, games=4, seed=0).to_data()
    assert [s["name"] for s in data["standings"]] == ["counter", "random"]
    assert main(argv) == 0
    assert "counter v random: 4 games" in capsys.readouterr().out


@pytest.mark.parametrize(
    ("extra", "message"),
    [
        (["--bots", "counter,random", "--games", "3"], "multiple of the 2 seatings"),
        (["--bots", "counter"], "two or more different bots"),
        (["--bots", "counter,robot"], "'robot' is not a bot"),
        (["--bots", "counter,random", "--players", "3"], "cannot share 3 seats"),
        (["--bots", "counter,random", "--ruleset", "online", "--players", "4"], "--rounds"),
    ],
)
def test_the_command_refuses_bad_arguments(
    extra: list[str], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["tournament", *extra]) == 2
    assert message in capsys.readouterr().err
