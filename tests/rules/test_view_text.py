# ruff: noqa: E501  (each pinned line is one printed line, kept whole to read as printed)
"""``str(view)``: what a player's view says, word for word, in the states
that use each of its lines (face-up cards, sightings, cards under the deck,
a Sycophant's requirement, a Jester's mark, protection, a turn order, ranks,
players gone, a tie-break, a game over with no winner, a pending look).

The text is for people (``PlayerView.__str__``); these pin it so that it
keeps saying only what the view holds, in the edition's own words.
"""

from __future__ import annotations

from collections.abc import Callable

import pytest

from loveletter import Card, GameState, KeepCard, PlayCard, evolve, push, view
from loveletter.events import GameEnded

from ._helpers import at, premium
from .test_evolve_refusal_paths import (
    both_reached,
    cardinal_look,
    chancellor_choosing,
    online_between,
    online_one_gone,
    online_over,
    premium_tie_break,
)


def _after_a_priest() -> GameState:
    state = at(hands=["Priest Handmaid", "Baron"], deck="Guard Guard Prince King Countess")
    return push(state, PlayCard(0, Card.PRIEST, 1))


def _after_a_chancellor() -> GameState:
    return push(chancellor_choosing(), KeepCard(0, Card.GUARD, (Card.BARON, Card.HANDMAID)))


def _two_chancellors() -> GameState:
    """Seat 0 and then seat 1 return two cards each under the deck."""
    state = at(
        hands=["Chancellor Guard", "Chancellor", "King"],
        deck="Baron Handmaid Priest Prince Countess",
    )
    state = push(state, PlayCard(0, Card.CHANCELLOR))
    state = push(state, KeepCard(0, Card.GUARD, (Card.BARON, Card.HANDMAID)))
    state = push(state, PlayCard(1, Card.CHANCELLOR))
    return push(state, KeepCard(1, Card.PRIEST, (Card.PRINCE, Card.COUNTESS)))


def _a_game_shared() -> GameState:
    return evolve(both_reached(), GameEnded((0, 1)))


def _one_command() -> GameState:
    return at(hands=["Handmaid Handmaid", "Baron", "King"])


def _a_requirement_and_a_mark() -> GameState:
    return premium(
        hands=["Guard Priest", "Baron", "King", "Handmaid", "Count"],
        discards=["", "Jester", "Guard", "Handmaid", "Sycophant"],
        required=2,
        marks=[(1, 3)],
        protected=[3],
    )


STATES: dict[str, Callable[[], GameState]] = {
    "two-players-after-a-priest": _after_a_priest,
    "after-a-chancellor": _after_a_chancellor,
    "a-requirement-and-a-mark": _a_requirement_and_a_mark,
    "online-between-rounds": online_between,
    "online-one-left": online_one_gone,
    "premium-tie-break": premium_tie_break,
    "game-over": online_over,
    "cardinal-look": cardinal_look,
    "two-chancellors": _two_chancellors,
    "a-game-shared": _a_game_shared,
    "one-command": _one_command,
}

