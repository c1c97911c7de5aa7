"""Two small contracts the engine relies on: ``apply_events`` is ``evolve``
folded over a batch, and a guess that is a card never equals the same
number (``Card.PRINCE == 5`` as integers)."""

from __future__ import annotations

import functools

import pytest

from loveletter import Card, GameState, PlayCard, decide, evolve
from loveletter.events import CardPlayed, Event
from loveletter.evolution import apply_events

from ._helpers import at


def test_apply_events_gives_the_state_evolve_gives_and_leaves_the_start_alone() -> None:
    state = at(hands=["Guard Priest", "Baron", "Handmaid"], deck="King Prince Countess")
    events = decide(state, PlayCard(0, Card.GUARD, 1, Card.BARON))
    assert len(events) > 2
    before = state
    folded: GameState = functools.reduce(evolve, events, state)
    assert apply_events(state, events) == folded
    assert apply_events(state, iter(events)) == folded
    assert apply_events(state, ()) == state
    assert state == before


@pytest.mark.rule("guard.name-number", "guard.name-non-guard")
def test_a_card_guess_and_the_same_number_are_different_guesses() -> None:
    as_card: Event = CardPlayed(0, Card.GUARD, 1, Card.PRINCE)
    as_number: Event = CardPlayed(0, Card.GUARD, 1, 5)
    assert as_card != as_number
    assert as_card == CardPlayed(0, Card.GUARD, 1, Card.PRINCE)
    assert as_number == CardPlayed(0, Card.GUARD, 1, 5)
    assert PlayCard(0, Card.GUARD, 1, Card.PRINCE) != PlayCard(0, Card.GUARD, 1, 5)
