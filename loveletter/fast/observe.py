"""What the acting seat of each game is shown: a flat vector of numbers.

The vector holds what the rules let the seat that must act know at that
moment, and nothing they cannot: their own hand, everything public (the
discard piles, who is out or protected, the tokens, the deck's size, the
face-up cards, the Jester marks, a Sycophant's requirement, a pending
Cardinal look or Bishop redraw). Seats are listed relative to the acting
seat (itself first, then the next seat clockwise, ...), so a policy sees
the same layout from every chair. Cards are counted by kind, in the
edition's kinds in card-code order. What a seat learned earlier in the
round (a Priest's look, a Baron's comparison, a King's trade) is not
repeated: an agent that wants it keeps its own memory.

:func:`observation_names` names every entry.
"""

from __future__ import annotations

from typing import Any

from loveletter.cards import Card
from loveletter.fast.kernel import (
    F_CURRENT,
    F_DECISION,
    F_HEAD,
    F_MARKS,
    F_OUT,
    F_PENDING,
    F_PENDING2,
    F_PROTECTED,
    F_REQUIRED,
    F_SET_ASIDE,
    F_TAIL,
    HAND,
    O_FACE_UP,
    O_HANDS,
    O_MARKS,
    O_PILES,
    O_TOKENS,
    P_FACE_UP,
    P_PLAYERS,
    PILE,
    _compiled,
    to_act,
)

# Entries per seat before its pile: in the round, protected, whose turn,
# required by a Sycophant, pending (a look or a redraw), marked by a
# Jester, tokens.
_SEAT_FLAGS = 7
_DECISIONS = 4  # play, chancellor, look, redraw


def observation_size(kinds: int, players: int) -> int:
    """How many numbers an observation holds."""
    return kinds + _DECISIONS + players * (_SEAT_FLAGS + kinds) + 2 + kinds


def observation_names(kinds: tuple[Card, ...], players: int) -> tuple[str, ...]:
    """The name of every entry, in order (``seat+1`` is the next seat
    clockwise from the acting one).

    >>> names = observation_names((Card.GUARD, Card.PRINCESS), 2)
    >>> names[:4]
    ('hand:Guard', 'hand:Princess', 'decision:play', 'decision:chancellor')
    >>> len(names) == observation_size(2, 2)
    True
    """
    names = [f"hand:{card}" for card in kinds]
    names += ["decision:play", "decision:chancellor", "decision:look", "decision:redraw"]
    for seat in range(players):
        label = "self" if seat == 0 else f"seat+{seat}"
        names += [
            f"{label}:in-round",
            f"{label}:protected",
            f"{label}:current",
            f"{label}:required",
            f"{label}:pending",
            f"{label}:marked",
            f"{label}:tokens",
        ]
        names += [f"{label}:pile:{card}" for card in kinds]
    names += ["deck-size", "set-aside"]
    names += [f"face-up:{card}" for card in kinds]
    return tuple(names)


@_compiled
def observe(st: Any, R: Any, kind_index: Any, kinds: int, out: Any) -> None:
    """Fill ``out`` (games x size) with each game's observation for the
    seat that acts; a row of zeros where no one acts."""
    n = R[P_PLAYERS]
    for g in range(out.shape[0]):
        row = out[g]
        row[:] = 0.0
        a = to_act(st, g)
        if a < 0:
            continue
        at = O_HANDS + a * HAND
        for i in range(1, st[g, at] + 1):
            row[kind_index[st[g, at + i]]] += 1.0
        row[kinds + st[g, F_DECISION]] = 1.0
        base = kinds + _DECISIONS
        for r in range(n):
            seat = (a + r) % n
            at = base + r * (_SEAT_FLAGS + kinds)
            row[at] = 0.0 if st[g, F_OUT] >> seat & 1 else 1.0
            row[at + 1] = 1.0 if st[g, F_PROTECTED] >> seat & 1 else 0.0
            row[at + 2] = 1.0 if st[g, F_CURRENT] == seat else 0.0
            row[at + 3] = 1.0 if st[g, F_REQUIRED] == seat else 0.0
            pending = st[g, F_PENDING] == seat or st[g, F_PENDING2] == seat
            row[at + 4] = 1.0 if pending else 0.0
            for m in range(st[g, F_MARKS]):
                if st[g, O_MARKS + 2 * m + 1] == seat:
                    row[at + 5] += 1.0
            row[at + 6] = st[g, O_TOKENS + seat]
            pile = O_PILES + seat * PILE
            for i in range(1, st[g, pile] + 1):
                row[at + _SEAT_FLAGS + kind_index[st[g, pile + i]]] += 1.0
        at = base + n * (_SEAT_FLAGS + kinds)
        row[at] = st[g, F_TAIL] - st[g, F_HEAD]
        row[at + 1] = 1.0 if st[g, F_SET_ASIDE] >= 0 else 0.0
        for i in range(R[P_FACE_UP]):
            row[at + 2 + kind_index[st[g, O_FACE_UP + i]]] += 1.0
