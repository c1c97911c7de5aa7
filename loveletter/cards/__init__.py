"""Each card's rules, one module per kind (``loveletter.cards.guard``, ...).

A card module holds all of its kind's rules: its effect when played and
whatever it does at other moments of a round (see
:class:`loveletter.cards.base.CardRules`). The kinds themselves,
:class:`~loveletter.kinds.Card`, live in :mod:`loveletter.kinds`, below the
events and commands the rules build on; they are re-exported here, where
they were first defined.
"""

from __future__ import annotations

# re-exported: their home before the kinds had a module of their own
from loveletter.kinds import Card as Card
from loveletter.kinds import typed_value as typed_value
