"""Countess (8): forced beside a King or Prince, otherwise a free choice."""

from __future__ import annotations

import pytest

from loveletter import (
    Card,
    KeepCard,
    PlayCard,
    RejectionKind,
    decide,
    events_for,
    legal_commands,
    playable_cards,
    push,
    view,
)
from loveletter.events import (
    CardDiscarded,
    CardDrawn,
    CardPlayed,
    CardsReturned,
    ChancellorDrew,
    EliminationReason,
    HandsTraded,
    PlayerEliminated,
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
    SPY,
    at,
    check,
    reject,
    turn,
)

FORCED = [
    pytest.param(ruleset, forcer, first, id=f"{ruleset}-{forcer}-{'first' if first else 'second'}")
    for ruleset in ("2019", "2019-classic")
    for forcer in (KING, PRINCE)
    for first in (True, False)
]


def _hand(forcer: Card, countess_first: bool) -> list[Card]:
    return [COUNTESS, forcer] if countess_first else [forcer, COUNTESS]


@pytest.mark.rule("countess.forced-by-king-or-prince")
@pytest.mark.parametrize(("ruleset", "forcer", "countess_first"), FORCED)
def test_countess_forced_by_king_or_prince_only_countess_legal(
    ruleset: str, forcer: Card, countess_first: bool
) -> None:
    """With the King or a Prince beside her, the Countess is the only legal
    play, and playing her is accepted."""
    state = at(ruleset, hands=[_hand(forcer, countess_first), "Priest", "Baron"], deck="Guard")
    assert playable_cards(state) == (COUNTESS,)
    assert legal_commands(state) == (PlayCard(0, COUNTESS),)
    assert legal_commands(state, forcer) == ()
    after = check(state, PlayCard(0, COUNTESS), CardPlayed(0, COUNTESS), *turn(1, GUARD))
    assert after.hands[0] == (forcer,)
    assert after.discards[0] == (COUNTESS,)


@pytest.mark.rule("countess.forced-by-king-or-prince")
@pytest.mark.parametrize(("ruleset", "forcer", "countess_first"), FORCED)
def test_countess_forced_by_king_or_prince_other_card_rejected(
    ruleset: str, forcer: Card, countess_first: bool
) -> None:
    """Playing the King or the Prince instead is rejected with
    COUNTESS_REQUIRED, whatever the target."""
    state = at(ruleset, hands=[_hand(forcer, countess_first), "Priest", "Baron"], deck="Guard")
    reject(state, PlayCard(0, forcer, 1), RejectionKind.COUNTESS_REQUIRED)
    reject(state, PlayCard(0, forcer, 2), RejectionKind.COUNTESS_REQUIRED)
    if forcer is PRINCE:
        reject(state, PlayCard(0, forcer, 0), RejectionKind.COUNTESS_REQUIRED)


@pytest.mark.rule("countess.forced-by-king-or-prince")
def test_countess_not_forced_by_two_princes_or_others() -> None:
    """The lock needs the Countess herself: a King and a Prince, or two
    Princes, may be played freely."""
    state = at(hands=["Prince Prince", "Priest", "Baron"], deck="Guard")
    assert playable_cards(state) == (PRINCE,)
    state = at(hands=["King Prince", "Priest", "Baron"], deck="Guard")
    assert playable_cards(state) == (PRINCE, KING)
    check(state, PlayCard(0, KING, 2), CardPlayed(0, KING, 2), HandsTraded(0, 2), *turn(1, GUARD))


@pytest.mark.rule("countess.voluntary")
@pytest.mark.parametrize("other", [SPY, GUARD, PRIEST, BARON, HANDMAID, CHANCELLOR])
def test_countess_voluntary_with_any_other_card(other: Card) -> None:
    """Without a King or Prince beside her, the Countess may be played, and
    so may the other card."""
    state = at(hands=[[other, COUNTESS], "Priest", "Baron"], deck="Guard Handmaid")
    assert playable_cards(state) == tuple(sorted((other, COUNTESS)))
    check(state, PlayCard(0, COUNTESS), CardPlayed(0, COUNTESS), *turn(1, GUARD))
    assert legal_commands(state, other) != ()


