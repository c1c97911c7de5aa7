"""Shared instances never stand in for a value of another type."""

from __future__ import annotations

import loveletter as ll
from loveletter.cards import Card
from loveletter.commands import PlayCard
from loveletter.events import CardPlayed


def _with_guard(ruleset: str) -> ll.GameState:
    seed = next(s for s in range(200) if Card.GUARD in ll.new_game(ruleset, 2, seed=s).hand(0))
    return ll.new_game(ruleset, 2, seed=seed)


def test_regression_a_number_guess_is_not_served_the_card_of_equal_code() -> None:
    # Card.PRINCE == 5 (an IntEnum): an interning cache keyed on values alone
    # handed a Premium game the 2019 event naming the Prince.
    ll.decide(_with_guard("2019"), PlayCard(0, Card.GUARD, 1, Card.PRINCE))
    played = ll.decide(_with_guard("premium"), PlayCard(0, Card.GUARD, 1, 5))[0]
    assert isinstance(played, CardPlayed)
    assert type(played.guess) is int and '"guess": 5' in ll.dumps(played)
    again = ll.decide(_with_guard("2019"), PlayCard(0, Card.GUARD, 1, Card.PRINCE))[0]
    assert isinstance(again, CardPlayed) and again.guess is Card.PRINCE
