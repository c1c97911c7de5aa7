"""The harness the contract modules share: small symbolic inputs in,
concrete-shaped states out.

CrossHair cannot usefully make a whole symbolic :class:`GameState` (frozen
attrs values holding tuples of enums, rulesets with cached tables), so each
contract takes a handful of ints and bools, which CrossHair does treat
symbolically, and builds the state from them here: a ruleset index, card
indices into that ruleset's kinds, a seat. Indexing a concrete tuple with a
symbolic int makes CrossHair fork over the possible entries, so every card
of every edition is explored, path by path, without enumerating by hand.

The helpers here start with no ``assert``: CrossHair (``--analysis_kind
asserts``) checks only functions whose body opens with one, so nothing in
this module is a condition.
"""

from __future__ import annotations

from collections.abc import Iterable

from loveletter import fastpath
from loveletter.cards import Card
from loveletter.commands import PlayCard
from loveletter.events import CardPlayed, Event
from loveletter.evolution import apply_unchecked
from loveletter.rulesets import ONLINE, PREMIUM, ZMAN_2019, ZMAN_2019_CLASSIC, Ruleset
from loveletter.state import Decision, GameState, Table

#: every edition; a contract's ``r`` indexes it (``0 <= r < 3`` for the
#: editions played with tokens to win; the online one is a delta on Premium
#: with contracts of its own, contracts_online.py)
RULESETS: tuple[Ruleset, ...] = (ZMAN_2019, ZMAN_2019_CLASSIC, PREMIUM, ONLINE)
#: the index of the Premium Edition, for cards only it has
PREMIUM_INDEX = 2
#: the index of the online edition
ONLINE_INDEX = 3


def kinds(r: int) -> int:
    """How many kinds edition ``r`` has: a contract bounds a kind index
    ``k`` by ``0 <= k < kinds(r)``."""
    return len(RULESETS[r].kinds)


def fresh_caches() -> None:
    """Empty the fast path's caches (:func:`loveletter.fastpath.forget`).

    Caching never changes what the engine computes, but a cache filled by
    an earlier CrossHair iteration makes a later one take another branch
    (a hit instead of a miss) after the same decisions, which CrossHair
    rejects as nondeterminism. Each contract calls this first.
    """
    fastpath.forget()


def concrete(*values: int) -> tuple[int, ...]:
    """``values`` as plain ints, each chosen by branching on its candidates.

    The contracts' inputs are symbolic, but the engine hashes seats and
    cards (interning, dictionaries, sets) and slices tuples with them, and
    CrossHair answers each of those by *realizing* the value: it picks one
    the solver likes (usually the bound) and rarely tries the others, so
    most of the input space would never be run. Comparing with each
    candidate instead is a branch, which CrossHair's search does explore,
    and everything after it runs on plain values, which is also many times
    faster per path. The contract's own leading asserts keep each value
    within -8 to 63.
    """
    return tuple(_plain(value) for value in values)


def _plain(value: int) -> int:
    # A binary search, not a scan: CrossHair picks each branch about evenly,
    # so a scan (``value == 0``, ``value == 1``, ...) would reach the k-th
    # candidate on about one path in 2**k, and large seats or card indices
    # almost never; halving reaches every value equally often.
    low, high = -8, 64
    if not low <= value < high:
        raise ValueError("a contract input is out of the harness's range")
    while high - low > 1:
        middle = (low + high) // 2
        if value < middle:
            high = middle
        else:
            low = middle
    return low


def truth(flag: bool) -> bool:
    """``flag`` as a plain bool (see :func:`concrete`)."""
    return bool(flag)


def kind(r: int, k: int) -> Card:
    """The ``k``-th kind of edition ``r``'s largest deck."""
    return RULESETS[r].kinds[k]


def seat_sets(mask: int, players: int) -> frozenset[int]:
    """The seats whose bit is set in ``mask``."""
    return frozenset(p for p in range(players) if mask >> p & 1)


def make_state(
    r: int,
    hands: tuple[tuple[Card, ...], ...],
    *,
    current: int = 0,
    deck: tuple[Card, ...] = (),
    set_aside: Card | None = None,
    discards: tuple[tuple[Card, ...], ...] | None = None,
    out: frozenset[int] = frozenset(),
    protected: frozenset[int] = frozenset(),
    tokens: tuple[int, ...] | None = None,
    decision: Decision = Decision.PLAY,
    pending: tuple[int, ...] = (),
) -> GameState:
    """A mid-round state with these zones. It need not hold the edition's
    whole deck: the contracts compare zones before and after, so a partial
    deck conserves exactly when a full one would."""
    n = len(hands)
    return GameState(
        table=Table(
            ruleset=RULESETS[r],
            players=n,
            seed=0,
            tokens=(0,) * n if tokens is None else tokens,
            round_number=1,
            set_aside=set_aside,
            face_up=(),
            round_result=None,
            winners=(),
        ),
        decision=decision,
        current=current,
        turn_number=1,
        deck=deck,
        hands=hands,
        discards=((),) * n if discards is None else discards,
        out=out,
        protected=protected,
        sightings=(),
        pending=pending,
    )


def all_cards(state: GameState) -> list[Card]:
    """Every card in every zone, sorted: the multiset that must not change."""
    table = state.table
    cards = [*state.deck, *table.face_up, *(c for hand in state.hands for c in hand)]
    cards.extend(c for pile in state.discards for c in pile)
    if table.set_aside is not None:
        cards.append(table.set_aside)
    return sorted(cards)


def play(state: GameState, command: PlayCard, effect: Iterable[Event]) -> GameState:
    """The state after ``command``'s ``CardPlayed`` and then ``effect``,
    applied with evolve, as the engine applies a played card."""
    played = CardPlayed(
        command.player, command.card, command.target, command.guess, command.second_target
    )
    return apply_unchecked(state, (played, *effect))


def untouched(before: GameState, after: GameState, seats: Iterable[int]) -> bool:
    """Whether ``seats`` kept their hands, piles, round membership and
    protection."""
    return all(
        after.hands[p] == before.hands[p]
        and after.discards[p] == before.discards[p]
        and (p in after.out) == (p in before.out)
        and (p in after.protected) == (p in before.protected)
        for p in seats
    )


def bystanders(state: GameState, *involved: int | None) -> tuple[int, ...]:
    """The seats not named in ``involved``."""
    return tuple(p for p in range(state.players) if p not in involved)
