"""Contracts on the online edition's own rules (rulings 41-53): the hand
bonus of a ranked round's end (the Princess beside a Bishop, a 7 with two
Counts), the ranks themselves, the online Baroness and Cardinal, and what
``evolve`` does with a player leaving or timing out.

Inputs index small tuples of cards and piles rather than every kind: the
bonuses and ranks turn on a few cards (Princess, Bishop, Count, the 7s) and
on pile totals that can tie, and the looks and swaps move whatever card is
held, so domains of a few hundred paths at most let CrossHair go through
every one of them (``proved (all paths)``) within make test-long's budget, the
edges included (a tie, a pile total equal to another).
"""

from __future__ import annotations

import attrs

from loveletter.cards import Card, _common, baroness, cardinal, princess
from loveletter.cards.base import Showdown
from loveletter.commands import PlayCard
from loveletter.errors import EventMismatch
from loveletter.events import Event, HandSeen, HandsTraded, PlayerLeft, TurnTimedOut
from loveletter.evolution import evolve_unchecked as evolve  # the appliers, as the engine runs them
from loveletter.ranking import adjusted_values, round_ranks
from loveletter.state import Decision, GameState, Table

from .contracts_harness import (
    ONLINE_INDEX,
    RULESETS,
    all_cards,
    concrete,
    fresh_caches,
    make_state,
    play,
    truth,
    untouched,
)

_VALUES = RULESETS[ONLINE_INDEX].values
#: the cards the bonuses look at, and one they ignore
_HELD = (Card.PRINCESS, Card.BISHOP, Card.GUARD, Card.COUNTESS, Card.DOWAGER_QUEEN)
#: the cards that decide ranks: 8 lifted to 12 beside a Bishop, 9, and 1
_RANKED = (Card.PRINCESS, Card.BISHOP, Card.GUARD)
#: piles whose totals are 0, 1, 10 (two Counts) and 11
_PILES: tuple[tuple[Card, ...], ...] = (
    (),
    (Card.GUARD,),
    (Card.COUNT, Card.COUNT),
    (Card.KING, Card.PRINCE),
)
#: who holds what beside a 7: the Princess and a Bishop either way round,
#: or one of them beside a Guard
_BESIDE_SEVEN = (
    (Card.PRINCESS, Card.BISHOP),
    (Card.BISHOP, Card.PRINCESS),
    (Card.PRINCESS, Card.GUARD),
    (Card.GUARD, Card.BISHOP),
)


def _total(pile: tuple[Card, ...]) -> int:
    return sum(_VALUES[card] for card in pile)


def princess_bonus_lifts_her_over_another_players_bishop(a: int, b: int, holder: int) -> None:
    """The Princess gains 4 at a ranked round's end exactly when another
    player still in holds a Bishop, so that her 8 passes his 9. Rules:
    round.hand-bonus-online, bishop.princess-beats-bishop."""
    assert 0 <= a < len(_HELD) and 0 <= b < len(_HELD)
    assert 0 <= holder < 3
    fresh_caches()
    a, b, holder = concrete(a, b, holder)
    others = [_HELD[a], _HELD[b]]
    cards = [*others]
    cards.insert(holder, Card.PRINCESS)
    showdown = Showdown(tuple(enumerate(cards)), ((),) * 3, _VALUES)
    bonus = princess.lifted_over_bishop(showdown, holder)
    assert bonus == (4 if Card.BISHOP in others else 0)


def seven_bonus_needs_two_counts_the_princess_and_a_lower_bishop(
    seven: bool, counts: int, beside: int, extra: int, pile: int
) -> None:
    """The Countess or the Dowager Queen gains 4 exactly when two Counts or
    more lie in the holder's pile, another player holds the Princess, and
    another a Bishop whose pile adds up to less than the holder's (printed
    values, the Counts at 5: one below, equal and one above are all
    reached). Rules: round.hand-bonus-online, count.showdown-bonus."""
    assert 1 <= counts <= 2
    assert 0 <= beside < len(_BESIDE_SEVEN)
    assert 0 <= extra < 2 and 0 <= pile < len(_PILES)
    fresh_caches()
    counts, beside, extra, pile = concrete(counts, beside, extra, pile)
    held = Card.COUNTESS if truth(seven) else Card.DOWAGER_QUEEN
    mine = (Card.COUNT,) * counts + _PILES[extra]
    first, second = _BESIDE_SEVEN[beside]
    # the Bishop's pile is the one that matters; the other player's is empty
    piles = tuple(_PILES[pile] if card is Card.BISHOP else () for card in (first, second))
    others = ((1, first, piles[0]), (2, second, piles[1]))
    showdown = Showdown(((0, held), (1, first), (2, second)), (mine, *piles), _VALUES)
    bonus = _common.lifted_by_two_counts(showdown, 0)
    lifted = (
        counts >= 2
        and any(card is Card.PRINCESS for _, card, _ in others)
        and any(card is Card.BISHOP and _total(pile) < _total(mine) for _, card, pile in others)
    )
    assert bonus == (4 if lifted else 0)


