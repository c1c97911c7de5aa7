"""The end of a round, judged by both implementations on random hands.

Random games reach the rare showdowns seldom (a Countess lifted by two
Counts over a Princess and a Bishop, online; a Princess-Bishop circle in
Premium), so this test deals them on purpose: random players still in,
random hands leaning to the cards with exceptions, random discard piles
leaning to the Count, and compares the simulator's winners (online: every
rank) with the reference's :func:`loveletter.showdown.judge` and
:func:`loveletter.ranking.round_ranks`.
"""

from __future__ import annotations

import random

import pytest

import loveletter as ll
from loveletter.fast import FastBatch
from loveletter.fast import kernel as k
from loveletter.ranking import adjusted_values, round_ranks
from loveletter.showdown import judge

C = ll.Card
# cards whose showdown has an exception: drawn for hands half of the time
_SPECIAL = (C.PRINCESS, C.BISHOP, C.COUNTESS, C.DOWAGER_QUEEN, C.PRINCESS, C.BISHOP)


def _position(
    rng: random.Random, ruleset: ll.Ruleset, players: int, decks: int, live_count: int
) -> tuple[list[int], dict[int, ll.Card], list[list[ll.Card]], list[int]]:
    pool = list(ruleset.deck_for(players, decks))
    rng.shuffle(pool)
    seats = list(range(players))
    rng.shuffle(seats)
    live = sorted(seats[:live_count])
    exits = seats[live_count:]
    hands: dict[int, ll.Card] = {}
    for seat in live:
        wanted = rng.choice(_SPECIAL) if rng.random() < 0.5 else None
        card = wanted if wanted in pool else pool[0]
        pool.remove(card)
        hands[seat] = card
    piles: list[list[ll.Card]] = [[] for _ in range(players)]
    for seat in range(players):
        for _ in range(rng.randrange(0, 5)):
            if not pool:
                break
            card = C.COUNT if C.COUNT in pool and rng.random() < 0.4 else pool[0]
            pool.remove(card)
            piles[seat].append(card)
    return live, hands, piles, exits


def _fast_end(
    batch: FastBatch,
    live: list[int],
    hands: dict[int, ll.Card],
    piles: list[list[ll.Card]],
    exits: list[int],
    reason: int,
) -> tuple[int, list[int]]:
    row = batch._state[0]
    row[:] = 0
    players = batch.players
    row[k.F_OUT] = sum(1 << p for p in range(players) if p not in live)
    for seat, card in hands.items():
        row[k.O_HANDS + seat * k.HAND] = 1
        row[k.O_HANDS + seat * k.HAND + 1] = int(card)
    for seat, pile in enumerate(piles):
        row[k.O_PILES + seat * k.PILE] = len(pile)
        row[k.O_PILES + seat * k.PILE + 1 : k.O_PILES + seat * k.PILE + 1 + len(pile)] = pile
    row[k.F_EXITS] = len(exits)
    row[k.O_EXITS : k.O_EXITS + len(exits)] = exits
    k._end_round(batch._state, batch._rules, 0, reason, 0)
    ranks = row[k.O_RANKS : k.O_RANKS + players].tolist()
    return int(row[k.F_ROUND_WINNERS]), ranks


@pytest.mark.parametrize("name", ["2019", "premium"])
def test_showdown_winners_agree(name: str) -> None:
    rng = random.Random(name)
    ruleset = ll.get_ruleset(name)
    for _ in range(1500):
        players = rng.randrange(max(ruleset.min_players, 2), ruleset.max_players + 1)
        batch = FastBatch(name, players, 1)
        live, hands, piles, exits = _position(
            rng, ruleset, players, 1, rng.randrange(2, players + 1)
        )
        revealed = tuple((seat, hands[seat]) for seat in live)
        discards = tuple(tuple(pile) for pile in piles)
        expected = judge(ruleset, revealed, discards).winners
        winners, _ = _fast_end(batch, live, hands, piles, exits, k.DECK_EMPTY)
        assert [p for p in range(players) if winners >> p & 1] == list(expected), (
            revealed,
            discards,
        )


def test_online_ranks_agree() -> None:
    rng = random.Random("online")
    ruleset = ll.get_ruleset("online")
    batches = {
        (players, decks): FastBatch("online", players, 1, decks=decks)
        for players in range(3, 9)
        for decks in (1, 2, 3)
    }
    lifted = 0
    for _ in range(3000):
        players, decks = rng.choice(sorted(batches))
        alone = rng.random() < 0.1
        live, hands, piles, exits = _position(
            rng, ruleset, players, decks, 1 if alone else rng.randrange(2, players + 1)
        )
        revealed = () if alone else tuple((seat, hands[seat]) for seat in live)
        discards = tuple(tuple(pile) for pile in piles)
        expected = round_ranks(ruleset, players, revealed, live, tuple(exits), discards)
        reason = k.ONE_PLAYER_LEFT if alone else k.DECK_EMPTY
        winners, ranks = _fast_end(batches[players, decks], live, hands, piles, exits, reason)
        assert ranks == [r or 0 for r in expected], (revealed, discards, exits)
        assert winners == sum(1 << p for p in live if expected[p] == 1)
        if revealed:
            adjusted = adjusted_values(ruleset, revealed, discards)
            lifted += any(
                adjusted[s] == ruleset.value(c) + piles[s].count(C.COUNT) + 4
                and c in (C.COUNTESS, C.DOWAGER_QUEEN)
                for s, c in revealed
            )
    assert lifted >= 10  # a 7 lifted by two Counts was dealt often enough to be judged
