"""Baron (3), Priest (2), King (7), and choosing another player."""

from __future__ import annotations

import pytest

from loveletter import (
    Card,
    PlayCard,
    RejectionKind,
    Sighting,
    decide,
    events_for,
    legal_commands,
    view,
)
from loveletter.events import (
    CardPlayed,
    EliminationReason,
    HandsCompared,
    HandSeen,
    HandsTraded,
    PlayerEliminated,
)

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
    turn,
)

BARON_OUT = EliminationReason.BARON_COMPARISON


@pytest.mark.rule("baron.compare-lower-out")
def test_baron_compare_lower_out_target() -> None:
    """The target's lower card: the target is out, discarding it face up."""
    state = at(hands=["Baron Prince", "Guard", "Priest"], deck="King")
    after = check(
        state,
        PlayCard(0, BARON, 1),
        CardPlayed(0, BARON, 1),
        HandsCompared(0, 1, PRINCE, GUARD),
        PlayerEliminated(1, BARON_OUT, (GUARD,)),
        *turn(2, KING),
    )
    assert after.out == frozenset({1})
    assert after.discards[1] == (GUARD,)


@pytest.mark.rule("baron.compare-lower-out", "out.turn-skipped")
def test_baron_compare_lower_out_own_player() -> None:
    """Ruling 19: the Baron's own player may lose; knocked out on their own
    turn, the turn passes to the next player still in."""
    state = at(hands=["Baron Guard", "Prince", "Priest"], deck="King")
    after = check(
        state,
        PlayCard(0, BARON, 1),
        CardPlayed(0, BARON, 1),
        HandsCompared(0, 1, GUARD, PRINCE),
        PlayerEliminated(0, BARON_OUT, (GUARD,)),
        *turn(1, KING),
    )
    assert after.out == frozenset({0})
    assert after.hands[0] == ()
    assert after.discards[0] == (BARON, GUARD)


@pytest.mark.rule("baron.tie-no-effect")
def test_baron_tie_no_effect() -> None:
    """Equal values: nobody is out, nothing else happens."""
    state = at(hands=["Baron Priest", "Priest", "Guard"], deck="King")
    after = check(
        state,
        PlayCard(0, BARON, 1),
        CardPlayed(0, BARON, 1),
        HandsCompared(0, 1, PRIEST, PRIEST),
        *turn(1, KING),
    )
    assert after.out == frozenset()
    assert after.hands == ((PRIEST,), (PRIEST, KING), (GUARD,))


@pytest.mark.rule("baron.secret-comparison")
def test_baron_secret_comparison_tie() -> None:
    """Ruling 14: only the two compared players see both cards, in the
    events and in what their views remember."""
    state = at(hands=["Baron Priest", "Priest", "Guard"], deck="King")
    events = decide(state, PlayCard(0, BARON, 1))
    for compared in (0, 1):
        assert events_for(compared, events)[1] == HandsCompared(0, 1, PRIEST, PRIEST)
    assert events_for(2, events)[1] == HandsCompared(0, 1, None, None)
    after = check(state, PlayCard(0, BARON, 1), *events)
    assert view(after, 0).sightings == (Sighting(0, 1, PRIEST, 1, BARON),)
    assert view(after, 1).sightings == (Sighting(1, 0, PRIEST, 1, BARON),)
    assert view(after, 2).sightings == ()


@pytest.mark.rule("baron.secret-comparison", "out.discard-hand")
def test_baron_secret_comparison_others_see_the_loser_card_only() -> None:
    """The others learn who is out and the loser's card (it goes face up to
    the discard pile), never the winner's card."""
    state = at(hands=["Baron Prince", "Guard", "Priest"], deck="King")
    events = decide(state, PlayCard(0, BARON, 1))
    seen = events_for(2, events)
    assert seen[1] == HandsCompared(0, 1, None, None)
    assert seen[2] == PlayerEliminated(1, BARON_OUT, (GUARD,))
    assert events_for(1, events)[1] == HandsCompared(0, 1, PRINCE, GUARD)
    after = check(state, PlayCard(0, BARON, 1), *events)
    assert view(after, 2).discards[1] == (GUARD,)
    assert PRINCE not in view(after, 2).hand
    assert view(after, 2).sightings == ()