def round_ranks_number_the_players_like_a_competition(
    live: int, exits: int, a: int, b: int, c: int
) -> None:
    """Ranks go to the players dealt in only: those still in first (1 to
    their number, a higher adjusted hand value then pile total ranking
    higher, equals sharing a rank, numbered 1 1 3, so rank 1 is never
    empty; one player left is first unopposed), then those who went out,
    the last out highest, each at the number of players in the round just
    before they went out. Rules: round.ranks-online,
    round.hand-bonus-online, round.tie-discard-sum."""
    assert 1 <= live <= 3 and 0 <= exits <= 2
    assert 0 <= a < len(_RANKED) and 0 <= b < len(_RANKED) and 0 <= c < len(_RANKED)
    fresh_caches()
    live, exits, a, b, c = concrete(live, exits, a, b, c)
    players = 6
    seats = tuple(range(live))
    gone = tuple(range(live, live + exits))[::-1]  # the higher seat went out first
    # equal cards tie at seats 0 and 2; seat 1's pile breaks a tie with it
    piles = ((), (Card.GUARD,), (), (Card.GUARD,), (Card.PRIEST,), ())
    hands = (_RANKED[a], _RANKED[b], _RANKED[c])
    revealed = tuple((seat, hands[seat]) for seat in seats) if live > 1 else ()
    ranks = round_ranks(RULESETS[ONLINE_INDEX], players, revealed, seats, gone, piles)
    dealt = live + exits
    assert len(ranks) == players
    assert all((ranks[p] is None) is (p >= dealt) for p in range(players))
    ranked = {p: ranks[p] for p in range(dealt)}
    assert all(1 <= rank <= dealt for rank in ranked.values() if rank is not None)
    assert any(ranked[p] == 1 for p in seats)
    for index, p in enumerate(gone):
        assert ranked[p] == dealt - index
    for p in seats:
        rank = ranked[p]
        assert rank is not None
        assert rank == 1 + sum(1 for q in seats if (ranked[q] or 0) < rank)
    if revealed:
        adjusted = adjusted_values(RULESETS[ONLINE_INDEX], revealed, piles)
        keys = {p: (adjusted[p], _total(piles[p])) for p in seats}
        for p in seats:
            for q in seats:
                if keys[p] > keys[q]:
                    assert (ranked[p] or 0) < (ranked[q] or 0)
                elif keys[p] == keys[q]:
                    assert ranked[p] == ranked[q]
    else:
        assert ranked[0] == 1


def online_baroness_looks_at_both_chosen_in_order(first: int, second: int, a: int, b: int) -> None:
    """The online Baroness's player sees the first chosen hand, then the
    second (the same one twice when one player is chosen twice); nothing
    moves. Rules: baroness.two-looks-online, targeting.valid-choice-online."""
    assert 1 <= first <= second <= 2
    assert 0 <= a < len(_HELD) and 0 <= b < len(_HELD)
    fresh_caches()
    first, second, a, b = concrete(first, second, a, b)
    r = ONLINE_INDEX
    state = make_state(r, ((Card.BARONESS, Card.GUARD), (_HELD[a],), (_HELD[b],)))
    command = PlayCard(0, Card.BARONESS, first, None, second)
    events = baroness.baroness_online(state, command)
    assert events == tuple(
        HandSeen(0, seat, state.hands[seat][0], Card.BARONESS) for seat in (first, second)
    )
    after = play(state, command, events)
    assert all_cards(after) == all_cards(state)
    assert untouched(state, after, (1, 2))
    assert [s.owner for s in after.sightings] == [first, second]


