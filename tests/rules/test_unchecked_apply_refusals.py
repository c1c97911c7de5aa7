"""What ``evolve_unchecked`` still refuses.

The unchecked path (the engine applying the events the rules just made)
skips :func:`loveletter.evolve`'s checks of an event against the rules, but
its appliers refuse what they cannot apply at all: a redacted event, whose
hidden cards would enter play as unknowns; a card that is not where the
event takes it from; a seat not at the table; an answer to nothing offered;
a time-out of a player who has nothing to decide.
Under :func:`~loveletter.evolve` the checks refuse all of these first, so
only this path reaches the appliers' own refusals.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, cast

import pytest

from loveletter import ArgumentError, Card, EventMismatch, GameState, PlayCard, evolve, push
from loveletter.events import (
    CardRemovedFaceUp,
    CardSetAside,
    CardsReturned,
    Event,
    HandsCompared,
    HandSeen,
    OptionDeclined,
    PlayerLeft,
    RoundStarted,
    TurnTimedOut,
)
from loveletter.evolution import apply_events, evolve_unchecked

from ._helpers import BARON, CARDINAL, GUARD, PRIEST, online
from .test_evolve_refusal_paths import (
    _dealt,
    _top,
    baron_played,
    between_rounds,
    cardinal_look,
    chancellor_choosing,
    online_between,
    online_one_gone,
    online_turn,
    priest_played,
    turn,
)


def _redraw_offered() -> GameState:
    """Online, five players: seat 0's Bishop named seat 1's number, and seat
    1 is asked whether to redraw (seat 0's turn, seat 1 to act)."""
    state = online(
        hands=["Bishop Guard", "Priest", "King", "Baron", "Count"], deck="Handmaid Guard Guard"
    )
    return push(state, PlayCard(0, Card.BISHOP, 1, 2))


CASES: list[tuple[str, Callable[[], GameState], Callable[[GameState], Event], str, str]] = [
    (
        "redacted-look",
        priest_played,
        lambda s: HandSeen(0, 1, None, PRIEST),
        "HandSeen.card",
        "a redacted HandSeen cannot be replayed",
    ),
    (
        "look-at-a-hand-not-offered",
        cardinal_look,
        lambda s: HandSeen(0, 3, s.hands[3][0], CARDINAL),
        "HandSeen.owner",
        "player 3's hand was not offered for a look",
    ),
    (
        "redacted-comparison-own-card",
        baron_played,
        lambda s: HandsCompared(0, 1, None, PRIEST, BARON),
        "HandsCompared.player_card",
        "a redacted HandsCompared cannot be replayed",
    ),
    (
        "redacted-comparison-opponent-card",
        baron_played,
        lambda s: HandsCompared(0, 1, GUARD, None, BARON),
        "HandsCompared.opponent_card",
        "a redacted HandsCompared cannot be replayed",
    ),
    (
        "redacted-return",
        chancellor_choosing,
        lambda s: CardsReturned(0, 2, None),
        "CardsReturned.cards",
        "a redacted CardsReturned cannot be replayed",
    ),
    (
        "face-up-card-not-on-top",
        lambda: _dealt("2019", 2, 1),
        lambda s: CardRemovedFaceUp(next(c for c in s.deck if c != _top(s))),
        "CardRemovedFaceUp.card",
        "the top of the deck is not {card}",
    ),
    (
        "a-second-set-aside-card",
        lambda: _dealt("2019", 3, 2),
        lambda s: CardSetAside(_top(s)),
        "CardSetAside",
        "{aside} is already set aside",
    ),
    (
        "redacted-deal",
        between_rounds,
        lambda s: RoundStarted(s.round_number + 1, 0, None),
        "RoundStarted.deck",
        "a redacted RoundStarted cannot be replayed",
    ),
    (
        "not-an-event",
        turn,
        lambda s: cast(Any, "CardPlayed"),
        "event",
        "not an event: 'CardPlayed'",
    ),
    (
        "decline-with-nothing-offered",
        turn,
        lambda s: OptionDeclined(0),
        "OptionDeclined",
        "no optional step was offered",
    ),
    (
        "time-out-between-rounds",
        online_between,
        lambda s: TurnTimedOut(0),
        "TurnTimedOut.player",
        "player 0 has no decision to time out",
    ),
    (
        "time-out-of-a-player-not-acting",
        online_turn,
        lambda s: TurnTimedOut((s.current + 1) % s.players),
        "TurnTimedOut.player",
        "player {other} has no decision to time out",
    ),
    (
        "time-out-of-the-player-whose-turn-it-is-while-another-answers",
        _redraw_offered,
        lambda s: TurnTimedOut(0),
        "TurnTimedOut.player",
        "player 0 has no decision to time out",
    ),
    (
        "leave-twice",
        online_one_gone,
        lambda s: PlayerLeft(1),
        "PlayerLeft.player",
        "player 1 is not at the table",
    ),
    (
        "leave-from-beyond-the-table",
        online_between,
        lambda s: PlayerLeft(s.players),
        "PlayerLeft.player",
        "player 4 is not at the table",
    ),
    (
        "leave-from-a-negative-seat",
        online_between,
        lambda s: PlayerLeft(-1),
        "PlayerLeft.player",
        "player -1 is not at the table",
    ),
]


@pytest.mark.parametrize(
    ("state_of", "event_of", "field", "message"),
    [pytest.param(*case[1:], id=case[0]) for case in CASES],
)
def test_the_unchecked_path_refuses_what_it_cannot_apply(
    state_of: Callable[[], GameState],
    event_of: Callable[[GameState], Event],
    field: str,
    message: str,
) -> None:
    state = state_of()
    event = event_of(state)
    with pytest.raises(EventMismatch) as refused:
        evolve_unchecked(state, event)
    card = getattr(event, "card", None)
    assert (refused.value.field, str(refused.value)) == (
        field,
        f"{field}: "
        + message.format(
            card=card, aside=state.table.set_aside, other=getattr(event, "player", None)
        ),
    )
    with pytest.raises(EventMismatch):  # the checked path refuses it too, by its own checks
        evolve(state, event)


@pytest.mark.parametrize("state", ["a state", None, 3], ids=repr)
def test_evolve_and_apply_refuse_what_is_not_a_state(state: object) -> None:
    event = OptionDeclined(0)
    for verb in (evolve, lambda s, e: apply_events(s, (e,))):
        with pytest.raises(ArgumentError) as refused:
            verb(state, event)  # type: ignore[arg-type]  # the wrong type is the test
        assert refused.value.field == "state"
        assert str(refused.value) == f"state: not a GameState: {state!r}"
