"""Shared instances of small immutable values.

Most events and commands have tiny domains (a seat, a card, a flag), and the
engine makes a few of them on every turn. Values are immutable, so one
instance per distinct value can be shared, as Python shares small ints; a
dictionary hit costs a fraction of building an attrs object. Interning never
changes equality or behaviour, only speed.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Hashable
from typing import ParamSpec, TypeVar

P = ParamSpec("P")
T = TypeVar("T")


#: entries a cache may hold before it starts afresh (bounds memory in long runs)
LIMIT = 100_000


def interned(factory: Callable[P, T], *, typed: bool = False) -> Callable[P, T]:
    """Wrap ``factory`` so equal positional arguments return the same value.

    Arguments must be hashable and passed positionally. ``typed`` keys the
    cache on the arguments' types too, for factories whose arguments may be
    equal values of different types: a guess is a card in one edition and a
    number in another, and ``Card.PRINCE == 5``.
    """
    cache: dict[tuple[Hashable, ...], T] = {}

    def make(*args: P.args, **kwargs: P.kwargs) -> T:
        key = (*args, *map(type, args)) if typed else args
        try:
            return cache[key]
        except KeyError:
            if len(cache) >= LIMIT:
                cache.clear()
            value = cache[key] = factory(*args, **kwargs)
            return value

    # its name, docstring and signature, for the API pages and the traceability
    functools.update_wrapper(make, factory, updated=())
    return make