TEXTS: dict[tuple[str, int], str] = {
    ("two-players-after-a-priest", 0): (
        "Love Letter (Z-Man Games, 2019) [2019], 2 players: the view of P0\n"
        "round 1, turn 2: P1 to play\n"
        "your hand: Handmaid (4)\n"
        "P0 (you): 0 favor tokens; discards Priest\n"
        "P1: 0 favor tokens; 2 cards in hand; discards none\n"
        "deck: 13 cards; a card set aside\n"
        "face up: Guard, Guard, Guard\n"
        "seen: P1 held Baron (via Priest, turn 1)"
    ),
    ("two-players-after-a-priest", 1): (
        "Love Letter (Z-Man Games, 2019) [2019], 2 players: the view of P1\n"
        "round 1, turn 2: P1 (you) to play (10 legal commands)\n"
        "your hand: Baron (3), Guard (1)\n"
        "P0: 0 favor tokens; 1 card in hand; discards Priest\n"
        "P1 (you): 0 favor tokens; discards none\n"
        "deck: 13 cards; a card set aside\n"
        "face up: Guard, Guard, Guard"
    ),
    ("after-a-chancellor", 0): (
        "Love Letter (Z-Man Games, 2019) [2019], 3 players: the view of P0\n"
        "round 1, turn 2: P1 to play\n"
        "your hand: Guard (1)\n"
        "P0 (you): 0 favor tokens; discards Chancellor\n"
        "P1: 0 favor tokens; 2 cards in hand; discards none\n"
        "P2: 0 favor tokens; 1 card in hand; discards none\n"
        "deck: 15 cards; a card set aside\n"
        "under the deck, top to bottom: Baron, Handmaid"
    ),
    ("a-requirement-and-a-mark", 0): (
        "Love Letter Premium Edition (AEG, 2016) [premium], 5 players: the view of P0\n"
        "round 1, turn 5: P0 (you) to play (10 legal commands)\n"
        "your hand: Guard (1), Priest (2)\n"
        "P0 (you): 0 Tokens of Affection; discards none\n"
        "P1: 0 Tokens of Affection; 1 card in hand; discards Jester\n"
        "P2: 0 Tokens of Affection; 1 card in hand; discards Guard\n"
        "P3: 0 Tokens of Affection; 1 card in hand; discards Handmaid; protected\n"
        "P4: 0 Tokens of Affection; 1 card in hand; discards Sycophant\n"
        "deck: 21 cards; a card set aside\n"
        "a Sycophant requires the next card played to choose P2\n"
        "P1's Jester marked P3"
    ),
    ("online-between-rounds", 1): (
        "Love Letter online, perpetual variant (ranks and win counters) [online], 4 players: the view of P1\n"
        "round 1, turn 11: the round is over; the next one must be dealt\n"
        "your hand: Baron (3)\n"
        "P0: 0 wins; 1 card in hand; discards Baron, Handmaid, Guard, Handmaid\n"
        "P1 (you): 0 wins; discards Prince, Prince, Guard\n"
        "P2: 0 wins; 1 card in hand; discards Guard, Priest, Guard\n"
        "P3: 0 wins; discards Countess, Princess; out\n"
        "deck: 1 card\n"
        "turn order: P0, P1 (you), P2, P3\n"
        "round result: deck-empty, won by P2\n"
        "revealed: P0 Priest, P1 (you) Baron, P2 King\n"
        "ranks: P2 1, P1 (you) 2, P0 3, P3 4"
    ),
    ("online-one-left", 0): (
        "Love Letter online, perpetual variant (ranks and win counters) [online], 4 players: the view of P0\n"
        "round 1, turn 11: the round is over; the next one must be dealt\n"
        "your hand: Priest (2)\n"
        "P0 (you): 0 wins; discards Baron, Handmaid, Guard, Handmaid\n"
        "P1: 0 wins; 1 card in hand; discards Prince, Prince, Guard; left the match\n"
        "P2: 0 wins; 1 card in hand; discards Guard, Priest, Guard\n"
        "P3: 0 wins; discards Countess, Princess; out\n"
        "deck: 1 card\n"
        "turn order: P0 (you), P1, P2, P3\n"
        "round result: deck-empty, won by P2\n"
        "revealed: P0 (you) Priest, P1 Baron, P2 King\n"
        "ranks: P2 1, P1 2, P0 (you) 3, P3 4"
    ),
    ("premium-tie-break", 2): (
        "Love Letter Premium Edition (AEG, 2016) [premium], 3 players: the view of P2\n"
        "round 5, turn 12: the round is over; the next one must be dealt\n"
        "your hand: none\n"
        "P0: 5 Tokens of Affection; 1 card in hand; discards Priest, Baron, Handmaid, Guard\n"
        "P1: 5 Tokens of Affection; 1 card in hand; discards King, Prince, Prince, Countess\n"
        "P2 (you): 5 Tokens of Affection; discards Guard, Guard, Guard, Baron, Priest; sits out the tie-break\n"
        "deck: 0 cards; a card set aside\n"
        "tie-break round between P0, P1\n"
        "round result: deck-empty, won by P0\n"
        "revealed: P0 Princess, P1 Handmaid"
    ),
    ("game-over", 0): (
        "Love Letter online, perpetual variant (ranks and win counters) [online], 4 players: the view of P0\n"
        "round 1, turn 11: the game is over, with no winner\n"
        "your hand: Priest (2)\n"
        "P0 (you): 0 wins; discards Baron, Handmaid, Guard, Handmaid\n"
        "P1: 0 wins; 1 card in hand; discards Prince, Prince, Guard; left the match\n"
        "P2: 0 wins; 1 card in hand; discards Guard, Priest, Guard; left the match\n"
        "P3: 0 wins; discards Countess, Princess; left the match\n"
        "deck: 1 card\n"
        "turn order: P0 (you), P1, P2, P3\n"
        "round result: deck-empty, won by P2\n"
        "revealed: P0 (you) Priest, P1 Baron, P2 King\n"
        "ranks: P2 1, P1 2, P0 (you) 3, P3 4"
    ),
    ("cardinal-look", 0): (
        "Love Letter Premium Edition (AEG, 2016) [premium], 5 players: the view of P0\n"
        "round 1, turn 1: P0 (you) to look at a hand the Cardinal swapped, or decline (3 legal commands)\n"
        "your hand: Guard (1)\n"
        "P0 (you): 0 Tokens of Affection; discards Cardinal\n"
        "P1: 0 Tokens of Affection; 1 card in hand; discards none\n"
        "P2: 0 Tokens of Affection; 1 card in hand; discards none\n"
        "P3: 0 Tokens of Affection; 1 card in hand; discards none\n"
        "P4: 0 Tokens of Affection; 1 card in hand; discards none\n"
        "deck: 25 cards; a card set aside"
    ),
    ("two-chancellors", 0): (
        "Love Letter (Z-Man Games, 2019) [2019], 3 players: the view of P0\n"
        "round 1, turn 3: P2 to play\n"
        "your hand: Guard (1)\n"
        "P0 (you): 0 favor tokens; discards Chancellor\n"
        "P1: 0 favor tokens; 1 card in hand; discards Chancellor\n"
        "P2: 0 favor tokens; 2 cards in hand; discards none\n"
        "deck: 14 cards; a card set aside\n"
        "under the deck, top to bottom: Baron, Handmaid, ?, ?"
    ),
    ("a-game-shared", 2): (
        "Love Letter (Z-Man Games, 2019) [2019], 3 players: the view of P2\n"
        "round 5, turn 17: the game is over, won by P0, P1\n"
        "your hand: none\n"
        "P0: 5 favor tokens; 1 card in hand; discards Guard, Guard, Guard, Priest, Baron, Guard\n"
        "P1: 5 favor tokens; 1 card in hand; discards King, Prince, Prince, Chancellor, Chancellor, Countess\n"
        "P2 (you): 0 favor tokens; discards Spy, Spy, Princess, Guard, Baron, Priest; out\n"
        "deck: 0 cards; a card set aside\n"
        "round result: deck-empty, won by P0, P1\n"
        "revealed: P0 Handmaid, P1 Handmaid"
    ),
    ("one-command", 0): (
        "Love Letter (Z-Man Games, 2019) [2019], 3 players: the view of P0\n"
        "round 1, turn 1: P0 (you) to play (1 legal command)\n"
        "your hand: Handmaid (4), Handmaid (4)\n"
        "P0 (you): 0 favor tokens; discards none\n"
        "P1: 0 favor tokens; 1 card in hand; discards none\n"
        "P2: 0 favor tokens; 1 card in hand; discards none\n"
        "deck: 16 cards; a card set aside"
    ),
}


@pytest.mark.rule("turn.played-cards-face-up", "priest.look-secretly")
@pytest.mark.parametrize(("name", "player"), sorted(TEXTS), ids=lambda v: str(v))
def test_a_view_reads_word_for_word(name: str, player: int) -> None:
    assert str(view(STATES[name](), player)) == TEXTS[name, player]
