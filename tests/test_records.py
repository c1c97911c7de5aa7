"""Game records, secret seeds and the checked replay: a game can be kept,
saved, loaded and replayed exactly, and a log no game produces is refused
with the index of its first impossible event."""

from __future__ import annotations

import json
from pathlib import Path

import attrs
import pytest

import loveletter as ll
from loveletter.chance import SEED_LIMIT
from loveletter.events import CardDealt, CardSetAside, GameStarted, RoundStarted
from loveletter.evolution import apply_events, evolve, initial_state
from loveletter.simulation import random_bots


def _whole_game(ruleset: str = "2019", players: int = 3, seed: int = 5) -> ll.GameRecord:
    return ll.play_game(ruleset, players, random_bots(players, seed), seed=seed)


# --------------------------------------------------------------------------
# secret seeds


def test_a_game_without_a_seed_gets_a_fresh_128_bit_one_recorded_in_its_events() -> None:
    seeds = {ll.new_game("2019", 4).seed for _ in range(20)}
    assert len(seeds) == 20  # no two games share a deal by default
    assert all(0 <= seed < 2**128 for seed in seeds)
    assert max(seeds) > 2**100  # 20 draws below 2**100 would be a 1 in 2**540 fluke
    record = ll.GameRecord.new("2019", 4)
    first = record.events[0]
    assert isinstance(first, GameStarted) and first.seed == record.seed
    assert ll.replay(record.events) == record.state  # the log alone replays it


def test_the_seed_is_hidden_from_every_player() -> None:
    record = _whole_game()
    for seat in range(record.players):
        first = record.events_for(seat)[0]
        assert isinstance(first, GameStarted) and first.seed is None
        assert all(
            event.deck is None
            for event in record.events_for(seat)
            if isinstance(event, RoundStarted)
        )


@pytest.mark.parametrize("seed", [0, 1, 2**53 + 1, 2**128 - 1, SEED_LIMIT - 1])
def test_any_seed_below_2_to_the_256_deals_and_replays(seed: int) -> None:
    record = ll.GameRecord.new("premium", 5, seed=seed)
    assert record.seed == seed
    assert ll.GameRecord(record.events) == record
    assert ll.new_game("premium", 5, seed=seed) == record.state


@pytest.mark.parametrize("seed", [True, -1, SEED_LIMIT, 1.0, "7", [7]])
def test_a_seed_that_is_not_one_is_refused_by_name(seed: object) -> None:
    with pytest.raises(ll.SetupError) as caught:
        ll.new_game("2019", 3, seed=seed)  # type: ignore[arg-type]  # the point of the test
    assert caught.value.field == "seed"


# --------------------------------------------------------------------------
# records


def test_a_record_grows_by_push_and_replays_to_the_same_state() -> None:
    record = ll.GameRecord.new("2019-classic", 3, seed=11)
    state = ll.new_game("2019-classic", 3, seed=11)
    while not record.is_over:
        command = ll.legal_commands(record.state)[-1]
        record = record.push(command)
        state = ll.push(state, command)
        assert record.state == state
    assert ll.GameRecord(record.events) == record
    assert ll.replay(record.events) == record.state
    outcome = record.outcome()
    assert outcome is not None
    assert outcome.winners == state.winners and outcome.tokens == state.tokens


def test_a_refused_command_leaves_the_record_as_it_was() -> None:
    record = ll.GameRecord.new("2019", 3, seed=2)
    before = record.events
    with pytest.raises(ll.IllegalCommand):
        record.push(ll.PlayCard(1, ll.Card.GUARD, 0, ll.Card.PRIEST))
    assert record.events == before


def test_the_commands_of_a_record_rebuild_it() -> None:
    record = _whole_game("premium", 6, 3)
    again = ll.GameRecord(record.events[:1])
    for command in record.commands():
        again = again.push(command)
    assert again == record and again.state == record.state


def test_the_game_loop_returns_a_record_and_its_outcome() -> None:
    record = _whole_game("2019", 4, 9)
    assert record.is_over
    outcome = record.outcome()
    assert outcome is not None and outcome.winners == record.state.winners
    assert outcome.rounds == record.state.round_number
    unfinished = ll.GameRecord.new("2019", 4, seed=9)
    assert unfinished.outcome() is None


