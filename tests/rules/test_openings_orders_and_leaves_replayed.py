"""A log's opening checked as ``new_game`` checks its arguments, a stacked
online turn order, and a leave read back from a log.

``replay`` reads the command behind each batch of events; these are the
paths of that reading no other case takes: a ``GameStarted`` whose first
player or settings no game could have (refused where ``new_game`` would
refuse them), an online round dealt in a given order, and a ``PlayerLeft``
that is read back as the ``Leave`` it came from.
"""

from __future__ import annotations

from typing import Any, cast

import attrs
import pytest

from loveletter import (
    EventMismatch,
    IllegalCommand,
    Leave,
    RejectionKind,
    SetupError,
    StartRound,
    TableSettings,
    decide,
    get_ruleset,
    legal,
    legal_commands,
    new_game,
    push,
    replay,
    replaying,
    start_game,
    step,
)
from loveletter.chance import shuffled
from loveletter.events import Event, GameStarted, RoundStarted

from .test_evolve_refusal_paths import online_between, online_two_decks_between


def _opening(**changes: Any) -> tuple[Event, ...]:
    events = start_game("online", 3, seed=5)
    started = events[0]
    assert isinstance(started, GameStarted)
    return (attrs.evolve(started, **changes), *events[1:])


@pytest.mark.rule("game.rules-enforced")
@pytest.mark.parametrize(
    ("changes", "reason"),
    [
        ({"first_player": 9}, "GameStarted.first_player: must be a seat from 0 to 2, not 9"),
        ({"settings": TableSettings(decks=9)}, "GameStarted.settings.decks: from 1 to 3, not 9"),
    ],
    ids=["first-player-beyond-the-table", "too-many-decks"],
)
def test_an_opening_no_game_could_have_is_refused_as_new_game_refuses_it(
    changes: dict[str, Any], reason: str
) -> None:
    with pytest.raises(EventMismatch) as refused:
        replay(_opening(**changes))
    assert refused.value.index == 0
    assert str(refused.value) == f"events[0]: {reason}"


@pytest.mark.rule("setup.turn-order-online")
def test_an_online_game_can_be_dealt_in_a_given_turn_order() -> None:
    drawn = new_game("online", 3, seed=5)
    stacked = (1, 2, 0)
    assert drawn.table.order != stacked
    state = new_game("online", 3, seed=5, order=stacked)
    assert (state.table.order, state.current) == (stacked, 1)


@pytest.mark.rule("online.leave-any-time")
def test_a_leave_is_read_back_from_the_log() -> None:
    state = new_game("online", 4, seed=3)
    log = list(start_game("online", 4, seed=3))
    for _ in range(3):
        state, events = step(state, legal_commands(state)[0])
        log += events
    leaver = next(p for p in range(4) if p != state.to_act)
    state, events = step(state, Leave(leaver))
    log += events
    state, events = step(state, legal_commands(state)[0])
    log += events
    assert any(type(event).__name__ == "PlayerLeft" for event in log)
    assert replay(log) == state


def _setup_refusal(**arguments: Any) -> SetupError:
    with pytest.raises(SetupError) as refused:
        new_game(**arguments)
    return refused.value


@pytest.mark.rule("setup.turn-order-online")
@pytest.mark.parametrize(
    ("arguments", "field", "detail"),
    [
        (
            {"ruleset": "2019", "order": (0, 1, 2)},
            "order",
            "2019 plays in seat order: no order to give",
        ),
        (
            {"ruleset": "online", "order": (0, 1)},
            "order",
            "must list every seat from 0 to 2 once, not (0, 1)",
        ),
        (
            {"ruleset": "online", "order": [0, 1, "2"]},
            "order",
            "must list every seat from 0 to 2 once, not [0, 1, '2']",
        ),
        (
            {"ruleset": "online", "order": "012"},
            "order",
            "must list every seat from 0 to 2 once, not '012'",
        ),
        (
            {"ruleset": "online", "order": (1, 2, 0), "first_player": 2},
            "first_player",
            "the order starts with player 1",
        ),
    ],
    ids=["seat-order-edition", "a-seat-missing", "a-seat-by-name", "not-a-list", "another-first"],
)
def test_a_turn_order_no_game_could_have_is_refused(
    arguments: dict[str, Any], field: str, detail: str
) -> None:
    refused = _setup_refusal(players=3, seed=1, **arguments)
    assert (refused.field, refused.detail) == (field, detail)


