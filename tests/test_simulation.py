"""Random bots, whole games and the statistics over many of them."""

from __future__ import annotations

import json

import pytest

import loveletter as ll
from loveletter.bots import RandomBot
from loveletter.commands import Command, Decline, Redraw
from loveletter.events import (
    EliminationReason,
    GameEnded,
    GameTied,
    RedrawOffered,
    RoundEnded,
    RoundEndReason,
    RoundStarted,
    TokenAwarded,
    TokenReason,
    TurnStarted,
)
from loveletter.simulation import derive_seed, play_game, random_bots, simulate


def test_random_bot_picks_legal_commands_deterministically() -> None:
    state = ll.new_game("2019", 4, seed=3)
    view = ll.view(state, state.current)
    picks = [RandomBot(11).choose(view) for _ in range(3)]
    assert picks[0] == picks[1] == picks[2]
    assert picks[0] in view.legal_commands
    bot = RandomBot(11)
    sequence = [bot.choose(view) for _ in range(20)]
    assert len(set(sequence)) > 1  # it does vary from call to call


def test_random_bot_refuses_when_nothing_to_decide() -> None:
    state = ll.new_game("2019", 3, seed=3)
    idle = next(p for p in range(3) if p != state.current)
    with pytest.raises(ValueError):
        RandomBot(0).choose(ll.view(state, idle))


def test_derive_seed_is_stable_and_separates_purposes() -> None:
    assert derive_seed(1, "game", 0) == derive_seed(1, "game", 0)
    assert derive_seed(1, "game", 1) != derive_seed(2, "game", 0)
    assert 0 <= derive_seed(123, "bot", 5) < 2**63


def test_play_game_log_replays_to_the_final_state() -> None:
    record = play_game("2019", 4, random_bots(4, 9), seed=9)
    state = record.state
    log = record.events
    assert state.is_over and state.winners
    assert ll.replay(log) == state
    assert isinstance(log[-1], GameEnded)


def test_play_game_shows_observer_every_event_in_order() -> None:
    seen: list[ll.Event] = []
    record = play_game(
        "2019-classic", 3, random_bots(3, 2), seed=2, observer=lambda events, _: seen.extend(events)
    )
    log = record.events
    assert tuple(seen) == log


def test_play_game_needs_one_agent_per_seat() -> None:
    with pytest.raises(ValueError):
        play_game("2019", 3, random_bots(2, 0))


def test_simulation_is_deterministic_for_a_seed() -> None:
    first = simulate("2019", 4, 15, seed=5)
    assert simulate("2019", 4, 15, seed=5) == first
    assert simulate("2019", 4, 15, seed=6) != first


@pytest.mark.parametrize(
    ("ruleset", "players"),
    [
        ("2019", 2),
        ("2019", 5),
        ("2019-classic", 4),
        ("premium", 2),
        ("premium", 4),
        ("premium", 5),
        ("premium", 8),
    ],
)
def test_simulation_totals_are_consistent(ruleset: str, players: int) -> None:
    games = 12
    report = simulate(ruleset, players, games, seed=1)
    assert report.games == games
    assert report.rounds + report.mid_round_wins >= games
    assert sum(report.game_wins) >= games
    assert sum(report.game_wins) >= games + report.shared_games
    assert sum(report.round_ends.values()) == report.rounds
    assert sum(report.round_wins) >= report.rounds
    assert report.turns >= report.rounds  # a first-turn Guard can end a two-player round
    assert report.mean_rounds_per_game == report.rounds / games
    assert report.mean_turns_per_round == report.turns / report.rounds
    assert set(report.round_ends) == set(RoundEndReason)
    assert set(report.eliminations) == set(EliminationReason)
    # everyone but one is out in each such round
    left = report.round_ends[RoundEndReason.ONE_PLAYER_LEFT]
    assert sum(report.eliminations.values()) >= (players - 1) * left
    if ruleset == "2019-classic":
        assert report.spy_tokens == (0,) * players
    assert set(report.bonus_tokens) == set(TokenReason) - {TokenReason.ROUND_WIN}
    assert report.bonus_tokens[TokenReason.SPY] == report.spy_tokens
    if ruleset != "premium":
        assert report.tied_games == report.mid_round_wins == 0
        assert all(not any(n) for r, n in report.bonus_tokens.items() if r is not TokenReason.SPY)
    else:
        assert report.shared_games == 0  # ties are broken by a round, never shared
        assert report.spy_tokens == (0,) * players
        # a game won mid-round never finishes its round, so wins need not follow rounds
        assert report.rounds >= games - report.mid_round_wins


