"""The fast path's showdown (:mod:`loveletter.fastpath`) against the
reference's on hands worth nothing: two Spies left at the end of the pile."""

from __future__ import annotations

import pytest

from loveletter import Card, PlayCard, decide, fastpath
from loveletter.evolution import apply_events

from ._helpers import at


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