@pytest.mark.rule("countess.voluntary", "princess.eliminated-when-played-or-discarded")
def test_countess_voluntary_beside_the_princess() -> None:
    """Ruling 17: with the Princess, either card may be played; playing the
    Princess knocks her player out."""
    state = at(hands=["Princess Countess", "Priest", "Baron"], deck="Guard")
    assert playable_cards(state) == (COUNTESS, PRINCESS)
    check(state, PlayCard(0, COUNTESS), CardPlayed(0, COUNTESS), *turn(1, GUARD))
    check(
        state,
        PlayCard(0, PRINCESS),
        CardPlayed(0, PRINCESS),
        PlayerEliminated(0, EliminationReason.PRINCESS_DISCARDED, (COUNTESS,)),
        *turn(1, GUARD),
    )


@pytest.mark.rule("countess.no-effect")
def test_countess_no_effect_when_played() -> None:
    """Playing the Countess only puts her in the discard pile."""
    state = at(hands=["Countess Guard", "Priest", "Baron"], deck="Handmaid")
    after = check(state, PlayCard(0, COUNTESS), CardPlayed(0, COUNTESS), *turn(1, HANDMAID))
    assert after.protected == frozenset()
    assert after.out == frozenset()


@pytest.mark.rule("countess.no-effect", "prince.discard-and-draw")
def test_countess_no_effect_when_discarded_by_a_prince() -> None:
    """Discarded through a Prince, the Countess just lands in the pile."""
    state = at(hands=["Prince Guard", "Countess", "Baron"], deck="Handmaid Priest")
    after = check(
        state,
        PlayCard(0, PRINCE, 1),
        CardPlayed(0, PRINCE, 1),
        CardDiscarded(1, COUNTESS),
        CardDrawn(1, HANDMAID, False),
        *turn(1, PRIEST),
    )
    assert after.discards[1] == (COUNTESS,)
    assert after.out == frozenset()


@pytest.mark.rule("countess.no-effect", "out.discard-hand")
def test_countess_no_effect_when_discarded_on_a_knock_out() -> None:
    """A player knocked out holding the Countess discards her, nothing more."""
    state = at(hands=["Guard Handmaid", "Countess", "Baron"], deck="Priest")
    check(
        state,
        PlayCard(0, GUARD, 1, COUNTESS),
        CardPlayed(0, GUARD, 1, COUNTESS),
        PlayerEliminated(1, EliminationReason.GUARD_GUESS, (COUNTESS,)),
        *turn(2, PRIEST),
    )


@pytest.mark.rule("countess.hidden-reason")
def test_countess_hidden_reason() -> None:
    """A forced Countess (beside the King) and a chosen one (beside a Guard)
    look exactly the same to every other player: same events, same views."""
    forced = at(hands=["Countess King", "Priest", "Baron"], deck="Handmaid")
    chosen = at(hands=["Countess Guard", "Priest", "Baron"], deck="Handmaid")
    assert KING in chosen.deck and KING not in forced.deck
    command = PlayCard(0, COUNTESS)
    forced_events = decide(forced, command)
    chosen_events = decide(chosen, command)
    assert forced_events[0] == chosen_events[0] == CardPlayed(0, COUNTESS)
    for observer in (1, 2):
        assert events_for(observer, forced_events) == events_for(observer, chosen_events)
        assert view(push(forced, command), observer) == view(push(chosen, command), observer)


@pytest.mark.rule("countess.not-during-chancellor")
@pytest.mark.parametrize(
    ("keep", "bottom"),
    [
        (KING, (COUNTESS, PRINCE)),
        (PRINCE, (KING, COUNTESS)),
        (COUNTESS, (PRINCE, KING)),
    ],
)
def test_countess_not_during_chancellor(keep: Card, bottom: tuple[Card, Card]) -> None:
    """Ruling 15: holding the Countess with a King and a Prince drawn by a
    Chancellor, the player may keep any of the three and return the others."""
    state = at(hands=["Chancellor Countess", "Priest", "Baron"], deck="King Prince Guard")
    pending = check(
        state,
        PlayCard(0, CHANCELLOR),
        CardPlayed(0, CHANCELLOR),
        ChancellorDrew(0, 2, (KING, PRINCE)),
    )
    assert sorted(pending.hands[0]) == [PRINCE, KING, COUNTESS]
    kept = {command.keep for command in legal_commands(pending) if isinstance(command, KeepCard)}
    assert kept == {PRINCE, KING, COUNTESS}
    after = check(
        pending,
        KeepCard(0, keep, bottom),
        CardsReturned(0, 2, bottom),
        *turn(1, GUARD),
    )
    assert after.hands[0] == (keep,)
    assert after.deck[-2:] == bottom
