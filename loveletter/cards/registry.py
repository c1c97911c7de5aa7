"""Every card kind's rules, indexed by the kind's code."""

from __future__ import annotations

from loveletter.cards import (
    Card,
    assassin,
    baron,
    baroness,
    bishop,
    cardinal,
    chancellor,
    constable,
    count,
    countess,
    dowager_queen,
    guard,
    handmaid,
    jester,
    king,
    priest,
    prince,
    princess,
    spy,
    sycophant,
)
from loveletter.cards.base import CardRules

_MODULES = (
    spy,
    guard,
    priest,
    baron,
    handmaid,
    prince,
    chancellor,
    king,
    countess,
    princess,
    bishop,
    dowager_queen,
    constable,
    count,
    sycophant,
    baroness,
    cardinal,
    jester,
    assassin,
)

_BY_CARD = {module.RULES.card: module.RULES for module in _MODULES}
#: a card module's ``ONLINE_RULES``, where the online edition's card differs
_ONLINE = {
    card: getattr(module, "ONLINE_RULES", module.RULES)
    for card, module in ((m.RULES.card, m) for m in _MODULES)
}

#: the rules of every kind, indexed by card code
CARD_RULES: tuple[CardRules, ...] = tuple(_BY_CARD[card] for card in Card)
#: the same for the online edition: the Baroness and the Cardinal choose
#: and look as 004 says (their modules' ``ONLINE_RULES``)
ONLINE_CARD_RULES: tuple[CardRules, ...] = tuple(_ONLINE[card] for card in Card)
