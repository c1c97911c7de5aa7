"""Guard (1): name a non-Guard card; a right guess knocks the target out."""

from __future__ import annotations

import pytest

from loveletter import Card, PlayCard, RejectionKind, decide, events_for, legal_commands
from loveletter.events import CardPlayed, EliminationReason, PlayerEliminated

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

NAMEABLE = {
    "2019": (SPY, PRIEST, BARON, HANDMAID, PRINCE, CHANCELLOR, KING, COUNTESS, PRINCESS),
    "2019-classic": (PRIEST, BARON, HANDMAID, PRINCE, KING, COUNTESS, PRINCESS),
}


@pytest.mark.rule("guard.name-non-guard")
@pytest.mark.parametrize("ruleset", ["2019", "2019-classic"])
def test_guard_name_non_guard_legal_guesses(ruleset: str) -> None:
    """Ruling 5: the Guard may name every kind of the edition's deck but the
    Guard; the legal commands list exactly those, for each other player."""
    state = at(ruleset, hands=["Guard Handmaid", "Priest", "Baron"], deck="King")
    assert legal_commands(state, GUARD) == tuple(
        PlayCard(0, GUARD, target, guess) for target in (1, 2) for guess in NAMEABLE[ruleset]
    )


@pytest.mark.rule("guard.name-non-guard")
@pytest.mark.parametrize("ruleset", ["2019", "2019-classic"])
def test_guard_name_non_guard_guard_rejected(ruleset: str) -> None:
    """Naming the Guard is rejected (GUESS_NOT_ALLOWED), even when the
    target holds one."""
    state = at(ruleset, hands=["Guard Handmaid", "Guard", "Baron"], deck="King")
    reject(state, PlayCard(0, GUARD, 1, GUARD), RejectionKind.GUESS_NOT_ALLOWED)
    reject(state, PlayCard(0, GUARD, 2, GUARD), RejectionKind.GUESS_NOT_ALLOWED)


@pytest.mark.rule("guard.name-non-guard")
@pytest.mark.parametrize("absent", [SPY, CHANCELLOR])
def test_guard_name_non_guard_classic_cannot_name_spy_or_chancellor(absent: Card) -> None:
    """Ruling 5: in 2019-classic the Spy and the Chancellor are not in the
    deck, so they cannot be named."""
    state = at("2019-classic", hands=["Guard Handmaid", "Priest", "Baron"], deck="King")
    reject(state, PlayCard(0, GUARD, 1, absent), RejectionKind.GUESS_NOT_ALLOWED)


@pytest.mark.rule("guard.name-non-guard", "guard.correct-guess-eliminates")
def test_guard_name_non_guard_2019_can_name_the_spy() -> None:
    """In 2019 the Spy can be named, and a right guess knocks its holder out."""
    state = at(hands=["Guard Handmaid", "Spy", "Baron"], deck="King")
    check(state, PlayCard(0, GUARD, 2, SPY), CardPlayed(0, GUARD, 2, SPY), *turn(1, KING))
    check(
        state,
        PlayCard(0, GUARD, 1, SPY),
        CardPlayed(0, GUARD, 1, SPY),
        PlayerEliminated(1, EliminationReason.GUARD_GUESS, (SPY,)),
        *turn(2, KING),
    )


@pytest.mark.rule("guard.name-non-guard", "targeting.other-player")
def test_guard_cannot_target_self() -> None:
    """The Guard chooses another player: itself is TARGET_NOT_ALLOWED, even
    naming the card it holds."""
    state = at(hands=["Guard Handmaid", "Priest", "Baron"], deck="King")
    reject(state, PlayCard(0, GUARD, 0, HANDMAID), RejectionKind.TARGET_NOT_ALLOWED)
    reject(state, PlayCard(0, GUARD, 0, PRIEST), RejectionKind.TARGET_NOT_ALLOWED)


@pytest.mark.rule("guard.name-non-guard")
def test_guard_with_a_target_must_name_a_card() -> None:
    state = at(hands=["Guard Handmaid", "Priest", "Baron"], deck="King")
    reject(state, PlayCard(0, GUARD, 1), RejectionKind.GUESS_REQUIRED)
    reject(state, PlayCard(0, GUARD), RejectionKind.TARGET_REQUIRED)


@pytest.mark.rule("guard.correct-guess-eliminates")
@pytest.mark.parametrize(
    "held", [SPY, GUARD, PRIEST, BARON, HANDMAID, PRINCE, CHANCELLOR, KING, COUNTESS, PRINCESS]
)
def test_guard_correct_guess_eliminates(held: Card) -> None:
    """Naming the target's card knocks them out (their card is discarded
    face up); naming anything else does nothing. A Guard in hand cannot be
    guessed."""
    other = BARON if held is not BARON else PRIEST
    top = KING if held is not KING else PRINCE
    state = at(hands=["Guard Handmaid", [held], [other]], deck=[top])
    for guess in NAMEABLE["2019"]:
        if guess == held:
            after = check(
                state,
                PlayCard(0, GUARD, 1, guess),
                CardPlayed(0, GUARD, 1, guess),
                PlayerEliminated(1, EliminationReason.GUARD_GUESS, (held,)),
                *turn(2, top),
            )
            assert after.out == frozenset({1})
            assert after.discards[1] == (held,)
        else:
            after = check(
                state, PlayCard(0, GUARD, 1, guess), CardPlayed(0, GUARD, 1, guess), *turn(1, top)
            )
            assert after.out == frozenset()
            assert after.hands[1] == (held, top)


@pytest.mark.rule("guard.correct-guess-eliminates")
def test_guard_everyone_learns_only_whether_the_guess_was_right() -> None:
    """The Guard's events hide nothing and show no more than right or wrong:
    every player gets the same CardPlayed, and a knock-out is public."""
    state = at(hands=["Guard Handmaid", "Priest", "Baron"], deck="King")
    wrong = decide(state, PlayCard(0, GUARD, 1, KING))
    right = decide(state, PlayCard(0, GUARD, 1, PRIEST))
    for player in range(3):
        assert events_for(player, wrong)[0] == CardPlayed(0, GUARD, 1, KING)
        assert events_for(player, right)[:2] == right[:2]
    assert right[1] == PlayerEliminated(1, EliminationReason.GUARD_GUESS, (PRIEST,))


@pytest.mark.rule("guard.name-non-guard")
def test_guard_may_name_a_kind_already_all_in_sight() -> None:
    """Ruling 5: naming a kind whose only copy is face up is allowed; it
    simply cannot succeed."""
    state = at(
        hands=["Guard Handmaid", "Priest"],
        face_up="King Countess Baron",
        deck="Prince",
    )
    check(state, PlayCard(0, GUARD, 1, KING), CardPlayed(0, GUARD, 1, KING), *turn(1, PRINCE))
