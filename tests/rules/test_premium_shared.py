"""Rules Premium shares with 2019, checked with Premium's own cards and
numbers: the turn, the Priest, the King, the Prince, the Countess (whom
only the King and the Prince force, ruling 26) and the Princess."""

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
    playable_cards,
    view,
)
from loveletter.events import (
    CardDiscarded,
    CardDrawn,
    CardPlayed,
    EliminationReason,
    HandsCompared,
    HandSeen,
    HandsTraded,
    PlayerEliminated,
    PlayerProtected,
    RoundEnded,
    RoundEndReason,
    TokenAwarded,
    TokenReason,
)

from ._helpers import (
    BARON,
    CONSTABLE,
    COUNT,
    COUNTESS,
    DOWAGER_QUEEN,
    GUARD,
    HANDMAID,
    KING,
    PRIEST,
    PRINCE,
    PRINCESS,
    check,
    premium,
    reject,
    turn,
)

R = RejectionKind


@pytest.mark.rule("turn.draw-then-play", "turn.order", "turn.played-cards-face-up")
def test_turn_draw_then_play_in_seat_order_premium() -> None:
    """A 3-player Premium round: each turn draws one card and plays one,
    face up into the player's own pile, in seat order."""
    state = premium(hands=["Guard Priest", "Baron", "Handmaid"], deck="King Prince Guard")
    state = check(state, PlayCard(0, GUARD, 1, 7), CardPlayed(0, GUARD, 1, 7), *turn(1, KING))
    state = check(
        state,
        PlayCard(1, BARON, 2),
        CardPlayed(1, BARON, 2),
        HandsCompared(1, 2, KING, HANDMAID),
        PlayerEliminated(2, EliminationReason.BARON_COMPARISON, (HANDMAID,)),
        *turn(0, PRINCE),
    )
    assert state.discards == ((GUARD,), (BARON,), (HANDMAID,))
    for player in range(3):
        assert view(state, player).discards == state.discards


@pytest.mark.rule("priest.look-secretly")
def test_priest_look_secretly_premium() -> None:
    state = premium(hands=["Priest Guard", "Count", "Baron", "Handmaid", "Countess"], deck="King")
    events = decide(state, PlayCard(0, PRIEST, 1))
    after = check(
        state,
        PlayCard(0, PRIEST, 1),
        CardPlayed(0, PRIEST, 1),
        HandSeen(0, 1, COUNT),
        *turn(1, KING),
    )
    assert after.sightings == (Sighting(0, 1, COUNT, 1, PRIEST),)
    for player in range(1, 5):
        assert events_for(player, events)[1] == HandSeen(0, 1, None)
        assert view(after, player).sightings == ()


@pytest.mark.rule("king.trade-hands", "setup.card-values-premium")
def test_king_trade_hands_premium() -> None:
    """The King (6) trades with another player; each learns the other's
    new card."""
    state = premium(
        hands=["King Guard", "Constable", "Baron", "Handmaid", "Countess"], deck="Priest"
    )
    after = check(
        state, PlayCard(0, KING, 1), CardPlayed(0, KING, 1), HandsTraded(0, 1), *turn(1, PRIEST)
    )
    assert after.hands[0] == (CONSTABLE,) and after.hands[1] == (GUARD, PRIEST)
    assert after.sightings == (Sighting(0, 1, GUARD, 1, KING), Sighting(1, 0, CONSTABLE, 1, KING))


@pytest.mark.rule(
    "prince.empty-deck-draws-set-aside", "prince.discard-and-draw", "round.end-deck-empty"
)
def test_prince_empty_deck_draws_set_aside_premium() -> None:
    """3 players, turn 12, the deck is empty: the Prince's target discards
    and takes the set-aside card; the round then ends."""
    state = premium(
        hands=["Prince", "Baron", "Prince Guard"],
        discards=[
            "Guard Priest Handmaid Guard",
            "Guard Baron King Countess",
            "Priest Handmaid Guard",
        ],
        set_aside="Princess",
        current=2,
    )
    assert state.deck == () and state.turn_number == 12
    check(
        state,
        PlayCard(2, PRINCE, 1),
        CardPlayed(2, PRINCE, 1),
        CardDiscarded(1, BARON),
        CardDrawn(1, PRINCESS, True),
        RoundEnded(RoundEndReason.DECK_EMPTY, (1,), ((0, PRINCE), (1, PRINCESS), (2, GUARD))),
        TokenAwarded(1, TokenReason.ROUND_WIN, 1),
    )


