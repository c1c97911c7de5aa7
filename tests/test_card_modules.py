"""The shape the rules live in: each card's rules in its own module, and an
engine that names no card.

The engine's reference modules (:data:`REFERENCE`) ask the rules of the
cards in play (:class:`loveletter.cards.base.CardRules`) at each moment of a
round; if a ``Card.X`` crept into them, a card's rules would no longer be
found in one place. (The fast path, ``fastpath.py``, computes the common
cards' effects directly; the both-paths tests hold it to the reference.)
Card values and names come from the ruleset, never from the enum.
"""

from __future__ import annotations

import ast
import importlib
from pathlib import Path

import pytest

import loveletter
from loveletter.cards import Card
from loveletter.cards.registry import CARD_RULES, ONLINE_CARD_RULES
from loveletter.rules import CITATIONS
from loveletter.rulesets import RULESETS

PACKAGE = Path(loveletter.__file__).resolve().parent
MODULE_OF = {card: card.name.lower() for card in Card}


def _named_cards(path: Path) -> list[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    return [
        f"line {node.lineno}: Card.{node.attr}"
        for node in ast.walk(tree)
        if isinstance(node, ast.Attribute)
        and isinstance(node.value, ast.Name)
        and node.value.id == "Card"
    ]


#: the modules of the engine that define the rules
REFERENCE = (
    "engine.py",
    "dealing.py",
    "deciding.py",
    "targeting.py",
    "consequences.py",
    "legal.py",
    "replaying.py",
    "evolution.py",
)


@pytest.mark.parametrize("module", REFERENCE)
def test_the_engine_names_no_card(module: str) -> None:
    assert _named_cards(PACKAGE / module) == []


@pytest.mark.parametrize("card", list(Card), ids=lambda card: card.name.lower())
def test_every_card_has_one_module_holding_its_rules(card: Card) -> None:
    module = importlib.import_module(f"loveletter.cards.{MODULE_OF[card]}")
    assert module.RULES.card is card
    assert CARD_RULES[card] is module.RULES


@pytest.mark.parametrize("card", list(Card), ids=lambda card: card.name.lower())
def test_every_card_module_cites_the_rules_it_implements(card: Card) -> None:
    prefix = f"loveletter.cards.{MODULE_OF[card]}."
    cited = sorted(
        rule for rule, names in CITATIONS.items() if any(n.startswith(prefix) for n in names)
    )
    assert cited, f"loveletter/cards/{MODULE_OF[card]}.py cites no rule ID"


def test_every_ruleset_uses_the_card_modules() -> None:
    # Every edition's card rules come from the card modules: a module's
    # RULES, or its ONLINE_RULES where the online edition's card differs.
    for ruleset in RULESETS.values():
        for card in Card:
            module = importlib.import_module(f"loveletter.cards.{MODULE_OF[card]}")
            mine = ruleset.rules[card]
            assert mine is module.RULES or mine is getattr(module, "ONLINE_RULES", None)
    for name, ruleset in RULESETS.items():
        assert ruleset.rules == (ONLINE_CARD_RULES if name == "online" else CARD_RULES)


def test_only_the_baroness_and_the_cardinal_differ_online() -> None:
    differ = [card for card in Card if ONLINE_CARD_RULES[card] is not CARD_RULES[card]]
    assert differ == [Card.BARONESS, Card.CARDINAL]


def test_values_come_from_the_ruleset_not_the_card_code() -> None:
    # Premium's values differ from the codes (and from 2019's): a test that
    # would pass with code == value anywhere would not catch much, so check
    # the premise it rests on.
    premium = RULESETS["premium"]
    differing = [card for card in premium.kinds if premium.value(card) != int(card)]
    assert len(differing) >= 10
    assert premium.value(Card.PRINCESS) == 8 and RULESETS["2019"].value(Card.PRINCESS) == 9