def online_cardinal_swaps_in_order_and_shows_the_first_its_new_card(
    first: int, second: int, spare: int, a: int, b: int
) -> None:
    """The online Cardinal's two players (its own player may be one, in
    either place) swap hands, and its player sees the first one's new
    card at once: no look is offered. No one else is touched. Rules:
    cardinal.swap-and-look-first-online, targeting.valid-choice-online."""
    assert 0 <= first < 3 and 0 <= second < 3 and first != second
    assert 0 <= spare < len(_RANKED) and 0 <= a < len(_RANKED) and 0 <= b < len(_RANKED)
    fresh_caches()
    first, second, spare, a, b = concrete(first, second, spare, a, b)
    r = ONLINE_INDEX
    held = ((_RANKED[spare],), (_RANKED[a],), (_RANKED[b],))
    state = make_state(r, ((Card.CARDINAL, *held[0]), held[1], held[2]))
    command = PlayCard(0, Card.CARDINAL, first, None, second)
    events = cardinal.cardinal_online(state, command)
    assert events == (
        HandsTraded(first, second, Card.CARDINAL),
        HandSeen(0, first, held[second][0], Card.CARDINAL),
    )
    after = play(state, command, events)
    assert after.hands[first] == held[second] and after.hands[second] == held[first]
    third = 3 - first - second
    assert after.hands[third] == held[third]
    assert all_cards(after) == all_cards(state)
    assert after.decision is Decision.PLAY and after.pending == ()


#: the decisions a leave or a time-out may meet
_DECISIONS = (Decision.PLAY, Decision.REDRAW, Decision.DRAW, Decision.NEXT_ROUND)
_STATE_FIELDS = tuple(f.name for f in attrs.fields(GameState) if f.name != "table")
_TABLE_FIELDS = tuple(f.name for f in attrs.fields(Table))


def _changed(before: GameState, after: GameState) -> set[str]:
    changed = {name for name in _STATE_FIELDS if getattr(before, name) != getattr(after, name)}
    changed.update(
        name for name in _TABLE_FIELDS if getattr(before.table, name) != getattr(after.table, name)
    )
    return changed


def evolve_leaving_and_timing_out_move_no_card(
    leaving: bool, decision: int, seat: int, required: int, gone: bool
) -> None:
    """``PlayerLeft`` adds its player to those who left, and no more: if
    they had to act (the current player, or the Bishop's target answering),
    the turn has nothing more to ask (``play``, nothing pending); a
    requirement naming them, or binding their turn, lapses; no card moves
    (their knock-out is an event of its own). ``TurnTimedOut`` changes
    nothing, and fits only the player who must act. Either is refused
    otherwise (a seat not at the table, or gone already). Rules:
    online.leave-any-time, online.timeout-random-move."""
    assert 0 <= decision < len(_DECISIONS)
    assert -1 <= seat <= 3 and -1 <= required < 2
    fresh_caches()
    decision, seat, required = concrete(decision, seat, required)
    leaving, gone = truth(leaving), truth(gone)
    chosen = _DECISIONS[decision]
    base = make_state(
        ONLINE_INDEX,
        ((Card.GUARD, Card.PRIEST), (Card.BARON,), (Card.KING,)),
        deck=(Card.GUARD, Card.HANDMAID),
        decision=chosen,
        pending=(1,) if chosen is Decision.REDRAW else (),
    )
    # a Bishop's play has ended any requirement before its target answers
    no_requirement = required < 0 or chosen is Decision.REDRAW
    before = attrs.evolve(
        base,
        required=None if no_requirement else required,
        table=attrs.evolve(base.table, left=frozenset({2}) if gone else frozenset()),
    )
    event: Event = PlayerLeft(seat) if leaving else TurnTimedOut(seat)
    acting = before.to_act
    in_round = chosen is not Decision.NEXT_ROUND
    try:
        after = evolve(before, event)
    except EventMismatch:
        if leaving:
            assert not 0 <= seat < 3 or seat in before.table.left
        else:
            assert not in_round or seat != acting
        return
    assert all_cards(after) == all_cards(before) and after.tokens == before.tokens
    if not leaving:
        assert in_round and seat == acting and after == before
        return
    assert after.table.left == before.table.left | {seat}
    assert _changed(before, after) <= {"left", "required", "pending", "decision"}
    assert untouched(before, after, range(3))
    if in_round and seat in (acting, before.current):
        assert after.decision is Decision.PLAY and after.pending == ()
    else:
        assert (after.decision, after.pending) == (before.decision, before.pending)
    if in_round and seat in (before.current, before.required):
        assert after.required is None
    else:
        assert after.required == before.required
