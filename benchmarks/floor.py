"""The floor: a plain, mutable Python engine of the same rules, to measure
the reference engine against (``make bench`` prints the ratio).

It plays every edition at every player count: ``2019``, ``2019-classic``
and ``premium`` as whole games (deals, turns, every card's effect, Premium's
sixteen added cards included, the pending choices: a Chancellor's keep, a
Cardinal's look, a Bishop target's redraw; the showdown, tokens, the game's
end and Premium's tie-break rounds), and ``online`` as a match of rounds
that never ends: one to three copies of the deck, no card set aside, a turn
order drawn every round, the round's end when one card is left in the
pile, every player ranked (hand bonuses, discard totals, the order they
went out), a win counter for rank 1 and the partial wins (a Bishop's right
number, a Constable in the pile, a Jester's watched player ranked first),
and the online Baroness and Cardinal. Leaving the match and time-outs are
not modelled: random rounds never use them.

It is written the way a programmer in a hurry would write a simulator: one
object whose lists change in place, cards as small integers (the codes of
:class:`loveletter.Card`, which it does not import), actions as tuples,
no events, no views, no sightings, no checks of the actions given (they
must come from :meth:`FloorGame.legal_actions`). That is the cost of the
rules alone, which is what the ratio compares against: the reference does
more (immutable states, events, validation), and the issue sets how much
more it may cost. ``tests/test_floor.py`` plays it beside the reference
from the same stacked decks (online, the same turn orders) with the same
choices and compares the two after every command, so the ratio is against
a real engine.

>>> game = FloorGame("2019-classic", 4, seed=7)
>>> game.decision == PLAY and game.current == 0 and len(game.hands[0]) == 2
True
>>> while game.decision != NEXT_ROUND and game.decision != GAME_OVER:
...     game.apply(game.legal_actions()[0])
>>> len(game.round_winners) >= 1 and sum(game.tokens) >= 1
True

Online, the win counter stands in for the tokens and every player has a rank:

>>> game = FloorGame("online", 5, seed=7, decks=2)
>>> sorted(game.order) == [0, 1, 2, 3, 4] and game.current == game.order[0]
True
>>> while game.decision != NEXT_ROUND:
...     game.apply(game.legal_actions()[0])
>>> sorted(game.ranks)[0] == 1 and sum(game.tokens) >= len(game.round_winners)
True
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from itertools import permutations
from typing import Any

# Card codes: the same integers as loveletter.Card's.
SPY = 0
GUARD = 1
PRIEST = 2
BARON = 3
HANDMAID = 4
PRINCE = 5
CHANCELLOR = 6
KING = 7
COUNTESS = 8
PRINCESS = 9
BISHOP = 10
DOWAGER_QUEEN = 11
CONSTABLE = 12
COUNT = 13
SYCOPHANT = 14
BARONESS = 15
CARDINAL = 16
JESTER = 17
ASSASSIN = 18

# What the game waits for.
PLAY = 0  #: the current player plays a card
KEEP = 1  #: the Chancellor's player keeps one card and returns the others
LOOK = 2  #: the Cardinal's player may look at one of the two hands
REDRAW = 3  #: the Bishop's target may discard and redraw
NEXT_ROUND = 4  #: the round is over; ``start_round`` deals the next
GAME_OVER = 5

# Action kinds: the first item of an action tuple.
#: ``(PLAY_CARD, card, target, second_target, guess)``, ``None`` where unused
PLAY_CARD = 0
#: ``(KEEP_CARD, kept, returned)``: ``returned`` goes under the deck in
#: that order, the last card bottom-most
KEEP_CARD = 1
#: ``(LOOK_AT, owner)``
LOOK_AT = 2
#: ``(REDRAW_CARD,)``
REDRAW_CARD = 3
#: ``(DECLINE,)``: skip a Cardinal's look or a Bishop's redraw
DECLINE = 4

#: an action: its kind, then its fields (see the kinds above)
Action = tuple[Any, ...]

# Whom a card chooses.
_NOBODY, _OTHER, _ANY, _PAIR, _ONE_OR_TWO_OTHERS, _TWO_OTHERS, _ORDERED_PAIR = range(7)
_CHOOSES = {
    GUARD: _OTHER,
    PRIEST: _OTHER,
    BARON: _OTHER,
    KING: _OTHER,
    BISHOP: _OTHER,
    DOWAGER_QUEEN: _OTHER,
    JESTER: _OTHER,
    PRINCE: _ANY,
    SYCOPHANT: _ANY,
    CARDINAL: _PAIR,
    BARONESS: _ONE_OR_TWO_OTHERS,
}
#: online (ruling 48): the Baroness looks at two others, one of them twice
#: if the player likes; the Cardinal swaps an ordered pair and shows its
#: player the first one's new card, with nothing left to choose
_CHOOSES_ONLINE = {**_CHOOSES, BARONESS: _TWO_OTHERS, CARDINAL: _ORDERED_PAIR}


class Edition:
    """One edition's numbers: decks, card values, what a Guard names, tokens;
    and whether it is the online edition, whose rounds are ranked."""

    def __init__(
        self,
        name: str,
        players: range,
        values: dict[int, int],
        decks: list[tuple[int, dict[int, int]]],
        tokens_to_win: dict[int, int],
        names_numbers: bool,
        tie_by_discards: bool,
        tie_break_round: bool,
        online: bool = False,
    ) -> None:
        self.name = name
        self.players = players
        #: value per card code (codes the edition lacks: 0)
        self.values = [values.get(code, 0) for code in range(19)]
        self._decks = decks
        self.tokens_to_win = tokens_to_win
        #: Guards and Bishops name numbers (Premium) rather than cards (2019)
        self.names_numbers = names_numbers
        #: equal showdown numbers are broken by discard-pile totals (Premium)
        self.tie_by_discards = tie_by_discards
        #: players reaching the tokens together play a round among themselves
        #: (Premium); otherwise they share the win (2019)
        self.tie_break_round = tie_break_round
        #: online: every round ranks the players, rank 1 adding one to a win
        #: counter (kept in ``tokens``), and nothing ends the match
        self.ranked = online
        #: online: no card set aside, the pile's last card standing in for it
        self.sets_aside = not online
        #: online: every round deals and plays in a turn order of its own
        self.draws_order = online
        #: a round ends after a turn that leaves this many cards or fewer to draw
        self.end_pile = 1 if online else 0
        #: copies of the deck a table may shuffle together
        self.max_decks = 3 if online else 1
        #: whom each card chooses
        self.chooses = _CHOOSES_ONLINE if online else _CHOOSES

    def deck(self, players: int, decks: int = 1) -> list[int]:
        """Every card of a round of ``players`` with ``decks`` copies of the
        deck, sorted by code."""
        counts = next(c for least, c in reversed(self._decks) if least <= players)
        return sorted(card for card, count in counts.items() for _ in range(count * decks))

    def names(self, card: int, players: int) -> list[int]:
        """What ``card`` may name at ``players``: card codes or numbers."""
        kinds = sorted(set(self.deck(players)))
        if self.names_numbers:
            numbers = sorted({self.values[k] for k in kinds})
            if card == GUARD:
                numbers.remove(self.values[GUARD])
            return numbers
        return [k for k in kinds if k != GUARD or card != GUARD]


_DECK_2019 = {
    SPY: 2,
    GUARD: 6,
    PRIEST: 2,
    BARON: 2,
    HANDMAID: 2,
    PRINCE: 2,
    CHANCELLOR: 2,
    KING: 1,
    COUNTESS: 1,
    PRINCESS: 1,
}
_DECK_PREMIUM_SMALL = {
    GUARD: 5,
    PRIEST: 2,
    BARON: 2,
    HANDMAID: 2,
    PRINCE: 2,
    KING: 1,
    COUNTESS: 1,
    PRINCESS: 1,
}
_DECK_PREMIUM_FULL = {
    **_DECK_PREMIUM_SMALL,
    GUARD: 8,
    BISHOP: 1,
    DOWAGER_QUEEN: 1,
    CONSTABLE: 1,
    COUNT: 2,
    SYCOPHANT: 2,
    BARONESS: 2,
    CARDINAL: 2,
    JESTER: 1,
    ASSASSIN: 1,
}
_VALUES_2019 = {code: code for code in range(SPY, PRINCESS + 1)}
_VALUES_PREMIUM = {
    GUARD: 1,
    PRIEST: 2,
    CARDINAL: 2,
    BARON: 3,
    BARONESS: 3,
    HANDMAID: 4,
    SYCOPHANT: 4,
    PRINCE: 5,
    COUNT: 5,
    KING: 6,
    CONSTABLE: 6,
    COUNTESS: 7,
    DOWAGER_QUEEN: 7,
    PRINCESS: 8,
    BISHOP: 9,
}
_TOKENS_2019 = {2: 6, 3: 5, 4: 4, 5: 3, 6: 3}

#: the editions the floor plays, by the reference's ruleset names
EDITIONS = {
    "2019": Edition(
        "2019", range(2, 7), _VALUES_2019, [(2, _DECK_2019)], _TOKENS_2019, False, False, False
    ),
    "2019-classic": Edition(
        "2019-classic",
        range(2, 5),
        _VALUES_2019,
        [(2, {**_DECK_2019, GUARD: 5, CHANCELLOR: 0, SPY: 0})],
        _TOKENS_2019,
        False,
        False,
        False,
    ),
    "premium": Edition(
        "premium",
        range(2, 9),
        _VALUES_PREMIUM,
        [(2, _DECK_PREMIUM_SMALL), (5, _DECK_PREMIUM_FULL)],
        {2: 7, 3: 5, 4: 4, 5: 4, 6: 4, 7: 4, 8: 4},
        True,
        True,
        True,
    ),
    "online": Edition(
        "online",
        range(3, 9),
        _VALUES_PREMIUM,
        [(3, _DECK_PREMIUM_SMALL), (5, _DECK_PREMIUM_FULL)],
        {},
        True,
        True,
        False,
        online=True,
    ),
}


#: per player count, the seat after each seat
_CLOCKWISE = {n: [p + 1 if p + 1 < n else 0 for p in range(n)] for n in range(2, 9)}


class FloorGame:
    """A whole game, changed in place by :meth:`apply` and :meth:`start_round`.

    ``deck`` (top first) and ``first_player`` stack the first round (online,
    ``order`` stacks its turn order, the first player first; ``first_player``
    alone is swapped into first place of a drawn order); otherwise ``seed``
    shuffles every round's deck, draws the online turn orders and breaks
    ties for the first player. ``decks`` (online: 1 to 3) is the copies of
    the deck shuffled together.
    """

    def __init__(
        self,
        edition: str,
        players: int,
        seed: int = 0,
        deck: Sequence[int] | None = None,
        first_player: int | None = None,
        order: Sequence[int] | None = None,
        decks: int = 1,
    ) -> None:
        rules = EDITIONS[edition]
        if players not in rules.players:
            raise ValueError(f"{edition} is for {rules.players[0]}-{rules.players[-1]} players")
        if not 1 <= decks <= rules.max_decks:
            raise ValueError(f"{edition} plays with 1 to {rules.max_decks} deck(s)")
        self.edition = rules
        self.players = players
        self.values = rules.values
        self.rng = random.Random(seed)
        #: tokens, or online the win counters
        self.tokens = [0] * players
        #: tokens that win the game (``None`` online: nothing ends the match)
        self.needed = rules.tokens_to_win.get(players)
        #: the players tied for the game while a tie-break round decides (Premium)
        self.contenders: list[int] = []
        #: the game's winners, once it is over
        self.winners: list[int] = []
        self._full_deck = rules.deck(players, decks)
        # Few attributes: with about 30, CPython's instances stop sharing
        # their dict's keys and every attribute read gets slower (a few per
        # cent here), so the edition's rarer facts are read from it.
        self._end_pile = rules.end_pile
        #: what a Guard and a Bishop may name
        self._names = {card: rules.names(card, players) for card in (GUARD, BISHOP)}
        # the round's zones, set by the deal
        self.deck: list[int] = []  # top last, so that a draw is a pop()
        self.set_aside: int | None = None
        self.face_up: list[int] = []
        self.hands: list[list[int]] = []
        self.discards: list[list[int]] = []
        self.out: list[bool] = []
        self.protected: list[bool] = []
        self.live = 0
        #: online: the round's turn order, first player first (empty elsewhere)
        self.order: list[int] = []
        # the seat whose turn follows each seat's, out of the round or not:
        # the next seat, or online the next in the round's order
        self._following: list[int] = _CLOCKWISE[players]
        #: online: who went out of the round, in that order
        self.exits: list[int] = []
        #: online: every seat's rank once the round is over
        self.ranks: list[int] = []
        self.current = 0
        self.decision = PLAY
        self.required: int | None = None  # the Sycophant's chosen player
        self.marks: list[tuple[int, int]] = []  # (Jester's player, marked player)
        self.pending: tuple[int, ...] = ()
        self.round_winners: list[int] = []
        if order is not None:
            first_player = order[0]
        elif rules.draws_order:
            order = self._drawn_order(first_player)
            first_player = order[0]
        elif first_player is None:
            first_player = 0
        self._deal(list(deck) if deck is not None else self._shuffled(), first_player, order)

    # ----------------------------------------------------------------- deals

    def _shuffled(self) -> list[int]:
        deck = list(self._full_deck)
        self.rng.shuffle(deck)
        return deck

    def _drawn_order(self, first: int | None) -> list[int]:
        """Online: the seats in a random order, ``first`` swapped into first
        place when given (a swap, as the reference does, not a rotation)."""
        seats = list(range(self.players))
        self.rng.shuffle(seats)
        if first is not None:
            index = seats.index(first)
            seats[0], seats[index] = seats[index], seats[0]
        return seats

    def first_player_candidates(self) -> list[int]:
        """Who may start the next round: the last round's winners (in a
        tie-break round, those of them still tied, or any tied player;
        online, its rank-1 players)."""
        previous = self.round_winners or [self.current]
        if self.contenders:
            return [p for p in previous if p in self.contenders] or list(self.contenders)
        return list(previous)

    def start_round(
        self,
        deck: Sequence[int] | None = None,
        first_player: int | None = None,
        order: Sequence[int] | None = None,
    ) -> None:
        """Deal the next round, from ``deck`` (top first) when given; online
        in ``order`` when given (its first player one of the candidates),
        else in a drawn order with ``first_player`` or a candidate first."""
        assert self.decision == NEXT_ROUND
        if order is not None:
            first_player = order[0]
        elif first_player is None:
            candidates = self.first_player_candidates()
            first_player = candidates[0] if len(candidates) == 1 else self.rng.choice(candidates)
        if order is None and self.edition.draws_order:
            order = self._drawn_order(first_player)
        self._deal(list(deck) if deck is not None else self._shuffled(), first_player, order)

    def _deal(self, deck: list[int], first: int, order: Sequence[int] | None) -> None:
        n = self.players
        deck.reverse()
        self.deck = deck
        self.set_aside = deck.pop() if self.edition.sets_aside else None
        self.face_up = [deck.pop() for _ in range(3)] if n == 2 else []
        self.hands = [[] for _ in range(n)]
        self.discards = [[] for _ in range(n)]
        seats = self.contenders or range(n)
        self.out = [p not in seats for p in range(n)]
        self.protected = [False] * n
        self.live = n - sum(self.out)
        self.required = None
        self.marks = []
        self.pending = ()
        self.round_winners = []
        self.exits = []
        self.ranks = []
        out, hands = self.out, self.hands
        if order is None:
            self.order = []
            self._following = _CLOCKWISE[n]
            for offset in range(n):
                seat = (first + offset) % n
                if not out[seat]:
                    hands[seat].append(deck.pop())
        else:
            self.order = dealing = list(order)
            following = [0] * n
            for index, seat in enumerate(dealing):
                following[seat] = dealing[index + 1 if index + 1 < n else 0]
                if not out[seat]:
                    hands[seat].append(deck.pop())
            self._following = following
        self._begin_turn(first)

    def _begin_turn(self, player: int) -> None:
        self.current = player
        self.protected[player] = False
        self.hands[player].append(self.deck.pop())
        self.decision = PLAY

    # ---------------------------------------------------------- legal moves

    @property
    def to_act(self) -> int | None:
        """The seat that must act, or ``None`` between rounds and after the game."""
        if self.decision == REDRAW:
            return self.pending[0]
        return self.current if self.decision <= REDRAW else None

    def playable_cards(self) -> list[int]:
        """The distinct cards the current player may play (none unless a card
        must be played): a Countess held with a King or a Prince forbids them."""
        if self.decision != PLAY:
            return []
        hand = self.hands[self.current]
        cards = sorted(set(hand))
        if COUNTESS in hand:
            cards = [c for c in cards if c != KING and c != PRINCE]
        return cards

    def legal_actions(self, card: int | None = None) -> list[Action]:
        """Every action the rules allow now (with ``card``, the plays of that card)."""
        decision = self.decision
        if decision == PLAY:
            actions: list[Action] = []
            if card is None:
                cards = self.playable_cards()
            else:
                hand = self.hands[self.current]
                if card not in hand or (COUNTESS in hand and card in (KING, PRINCE)):
                    return actions
                cards = [card]
            for c in cards:
                for target, second in self._choices(c):
                    names = self._names.get(c) if target is not None else None
                    if names:
                        actions.extend((PLAY_CARD, c, target, second, name) for name in names)
                    else:
                        actions.append((PLAY_CARD, c, target, second, None))
            return actions
        if card is not None:
            return []
        if decision == KEEP:
            hand = self.hands[self.current]
            keeps: list[Action] = []
            for keep in sorted(set(hand)):
                rest = list(hand)
                rest.remove(keep)
                keeps.extend((KEEP_CARD, keep, order) for order in sorted(set(permutations(rest))))
            return keeps
        if decision == LOOK:
            return [(LOOK_AT, owner) for owner in self.pending] + [(DECLINE,)]
        if decision == REDRAW:
            return [(REDRAW_CARD,), (DECLINE,)]
        return []

    def _choices(self, card: int) -> list[tuple[int | None, int | None]]:
        """Whom ``card`` may choose now: ``(target, second)`` pairs, or a
        single ``(None, None)`` when it can choose no one (it is played
        without effect)."""
        kind = self.edition.chooses.get(card, _NOBODY)
        if kind == _NOBODY:
            return [(None, None)]
        me = self.current
        out, protected = self.out, self.protected
        others = [p for p in range(self.players) if p != me and not out[p] and not protected[p]]
        options: list[tuple[int | None, int | None]]
        if kind == _OTHER:
            options = [(p, None) for p in others]
        elif kind == _ANY:
            options = [(p, None) for p in sorted([*others, me])]
        elif kind == _PAIR:
            seats = sorted([*others, me])
            options = [(a, b) for i, a in enumerate(seats) for b in seats[i + 1 :]]
        elif kind == _ONE_OR_TWO_OTHERS:
            options = []
            for i, a in enumerate(others):
                options.append((a, None))
                options.extend((a, b) for b in others[i + 1 :])
        elif kind == _TWO_OTHERS:  # the same one twice allowed
            options = [(a, b) for i, a in enumerate(others) for b in others[i:]]
        else:  # an ordered pair, the card's player allowed
            seats = sorted([*others, me])
            options = [(a, b) for a in seats for b in seats if a != b]
        required = self.required
        if required is not None:
            options = [pair for pair in options if required in pair]
        return options or [(None, None)]

    # --------------------------------------------------------------- moving

    def apply(self, action: Action) -> None:
        """Carry out ``action`` (one of :meth:`legal_actions`, unchecked)."""
        kind = action[0]
        if kind == PLAY_CARD:
            _, card, target, second, guess = action
            assert card is not None
            self._play(card, target, second, guess)
        elif kind == KEEP_CARD:
            hand = self.hands[self.current]
            hand[:] = [action[1]]
            for card in action[2]:
                self.deck.insert(0, card)
            self.decision = PLAY
        elif kind == REDRAW_CARD:
            self.decision = PLAY
            target = self.pending[0]
            self.pending = ()
            hand = self.hands[target]
            self._discard_and_draw(target, hand.pop())
        else:  # a look, which changes nothing here, or a declined option
            self.decision = PLAY
            self.pending = ()
        if self.decision == PLAY:
            self._finish_turn()

    def _play(self, card: int, target: int | None, second: int | None, guess: int | None) -> None:
        me = self.current
        hand = self.hands[me]
        hand.remove(card)
        self.discards[me].append(card)
        self.required = None
        if card == PRINCESS:
            self._knock_out(me)
            return
        if target is None:
            if card == HANDMAID:
                self.protected[me] = True
            elif card == CHANCELLOR and self.deck:
                deck = self.deck
                hand.append(deck.pop())
                if deck:
                    hand.append(deck.pop())
                self.decision = KEEP
            return
        values = self.values
        theirs = self.hands[target]
        if card == GUARD:
            if ASSASSIN in theirs:  # the holder answers: the Guard's player is out
                if self._knock_out(me):
                    return
                theirs.remove(ASSASSIN)
                self._discard_and_draw(target, ASSASSIN)
            elif (values[theirs[0]] if self.edition.names_numbers else theirs[0]) == guess:
                self._knock_out(target)
        elif card in (BARON, DOWAGER_QUEEN):
            mine, other = values[hand[0]], values[theirs[0]]
            if mine != other:
                lower = me if mine < other else target
                self._knock_out(lower if card == BARON else me if lower != me else target)
        elif card == PRINCE:
            self._discard_and_draw(target, theirs.pop())
        elif card == KING:
            self.hands[me], self.hands[target] = theirs, hand
        elif card == SYCOPHANT:
            self.required = target
        elif card == JESTER:
            self.marks.append((me, target))
        elif card == CARDINAL:
            assert second is not None
            hands = self.hands
            hands[target], hands[second] = hands[second], hands[target]
            if not self.edition.ranked:  # online, the look at the first is no choice
                self.pending = (target, second)
                self.decision = LOOK
        elif card == BISHOP and values[theirs[0]] == guess:  # a token at once
            if self._award([me]):
                return
            self.pending = (target,)
            self.decision = REDRAW
        # the Priest and the Baroness look, which changes nothing here
        # (online, the Bishop's right number is a partial win: nothing ends)

    def _discard_and_draw(self, player: int, card: int) -> None:
        """``player`` discards ``card`` (already out of their hand) without
        its effect and draws a replacement, the set-aside card when the deck
        is empty; a discarded Princess knocks them out instead."""
        self.discards[player].append(card)
        if card == PRINCESS:
            self._knock_out(player)
        elif self.deck:
            self.hands[player].append(self.deck.pop())
        else:
            assert self.set_aside is not None
            self.hands[player].append(self.set_aside)
            self.set_aside = None

    def _knock_out(self, player: int) -> bool:
        """Knock ``player`` out, their hand discarded; a Constable already in
        their pile pays a token. Says whether the round or game ended."""
        pile = self.discards[player]
        pays = CONSTABLE in pile
        if self.edition.ranked:
            self.exits.append(player)
        pile.extend(self.hands[player])
        self.hands[player] = []
        self.out[player] = True
        self.protected[player] = False
        self.live -= 1
        gained = [player] if pays else []
        if pays:
            self.tokens[player] += 1
        if self.live < 2:
            self._end_round(gained)
            return True
        return bool(gained) and self._award(gained, already=True)

    def _award(self, gainers: list[int], already: bool = False) -> bool:
        """Give ``gainers`` a token each (unless ``already`` given) and see
        whether the game ends; says whether it did."""
        if not already:
            for p in gainers:
                self.tokens[p] += 1
        contenders = self.contenders
        if contenders:
            reached = sorted({p for p in gainers if p in contenders})
        else:
            needed = self.needed
            if needed is None:  # online: a win counter ends nothing
                return False
            reached = [p for p, count in enumerate(self.tokens) if count >= needed]
        if not reached:
            return False
        if len(reached) == 1 or not self.edition.tie_break_round:
            self.winners = reached
            self.decision = GAME_OVER
            self.pending = ()
            return True
        self.contenders = reached
        return False

    def _finish_turn(self) -> None:
        if len(self.deck) > self._end_pile and self.live > 1:
            following, out = self._following, self.out
            player = following[self.current]
            while out[player]:
                player = following[player]
            self._begin_turn(player)
        else:
            self._end_round([])

    def _end_round(self, gained: list[int]) -> None:
        """Winners (online: the rank-1 players), tokens (the round's, the
        Spy's, the Jesters'), and maybe the game's end."""
        n = self.players
        live = [p for p in range(n) if not self.out[p]]
        if self.edition.ranked:
            ranks = rank_round(self.values, live, self.hands, self.discards, self.exits)
            self.ranks = ranks
            winners = [p for p in live if ranks[p] == 1]
        else:
            winners = live if len(live) == 1 else self._showdown(live)
        self.round_winners = winners
        self.decision = NEXT_ROUND
        self.protected = [False] * n
        self.required = None
        self.pending = ()
        gainers = list(gained) + winners
        spies = [p for p in live if SPY in self.discards[p]]
        if len(spies) == 1:
            gainers.append(spies[0])
        gainers.extend(player for player, marked in self.marks if marked in winners)
        for p in gainers[len(gained) :]:
            self.tokens[p] += 1
        self._award(gainers, already=True)

    def _showdown(self, live: list[int]) -> list[int]:
        """The empty deck's winners: nobody beats them (a Bishop loses to a
        Princess whatever the numbers); when everybody is beaten, the Princess."""
        values = self.values
        by_total = self.edition.tie_by_discards
        held = [self.hands[p][0] for p in live]
        keys = []
        for p, card in zip(live, held, strict=True):
            pile = self.discards[p]
            total = sum(values[c] for c in pile) if by_total else 0
            keys.append((values[card] + pile.count(COUNT), total))
        winners = []
        for i, card in enumerate(held):
            for j, other in enumerate(held):
                if j != i and (
                    (card == BISHOP and other == PRINCESS)
                    or (keys[j] > keys[i] and not (card == PRINCESS and other == BISHOP))
                ):
                    break
            else:
                winners.append(live[i])
        if not winners:
            winners = [p for p, card in zip(live, held, strict=True) if card == PRINCESS]
        return winners


