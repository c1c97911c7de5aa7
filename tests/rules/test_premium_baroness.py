"""Baroness (3, Premium with 5 to 8 players): look secretly at the hands
of one or two other players."""

from __future__ import annotations

import pytest

from loveletter import PlayCard, RejectionKind, Sighting, decide, events_for, legal_commands
from loveletter.events import CardPlayed, HandSeen

from ._helpers import (
    BARON,
    BARONESS,
    COUNT,
    COUNTESS,
    KING,
    PRINCESS,
    check,
    premium,
    reject,
    turn,
)

R = RejectionKind
RULE = "baroness.look-one-or-two"


@pytest.mark.rule(RULE)
def test_baroness_look_one_or_two_the_choices() -> None:
    """One other player, or two different ones (lower seat first), as the
    player likes; never themselves."""
    state = premium(hands=["Baroness Guard", "Princess", "Baron", "Handmaid", "Count"], deck="King")
    assert legal_commands(state, BARONESS) == (
        PlayCard(0, BARONESS, 1),
        PlayCard(0, BARONESS, 1, None, 2),
        PlayCard(0, BARONESS, 1, None, 3),
        PlayCard(0, BARONESS, 1, None, 4),
        PlayCard(0, BARONESS, 2),
        PlayCard(0, BARONESS, 2, None, 3),
        PlayCard(0, BARONESS, 2, None, 4),
        PlayCard(0, BARONESS, 3),
        PlayCard(0, BARONESS, 3, None, 4),
        PlayCard(0, BARONESS, 4),
    )
    reject(state, PlayCard(0, BARONESS, 0), R.TARGET_NOT_ALLOWED)
    reject(state, PlayCard(0, BARONESS, 0, None, 1), R.TARGET_NOT_ALLOWED)
    reject(state, PlayCard(0, BARONESS, 2, None, 2), R.TARGET_NOT_ALLOWED)
    reject(state, PlayCard(0, BARONESS, 3, None, 1), R.TARGET_NOT_ALLOWED)
    reject(state, PlayCard(0, BARONESS), R.TARGET_REQUIRED)
    reject(state, PlayCard(0, BARONESS, 1, 8), R.GUESS_NOT_ALLOWED)


@pytest.mark.rule(RULE)
def test_baroness_look_one_or_two_one_hand() -> None:
    state = premium(hands=["Baroness Guard", "Princess", "Baron", "Handmaid", "Count"], deck="King")
    after = check(
        state,
        PlayCard(0, BARONESS, 2),
        CardPlayed(0, BARONESS, 2),
        HandSeen(0, 2, BARON, BARONESS),
        *turn(1, KING),
    )
    assert after.sightings == (Sighting(0, 2, BARON, 1, BARONESS),)
    assert after.hands[2] == (BARON,)


@pytest.mark.rule(RULE)
def test_baroness_look_one_or_two_two_hands() -> None:
    """Both hands are seen, in seat order; the cards stay where they are."""
    state = premium(hands=["Baroness Guard", "Princess", "Baron", "Handmaid", "Count"], deck="King")
    after = check(
        state,
        PlayCard(0, BARONESS, 1, None, 4),
        CardPlayed(0, BARONESS, 1, None, 4),
        HandSeen(0, 1, PRINCESS, BARONESS),
        HandSeen(0, 4, COUNT, BARONESS),
        *turn(1, KING),
    )
    assert after.sightings == (
        Sighting(0, 1, PRINCESS, 1, BARONESS),
        Sighting(0, 4, COUNT, 1, BARONESS),
    )
    assert after.hands[1] == (PRINCESS, KING) and after.hands[4] == (COUNT,)


@pytest.mark.rule(RULE)
def test_baroness_look_one_or_two_seen_only_by_its_player() -> None:
    """001: "Do not reveal them to any other players"."""
    state = premium(hands=["Baroness Guard", "Princess", "Baron", "Handmaid", "Count"], deck="King")
    events = decide(state, PlayCard(0, BARONESS, 1, None, 4))
    assert events_for(0, events)[1:3] == events[1:3]
    for player in range(1, 5):
        assert events_for(player, events)[1:3] == (
            HandSeen(0, 1, None, BARONESS),
            HandSeen(0, 4, None, BARONESS),
        )


@pytest.mark.rule(
    RULE, "targeting.choose-impossible-no-effect", "handmaid.protection-until-next-turn"
)
def test_baroness_look_one_or_two_only_one_can_be_chosen() -> None:
    """Turn 10: seats 1 and 3 played Handmaids on turns 7 and 9, seat 4 was
    knocked out on turn 6; only seat 2 can be chosen, so the Baroness looks
    at that one hand."""
    state = premium(
        hands=["Baroness Guard", "Priest", "Baron", "Prince", ""],
        discards=["Guard Guard", "Guard Handmaid", "Guard Priest", "King Handmaid", "Guard Count"],
        out=[4],
        protected=[1, 3],
        deck="Countess",
    )
    assert state.turn_number == 10
    assert legal_commands(state, BARONESS) == (PlayCard(0, BARONESS, 2),)
    reject(state, PlayCard(0, BARONESS, 1, None, 2), R.TARGET_PROTECTED)
    reject(state, PlayCard(0, BARONESS, 2, None, 4), R.TARGET_OUT_OF_ROUND)


@pytest.mark.rule(RULE, "targeting.choose-impossible-no-effect", "handmaid.all-protected-no-effect")
def test_baroness_look_one_or_two_none_can_be_chosen_no_effect() -> None:
    """Turn 9: seats 3 and 4 are out, seats 1 and 2 played Handmaids on
    turns 7 and 8: no other player can be chosen."""
    state = premium(
        hands=["Baroness Guard", "Priest", "Baron", "", ""],
        discards=["Guard Guard", "Guard Handmaid", "Guard Handmaid", "Guard Prince", "Guard Count"],
        out=[3, 4],
        protected=[1, 2],
        deck="Countess",
    )
    assert state.turn_number == 9
    assert legal_commands(state, BARONESS) == (PlayCard(0, BARONESS),)
    check(state, PlayCard(0, BARONESS), CardPlayed(0, BARONESS), *turn(1, COUNTESS))
