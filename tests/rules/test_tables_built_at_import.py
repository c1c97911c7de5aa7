"""The helpers that build the engine's tables when the package is imported,
called again: the redactors of ``views``, the Countess's and the Count's
constants, the card-name parser.

The tables themselves are checked by the other tests, but only as the import
left them. Calling the helpers again checks the code that built them, so a
broken helper fails here whenever the tests run (and under mutation testing,
``verification/mutation.py``, which changes the code after the import).
"""

from __future__ import annotations

import re

import pytest

from loveletter import views
from loveletter.cards import Card, count, countess
from loveletter.events import CardDrawn, CardSetAside, HandSeen


@pytest.mark.rule("setup.set-aside-face-down")
def test_a_hide_all_redactor_blanks_its_field_for_every_seat() -> None:
    redact = views._hide_all("card")
    event = CardSetAside(Card.KING)
    for player in range(4):
        assert redact(event, player) == CardSetAside(None)


@pytest.mark.rule("priest.look-secretly")
def test_an_owner_only_redactor_shows_the_owner_and_blanks_the_field_for_the_others() -> None:
    redact = views._owner_only("viewer", "card")
    event = HandSeen(viewer=1, owner=2, card=Card.PRINCESS)
    assert redact(event, 1) is event
    for other in (0, 2, 3):
        assert redact(event, other) == HandSeen(viewer=1, owner=2, card=None)
    drawn = views._owner_only("player", "card")
    assert drawn(CardDrawn(3, Card.GUARD, True), 3) == CardDrawn(3, Card.GUARD, True)
    assert drawn(CardDrawn(3, Card.GUARD, True), 0) == CardDrawn(3, None, True)


@pytest.mark.rule("countess.forced-by-king-or-prince", "countess.voluntary")
def test_the_countess_is_forced_by_the_king_and_the_prince_only() -> None:
    assert countess._forbidden() == frozenset({Card.KING, Card.PRINCE})


@pytest.mark.rule("count.showdown-bonus")
def test_each_count_adds_one_at_the_showdown() -> None:
    assert count._bonus() == 1


@pytest.mark.parametrize(
    ("text", "card"),
    [
        ("Dowager Queen", Card.DOWAGER_QUEEN),
        ("dowager_queen", Card.DOWAGER_QUEEN),
        ("DOWAGER_QUEEN", Card.DOWAGER_QUEEN),
        ("DowagerQueen", Card.DOWAGER_QUEEN),
        ("guard", Card.GUARD),
    ],
)
def test_a_card_name_parses_whatever_its_case_spaces_and_underscores(text: str, card: Card) -> None:
    assert Card.parse(text) is card


@pytest.mark.parametrize("text", ["Duke", "", "Guard Guard2"])
def test_an_unknown_card_name_is_refused_by_name(text: str) -> None:
    with pytest.raises(ValueError, match=f"^{re.escape(f'unknown card name {text!r}')}$"):
        Card.parse(text)


def test_a_card_name_that_is_not_text_is_refused_as_unknown() -> None:
    with pytest.raises(ValueError, match=r"^unknown card name 5$"):
        Card.parse(5)  # type: ignore[arg-type]  # a caller's mistake, on purpose
