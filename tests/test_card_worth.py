"""A ``Card`` names a character; its worth is the edition's. The enum's
integer is an identity code (``card.code``), and ``card.value``, which
reads like the printed number, refuses to be read."""

from __future__ import annotations

import json
import pickle

import pytest

import loveletter as ll
from loveletter import Card


@pytest.mark.parametrize("card", list(Card))
def test_reading_a_cards_value_says_where_its_worth_is(card: Card) -> None:
    with pytest.raises(AttributeError) as refused:
        _ = card.value
    message = str(refused.value)
    assert message.startswith(f"Card.{card.name}.value: a card's worth depends on the edition")
    for pointer in ("ruleset.value(card)", "view.value(card)", "card.code"):
        assert pointer in message
    assert "\n" not in message


def test_the_code_is_the_identity_and_the_enum_still_works() -> None:
    assert [card.code for card in Card] == list(range(len(Card)))
    assert all(Card(card.code) is card and int(card) == card.code for card in Card)
    princess = Card.PRINCESS
    assert repr(princess) == "<Card.PRINCESS: 9>" and str(princess) == "Princess"
    assert pickle.loads(pickle.dumps(princess)) is princess
    assert json.dumps([princess]) == "[9]" and hash(princess) == hash(9)
    assert sorted([Card.ASSASSIN, Card.SPY, Card.KING]) == [Card.SPY, Card.KING, Card.ASSASSIN]
    assert ll.loads(ll.dumps(ll.PlayCard(0, princess))) == ll.PlayCard(0, princess)


def test_the_princess_is_worth_8_in_premium_and_9_in_2019() -> None:
    for ruleset, worth in (("premium", 8), ("2019", 9), ("2019-classic", 9), ("online", 8)):
        assert ll.get_ruleset(ruleset).value(Card.PRINCESS) == worth
        assert ll.view(ll.new_game(ruleset, 3, seed=1), 0).value(Card.PRINCESS) == worth
