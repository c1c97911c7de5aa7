"""Being out of the round: hand discarded, untargetable, turns skipped."""

from __future__ import annotations

import pytest

from loveletter import Card, PlayCard, RejectionKind, StartRound, decide, events_for, push, view
from loveletter.events import CardPlayed, EliminationReason, PlayerEliminated

from ._helpers import (
    BARON,
    GUARD,
    HANDMAID,
    KING,
    PRIEST,
    PRINCE,
    PRINCESS,
    at,
    check,
    reject,
    stacked,
    turn,
)


@pytest.mark.rule("out.discard-hand", "turn.played-cards-face-up")
def test_out_discard_hand_face_up() -> None:
    """A knocked-out player's card goes face up to their pile, unresolved
    (a Prince discarded this way makes no one draw), and everyone sees it."""
    state = at(
        # seats 1 and 2 played before seat 0's turn
        hands=["Guard Handmaid", "Prince", "Baron"],
        discards=["", "Priest", "Guard"],
        deck="King",
    )
    events = decide(state, PlayCard(0, GUARD, 1, PRINCE))
    after = check(
        state,
        PlayCard(0, GUARD, 1, PRINCE),
        CardPlayed(0, GUARD, 1, PRINCE),
        PlayerEliminated(1, EliminationReason.GUARD_GUESS, (PRINCE,)),
        *turn(2, KING),
    )
    assert after.hands[1] == ()
    assert after.discards[1] == (PRIEST, PRINCE)
    assert after.out == frozenset({1})
    for player in range(3):
        assert events_for(player, events)[1] == events[1]
        assert view(after, player).discards[1] == (PRIEST, PRINCE)
        assert view(after, player).out == (1,)
        assert view(after, player).hand_sizes[1] == 0


@pytest.mark.rule("out.untargetable")
@pytest.mark.parametrize("card", [GUARD, PRIEST, BARON, PRINCE, KING])
def test_out_untargetable(card: Card) -> None:
    """No card, the Prince included, can choose a player out of the round."""
    state = at(
        hands=[[card, HANDMAID], "", "Baron" if card is not BARON else "Priest"],
        out=[1],
        deck="Guard",
    )
    guess = PRINCESS if card is GUARD else None
    reject(state, PlayCard(0, card, 1, guess), RejectionKind.TARGET_OUT_OF_ROUND)
    legal = [c for c in view(state, 0).legal_commands if isinstance(c, PlayCard)]
    assert all(c.target != 1 for c in legal)


@pytest.mark.rule("out.turn-skipped")
def test_out_turn_skipped_and_cannot_act() -> None:
    """A player out of the round gets no turn and cannot act."""
    state = at(hands=["Handmaid Guard", "", "Baron"], out=[1], deck="King Priest")
    reject(state, PlayCard(1, GUARD), RejectionKind.NOT_YOUR_TURN)
    after = check(state, PlayCard(0, GUARD, 2, KING), CardPlayed(0, GUARD, 2, KING), *turn(2, KING))
    reject(after, PlayCard(1, GUARD), RejectionKind.NOT_YOUR_TURN)


@pytest.mark.rule("out.turn-skipped", "round.new-round-setup")
def test_out_back_in_next_round() -> None:
    """Everyone is back in the round when the next one starts."""
    state = at(hands=["Princess Guard", "Priest", "", ""], out=[2, 3], deck="King")
    state = push(state, PlayCard(0, PRINCESS))
    assert state.out == frozenset({0, 2, 3})
    after = push(state, StartRound(deck=stacked("2019", "Guard Priest Baron Handmaid Prince King")))
    assert after.out == frozenset()
    assert after.hands == ((PRINCE,), (PRIEST, KING), (BARON,), (HANDMAID,))
