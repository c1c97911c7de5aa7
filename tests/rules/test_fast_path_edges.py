"""The fast path (:mod:`loveletter.fastpath`) against the reference where
random games rarely go: a showdown of hands worth nothing, and an Assassin
held by seat 0 (the first seat the fast path looks at for an answer)."""

from __future__ import annotations

import pytest

from loveletter import Card, PlayCard, decide, fastpath
from loveletter.evolution import apply_events

from ._helpers import at, premium


@pytest.mark.rule("round.highest-card-wins", "round.tie-all-win")
def test_a_showdown_of_hands_worth_nothing_is_shared() -> None:
    """Its best hand starts below any card's number: two Spies (worth 0)
    share the round, as the reference has it."""
    state = at(hands=["Guard Spy", "Spy"], deck="", rest=0)
    command = PlayCard(0, Card.GUARD, 1, Card.PRIEST)
    fast = fastpath.push(state, command)
    assert fast is not None and fast.table.round_result is not None
    assert fast.table.round_result.winners == (0, 1)
    assert fast == apply_events(state, decide(state, command))


@pytest.mark.rule("assassin.guard-player-knocked-out")
def test_an_assassin_at_the_first_seat_answers_the_guard() -> None:
    state = premium(
        hands=["Assassin", "Guard Priest", "Baron", "King", "Handmaid"],
        discards=["Guard", "", "", "", ""],
        current=1,
    )
    command = PlayCard(1, Card.GUARD, 0, 2)
    fast = fastpath.push(state, command)
    assert fast is not None and 1 in fast.out and 0 not in fast.out
    assert fast == apply_events(state, decide(state, command))