def test_agents_that_observe_see_the_events_redacted_for_their_seat() -> None:
    class Watcher(ll.RandomBot):
        def __init__(self, seed: int) -> None:
            super().__init__(seed)
            self.seen: list[ll.Event] = []

        def observe(self, events: tuple[ll.Event, ...]) -> None:
            self.seen.extend(events)

    agents = [Watcher(seat) for seat in range(4)]
    record = ll.play_game("premium", 4, agents, seed=8)
    for seat, agent in enumerate(agents):
        assert tuple(agent.seen) == record.events_for(seat)


def test_a_game_loop_needs_one_agent_per_seat() -> None:
    with pytest.raises(ll.SetupError) as caught:
        ll.play_game("2019", 3, random_bots(2, 0))
    assert caught.value.field == "agents"


def test_a_record_saved_to_a_file_loads_and_replays(tmp_path: Path) -> None:
    record = _whole_game("premium", 5, 21)
    path = tmp_path / "game.json"
    ll.save_record(record, path)
    data = json.loads(path.read_text(encoding="utf-8"))
    assert data["type"] == "GameRecord" and data["format"] == 2 and data["stacked_rounds"] == []
    assert data["seed"] == "21" and data["players"] == 5 and data["ruleset"] == "premium"
    loaded = ll.load_record(path)
    assert loaded == record and loaded.state == record.state


def test_a_big_seed_is_written_as_a_string_other_languages_read_exactly(tmp_path: Path) -> None:
    seed = 2**200 + 12345
    record = ll.GameRecord.new("2019", 2, seed=seed)
    text = ll.dumps(record)
    assert f'"{seed}"' in text and str(seed) not in text.replace(f'"{seed}"', "")
    assert ll.loads(text) == record
    assert ll.loads(text).seed == seed


def test_loads_of_dumps_of_a_list_of_events_round_trips() -> None:
    events = _whole_game().events
    assert ll.loads(ll.dumps(events)) == events
    assert ll.loads(ll.dumps(list(events[:5]))) == events[:5]


# --------------------------------------------------------------------------
# the checked replay: forged logs


def _index_of_refusal(events: tuple[ll.Event, ...]) -> int | None:
    with pytest.raises(ll.EventMismatch) as caught:
        ll.replay(events)
    return caught.value.index


def test_a_card_dealt_to_seat_minus_one_is_refused_at_its_index() -> None:
    events = list(_whole_game().events)
    index = next(i for i, e in enumerate(events) if isinstance(e, CardDealt))
    dealt = events[index]
    assert isinstance(dealt, CardDealt)
    events[index] = CardDealt(-1, dealt.card)
    assert _index_of_refusal(tuple(events)) == index


def test_a_round_dealt_21_princesses_is_refused() -> None:
    events = list(_whole_game().events)
    index = next(i for i, e in enumerate(events) if isinstance(e, RoundStarted))
    started = events[index]
    assert isinstance(started, RoundStarted) and started.deck is not None
    events[index] = attrs.evolve(started, deck=(ll.Card.PRINCESS,) * len(started.deck))
    assert _index_of_refusal(tuple(events)) == index


@pytest.mark.parametrize("players", [10**9, 1, 0, -3, True])
def test_a_game_of_an_impossible_player_count_is_refused(players: int) -> None:
    events = list(_whole_game().events)
    first = events[0]
    assert isinstance(first, GameStarted)
    events[0] = attrs.evolve(first, players=players)
    assert _index_of_refusal(tuple(events)) == 0


def test_an_effect_that_did_not_happen_is_refused() -> None:
    events = _whole_game("2019", 4, 3).events
    eliminated = next(i for i, e in enumerate(events) if isinstance(e, ll.PlayerEliminated))
    forged = events[:eliminated] + events[eliminated + 1 :]
    with pytest.raises(ll.EventMismatch) as caught:
        ll.replay(forged)
    assert caught.value.index == eliminated


def test_a_log_cut_inside_a_commands_events_is_refused_and_one_cut_between_is_not() -> None:
    record = _whole_game()
    boundary = ll.GameRecord(record.events[:1])
    lengths = []
    for command in record.commands()[:6]:
        before = len(boundary.events)
        boundary = boundary.push(command)
        lengths.append(len(boundary.events) - before)
    cut = len(boundary.events)
    assert ll.replay(record.events[:cut]) == boundary.state
    with pytest.raises(ll.EventMismatch) as caught:
        ll.replay(record.events[: cut - 1])
    assert caught.value.index == cut - 1