def test_simulation_counts_match_the_games_it_played() -> None:
    report = simulate("2019", 3, 4, seed=8)
    turns = 0
    for index in range(4):
        game_seed = derive_seed(8, "game", index)
        record = play_game("2019", 3, random_bots(3, game_seed), seed=game_seed)
        log = record.events
        turns += sum(isinstance(event, TurnStarted) for event in log)
    assert report.turns == turns


def test_simulation_reports_progress() -> None:
    calls: list[tuple[int, int]] = []
    simulate("2019", 3, 5, seed=0, progress=lambda done, total: calls.append((done, total)))
    assert calls == [(n, 5) for n in range(1, 6)]


def test_report_data_is_json() -> None:
    report = simulate("2019", 4, 3, seed=0)
    data = json.loads(json.dumps(report.to_data()))
    assert data["games"] == 3
    assert (
        data["round_ends"]["deck-empty"] + data["round_ends"]["one-player-left"] == data["rounds"]
    )
    assert set(data["eliminations"]) == {reason.value for reason in EliminationReason}
    assert data["game_wins"] == list(report.game_wins)


@pytest.mark.parametrize(
    ("ruleset", "players", "games", "seed"),
    [("nope", 4, 1, 0), ("2019", 7, 1, 0), ("2019-classic", 5, 1, 0), ("2019", 4, -1, 0)],
)
def test_simulation_rejects_bad_arguments(
    ruleset: str, players: int, games: int, seed: int
) -> None:
    with pytest.raises(ValueError):
        simulate(ruleset, players, games, seed)


# --------------------------------------------------------------------------
# Premium: whoever must act is asked, even out of turn


class _Recorder:
    """A random bot that remembers every view it was asked to act on."""

    def __init__(self, seed: int) -> None:
        self.bot = RandomBot(seed)
        self.asked: list[ll.PlayerView] = []

    def choose(self, view: ll.PlayerView) -> Command:
        self.asked.append(view)
        return self.bot.choose(view)


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6, 7, 8])
def test_premium_games_replay_to_their_end(players: int) -> None:
    record = play_game("premium", players, random_bots(players, 4), seed=4)
    state = record.state
    log = record.events
    assert state.is_over and state.winners
    assert ll.replay(log) == state
    assert isinstance(log[-1], GameEnded)


def test_the_bishops_target_is_asked_out_of_turn() -> None:
    asked_out_of_turn = 0
    for seed in range(40):
        agents = [_Recorder(derive_seed(seed, "bot", seat)) for seat in range(5)]
        record = play_game("premium", 5, agents, seed=seed)
        log = record.events
        offers = [e.player for e in log if isinstance(e, RedrawOffered)]
        out_of_turn = [
            view for agent in agents for view in agent.asked if view.decision is ll.Decision.REDRAW
        ]
        assert sorted(view.player for view in out_of_turn) == sorted(offers)
        for view in out_of_turn:
            assert view.player != view.current
            assert set(view.legal_commands) == {Redraw(view.player), Decline(view.player)}
        asked_out_of_turn += len(out_of_turn)
        for agent in agents:
            for view in agent.asked:
                assert view.legal_commands  # never asked when it has nothing to decide
        if asked_out_of_turn >= 3:
            break
    assert asked_out_of_turn >= 3


def test_random_bot_answers_a_redraw_offer() -> None:
    for seed in range(40):
        state = ll.new_game("premium", 6, seed=seed)
        bots = random_bots(6, seed)
        while not state.is_over and state.decision is not ll.Decision.REDRAW:
            actor = state.to_act
            command = (
                bots[actor].choose(ll.view(state, actor)) if actor is not None else ll.StartRound()
            )
            state = ll.push(state, command)
        if state.decision is ll.Decision.REDRAW:
            target = state.to_act
            assert target is not None and target != state.current
            answer = RandomBot(0).choose(ll.view(state, target))
            assert answer in (Redraw(target), Decline(target))
            with pytest.raises(ValueError):  # the current player has nothing to decide now
                RandomBot(0).choose(ll.view(state, state.current))
            return
    raise AssertionError("no Bishop named a number in 40 games")


def test_premium_report_counts_ties_mid_round_wins_and_bonus_tokens() -> None:
    report = simulate("premium", 5, 40, seed=0)
    tied = mid = 0
    bonus = dict.fromkeys(TokenReason, 0)
    for index in range(40):
        game_seed = derive_seed(0, "game", index)
        record = play_game("premium", 5, random_bots(5, game_seed), seed=game_seed)
        log = record.events
        tied += any(isinstance(e, GameTied) for e in log)
        rounds_started = sum(isinstance(e, RoundStarted) for e in log)
        mid += rounds_started - sum(isinstance(e, RoundEnded) for e in log)
        for e in log:
            if isinstance(e, TokenAwarded):
                bonus[e.reason] += 1
    assert report.tied_games == tied
    assert report.mid_round_wins == mid
    for reason, tokens in report.bonus_tokens.items():
        assert sum(tokens) == bonus[reason]
    assert mid and any(
        sum(report.bonus_tokens[r]) for r in (TokenReason.BISHOP, TokenReason.JESTER)
    )