@pytest.mark.rule("setup.turn-order-online")
def test_a_given_order_is_the_first_round_s_order_in_the_log() -> None:
    opening = start_game("online", 3, seed=5, order=(1, 2, 0))
    dealt = next(event for event in opening if isinstance(event, RoundStarted))
    assert (dealt.order, dealt.first_player) == ((1, 2, 0), 1)


@pytest.mark.rule("setup.decks-online")
def test_a_stacked_deck_short_of_the_copies_in_use_says_how_many() -> None:
    deck = get_ruleset("online").deck_for(3, 1)
    with pytest.raises(IllegalCommand) as refused:
        new_game("online", 3, seed=1, deck=deck, settings=TableSettings(decks=2))
    assert refused.value.kind is RejectionKind.INVALID_DECK
    assert refused.value.detail == (
        "the deck must hold exactly the 32 cards of online for 3 players (2 decks)"
    )


@pytest.mark.rule("game.rules-enforced")
def test_move_text_given_as_a_command_points_to_the_parser() -> None:
    state = new_game("2019", 3, seed=1)
    with pytest.raises(IllegalCommand) as refused:
        decide(state, cast(Any, "P0 Guard on P1 naming Priest"))
    assert refused.value.kind is RejectionKind.MALFORMED_COMMAND
    assert refused.value.detail == (
        "text is not a command: read it with loveletter.parse_command first"
        ' (the move notation, as in "P0 Guard on P2 naming Priest")'
    )


def test_the_legal_commands_of_a_card_not_held_are_none() -> None:
    state = new_game("2019", 3, seed=1)
    held = set(state.hands[state.current])
    absent = next(card for card in get_ruleset("2019").kinds if card not in held)
    assert legal_commands(state, absent) == ()
    assert legal.legal_commands(state, absent) == ()  # the reference's, as well as the engine's
    assert legal_commands(state, next(iter(held)))


@pytest.mark.rule("setup.turn-order-online", "round.new-round-setup")
def test_a_stacked_order_deals_the_next_online_round_led_by_its_first() -> None:
    state = push(online_between(), StartRound(order=(2, 0, 1, 3)))
    assert (state.table.order, state.current) == ((2, 0, 1, 3), 2)


@pytest.mark.rule("setup.decks-online", "round.new-round-setup")
def test_the_next_online_round_deals_every_copy_of_the_decks() -> None:
    state = push(online_two_decks_between(), StartRound())
    held = sum(map(len, state.hands)) + sum(map(len, state.discards))
    assert len(state.deck) + held == 32  # the 16-card deck twice, for three players


@pytest.mark.rule("setup.turn-order-online")
def test_with_no_rank_1_player_left_the_shuffle_alone_orders_the_round() -> None:
    """Ruling 43: the round's rank-1 player has left, so no one is owed the
    first turn: the seeded shuffle of the players present is the order."""
    state = push(online_between(), Leave(2))
    dealt = push(state, StartRound())
    assert dealt.table.order == shuffled(state.present(), state.seed, 2, "order")


def test_the_reference_replay_is_the_engine_s() -> None:
    """``loveletter.replay`` judges each command through the fast path;
    :func:`loveletter.replaying.replay`, the reference's, gives the same state."""
    state = new_game("premium", 5, seed=4)
    log = list(start_game("premium", 5, seed=4))
    while not state.round_over:
        state, events = step(state, legal_commands(state)[-1])
        log += events
    assert replaying.replay(log) == replay(log) == state
