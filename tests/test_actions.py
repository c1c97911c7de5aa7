"""Action ids (:mod:`loveletter.actions`): the compiled simulator's ids,
built from the reference's rulesets; sorted legal ids list
``legal_commands`` in order; every id's command round-trips."""

from __future__ import annotations

import random
from collections.abc import Iterator

import attrs
import pytest

import loveletter as ll
from loveletter.actions import action_table
from loveletter.errors import ArgumentError, SetupError
from loveletter.fast import tables as fast_tables
from loveletter.rulesets import Scoring

EDITIONS_AND_COUNTS = [
    (rules.name, players)
    for rules in ll.RULESETS.values()
    for players in range(rules.min_players, rules.max_players + 1)
]


def random_states(ruleset: str, players: int, seed: int, rounds: int = 4) -> Iterator[ll.GameState]:
    """Every state of a game of random legal commands (the dealer's
    between rounds) to its end, online to the end of ``rounds`` rounds."""
    chooser = random.Random(seed)
    state = ll.new_game(ruleset, players, seed=seed)
    while True:
        yield state
        online = ll.get_ruleset(ruleset).scoring is Scoring.RANKS
        if state.is_over or (online and state.round_over and state.round_number >= rounds):
            return
        state = ll.push(state, chooser.choice(ll.legal_commands(state)))


@pytest.mark.parametrize(("ruleset", "players"), EDITIONS_AND_COUNTS)
def test_the_ids_are_the_fast_simulators(ruleset: str, players: int) -> None:
    table = action_table(ruleset, players)
    fast = fast_tables.action_table(ruleset, players)
    assert table.size == fast.size
    seat = players - 1  # a seat other than the templates' own
    ours = [table.command(i, seat) for i in range(table.size)]
    assert ours == [fast.command(i, seat) for i in range(fast.size)]


@pytest.mark.parametrize(("ruleset", "players"), EDITIONS_AND_COUNTS)
def test_every_id_round_trips(ruleset: str, players: int) -> None:
    table = action_table(ruleset, players)
    for seat in range(players):
        for action in range(table.size):
            command = table.command(action, seat)
            assert table.action_id(command) == action
            assert table.describe(action, seat) == ll.format_command(command)
            assert attrs.asdict(command).get("player", seat) == seat


@pytest.mark.parametrize(("ruleset", "players"), EDITIONS_AND_COUNTS)
def test_sorted_legal_ids_list_legal_commands_in_order(ruleset: str, players: int) -> None:
    table = action_table(ruleset, players)
    seen = 0
    for game in range(6):
        for state in random_states(ruleset, players, seed=1000 * players + game):
            commands = ll.legal_commands(state)
            ids = table.legal_actions(state)
            assert list(ids) == sorted(set(ids)), "ascending, no id twice"
            assert [table.command(i, state.to_act or 0) for i in ids] == list(commands)
            if state.to_act is not None:
                looked = ll.view(state, state.to_act)
                assert table.legal_actions(looked) == ids
                idle = ll.view(state, (state.to_act + 1) % players)
                assert table.legal_actions(idle) == ()
            seen += len(ids)
    assert seen > 0


def test_every_edition_plays_some_of_each_kind_of_id() -> None:
    """The games above reach keeps, looks, redraws and declines (so their
    order is checked), not only plays."""
    kinds: set[type[ll.Command]] = set()
    for ruleset, players in (("2019", 2), ("2019", 4), ("premium", 5), ("premium", 8)):
        table = action_table(ruleset, players)
        for game in range(2):
            for state in random_states(ruleset, players, seed=1000 * players + game):
                kinds.update(type(table.command(i, 0)) for i in table.legal_actions(state))
    assert {ll.KeepCard, ll.LookAtHand, ll.Redraw, ll.Decline, ll.StartRound} <= kinds


def test_aliases_share_one_table() -> None:
    assert action_table("premium-2016", 5) is action_table("premium", 5)
    assert action_table(ll.get_ruleset("online"), 4) is action_table("perpetual", 4)
    assert action_table("PREMIUM", 5).ruleset == "premium"


def test_the_number_of_decks_changes_no_id() -> None:
    settings = ll.TableSettings(decks=3)
    table = action_table("online", 5)
    for state in random_states_with_settings(settings):
        table.legal_actions(state)  # every legal command of a 3-deck table has an id


def random_states_with_settings(settings: ll.TableSettings) -> Iterator[ll.GameState]:
    chooser = random.Random(5)
    state = ll.new_game("online", 5, seed=5, settings=settings)
    while not (state.round_over and state.round_number >= 2):
        yield state
        state = ll.push(state, chooser.choice(ll.legal_commands(state)))


@pytest.mark.parametrize(
    "command",
    [
        ll.StartRound(deck=(ll.Card.GUARD,)),
        ll.StartRound(first_player=1),
        ll.Leave(0),
        ll.TimeOut(0),
        ll.DrawCard(0),
        ll.PlayCard(0, ll.Card.CHANCELLOR),  # not in the classic deck
        ll.PlayCard(0, ll.Card.GUARD, 1, ll.Card.GUARD),  # a Guard names no Guard
        ll.PlayCard(0, ll.Card.GUARD, 1, 2),  # classic names cards, not numbers
        ll.PlayCard(0, ll.Card.GUARD, 3, ll.Card.PRIEST),  # no seat 3 in a 3-player game
        ll.PlayCard(0, ll.Card.PRINCESS, 1),  # the Princess chooses no one
    ],
)
def test_commands_without_an_id_raise_key_error(command: ll.Command) -> None:
    with pytest.raises(KeyError):
        action_table("2019-classic", 3).action_id(command)


def test_named_numbers_are_not_named_cards() -> None:
    table = action_table("premium", 3)
    table.action_id(ll.PlayCard(0, ll.Card.GUARD, 1, 2))
    with pytest.raises(KeyError):
        table.action_id(ll.PlayCard(0, ll.Card.GUARD, 1, ll.Card.PRIEST))


@pytest.mark.parametrize("bad", [-1, 31, "3", 2.0])
def test_ids_outside_the_table_are_refused(bad: object) -> None:
    with pytest.raises(ArgumentError, match="action_id"):
        action_table("2019-classic", 2).command(bad, 0)  # type: ignore[arg-type]  # refused on purpose


def test_a_numpy_style_integer_is_an_id() -> None:
    class Index:
        def __index__(self) -> int:
            return 1

    table = action_table("2019-classic", 2)
    assert table.command(Index(), 0) == table.command(1, 0)


@pytest.mark.parametrize(("ruleset", "players"), [("2019", 1), ("2019", 7), ("online", 2)])
def test_counts_an_edition_is_not_played_with_are_refused(ruleset: str, players: int) -> None:
    with pytest.raises(SetupError, match="players"):
        action_table(ruleset, players)


def test_unknown_editions_are_refused() -> None:
    with pytest.raises(ValueError, match="unknown ruleset"):
        action_table("1901", 2)


def test_a_position_of_another_table_is_refused() -> None:
    state = ll.new_game("2019", 3, seed=1)
    with pytest.raises(ArgumentError, match="position"):
        action_table("2019", 4).legal_actions(state)
    with pytest.raises(ArgumentError, match="position"):
        action_table("2019-classic", 3).legal_actions(ll.view(state, 0))
    with pytest.raises(ArgumentError, match="position"):
        action_table("2019", 3).legal_actions("state")  # type: ignore[arg-type]  # refused on purpose
