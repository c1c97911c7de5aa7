"""Prince (5): any player discards their hand and draws a new one."""

from __future__ import annotations

import pytest

from loveletter import Card, PlayCard, RejectionKind, decide, events_for, legal_commands
from loveletter.events import (
    CardDiscarded,
    CardDrawn,
    CardPlayed,
    EliminationReason,
    PlayerEliminated,
    RoundEnded,
    RoundEndReason,
    TokenAwarded,
    TokenReason,
)

from ._helpers import (
    BARON,
    CHANCELLOR,
    COUNTESS,
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

PRINCESS_OUT = EliminationReason.PRINCESS_DISCARDED


@pytest.mark.rule("prince.any-player")
def test_prince_any_player_oneself_or_an_unprotected_other() -> None:
    """The Prince may choose its own player or any other player who is in
    the round and unprotected; never a protected or out player, and it must
    choose someone."""
    state = at(
        hands=["Prince Guard", "Priest", "Baron", ""],
        protected=[2],
        out=[3],
        deck="King Handmaid",
    )
    assert legal_commands(state, PRINCE) == (PlayCard(0, PRINCE, 0), PlayCard(0, PRINCE, 1))
    reject(state, PlayCard(0, PRINCE, 2), RejectionKind.TARGET_PROTECTED)
    reject(state, PlayCard(0, PRINCE, 3), RejectionKind.TARGET_OUT_OF_ROUND)
    reject(state, PlayCard(0, PRINCE), RejectionKind.TARGET_REQUIRED)
    reject(state, PlayCard(0, PRINCE, 4), RejectionKind.NO_SUCH_PLAYER)
    check(
        state,
        PlayCard(0, PRINCE, 1),
        CardPlayed(0, PRINCE, 1),
        CardDiscarded(1, PRIEST),
        CardDrawn(1, KING, False),
        *turn(1, HANDMAID),
    )
    check(
        state,
        PlayCard(0, PRINCE, 0),
        CardPlayed(0, PRINCE, 0),
        CardDiscarded(0, GUARD),
        CardDrawn(0, KING, False),
        *turn(1, HANDMAID),
    )


@pytest.mark.rule("prince.discard-and-draw")
@pytest.mark.parametrize("held", [GUARD, PRIEST, BARON, HANDMAID, CHANCELLOR, KING, COUNTESS])
def test_prince_discard_and_draw_without_resolving(held: Card) -> None:
    """The chosen player discards their card face up, its effect unresolved
    (a discarded Handmaid protects no one, a Baron compares nothing), and
    draws the top card of the deck."""
    state = at(hands=["Prince Guard", [held], "Priest"], deck="Spy Baron")
    after = check(
        state,
        PlayCard(0, PRINCE, 1),
        CardPlayed(0, PRINCE, 1),
        CardDiscarded(1, held),
        CardDrawn(1, Card.SPY, False),
        *turn(1, BARON),
    )
    assert after.discards[1] == (held,)
    assert after.hands[1] == (Card.SPY, BARON)
    assert after.protected == frozenset()
    assert after.out == frozenset()
    assert after.sightings == ()


@pytest.mark.rule("prince.discard-and-draw")
def test_prince_discard_and_draw_seen_by_the_drawer_only() -> None:
    """Everyone sees the discarded card; only the drawer sees the new one."""
    state = at(hands=["Prince Guard", "Priest", "Baron"], deck="King Handmaid")
    check(
        state,
        PlayCard(0, PRINCE, 1),
        CardPlayed(0, PRINCE, 1),
        CardDiscarded(1, PRIEST),
        CardDrawn(1, KING, False),
        *turn(1, HANDMAID),
    )
    raw = decide(state, PlayCard(0, PRINCE, 1))
    for observer in (0, 2):
        seen = events_for(observer, raw)
        assert seen[1] == CardDiscarded(1, PRIEST)
        assert seen[2] == CardDrawn(1, None, False)
    assert events_for(1, raw)[2] == CardDrawn(1, KING, False)


@pytest.mark.rule("prince.discard-and-draw", "prince.any-player")
def test_prince_on_oneself_discards_the_other_card() -> None:
    """Ruling 16: choosing oneself discards the card left after the Prince,
    then draws."""
    state = at(hands=["Baron Prince", "Priest", "Guard"], deck="Countess Handmaid")
    after = check(
        state,
        PlayCard(0, PRINCE, 0),
        CardPlayed(0, PRINCE, 0),
        CardDiscarded(0, BARON),
        CardDrawn(0, COUNTESS, False),
        *turn(1, HANDMAID),
    )
    assert after.hands[0] == (COUNTESS,)
    assert after.discards[0] == (PRINCE, BARON)


@pytest.mark.rule("prince.empty-deck-draws-set-aside", "setup.two-player-face-up")
def test_prince_empty_deck_draws_set_aside() -> None:
    """2 players, deck empty: the chosen player draws the face-down
    set-aside card; the three face-up cards stay untouched; the round then
    ends (deck empty) with the new card compared."""
    state = at(
        "2019-classic",
        hands=["Prince Guard", "Baron"],
        set_aside="Countess",
        face_up="King Princess Handmaid",
        rest=0,
    )
    assert state.deck == ()
    after = check(
        state,
        PlayCard(0, PRINCE, 1),
        CardPlayed(0, PRINCE, 1),
        CardDiscarded(1, BARON),
        CardDrawn(1, COUNTESS, True),
        RoundEnded(RoundEndReason.DECK_EMPTY, (1,), ((0, GUARD), (1, COUNTESS))),
        TokenAwarded(1, TokenReason.ROUND_WIN, 1),
    )
    assert after.set_aside is None
    assert after.face_up == (KING, PRINCESS, HANDMAID)
    assert after.hands == ((GUARD,), (COUNTESS,))


@pytest.mark.rule("prince.empty-deck-draws-set-aside", "setup.two-player-face-up")
def test_prince_empty_deck_two_player_face_up_untouched_on_oneself() -> None:
    """Ruling 9: the same when the Prince's player chooses themselves; the
    set-aside card is seen by its drawer only."""
    state = at(
        "2019-classic",
        hands=["Prince Handmaid", "Baron"],
        set_aside="Guard",
        face_up="King Princess Countess",
        rest=1,
    )
    after = check(
        state,
        PlayCard(0, PRINCE, 0),
        CardPlayed(0, PRINCE, 0),
        CardDiscarded(0, HANDMAID),
        CardDrawn(0, GUARD, True),
        RoundEnded(RoundEndReason.DECK_EMPTY, (1,), ((0, GUARD), (1, BARON))),
        TokenAwarded(1, TokenReason.ROUND_WIN, 1),
    )
    assert after.face_up == (KING, PRINCESS, COUNTESS)
    raw = decide(state, PlayCard(0, PRINCE, 0))
    assert events_for(1, raw)[2] == CardDrawn(0, None, True)
    assert events_for(0, raw)[2] == CardDrawn(0, GUARD, True)


@pytest.mark.rule("prince.empty-deck-draws-set-aside")
def test_prince_empty_deck_draws_set_aside_with_more_players() -> None:
    """The same with 4 players (no face-up cards)."""
    state = at(
        hands=["Prince Guard", "Priest", "Baron", ""],
        set_aside="Princess",
        out=[3],
        rest=3,
    )
    check(
        state,
        PlayCard(0, PRINCE, 2),
        CardPlayed(0, PRINCE, 2),
        CardDiscarded(2, BARON),
        CardDrawn(2, PRINCESS, True),
        RoundEnded(RoundEndReason.DECK_EMPTY, (2,), ((0, GUARD), (1, PRIEST), (2, PRINCESS))),
        TokenAwarded(2, TokenReason.ROUND_WIN, 1),
    )


@pytest.mark.rule(
    "prince.princess-discard-eliminates", "princess.eliminated-when-played-or-discarded"
)
def test_prince_princess_discard_eliminates() -> None:
    """A player made to discard the Princess is out and draws nothing."""
    state = at(hands=["Prince Guard", "Princess", "Baron"], deck="King Handmaid")
    after = check(
        state,
        PlayCard(0, PRINCE, 1),
        CardPlayed(0, PRINCE, 1),
        CardDiscarded(1, PRINCESS),
        PlayerEliminated(1, PRINCESS_OUT, ()),
        *turn(2, KING),
    )
    assert after.out == frozenset({1})
    assert after.hands[1] == ()
    assert after.discards[1] == (PRINCESS,)


@pytest.mark.rule("prince.princess-discard-eliminates")
def test_prince_princess_discard_eliminates_on_oneself() -> None:
    """Ruling 16: choosing oneself while holding the Princess knocks oneself
    out (ruling 19: the turn passes on)."""
    state = at(hands=["Prince Princess", "Priest", "Baron"], deck="King Handmaid")
    after = check(
        state,
        PlayCard(0, PRINCE, 0),
        CardPlayed(0, PRINCE, 0),
        CardDiscarded(0, PRINCESS),
        PlayerEliminated(0, PRINCESS_OUT, ()),
        *turn(1, KING),
    )
    assert after.discards[0] == (PRINCE, PRINCESS)


@pytest.mark.rule("prince.princess-discard-eliminates", "prince.empty-deck-draws-set-aside")
def test_prince_princess_discard_empty_deck_draws_nothing() -> None:
    """On an empty deck the Princess holder is out and does not take the
    set-aside card; with one player left the round ends at once."""
    state = at(
        "2019-classic",
        hands=["Prince Guard", "Princess"],
        set_aside="Countess",
        face_up="King Baron Baron",
        rest=0,
    )
    after = check(
        state,
        PlayCard(0, PRINCE, 1),
        CardPlayed(0, PRINCE, 1),
        CardDiscarded(1, PRINCESS),
        PlayerEliminated(1, PRINCESS_OUT, ()),
        RoundEnded(RoundEndReason.ONE_PLAYER_LEFT, (0,), ()),
        TokenAwarded(0, TokenReason.ROUND_WIN, 1),
    )
    assert after.set_aside is COUNTESS