@pytest.mark.rule("setup.set-aside-face-down")
def test_evolve_refuses_a_second_card_set_aside_in_a_round() -> None:
    # found by the CrossHair contract on evolve: it replaced the first card,
    # losing it (decide never emits this; a forged log could)
    opening = ll.start_game("2019", 3, seed=1)
    assert isinstance(opening[0], GameStarted) and isinstance(opening[2], CardSetAside)
    state = apply_events(initial_state(opening[0]), opening[1:3])  # dealing, one card aside
    assert state.set_aside is not None and state.deck
    with pytest.raises(ll.EventMismatch, match=r"^CardSetAside: Priest is already set aside$"):
        evolve(state, CardSetAside(state.deck[0]))


def test_a_redacted_log_cannot_be_replayed() -> None:
    record = _whole_game()
    with pytest.raises(ll.EventMismatch) as caught:
        ll.replay(record.events_for(0))
    assert caught.value.index == 0


@pytest.mark.parametrize("log", [[], "GameStarted", None, [1, 2, 3], [GameStarted("x", 2, 0, 0)]])
def test_what_is_not_an_event_log_is_refused(log: object) -> None:
    with pytest.raises(ll.EventMismatch):
        ll.replay(log)  # type: ignore[arg-type]  # the point of the test


def test_a_record_file_of_a_forged_game_is_refused_with_the_event_index(tmp_path: Path) -> None:
    record = _whole_game()
    data = json.loads(ll.dumps(record))
    index = next(i for i, e in enumerate(data["events"]) if e["type"] == "CardDealt")
    data["events"][index]["player"] = 7
    path = tmp_path / "forged.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    with pytest.raises(ll.EventMismatch) as caught:
        ll.load_record(path)
    assert caught.value.index == index


def test_a_record_whose_header_disagrees_with_its_first_event_is_refused() -> None:
    data = json.loads(ll.dumps(_whole_game()))
    data["players"] = 4
    with pytest.raises(ll.SerializationError) as caught:
        ll.loads(json.dumps(data))
    assert caught.value.path == "players"


# --------------------------------------------------------------------------
# outcomes and scoreboards: an online match never ends by itself


def _online_match(players: int = 5, seed: int = 3, rounds: int = 3) -> ll.GameRecord:
    return ll.play_game("online", players, random_bots(players, seed), seed=seed, rounds=rounds)


def test_an_online_outcome_is_the_scoreboard_so_far_once_a_round_has_ended() -> None:
    record = ll.GameRecord.new("online", 4, seed=4)
    assert record.outcome() is None  # nothing to report before a round ends
    while not record.state.round_over:
        record = record.push(ll.legal_commands(record.state)[0])
    ended = [e for e in record.events if isinstance(e, ll.RoundEnded)]
    assert len(ended) == 1 and ended[0].ranks is not None
    outcome = record.outcome()
    assert outcome is not None
    assert outcome.winners == () and not outcome.final  # no winner, the match goes on
    assert outcome.rounds == 1 and outcome.ranks == (ended[0].ranks,)
    assert outcome.tokens == record.state.tokens
    assert sum(outcome.tokens) >= 1  # the rank-1 players' counters
    assert "final=False" in repr(outcome) and "ranks=" in repr(outcome)


def test_a_scoreboard_lists_every_round_the_counters_and_matches_the_state() -> None:
    record = _online_match()
    board = record.scoreboard()
    ended = [e for e in record.events if isinstance(e, ll.RoundEnded)]
    assert [score.ranks for score in board.rounds] == [e.ranks for e in ended]
    assert [score.number for score in board.rounds] == [1, 2, 3]
    assert board.ranks == record.outcome().ranks  # type: ignore[union-attr]
    assert board.tokens == record.state.tokens
    assert not board.over and board.left == () and board.winners == ()
    for seat in range(5):
        wins = sum(1 for ranks in board.ranks if ranks[seat] == 1)
        assert board.round_wins[seat] == wins
        assert board.tokens[seat] == wins + board.partial_wins()[seat]
        assert sum(board.rank_counts()[seat]) == 3
    assert board.partial_wins() == tuple(
        sum(counts) for counts in zip(*(board.partial_wins(r) for r in ll.TokenReason), strict=True)
    )
    assert sum(board.partial_wins()) >= 1  # seed 3 has a Bishop, a Constable and a Jester
    assert ll.loads(ll.dumps(board)) == board
    # round ends, tokens and leaving are public: each player sees the same board
    for seat in range(5):
        assert ll.Scoreboard.from_events(record.events_for(seat)) == board


