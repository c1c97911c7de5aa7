"""Chancellor (6): draw up to two, keep one, return the rest under the deck."""

from __future__ import annotations

import pytest

from loveletter import Card, Decision, KeepCard, PlayCard, RejectionKind, decide, events_for, view
from loveletter.events import (
    CardPlayed,
    CardsReturned,
    ChancellorDrew,
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


@pytest.mark.rule("chancellor.draw-two-keep-one")
def test_chancellor_draw_two_keep_one() -> None:
    """With two or more cards in the deck: draw the top two, then keep one
    of the three cards held; every keep and every order is a legal choice."""
    state = at(hands=["Chancellor Guard", "Priest", "Baron"], deck="King Handmaid Prince Countess")
    pending = check(
        state,
        PlayCard(0, CHANCELLOR),
        CardPlayed(0, CHANCELLOR),
        ChancellorDrew(0, 2, (KING, HANDMAID)),
    )
    assert pending.decision is Decision.CHANCELLOR
    assert pending.to_act == 0
    assert pending.hands[0] == (GUARD, KING, HANDMAID)
    assert pending.deck[:2] == (PRINCE, COUNTESS)
    assert set(view(pending, 0).legal_commands) == {
        KeepCard(0, GUARD, (HANDMAID, KING)),
        KeepCard(0, GUARD, (KING, HANDMAID)),
        KeepCard(0, HANDMAID, (GUARD, KING)),
        KeepCard(0, HANDMAID, (KING, GUARD)),
        KeepCard(0, KING, (GUARD, HANDMAID)),
        KeepCard(0, KING, (HANDMAID, GUARD)),
    }
    after = check(
        pending,
        KeepCard(0, KING, (GUARD, HANDMAID)),
        CardsReturned(0, 2, (GUARD, HANDMAID)),
        *turn(1, PRINCE),
    )
    assert after.hands[0] == (KING,)
    assert len(after.deck) == len(state.deck) - 1  # two drawn, two returned, one turn draw


@pytest.mark.rule("chancellor.return-bottom-any-order")
@pytest.mark.parametrize("bottom", [(GUARD, HANDMAID), (HANDMAID, GUARD)])
def test_chancellor_return_bottom_any_order(bottom: tuple[Card, Card]) -> None:
    """Ruling 4: the returned cards go under the deck in the order listed,
    the last one bottom-most; they are not discarded."""
    state = at(hands=["Chancellor Guard", "Priest", "Baron"], deck="King Handmaid Prince Countess")
    pending = check(
        state,
        PlayCard(0, CHANCELLOR),
        CardPlayed(0, CHANCELLOR),
        ChancellorDrew(0, 2, (KING, HANDMAID)),
    )
    before = pending.deck
    after = check(pending, KeepCard(0, KING, bottom), CardsReturned(0, 2, bottom), *turn(1, PRINCE))
    assert after.deck == before[1:] + bottom
    assert after.deck[-2:] == bottom
    assert after.discards[0] == (CHANCELLOR,)


@pytest.mark.rule("chancellor.draw-two-keep-one", "chancellor.return-bottom-any-order")
def test_chancellor_cards_seen_by_its_player_only() -> None:
    """Ruling 14: the drawn and returned cards are seen by the Chancellor's
    player only; the others see how many."""
    state = at(hands=["Chancellor Guard", "Priest", "Baron"], deck="King Handmaid Prince Countess")
    drew = decide(state, PlayCard(0, CHANCELLOR))
    assert events_for(0, drew)[1] == ChancellorDrew(0, 2, (KING, HANDMAID))
    pending = check(state, PlayCard(0, CHANCELLOR), *drew)
    returned = decide(pending, KeepCard(0, HANDMAID, (KING, GUARD)))
    for observer in (1, 2):
        assert events_for(observer, drew)[1] == ChancellorDrew(0, 2, None)
        assert events_for(observer, returned)[0] == CardsReturned(0, 2, None)
        assert view(pending, observer).hand_sizes == (3, 1, 1)
        assert view(pending, observer).legal_commands == ()
    assert events_for(0, returned)[0] == CardsReturned(0, 2, (KING, GUARD))


@pytest.mark.rule("chancellor.one-card-in-deck")
def test_chancellor_one_card_in_deck() -> None:
    """Ruling 8: with one card in the deck, the player draws it and returns
    one of two; the deck holds one card again and play goes on; the next
    turn's draw empties it and the round ends after that turn."""
    state = at(hands=["Chancellor Guard", "Priest", "Baron", ""], deck="King", out=[3], rest=3)
    pending = check(
        state, PlayCard(0, CHANCELLOR), CardPlayed(0, CHANCELLOR), ChancellorDrew(0, 1, (KING,))
    )
    assert pending.deck == ()
    assert pending.hands[0] == (GUARD, KING)
    assert set(view(pending, 0).legal_commands) == {
        KeepCard(0, GUARD, (KING,)),
        KeepCard(0, KING, (GUARD,)),
    }
    reject(pending, KeepCard(0, KING, ()), RejectionKind.INVALID_CHOICE)
    reject(pending, KeepCard(0, KING, (GUARD, PRIEST)), RejectionKind.INVALID_CHOICE)
    after = check(
        pending, KeepCard(0, KING, (GUARD,)), CardsReturned(0, 1, (GUARD,)), *turn(1, GUARD)
    )
    assert after.deck == ()
    assert after.decision is Decision.PLAY
    check(
        after,
        PlayCard(1, GUARD, 2, PRINCESS),
        CardPlayed(1, GUARD, 2, PRINCESS),
        RoundEnded(RoundEndReason.DECK_EMPTY, (0,), ((0, KING), (1, PRIEST), (2, BARON))),
        TokenAwarded(0, TokenReason.ROUND_WIN, 1),
    )


@pytest.mark.rule("chancellor.empty-deck-no-effect")
def test_chancellor_empty_deck_no_effect() -> None:
    """With the deck empty the Chancellor does nothing: no draw, no choice;
    the turn is over and (the deck being empty) so is the round."""
    state = at(hands=["Chancellor Guard", "Priest", "Baron", ""], out=[3], rest=3)
    after = check(
        state,
        PlayCard(0, CHANCELLOR),
        CardPlayed(0, CHANCELLOR),
        RoundEnded(RoundEndReason.DECK_EMPTY, (2,), ((0, GUARD), (1, PRIEST), (2, BARON))),
        TokenAwarded(2, TokenReason.ROUND_WIN, 1),
    )
    assert after.hands[0] == (GUARD,)
    assert after.discards[0][-1] is CHANCELLOR  # an earlier turn's card lies under it


@pytest.mark.rule("chancellor.draw-two-keep-one")
def test_chancellor_pending_choice_blocks_other_commands() -> None:
    """While the keep-and-return choice is pending only KeepCard from the
    Chancellor's player is accepted, and only with the cards they hold."""
    state = at(hands=["Chancellor Guard", "Priest", "Baron"], deck="King Handmaid Prince Countess")
    pending = check(
        state,
        PlayCard(0, CHANCELLOR),
        CardPlayed(0, CHANCELLOR),
        ChancellorDrew(0, 2, (KING, HANDMAID)),
    )
    reject(pending, PlayCard(0, KING, 1), RejectionKind.WRONG_DECISION)
    reject(pending, PlayCard(0, GUARD, 1, PRIEST), RejectionKind.WRONG_DECISION)
    reject(pending, KeepCard(1, PRIEST, (KING, HANDMAID)), RejectionKind.NOT_YOUR_TURN)
    reject(pending, KeepCard(0, PRINCE, (KING, HANDMAID)), RejectionKind.INVALID_CHOICE)
    reject(pending, KeepCard(0, KING, (HANDMAID,)), RejectionKind.INVALID_CHOICE)
    reject(pending, KeepCard(0, KING, (HANDMAID, HANDMAID)), RejectionKind.INVALID_CHOICE)
    reject(pending, KeepCard(0, KING, (KING, HANDMAID)), RejectionKind.INVALID_CHOICE)
    reject(pending, KeepCard(0, KING, (GUARD, HANDMAID, PRIEST)), RejectionKind.INVALID_CHOICE)
    # KeepCard with no Chancellor pending answers no decision.
    reject(state, KeepCard(0, GUARD, (CHANCELLOR,)), RejectionKind.WRONG_DECISION)