# --------------------------------------------------------------------------
# online: matches of a set number of rounds, reported as scoreboards

_PARTIAL = (TokenReason.BISHOP, TokenReason.CONSTABLE, TokenReason.JESTER)


@pytest.mark.parametrize("players", range(3, 9))
@pytest.mark.parametrize("decks", [1, 2, 3])
def test_online_simulation_adds_up_the_scoreboards_of_its_matches(players: int, decks: int) -> None:
    games, rounds = 2, 3
    kept: dict[int, ll.GameRecord] = {}
    report = simulate(
        "online", players, games, seed=decks, keep=kept.__setitem__, rounds=rounds, decks=decks
    )
    assert report.ranked and report.match_rounds == rounds and report.decks == decks
    assert report.games == games and report.rounds == games * rounds
    ranks = [[0] * players for _ in range(players)]
    counters = [0] * players
    turns = 0
    for index, record in kept.items():
        # each match is play_game with the derived seed, the rounds and the decks
        game_seed = derive_seed(decks, "game", index)
        again = play_game(
            "online",
            players,
            random_bots(players, game_seed),
            seed=game_seed,
            rounds=rounds,
            settings=ll.TableSettings(decks=decks),
        )
        assert again == record
        first = record.events[0]
        assert isinstance(first, ll.GameStarted) and first.settings is not None
        assert first.settings.decks == decks
        assert record.state.card_count() == (16 if players < 5 else 32) * decks
        board = record.scoreboard()
        assert len(board.rounds) == rounds and not board.over
        for seat in range(players):
            for rank in range(players):
                ranks[seat][rank] += board.rank_counts()[seat][rank]
            counters[seat] += board.tokens[seat]
        turns += sum(isinstance(event, TurnStarted) for event in record.events)
    assert report.ranks == tuple(map(tuple, ranks))
    assert report.win_counters == tuple(counters)
    assert report.turns == turns
    for seat in range(players):
        assert sum(report.ranks[seat]) == games * rounds  # nobody leaves: ranked every round
        assert report.round_wins[seat] == report.ranks[seat][0]
        partial = sum(report.bonus_tokens[reason][seat] for reason in _PARTIAL)
        assert report.win_counters[seat] == report.round_wins[seat] + partial
    assert sum(report.round_ends.values()) == report.rounds
    assert report.eliminations[EliminationReason.LEFT] == 0
    assert report.game_wins == (0,) * players  # a match has no winner
    assert report.tied_games == report.mid_round_wins == report.shared_games == 0
    assert report.bonus_tokens[TokenReason.SPY] == (0,) * players
    if players < 5:  # the 16-card deck has no Bishop, Constable or Jester
        assert all(report.bonus_tokens[reason] == (0,) * players for reason in _PARTIAL)


def test_online_report_data_adds_the_scoreboard() -> None:
    report = simulate("online", 5, 3, seed=2, rounds=4, decks=2)
    data = json.loads(json.dumps(report.to_data()))
    assert data["decks"] == 2 and data["match_rounds"] == 4
    assert data["ranks"] == [list(counts) for counts in report.ranks]
    assert data["win_counters"] == list(report.win_counters)
    assert data["eliminations"]["left"] == 0
    assert sum(map(sum, data["ranks"])) == 5 * data["rounds"]
    assert simulate("online", 5, 3, seed=2, rounds=4, decks=2) == report  # a pure function
    # other editions' data is as it was: no online keys
    assert not {"decks", "match_rounds", "ranks", "win_counters"} & set(
        simulate("premium", 5, 2, seed=2).to_data()
    )


@pytest.mark.parametrize(
    ("ruleset", "options", "message"),
    [
        ("online", {}, "online matches never end: say how many rounds each plays"),
        ("online", {"rounds": 0}, "rounds must be a whole number from 1, not 0"),
        ("online", {"rounds": 2, "decks": 4}, "online plays 1 to 3 decks, not 4"),
        ("online", {"rounds": 2, "decks": 0}, "online plays 1 to 3 decks, not 0"),
        ("2019", {"rounds": 3}, "rounds are for online matches only"),
        ("premium", {"decks": 2}, "premium plays one deck, not 2: decks are online only"),
    ],
)
def test_rounds_and_decks_are_refused_where_they_do_not_apply(
    ruleset: str, options: dict[str, int], message: str
) -> None:
    with pytest.raises(ValueError, match=message):
        simulate(ruleset, 4, 1, seed=0, **options)  # type: ignore[arg-type]
