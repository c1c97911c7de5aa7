"""What a refusal says, not only that it happens.

Programs compare the kind of a refusal (``RejectionKind``), never its text;
people read the text. These tests pin what the text must tell them: the
argument or value at fault, the decision expected, the event that cannot
follow. Hostile input never makes a message grow without bound.
"""

from __future__ import annotations

import re

import pytest

from loveletter import (
    Card,
    Command,
    Decline,
    EventMismatch,
    GameState,
    IllegalCommand,
    KeepCard,
    LookAtHand,
    PlayCard,
    RejectionKind,
    SetupError,
    StartRound,
    evolve,
    get_ruleset,
    new_game,
    push,
    start_game,
)
from loveletter.cards import bishop, chancellor
from loveletter.events import (
    CardPlayed,
    CardRevealed,
    CardsReturned,
    ChancellorDrew,
    GameStarted,
    HandsCompared,
    HandSeen,
    PositionEstablished,
)

from ._helpers import at, premium


def setup_message(**arguments: object) -> str:
    with pytest.raises(SetupError) as refused:
        new_game(**arguments)  # type: ignore[arg-type]  # wrong on purpose
    return str(refused.value)


@pytest.mark.rule("game.rules-enforced")
def test_a_bad_seed_is_shown_in_full_when_short() -> None:
    # repr of a 58-letter string: 60 characters, the most shown whole
    seed = "s" * 58
    assert setup_message(ruleset="2019", players=2, seed=seed).endswith(f"not {seed!r}")


@pytest.mark.rule("game.rules-enforced")
def test_a_bad_seed_is_cut_to_sixty_characters() -> None:
    message = setup_message(ruleset="2019", players=2, seed="s" * 59)
    assert message.endswith("not '" + "s" * 56 + "...")
    message = setup_message(ruleset="2019", players=2, seed="s" * 10_000)
    assert message.endswith("not '" + "s" * 56 + "...")


@pytest.mark.rule("game.rules-enforced")
def test_a_number_too_long_to_print_is_named_by_its_type() -> None:
    # Python refuses to print an int of more than 4300 digits
    assert setup_message(ruleset="2019", players=2, seed=-(10**5000)).endswith("not <int>")


@pytest.mark.rule("game.rules-enforced")
def test_a_bad_player_count_and_ruleset_are_named() -> None:
    message = setup_message(ruleset="2019", players=9, seed=1)
    assert message == "players: 2019 is for 2-6 players, not 9"
    message = setup_message(ruleset=2019, players=2, seed=1)
    assert message == "ruleset: a ruleset name or Ruleset, not 2019"
    with pytest.raises(SetupError, match=r"^first_player: must be a seat from 0 to 1, not 2$"):
        start_game("2019", 2, seed=1, first_player=2)


@pytest.mark.rule("round.new-round-setup")
@pytest.mark.parametrize(
    ("event", "name"),
    [
        (GameStarted("2019", 2, 1, 0), "GameStarted"),
        (PositionEstablished(None), "PositionEstablished"),
    ],
)
def test_a_log_opening_cannot_follow_other_events(
    event: GameStarted | PositionEstablished, name: str
) -> None:
    state = at(hands=["Guard Priest", "Baron"])
    with pytest.raises(
        EventMismatch, match=f"^{name}: {name} can only begin a log \\(use replay\\)$"
    ):
        evolve(state, event)


def chancellor_pending() -> GameState:
    """Player 0 played the Chancellor and holds Guard, King, Prince."""
    state = at(hands=["Chancellor Guard", "Baron"], deck="King Prince Priest")
    return push(state, PlayCard(0, Card.CHANCELLOR))


@pytest.mark.rule("chancellor.return-bottom-any-order")
def test_returned_cards_the_player_does_not_hold_name_the_player_and_the_card() -> None:
    state = chancellor_pending()
    assert state.hands[0] == (Card.GUARD, Card.KING, Card.PRINCE)
    with pytest.raises(
        EventMismatch, match=r"^CardsReturned\.cards: player 0 does not hold Princess$"
    ):
        evolve(state, CardsReturned(0, 2, (Card.KING, Card.PRINCESS)))


@pytest.mark.rule("chancellor.return-bottom-any-order")
def test_a_redacted_return_cannot_be_replayed() -> None:
    state = chancellor_pending()
    with pytest.raises(
        EventMismatch, match=r"^CardsReturned\.cards: a redacted CardsReturned cannot be replayed$"
    ):
        evolve(state, CardsReturned(0, 2, None))


@pytest.mark.rule("chancellor.draw-two-keep-one")
def test_the_chancellor_answer_refuses_anything_but_keeping_a_card() -> None:
    """The engine sends the Chancellor only ``KeepCard`` (it refuses the
    others first); the card's own rules refuse the rest too, with a reason."""
    state = chancellor_pending()
    with pytest.raises(IllegalCommand) as refused:
        chancellor.keep(state, Decline(0))
    assert refused.value.kind is RejectionKind.WRONG_DECISION
    assert str(refused.value) == "wrong-decision: the Chancellor's player must keep one card"


