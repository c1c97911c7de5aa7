"""The floor: a plain, mutable Python engine of the same rules, to measure
the reference engine against (``make bench`` prints the ratio).

It plays the ``2019``, ``2019-classic`` and ``premium`` editions at every
player count, whole games: deals, turns, every card's effect (Premium's
sixteen added cards included), the pending choices (a Chancellor's keep, a
Cardinal's look, a Bishop target's redraw), the showdown, tokens, the
game's end and Premium's tie-break rounds. The online edition is not
modelled (its ranks, drawn turn orders and table settings are another
engine's worth of rules), so its benchmark rows have no floor.

It is written the way a programmer in a hurry would write a simulator: one
object whose lists change in place, cards as small integers (the codes of
:class:`loveletter.Card`, which it does not import), actions as tuples,
no events, no views, no sightings, no checks of the actions given (they
must come from :meth:`FloorGame.legal_actions`). That is the cost of the
rules alone, which is what the ratio compares against: the reference does
more (immutable states, events, validation), and the issue sets how much
more it may cost. ``tests/test_floor.py`` plays it beside the reference
from the same stacked decks with the same choices and compares the two
after every command, so the ratio is against a real engine.

>>> game = FloorGame("2019-classic", 4, seed=7)
>>> game.decision == PLAY and game.current == 0 and len(game.hands[0]) == 2
True
>>> while game.decision != NEXT_ROUND and game.decision != GAME_OVER:
...     game.apply(game.legal_actions()[0])
>>> len(game.round_winners) >= 1 and sum(game.tokens) >= 1
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
_NOBODY, _OTHER, _ANY, _PAIR, _ONE_OR_TWO_OTHERS = range(5)
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


class Edition:
    """One edition's numbers: decks, card values, what a Guard names, tokens."""

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

    def deck(self, players: int) -> list[int]:
        """Every card of a round of ``players``, sorted by code."""
        counts = next(c for least, c in reversed(self._decks) if least <= players)
        return sorted(card for card, count in counts.items() for _ in range(count))

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
}


class FloorGame:
    """A whole game, changed in place by :meth:`apply` and :meth:`start_round`.

    ``deck`` (top first) and ``first_player`` stack the first round;
    otherwise ``seed`` shuffles every round's deck and breaks ties for the
    first player.
    """

    def __init__(
        self,
        edition: str,
        players: int,
        seed: int = 0,
        deck: Sequence[int] | None = None,
        first_player: int = 0,
    ) -> None:
        rules = EDITIONS[edition]
        if players not in rules.players:
            raise ValueError(f"{edition} is for {rules.players[0]}-{rules.players[-1]} players")
        self.edition = rules
        self.players = players
        self.values = rules.values
        self.rng = random.Random(seed)
        self.tokens = [0] * players
        self.needed = rules.tokens_to_win[players]
        #: the players tied for the game while a tie-break round decides (Premium)
        self.contenders: list[int] = []
        #: the game's winners, once it is over
        self.winners: list[int] = []
        self._full_deck = rules.deck(players)
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
        self.current = first_player
        self.decision = PLAY
        self.required: int | None = None  # the Sycophant's chosen player
        self.marks: list[tuple[int, int]] = []  # (Jester's player, marked player)
        self.pending: tuple[int, ...] = ()
        self.round_winners: list[int] = []
        self._deal(list(deck) if deck is not None else self._shuffled(), first_player)

    # ----------------------------------------------------------------- deals

    def _shuffled(self) -> list[int]:
        deck = list(self._full_deck)
        self.rng.shuffle(deck)
        return deck

    def first_player_candidates(self) -> list[int]:
        """Who may start the next round: the last round's winners (in a
        tie-break round, those of them still tied, or any tied player)."""
        previous = self.round_winners or [self.current]
        if self.contenders:
            return [p for p in previous if p in self.contenders] or list(self.contenders)
        return list(previous)

    def start_round(
        self, deck: Sequence[int] | None = None, first_player: int | None = None
    ) -> None:
        """Deal the next round, from ``deck`` (top first) when given."""
        assert self.decision == NEXT_ROUND
        candidates = self.first_player_candidates()
        if first_player is None:
            first_player = candidates[0] if len(candidates) == 1 else self.rng.choice(candidates)
        self._deal(list(deck) if deck is not None else self._shuffled(), first_player)

    def _deal(self, deck: list[int], first: int) -> None:
        n = self.players
        deck.reverse()
        self.deck = deck
        self.set_aside = deck.pop()
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
        for offset in range(n):
            seat = (first + offset) % n
            if not self.out[seat]:
                self.hands[seat].append(deck.pop())
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
        kind = _CHOOSES.get(card, _NOBODY)
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
        else:  # one or two others
            options = []
            for i, a in enumerate(others):
                options.append((a, None))
                options.extend((a, b) for b in others[i + 1 :])
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
            self.pending = (target, second)
            self.decision = LOOK
        elif card == BISHOP and values[theirs[0]] == guess:  # a token at once
            if self._award([me]):
                return
            self.pending = (target,)
            self.decision = REDRAW
        # the Priest and the Baroness look, which changes nothing here

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
        if self.deck and self.live > 1:
            player = self.current
            n, out = self.players, self.out
            while True:
                player = player + 1 if player + 1 < n else 0
                if not out[player]:
                    break
            self._begin_turn(player)
        else:
            self._end_round([])

    def _end_round(self, gained: list[int]) -> None:
        """Winners, tokens (the round's, the Spy's, the Jesters'), and maybe the game's end."""
        n = self.players
        live = [p for p in range(n) if not self.out[p]]
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