def rank_round(
    values: Sequence[int],
    live: Sequence[int],
    hands: Sequence[Sequence[int]],
    discards: Sequence[Sequence[int]],
    exits: Sequence[int],
) -> list[int]:
    """Online: every seat's rank at the round's end. With two players or
    more left (the pile ended it), by hand value with its bonus, then by
    discard total, ties sharing a rank (1, 1, 3); a player left alone ranks
    first. Those who went out (``exits``, in that order) follow, the last
    out highest. Every seat was dealt in: the floor has no leaving.

    >>> values = EDITIONS["online"].values
    >>> rank_round(values, [0, 2], [[PRINCESS], [], [BISHOP]], [[], [GUARD], []], [1])
    [1, 3, 2]
    """
    ranks = [0] * len(hands)
    if len(live) == 1:
        ranks[live[0]] = 1
    else:
        held = [hands[p][0] for p in live]
        totals = [sum(values[c] for c in discards[p]) for p in live]
        keys = []
        for i, p in enumerate(live):
            card = held[i]
            counts = discards[p].count(COUNT)
            value = values[card] + counts
            # The hand bonus (4): a Princess facing a Bishop (he holds it, so
            # "another player" goes without saying), or a 7 with two Counts in
            # its pile facing a Princess and a Bishop whose pile is lower.
            if card == PRINCESS:
                if BISHOP in held:
                    value += 4
            elif card in (COUNTESS, DOWAGER_QUEEN) and counts >= 2 and PRINCESS in held:
                mine = totals[i]
                if any(c == BISHOP and totals[j] < mine for j, c in enumerate(held)):
                    value += 4
            keys.append((value, totals[i]))
        for p, key in zip(live, keys, strict=True):
            ranks[p] = 1 + sum(1 for other in keys if other > key)
    dealt = len(live) + len(exits)
    for index, p in enumerate(exits):
        ranks[p] = dealt - index
    return ranks
