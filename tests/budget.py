"""How hard the checks that search do search: one knob, ``LOVELETTER_BUDGET``.

Every check runs at every tier; what changes is how many random games,
Hypothesis examples and CrossHair seconds the checks that search are given
(the tests marked ``budgeted``: the property tests of ``tests/properties``,
CrossHair's contracts, the differential run):

* ``everyday`` (unset): ``make test``. Sized so that the whole of ``make
  test`` takes about four minutes on two idle cores: a quarter of the
  examples and games and half the CrossHair seconds of ``long``. Still
  enough to catch every engine broken on purpose that the suite keeps for
  that (CrossHair's mutants, the differential's broken adapters, the state
  machines' broken engines).
* ``long``: ``make test-long``, which CI runs after ``make test``: the
  budgeted tests again, with four times the examples and games and 4
  CrossHair seconds per condition.
* ``thorough``: ten times ``long``'s examples, randomized (each run explores
  new games) and failures saved in ``.hypothesis/`` to be retried first:
  ``LOVELETTER_BUDGET=thorough .venv/bin/pytest -m budgeted``.

Hypothesis tests elsewhere are cheap and keep the profile's own
``max_examples`` at every tier.
"""

from __future__ import annotations

import os

TIERS = ("everyday", "long", "thorough")

TIER = os.environ.get("LOVELETTER_BUDGET") or "everyday"
if TIER not in TIERS:
    raise SystemExit(f"LOVELETTER_BUDGET: expected one of {', '.join(TIERS)}, got {TIER!r}")

#: the Hypothesis profile of the tier (tests/conftest.py registers both)
PROFILE = "thorough" if TIER == "thorough" else "default"

#: the share of a budgeted test's examples (``strategies.scaled_examples``)
#: and games (:func:`games`) this tier gives
SHARE = 0.25 if TIER == "everyday" else 1.0

#: CPU seconds CrossHair spends on each contract condition
#: (``verification/crosshair_check.py``; ``make verify-deep`` gives 40)
CROSSHAIR_SECONDS = 2.0 if TIER == "everyday" else 4.0


def games(long_tier: int) -> int:
    """A count of random games stated for the ``long`` tier, at this tier
    (at least one)."""
    return max(1, round(long_tier * SHARE * (10 if TIER == "thorough" else 1)))
