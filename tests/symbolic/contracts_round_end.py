"""Contracts on the tokens cards hand out from a pile or a mark: the Spy
and the Jester at the end of a round, the Constable on a knock-out.

The Spy and the Jester are pure functions of a :class:`RoundEnd`, whose
seats are symbolic masks here. The Constable has no function of its own
(only ``knocked_out_token``), so its contract goes through
:func:`loveletter.engine.decide`: a Guard knocks out a player with or
without a Constable in their pile or in their hand.
"""

from __future__ import annotations

from loveletter.cards import Card
from loveletter.cards.base import RoundEnd
from loveletter.cards.jester import right_guesses
from loveletter.cards.spy import sole_spy
from loveletter.commands import PlayCard
from loveletter.engine import decide
from loveletter.events import GameEnded, PlayerEliminated, TokenAwarded, TokenReason
from loveletter.rulesets import PREMIUM

from .contracts_harness import PREMIUM_INDEX, concrete, fresh_caches, make_state, seat_sets, truth

#: tokens to win a 5-player Premium game
_PREMIUM_5_TO_WIN = PREMIUM.setup(5).tokens_to_win or 0


def spy_token_goes_to_a_sole_spy_still_in(
    players: int, out_mask: int, spy_mask: int, doubled: int
) -> None:
    """One token to the only player still in the round with a Spy in their
    pile (however many Spies they discarded); nothing if two or more such
    players, or none. Rules: spy.sole-spy-token, spy.one-token-max."""
    assert 2 <= players <= 6
    assert 0 <= out_mask < 64 and 0 <= spy_mask < 64
    assert 0 <= doubled < 6
    fresh_caches()
    players, out_mask, spy_mask, doubled = concrete(players, out_mask, spy_mask, doubled)
    out = seat_sets(out_mask, players)
    spies = seat_sets(spy_mask, players)
    discards = tuple(
        (Card.GUARD, *(Card.SPY,) * ((p in spies) * (1 + (p == doubled)))) for p in range(players)
    )
    gainers = sole_spy(RoundEnd(players, out, discards, (), ()))
    live_spies = [p for p in sorted(spies) if p not in out]
    assert gainers == (tuple(live_spies) if len(live_spies) == 1 else ())


def jester_token_goes_to_each_right_mark(
    first: int, first_marked: int, second: int, second_marked: int, winner_mask: int
) -> None:
    """Each Jester's player whose marked player is among the round's winners
    (shared wins included) gains a token, whether or not they are still in
    the round; others gain nothing. Rules: jester.mark-expected-winner."""
    assert 0 <= first < 5 and 0 <= first_marked < 5
    assert 0 <= second < 5 and 0 <= second_marked < 5
    assert 0 < winner_mask < 32
    fresh_caches()
    first, first_marked, second, second_marked, winner_mask = concrete(
        first, first_marked, second, second_marked, winner_mask
    )
    winners = tuple(sorted(seat_sets(winner_mask, 5)))
    marks = ((first, first_marked), (second, second_marked))
    end = RoundEnd(5, frozenset({first}), ((),) * 5, marks, winners)
    gainers = right_guesses(end)
    expected = [jester for jester, marked in marks if marked in winners]
    assert list(gainers) == expected


def constable_pays_when_in_the_pile_at_a_knock_out(
    in_pile: bool, in_hand: bool, tokens: int
) -> None:
    """A player knocked out with a Constable already in their pile gains a
    token (which can win the game at once); a Constable still in the hand
    pays nothing; no one else gains anything. Rules:
    constable.knocked-out-token, princess.knock-out-effects-apply,
    game.immediate-win."""
    assert 0 <= tokens < _PREMIUM_5_TO_WIN
    fresh_caches()
    (tokens,) = concrete(tokens)
    in_pile = truth(in_pile)
    in_hand = truth(in_hand)
    held = Card.CONSTABLE if in_hand else Card.KING
    pile = (Card.PRIEST, Card.CONSTABLE) if in_pile else (Card.PRIEST,)
    state = make_state(
        PREMIUM_INDEX,
        ((Card.GUARD, Card.BARON), (held,), (Card.PRIEST,), (Card.HANDMAID,), (Card.PRINCE,)),
        deck=(Card.GUARD, Card.GUARD),
        set_aside=Card.COUNT,
        discards=((), pile, (), (), ()),
        tokens=(0, tokens, 0, 0, 0),
    )
    events = decide(state, PlayCard(0, Card.GUARD, 1, PREMIUM.values[held]))
    knocked = [e for e in events if type(e) is PlayerEliminated]
    assert [e.player for e in knocked] == [1]
    awarded = [e for e in events if type(e) is TokenAwarded]
    if in_pile:
        assert awarded == [TokenAwarded(1, TokenReason.CONSTABLE, tokens + 1)]
        wins = tokens + 1 == _PREMIUM_5_TO_WIN
        assert (GameEnded((1,)) in events) is wins
    else:
        assert awarded == []
        assert not any(type(e) is GameEnded for e in events)
