"""Seeded chance: shuffles and tie-breaks as pure functions of the seed.

Every random outcome is ``f(seed, round number, purpose)``, so a game is
reproducible from its seed alone, in any language: the number is the
BLAKE2b-512 digest of the UTF-8 text ``"loveletter/<seed>/<round>/<purpose>"``
read as a big-endian integer. A shuffle of *n* cards keeps the top
``64 + bit_length(n!)`` bits of that number and decodes them as a Lehmer code
(the factorial number system) over the ruleset's deck in canonical order:
repeatedly ``number, i = divmod(number, size)`` for size = n, n-1, ..., 1,
taking the card at index ``i`` of the remaining cards. Every order is then
equally likely to within 2**-64. A choice among *k* options takes the whole
number modulo *k*. The resulting deck order is recorded in the round's event
either way, so replaying never needs the seed.
"""

from __future__ import annotations

import secrets
from collections.abc import Sequence
from hashlib import blake2b
from math import factorial
from typing import TypeVar

from loveletter.rules import implements

T = TypeVar("T")


def chance_number(seed: int, round_number: int, purpose: str) -> int:
    """The 512-bit chance number for one purpose in one round."""
    text = f"loveletter/{seed}/{round_number}/{purpose}".encode()
    return int.from_bytes(blake2b(text, digest_size=64).digest(), "big")


@implements("setup.shuffle", "setup.turn-order-online")
def shuffled(
    cards: Sequence[T], seed: int, round_number: int, purpose: str = "deck"
) -> tuple[T, ...]:
    """The deck order (top first) for a round: a seeded permutation of
    ``cards``. The same draw with the purpose ``"order"`` shuffles the
    seats present into an online round's turn order (ruling 43).

    >>> from loveletter.rulesets import get_ruleset
    >>> deck = get_ruleset("2019").deck
    >>> shuffled(deck, 1, 1) == shuffled(deck, 1, 1) != shuffled(deck, 1, 2)
    True
    >>> shuffled(range(4), 1, 1, "order")
    (2, 3, 1, 0)
    """
    pool = list(cards)
    number = chance_number(seed, round_number, purpose) >> (512 - _bits_needed(len(pool)))
    order: list[T] = []
    append, pop, split = order.append, pool.pop, divmod  # locals: this runs every round
    for size in range(len(pool), 0, -1):
        number, index = split(number, size)
        append(pop(index))
    return tuple(order)


def _bits_needed(size: int) -> int:
    """64 bits more than ``size!`` needs: the order's bias stays below 2**-64
    while the arithmetic stays on small integers."""
    return min(512, 64 + factorial(size).bit_length())


def choose(options: Sequence[T], seed: int, round_number: int, purpose: str) -> T:
    """One of ``options``, uniformly, from the seed."""
    return options[chance_number(seed, round_number, purpose) % len(options)]


#: Seeds are integers from 0 to 2**256 - 1. A fresh game takes 128 bits
#: from the operating system's secure source (:func:`fresh_seed`): a seed is
#: a secret until the game ends, since whoever knows it knows every deck.
SEED_LIMIT = 2**256


def is_seed(value: object) -> bool:
    """Whether ``value`` can be a seed: an ``int`` (not a ``bool``) from 0
    to ``SEED_LIMIT - 1``."""
    return type(value) is int and 0 <= value < SEED_LIMIT


def fresh_seed() -> int:
    """A new 128-bit seed from the operating system's secure random source."""
    return secrets.randbits(128)
