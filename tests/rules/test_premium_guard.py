"""Guard (1) in Premium: choose another player and name a number other
than 1; a hand card of that number, whatever its kind, is knocked out."""

from __future__ import annotations

import pytest

from loveletter import Card, PlayCard, RejectionKind, decide, events_for, legal_commands
from loveletter.events import (
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
    BARONESS,
    BISHOP,
    CARDINAL,
    CONSTABLE,
    COUNT,
    COUNTESS,
    DOWAGER_QUEEN,
    GUARD,
    HANDMAID,
    JESTER,
    KING,
    PRIEST,
    PRINCE,
    PRINCESS,
    SYCOPHANT,
    check,
    premium,
    reject,
    turn,
)

R = RejectionKind
#: the hands of the other seats of a fresh deal, by player count
OTHERS = ["Priest", "Baron", "Handmaid", "Count", "Jester", "Countess", "King"]


def fresh(players: int, first: str = "Guard Prince") -> list[str]:
    return [first, *OTHERS[: players - 1]]


@pytest.mark.rule("guard.name-number", "setup.card-values-premium")
@pytest.mark.parametrize(
    ("players", "numbers"),
    [
        (2, (2, 3, 4, 5, 6, 7, 8)),
        (3, (2, 3, 4, 5, 6, 7, 8)),
        (4, (2, 3, 4, 5, 6, 7, 8)),
        (5, (0, 2, 3, 4, 5, 6, 7, 8, 9)),
        (6, (0, 2, 3, 4, 5, 6, 7, 8, 9)),
        (7, (0, 2, 3, 4, 5, 6, 7, 8, 9)),
        (8, (0, 2, 3, 4, 5, 6, 7, 8, 9)),
    ],
)
def test_guard_name_number_the_numbers_of_the_deck_in_use_but_one(
    players: int, numbers: tuple[int, ...]
) -> None:
    """Ruling 23: another player, and a number other than 1 carried by some
    card of the deck in use: 2 to 8 with the sixteen cards, 0 and 2 to 9
    with all 32. The numbers are integers, never card kinds."""
    hands = fresh(players, "Guard Prince" if players >= 5 else "Guard Priest")
    if players < 5:
        hands[1:] = ["Baron", "Handmaid", "King"][: players - 1]
    state = premium(hands=hands, deck="Guard")
    assert legal_commands(state, GUARD) == tuple(
        PlayCard(0, GUARD, target, number) for target in range(1, players) for number in numbers
    )


@pytest.mark.rule("guard.name-number", "game.rules-enforced")
@pytest.mark.parametrize("players", [4, 5])
def test_guard_name_number_other_names_are_refused(players: int) -> None:
    """1 is never named, nor a number no card of the deck carries (0 and 9
    with 2 to 4 players), nor a card kind; a target needs a number."""
    hands = ["Guard Priest", "Baron", "Handmaid", "King", "Count"][:players]
    state = premium(hands=hands, deck="Guard")
    reject(state, PlayCard(0, GUARD, 1, 1), R.GUESS_NOT_ALLOWED)
    reject(state, PlayCard(0, GUARD, 1, 10), R.GUESS_NOT_ALLOWED)
    reject(state, PlayCard(0, GUARD, 1, -1), R.GUESS_NOT_ALLOWED)
    # a kind of card instead of a number
    reject(state, PlayCard(0, GUARD, 1, SYCOPHANT), R.GUESS_NOT_ALLOWED)
    # True equals 1 but is no number: a field of the wrong type
    reject(state, PlayCard(0, GUARD, 1, True), R.MALFORMED_COMMAND)
    reject(state, PlayCard(0, GUARD, 1), R.GUESS_REQUIRED)
    reject(state, PlayCard(0, GUARD), R.TARGET_REQUIRED)
    if players == 4:
        reject(state, PlayCard(0, GUARD, 1, 0), R.GUESS_NOT_ALLOWED)
        reject(state, PlayCard(0, GUARD, 1, 9), R.GUESS_NOT_ALLOWED)


@pytest.mark.rule("guard.name-number", "targeting.choose-impossible-no-effect")
def test_guard_name_number_another_player_only() -> None:
    """Ruling 23: the Guard never chooses its own player."""
    state = premium(hands=["Guard Prince", "Priest", "Baron", "Handmaid", "Count"], deck="Guard")
    reject(state, PlayCard(0, GUARD, 0, 5), R.TARGET_NOT_ALLOWED)
    reject(state, PlayCard(0, GUARD, 5, 2), R.NO_SUCH_PLAYER)


#: (held card, its number): every kind of the 32 cards a Guard can hit
HITS = [
    (JESTER, 0),
    (PRIEST, 2),
    (CARDINAL, 2),
    (BARON, 3),
    (BARONESS, 3),
    (HANDMAID, 4),
    (SYCOPHANT, 4),
    (PRINCE, 5),
    (COUNT, 5),
    (KING, 6),
    (CONSTABLE, 6),
    (COUNTESS, 7),
    (DOWAGER_QUEEN, 7),
    (PRINCESS, 8),
    (BISHOP, 9),
]