@pytest.mark.rule(
    "prince.princess-discard-eliminates", "princess.eliminated-when-played-or-discarded"
)
def test_prince_princess_discard_eliminates_premium() -> None:
    state = premium(hands=["Prince Guard", "Princess", "Baron", "Handmaid", "Count"], deck="King")
    check(
        state,
        PlayCard(0, PRINCE, 1),
        CardPlayed(0, PRINCE, 1),
        CardDiscarded(1, PRINCESS),
        PlayerEliminated(1, EliminationReason.PRINCESS_DISCARDED, ()),
        *turn(2, KING),
    )


@pytest.mark.rule("countess.forced-by-king-or-prince", "game.rules-enforced")
@pytest.mark.parametrize("forcer", [KING, PRINCE])
def test_countess_forced_by_king_or_prince_premium(forcer: Card) -> None:
    state = premium(
        hands=[[forcer, COUNTESS], "Priest", "Baron", "Handmaid", "Count"], deck="Guard"
    )
    assert playable_cards(state) == (COUNTESS,)
    assert legal_commands(state) == (PlayCard(0, COUNTESS),)
    reject(state, PlayCard(0, forcer, 1 if forcer is KING else 0), R.COUNTESS_REQUIRED)
    check(state, PlayCard(0, COUNTESS), CardPlayed(0, COUNTESS), *turn(1, GUARD))


@pytest.mark.rule("countess.forced-by-king-or-prince", "countess.voluntary")
@pytest.mark.parametrize("other", [DOWAGER_QUEEN, COUNT, CONSTABLE, PRINCESS, GUARD])
def test_countess_forced_by_king_or_prince_by_name_only(other: Card) -> None:
    """Ruling 26: the Dowager Queen, the Count and the Constable (numbers 7,
    5 and 6) do not force her; she may be played anyway."""
    state = premium(hands=[[COUNTESS, other], "Priest", "Baron", "Handmaid", "Count"], deck="Guard")
    assert playable_cards(state) == tuple(sorted({COUNTESS, other}))
    check(state, PlayCard(0, COUNTESS), CardPlayed(0, COUNTESS), *turn(1, GUARD))


@pytest.mark.rule("countess.no-effect", "countess.hidden-reason")
def test_countess_no_effect_and_hidden_reason_premium() -> None:
    """Forced (beside the King) or chosen (beside the Dowager Queen), the
    Countess's play looks the same to the other players."""
    forced = premium(hands=["Countess King", "Priest", "Baron", "Handmaid", "Count"], deck="Guard")
    chosen = premium(
        hands=["Countess DowagerQueen", "Priest", "Baron", "Handmaid", "Count"], deck="Guard"
    )
    a = decide(forced, PlayCard(0, COUNTESS))
    b = decide(chosen, PlayCard(0, COUNTESS))
    assert a == (CardPlayed(0, COUNTESS), *turn(1, GUARD))
    for player in range(1, 5):
        assert events_for(player, a) == events_for(player, b)


@pytest.mark.rule("out.turn-skipped", "turn.order")
def test_out_turn_skipped_premium() -> None:
    """Turn 5: seat 1 was knocked out on turn 1 (seat 0's Guard named its
    Countess); after seat 0's turn comes seat 2's."""
    state = premium(
        hands=["Handmaid Guard", "", "Baron", "Priest", "Count"],
        discards=["Guard", "Countess", "Guard", "Guard", "Guard"],
        out=[1],
        deck="King Prince",
    )
    assert state.turn_number == 5
    check(state, PlayCard(0, HANDMAID), CardPlayed(0, HANDMAID), PlayerProtected(0), *turn(2, KING))