def test_a_partial_win_counts_at_once_but_its_round_only_at_its_end() -> None:
    record = _online_match(seed=3, rounds=1)
    # seed 3: a correct Bishop guess in round 1, before the round ends
    index = next(
        i
        for i, e in enumerate(record.events)
        if isinstance(e, ll.TokenAwarded) and e.reason is ll.TokenReason.BISHOP
    )
    board = ll.Scoreboard.from_events(record.events[: index + 1])
    assert board.rounds == () and board.partial_wins(ll.TokenReason.BISHOP)[0] == 1
    assert board.tokens[0] == 1 and board.awards[-1].round_number == 1


def test_a_match_that_closes_is_final_and_says_who_left() -> None:
    record = ll.GameRecord.new("online", 3, seed=1)
    actor = record.state.to_act
    assert actor is not None
    bystanders = [seat for seat in range(3) if seat != actor]
    for seat in bystanders:  # the second leaver leaves one player: the round ends
        record = record.push(ll.Leave(seat))
    assert record.is_over  # and the match closes: fewer than two are present
    board = record.scoreboard()
    assert board.left == tuple(bystanders) and board.over and board.winners == ()
    ranks: list[int | None] = [None, None, None]
    ranks[actor], ranks[bystanders[1]], ranks[bystanders[0]] = 1, 2, 3
    assert board.ranks == (tuple(ranks),)
    outcome = record.outcome()
    assert outcome is not None and outcome.final and outcome.winners == ()
    assert outcome.rounds == 1 and outcome.tokens[actor] == 1
    text = "\n".join(board.lines())
    assert "Left the match: " + ", ".join(f"Player {s}" for s in bystanders) in text
    assert "The match is closed" in text


def test_other_editions_keep_their_outcome_and_list_round_winners() -> None:
    record = _whole_game("premium", 5, 21)
    outcome = record.outcome()
    assert outcome is not None and outcome.final and outcome.ranks == ()
    assert repr(outcome) == (
        f"Outcome(winners={outcome.winners}, tokens={outcome.tokens}, rounds={outcome.rounds})"
    )
    board = record.scoreboard()
    assert board.over and board.winners == record.state.winners
    assert board.tokens == record.state.tokens and board.ranks == ()
    assert all(score.ranks is None and score.winners for score in board.rounds)
    assert len(board.rounds) in (outcome.rounds, outcome.rounds - 1)  # Premium may end mid-round
    assert not board.ranked and board.rank_counts() == ((0,) * 5,) * 5
    text = "\n".join(board.lines())
    assert "Favor tokens: Player 0 " in text and "Won by Player" in text
    assert "Ranks" not in text
    assert ll.loads(ll.dumps(board)) == board


def test_a_scoreboard_from_a_position_starts_from_its_tokens() -> None:
    state = _online_match(rounds=2).state
    dealt = ll.push(state, ll.StartRound())
    position = ll.to_position(dealt)
    board = ll.GameRecord.from_position(position).scoreboard()
    assert board.tokens == state.tokens and board.rounds == () and board.awards == ()
    with pytest.raises(ll.ArgumentError):
        ll.Scoreboard.from_events((ll.PositionEstablished(None),))
    with pytest.raises(ll.ArgumentError):
        ll.Scoreboard.from_events(())


def test_a_live_record_lists_the_commands_a_loaded_one_does() -> None:
    # every deal of these games is the seed's: StartRound(), live or loaded
    # (tests/test_records_integrity.py has the stacked ones)
    for ruleset, players in (("online", 4), ("2019", 3), ("premium", 6)):
        record = ll.play_game(
            ruleset,
            players,
            random_bots(players, 2),
            seed=2,
            rounds=3 if ruleset == "online" else None,
        )
        deals = [c for c in record.commands() if isinstance(c, ll.StartRound)]
        assert deals and all(deal == ll.StartRound() for deal in deals)
        assert record.commands() == ll.GameRecord(record.events).commands()
        assert record.commands() == ll.loads(ll.dumps(record)).commands()