@pytest.mark.rule("bishop.target-may-redraw")
def test_the_bishop_answer_refuses_anything_but_redraw_or_decline() -> None:
    state = premium(hands=["Bishop Guard", "Baron", "Priest", "King", "Prince"])
    with pytest.raises(IllegalCommand) as refused:
        bishop.redraw(state, LookAtHand(1, 0))
    assert refused.value.kind is RejectionKind.WRONG_DECISION
    assert re.fullmatch(
        "wrong-decision: the Bishop's target must answer Redraw or Decline", str(refused.value)
    )


def keep_refusal(command: KeepCard) -> IllegalCommand:
    with pytest.raises(IllegalCommand) as refused:
        push(chancellor_pending(), command)
    return refused.value


@pytest.mark.rule("chancellor.draw-two-keep-one")
def test_a_keep_that_is_not_the_hand_lists_the_cards_to_choose_from() -> None:
    refusal = keep_refusal(KeepCard(0, Card.PRINCESS, (Card.KING, Card.PRINCE)))
    assert refusal.kind is RejectionKind.INVALID_CHOICE
    assert refusal.detail == "keep one card and return the other 2 of Guard, King, Prince"


@pytest.mark.rule("chancellor.return-bottom-any-order")
@pytest.mark.parametrize(
    "bottom",
    [
        [Card.KING, Card.PRINCE],  # a list: commands hold tuples
        (5, 7),  # numbers equal to the cards' codes are still not cards
    ],
)
def test_returned_cards_that_are_not_a_tuple_of_cards_are_malformed(bottom: object) -> None:
    refusal = keep_refusal(KeepCard(0, Card.GUARD, bottom))  # type: ignore[arg-type]
    assert refusal.kind is RejectionKind.MALFORMED_COMMAND
    assert refusal.detail == "bottom must be a sequence of cards"


@pytest.mark.rule("chancellor.draw-two-keep-one")
def test_a_kept_card_that_is_not_a_card_is_malformed_and_shown() -> None:
    refusal = keep_refusal(KeepCard(0, 1, (Card.KING, Card.PRINCE)))  # type: ignore[arg-type]
    assert refusal.kind is RejectionKind.MALFORMED_COMMAND
    assert refusal.detail == "keep must be a card, not 1"


@pytest.mark.rule("chancellor.draw-two-keep-one")
@pytest.mark.parametrize(
    ("cards", "message"),
    [
        # the right cards in the wrong order
        ((Card.PRIEST, Card.KING), "the Chancellor's cards are not the top of the deck"),
        ((Card.PRIEST,), "the Chancellor's cards are not the top of the deck"),  # not the top
        (None, "a redacted ChancellorDrew cannot be replayed"),  # only the player saw them
    ],
)
def test_drawn_cards_that_are_not_the_top_of_the_deck_cannot_follow(
    cards: tuple[Card, ...] | None, message: str
) -> None:
    state = at(hands=["Chancellor Guard", "Baron"], deck="King Priest Prince")
    state = evolve(state, CardPlayed(0, Card.CHANCELLOR))
    drawn = ChancellorDrew(0, 2 if cards is None else len(cards), cards)
    with pytest.raises(EventMismatch, match=f"^ChancellorDrew\\.cards: {message}$"):
        evolve(state, drawn)


@pytest.mark.rule("guard.name-non-guard", "guard.name-number")
def test_a_guess_the_edition_does_not_allow_is_named_as_given() -> None:
    """A card by its title, a number as written (2019 names cards)."""
    state = at(hands=["Guard Priest", "Baron"])
    with pytest.raises(IllegalCommand) as refused:
        push(state, PlayCard(0, Card.GUARD, 1, 5))
    assert refused.value.kind is RejectionKind.GUESS_NOT_ALLOWED
    assert refused.value.detail == "the Guard cannot name 5 in 2019"
    with pytest.raises(IllegalCommand) as refused:
        push(state, PlayCard(0, Card.GUARD, 1, Card.GUARD))
    assert refused.value.detail == "the Guard cannot name Guard in 2019"


@pytest.mark.rule("game.rules-enforced")
def test_a_card_not_in_hand_is_named_by_its_title() -> None:
    state = at(hands=["Guard Priest", "Baron"])
    with pytest.raises(IllegalCommand) as refused:
        push(state, PlayCard(0, Card.KING, 1))
    assert refused.value.kind is RejectionKind.CARD_NOT_IN_HAND
    assert refused.value.detail == "player 0 does not hold King"


def refusal(state: GameState, command: Command) -> tuple[RejectionKind, str]:
    with pytest.raises(IllegalCommand) as refused:
        push(state, command)
    return refused.value.kind, refused.value.detail


@pytest.mark.rule("game.tokens-to-win", "game.rules-enforced")
def test_a_command_after_the_game_is_won_is_refused_as_game_over() -> None:
    state = push(at(hands=["Baron Princess", "Guard"], tokens=[5, 0]), PlayCard(0, Card.BARON, 1))
    assert state.winners == (0,)
    assert refusal(state, StartRound()) == (
        RejectionKind.GAME_OVER,
        "the game is over",
    )