@pytest.mark.rule("priest.look-secretly")
def test_priest_look_secretly() -> None:
    """Ruling 14: the Priest's player alone sees the target's card, which
    stays in the target's hand."""
    state = at(hands=["Priest Guard", "Baron", "Handmaid"], deck="King")
    events = decide(state, PlayCard(0, PRIEST, 1))
    after = check(
        state,
        PlayCard(0, PRIEST, 1),
        CardPlayed(0, PRIEST, 1),
        HandSeen(0, 1, BARON),
        *turn(1, KING),
    )
    assert after.hands[1] == (BARON, KING)
    assert events_for(0, events)[1] == HandSeen(0, 1, BARON)
    for other in (1, 2):
        assert events_for(other, events)[1] == HandSeen(0, 1, None)
        assert view(after, other).sightings == ()
    assert view(after, 0).sightings == (Sighting(0, 1, BARON, 1, PRIEST),)
    assert BARON not in view(after, 2).hand


@pytest.mark.rule("king.trade-hands", "princess.eliminated-when-played-or-discarded")
def test_king_trade_hands() -> None:
    """The King's player gives the card they kept and takes the target's;
    nothing is resolved (passing the Princess knocks no one out), and each
    of the two knows what the other now holds."""
    state = at(hands=["King Guard", "Princess", "Baron"], deck="Priest")
    events = decide(state, PlayCard(0, KING, 1))
    after = check(
        state, PlayCard(0, KING, 1), CardPlayed(0, KING, 1), HandsTraded(0, 1), *turn(1, PRIEST)
    )
    assert after.hands == ((PRINCESS,), (GUARD, PRIEST), (BARON,))
    assert after.out == frozenset()
    assert after.discards == ((KING,), (), ())
    assert view(after, 0).sightings == (Sighting(0, 1, GUARD, 1, KING),)
    assert view(after, 1).sightings == (Sighting(1, 0, PRINCESS, 1, KING),)
    assert view(after, 2).sightings == ()
    assert view(after, 0).hand == (PRINCESS,)
    assert events_for(2, events)[1] == HandsTraded(0, 1)


@pytest.mark.rule("targeting.other-player")
@pytest.mark.parametrize("card", [GUARD, PRIEST, BARON, KING])
def test_targeting_other_player(card: Card) -> None:
    """A Guard, Priest, Baron or King must choose exactly one other player
    still in the round and unprotected: never itself, never nobody while
    someone can be chosen, never an out or protected player, never a seat
    that does not exist."""
    state = at(
        hands=[[card, HANDMAID], "Priest", "Baron", "", "Guard"],
        out=[3],
        protected=[4],
        deck="Prince",
    )
    guess = PRINCESS if card is GUARD else None
    reject(state, PlayCard(0, card, 0, guess), RejectionKind.TARGET_NOT_ALLOWED)
    reject(state, PlayCard(0, card), RejectionKind.TARGET_REQUIRED)
    reject(state, PlayCard(0, card, 3, guess), RejectionKind.TARGET_OUT_OF_ROUND)
    reject(state, PlayCard(0, card, 4, guess), RejectionKind.TARGET_PROTECTED)
    reject(state, PlayCard(0, card, 5, guess), RejectionKind.NO_SUCH_PLAYER)
    reject(state, PlayCard(0, card, -1, guess), RejectionKind.NO_SUCH_PLAYER)
    legal = legal_commands(state, card)
    assert {c.target for c in legal if isinstance(c, PlayCard)} == {1, 2}
    for target in (1, 2):
        events = decide(state, PlayCard(0, card, target, guess))
        assert events[0] == CardPlayed(0, card, target, guess)
