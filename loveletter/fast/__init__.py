"""A compiled, batched simulator of the rules: many games at once as arrays.

An optional extra (``pip install loveletter-rules[fast]``, which brings
numba): the core package never imports it. It is a second implementation
of the rules, written from the spec, and the differential test
(:mod:`loveletter.fast.differential`) plays random games through it and
through the reference engine side by side, comparing the legal actions and
the whole state after every command; its adapter
(:mod:`loveletter.fast.adapter`) passes the conformance suite.

* :class:`FastBatch`: N games of one edition, with legal-action masks,
  ``step``, observations for the acting seats and per-round results; the
  reinforcement-learning interface. Its games deal from their own
  generator, or exactly as the reference deals from a seed.
* :func:`play_random_rounds`: many rounds of random moves, counted; what
  speed figures time (:mod:`loveletter.fast.speed`).
* :func:`action_table`: the fixed integer ids of the commands.
* :mod:`loveletter.fast.simulate`: whole games between random bots, the
  very games of the reference's simulations, counted the same way: the
  engine of ``simulate(..., engine="fast")``.

:data:`SUPPORTED` lists the editions and player counts the differential
has proven equal to the reference engine (online: with 1 to 3 decks).
Leaving an online match and timing out (rulings 50 and 51) are not
simulated.
"""

from __future__ import annotations

from loveletter.fast.batch import (
    DECISIONS,
    ROUND_REASONS,
    FastBatch,
    IllegalAction,
    RandomRounds,
    play_random_rounds,
)
from loveletter.fast.tables import ActionTable, action_table

#: editions (and player counts) the differential test has proven equal to
#: the reference engine
SUPPORTED: dict[str, range] = {
    "2019": range(2, 7),
    "2019-classic": range(2, 5),
    "premium": range(2, 9),
    "online": range(3, 9),
}

__all__ = [
    "DECISIONS",
    "ROUND_REASONS",
    "SUPPORTED",
    "ActionTable",
    "FastBatch",
    "IllegalAction",
    "RandomRounds",
    "action_table",
    "play_random_rounds",
]