@pytest.mark.rule("guard.name-number", "setup.card-values-premium", "out.discard-hand")
@pytest.mark.parametrize(("held", "number"), HITS)
def test_guard_name_number_hits_every_card_of_that_number(held: Card, number: int) -> None:
    """001 "SETUP AND PLAY": a named number applies to all cards of that
    number ("4" hits the Handmaid and the Sycophant alike); any other number
    does nothing. The knocked-out player's card goes face up to their pile
    (a Constable knocked out from the hand gives nothing: it was not in the
    pile before)."""
    state = premium(hands=["Guard Guard", [held], "Guard", "Guard", "Guard"], deck="Priest")
    for guess in (0, 2, 3, 4, 5, 6, 7, 8, 9):
        if guess == number:
            after = check(
                state,
                PlayCard(0, GUARD, 1, guess),
                CardPlayed(0, GUARD, 1, guess),
                PlayerEliminated(1, EliminationReason.GUARD_GUESS, (held,)),
                *turn(2, PRIEST),
            )
            assert after.out == frozenset({1}) and after.discards[1] == (held,)
            assert after.tokens == (0, 0, 0, 0, 0)
        else:
            check(
                state,
                PlayCard(0, GUARD, 1, guess),
                CardPlayed(0, GUARD, 1, guess),
                *turn(1, PRIEST),
            )


@pytest.mark.rule("guard.name-number", "game.tokens-to-win-premium")
@pytest.mark.parametrize("players", [2, 3, 4])
def test_guard_name_number_with_the_sixteen_cards(players: int) -> None:
    """2 to 4 players: the number of seat 1's King (6) knocks them out, a
    neighbouring number does nothing; with two players the round ends."""
    hands = ["Guard Priest", "King", "Baron", "Handmaid"][:players]
    state = premium(hands=hands, deck="Prince")
    check(state, PlayCard(0, GUARD, 1, 7), CardPlayed(0, GUARD, 1, 7), *turn(1, PRINCE))
    knocked_out = (
        CardPlayed(0, GUARD, 1, 6),
        PlayerEliminated(1, EliminationReason.GUARD_GUESS, (KING,)),
    )
    if players == 2:
        ending = (
            RoundEnded(RoundEndReason.ONE_PLAYER_LEFT, (0,), ()),
            TokenAwarded(0, TokenReason.ROUND_WIN, 1),
        )
        check(state, PlayCard(0, GUARD, 1, 6), *knocked_out, *ending)
    else:
        check(state, PlayCard(0, GUARD, 1, 6), *knocked_out, *turn(2, PRINCE))


@pytest.mark.rule("guard.name-number")
def test_guard_name_number_a_guard_in_hand_cannot_be_hit() -> None:
    """1 cannot be named, so a Guard in hand is safe from a Guard."""
    state = premium(hands=["Guard Prince", "Guard", "Baron", "Handmaid", "Count"], deck="Priest")
    for command in legal_commands(state, GUARD):
        assert isinstance(command, PlayCard)
        if command.target == 1:
            assert decide(state, command) == (
                CardPlayed(0, GUARD, 1, command.guess),
                *turn(1, PRIEST),
            )


@pytest.mark.rule("guard.name-number", "game.rules-enforced")
def test_guard_name_number_everyone_learns_only_whether_it_was_right() -> None:
    """The engine checks the real card (nobody answers for it) and every
    player gets the same events: right or wrong, nothing more."""
    state = premium(hands=["Guard Prince", "Priest", "Baron", "Handmaid", "Count"], deck="King")
    wrong = decide(state, PlayCard(0, GUARD, 4, 6))
    right = decide(state, PlayCard(0, GUARD, 4, 5))
    assert right[1] == PlayerEliminated(4, EliminationReason.GUARD_GUESS, (COUNT,))
    for player in range(5):
        assert events_for(player, wrong)[0] == CardPlayed(0, GUARD, 4, 6)
        assert events_for(player, right)[:2] == right[:2]


@pytest.mark.rule("guard.name-number", "handmaid.protection-until-next-turn")
def test_guard_name_number_a_protected_player_cannot_be_chosen() -> None:
    """Seat 2 played a Handmaid last turn: the Guard may not choose them."""
    state = premium(
        hands=["Guard Prince", "Priest", "Baron", "Count", "Countess"],
        discards=["Guard", "Guard", "Handmaid", "Guard", "Guard"],
        protected=[2],
        deck="King",
    )
    reject(state, PlayCard(0, GUARD, 2, 3), R.TARGET_PROTECTED)
    assert {c.target for c in legal_commands(state, GUARD) if isinstance(c, PlayCard)} == {1, 3, 4}