@pytest.mark.rule("turn.order", "game.rules-enforced")
def test_a_command_out_of_turn_or_out_of_place_says_what_is_awaited() -> None:
    state = at(hands=["Guard Priest", "Baron"])
    assert refusal(state, PlayCard(1, Card.BARON, 0)) == (
        RejectionKind.NOT_YOUR_TURN,
        "player 0 must act now, not player 1",
    )
    assert refusal(state, KeepCard(0, Card.GUARD, (Card.PRIEST,))) == (
        RejectionKind.WRONG_DECISION,
        "the game is waiting for 'play'",
    )
    assert refusal(state, PlayCard(0.0, Card.PRIEST, 1)) == (  # type: ignore[arg-type]
        RejectionKind.MALFORMED_COMMAND,
        "player must be a seat, not 0.0",
    )


@pytest.mark.rule("priest.look-secretly")
def test_a_redacted_look_cannot_be_replayed() -> None:
    state = evolve(at(hands=["Priest Guard", "Baron"]), CardPlayed(0, Card.PRIEST, 1))
    with pytest.raises(
        EventMismatch, match=r"^HandSeen\.card: a redacted HandSeen cannot be replayed$"
    ):
        evolve(state, HandSeen(0, 1, None))


@pytest.mark.rule("baron.secret-comparison")
@pytest.mark.parametrize(
    ("mine", "theirs"), [(None, Card.GUARD), (Card.PRIEST, None), (None, None)]
)
def test_a_comparison_with_a_hidden_card_cannot_be_replayed(
    mine: Card | None, theirs: Card | None
) -> None:
    state = evolve(at(hands=["Baron Priest", "Guard"]), CardPlayed(0, Card.BARON, 1))
    with pytest.raises(
        EventMismatch,
        match=r"^HandsCompared\.(player|opponent)_card: a redacted HandsCompared cannot be",
    ):
        evolve(state, HandsCompared(0, 1, mine, theirs))


@pytest.mark.rule("assassin.guard-player-knocked-out")
def test_revealing_a_card_not_held_names_the_player_and_the_card() -> None:
    state = at("premium", hands=["Guard Priest", "Baron", "King", "Prince", "Countess"])
    state = evolve(state, CardPlayed(0, Card.GUARD, 1, 2))
    with pytest.raises(
        EventMismatch, match=r"^CardRevealed\.card: player 1 does not hold Assassin$"
    ):
        evolve(state, CardRevealed(1, Card.ASSASSIN))


@pytest.mark.rule("game.tokens-to-win")
def test_every_command_after_the_game_is_won_is_refused_as_game_over() -> None:
    state = push(at(hands=["Baron Princess", "Guard"], tokens=[5, 0]), PlayCard(0, Card.BARON, 1))
    for command in (PlayCard(0, Card.PRINCESS), Decline(0), KeepCard(0, Card.GUARD, ())):
        assert refusal(state, command) == (RejectionKind.GAME_OVER, "the game is over")


@pytest.mark.rule("setup.shuffle")
@pytest.mark.parametrize(
    ("deck", "detail"),
    [
        ("Guard Priest", "the deck must be a sequence of cards"),
        (5, "the deck must be a sequence of cards"),
        ([1, 2, 3], "the deck must list cards"),
        ([Card.GUARD] * 21, "the deck must hold exactly the 21 cards of 2019 for 2 players"),
    ],
)
def test_a_stacked_deck_that_is_not_the_edition_s_cards_is_refused(
    deck: object, detail: str
) -> None:
    with pytest.raises(IllegalCommand) as refused:
        start_game("2019", 2, seed=1, deck=deck)  # type: ignore[arg-type]
    assert (refused.value.kind, refused.value.detail) == (RejectionKind.INVALID_DECK, detail)


@pytest.mark.rule("setup.deck-2019")
def test_a_game_starts_from_a_ruleset_object_as_from_its_name() -> None:
    assert start_game(get_ruleset("2019"), 2, seed=1) == start_game("2019", 2, seed=1)


def test_an_unknown_ruleset_or_a_bad_seed_names_the_argument() -> None:
    with pytest.raises(SetupError) as refused:
        start_game("2020", 2, seed=1)
    assert (refused.value.field, refused.value.detail) == (
        "ruleset",
        "unknown ruleset '2020' (known: 2019, 2019-classic, online, premium)",
    )
    with pytest.raises(SetupError) as refused:
        start_game("2019", 2, seed="x")  # type: ignore[arg-type]
    assert (refused.value.field, refused.value.detail) == (
        "seed",
        "a seed is an integer from 0 to 2**256 - 1, not 'x'",
    )


@pytest.mark.rule("cardinal.optional-look")
def test_a_look_at_a_hand_not_offered_cannot_follow() -> None:
    state = at("premium", hands=["Cardinal Guard", "Baron", "Priest", "King", "Prince"])
    state = push(state, PlayCard(0, Card.CARDINAL, 1, second_target=2))
    with pytest.raises(
        EventMismatch, match=r"^HandSeen\.owner: player 3's hand was not offered for a look$"
    ):
        evolve(state, HandSeen(0, 3, Card.KING, Card.CARDINAL))
