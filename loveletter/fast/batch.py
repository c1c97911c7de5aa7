""":class:`FastBatch`: many games of one edition, stepped together.

Reinforcement-learning code and simulations drive it the same way: ask
for the legal actions (:meth:`FastBatch.legal_mask`), pick one per game,
:meth:`FastBatch.step`. Between rounds the one legal action is
``StartRound``, which deals the next round (from the game's own generator,
or from its seed as the reference does); a finished game
(:attr:`FastBatch.done`) waits for :meth:`FastBatch.reset`. Actions are
the integers of :func:`loveletter.fast.tables.action_table`.

>>> batch = FastBatch("2019-classic", 4, 3, seed=1)
>>> batch.legal_mask().shape
(3, 53)
>>> batch.to_act.tolist()
[0, 0, 0]
>>> import numpy as np
>>> first_legal = batch.legal_mask().argmax(axis=1)
>>> batch.step(first_legal)
>>> batch.to_act.tolist()
[1, 1, 1]
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import attrs
import numpy as np
import numpy.typing as npt

from loveletter.cards import Card
from loveletter.fast import kernel as k
from loveletter.fast.observe import observation_names, observation_size, observe
from loveletter.fast.tables import ActionTable, action_table, edition

__all__ = [
    "DECISIONS",
    "ROUND_REASONS",
    "FastBatch",
    "IllegalAction",
    "RandomRounds",
    "play_random_rounds",
]

#: what the game waits for, by the numbers :attr:`FastBatch.decision` holds
DECISIONS = ("play", "chancellor", "look", "redraw", "next-round", "game-over")
#: how a round ended, by the numbers :attr:`FastBatch.round_reason` holds
#: (``None``: it has not, or the game was won in its middle)
ROUND_REASONS = (None, "one-player-left", "deck-empty")


class IllegalAction(ValueError):
    """An action the rules do not allow in its game now; nothing was applied."""

    def __init__(self, games: Sequence[int]) -> None:
        self.games = tuple(games)
        shown = ", ".join(map(str, self.games[:10]))
        super().__init__(f"illegal action in game(s) {shown}")


class FastBatch:
    """``games`` games of ``ruleset`` with ``players``, as arrays.

    ``seed`` seeds every game's own generator (SplitMix64), which deals the
    rounds by default: the same seed gives the same games here. To deal the
    reference engine's games instead, give each game its seed:
    ``reset(seeds=[...])`` deals as ``loveletter.new_game(..., seed=s)``
    and every later round as ``StartRound()`` does (the draws of
    :mod:`loveletter.chance`, BLAKE2b and all); :meth:`start_game` and
    :meth:`start_round` stack a deal, whole or in part. ``decks`` is an
    online table's copies of the deck (1 to 3). Leaving and time-outs
    (online rulings 50 and 51) are not offered.
    """

    def __init__(
        self, ruleset: str, players: int, games: int, seed: int = 0, decks: int = 1
    ) -> None:
        ed = edition(ruleset)
        if not ed.supports(players):
            raise ValueError(f"{ed.name} is for {ed.min_players}-{ed.max_players} players")
        if not 1 <= decks <= ed.max_decks:
            raise ValueError(f"{ed.name} plays with 1 to {ed.max_decks} deck(s)")
        if games < 1:
            raise ValueError("a batch holds at least one game")
        self.ruleset = ed.name
        self.players = players
        self.games = games
        self.decks = decks
        #: the action ids
        self.table: ActionTable = action_table(ed.name, players)
        self._rules = k.rules_array(ed, players, decks, self.table)
        self._state = np.zeros((games, k.WIDTH), dtype=np.int32)
        self._state[:, k.F_DECISION] = k.GAME_OVER
        self._rng = np.zeros(games, dtype=np.uint64)
        self._wk = np.zeros(k.SCRATCH, dtype=np.int64)
        self._digest = np.zeros(k.WIDTH, dtype=np.int64)
        self._deck = np.array(self._rules[k.V_DECK : k.V_DECK + self._rules[k.P_DECK]])
        counts = ed.deck_counts(players)
        #: the edition's kinds at this count, in card-code order
        self.kinds: tuple[Card, ...] = tuple(
            Card(c) for c in sorted(c for c in counts if counts[c])
        )
        self._kind_index = np.zeros(19, dtype=np.int64)
        for index, card in enumerate(self.kinds):
            self._kind_index[card] = index
        self.reset(seed=seed)

    # -- dealing ------------------------------------------------------------

    def reset(
        self,
        games: Sequence[int] | None = None,
        *,
        seed: int | None = None,
        seeds: Sequence[int] | None = None,
        first_player: int | None = None,
    ) -> None:
        """Start new games (all, or those listed), their first round dealt.

        By default a game deals from its own generator; ``seed`` reseeds
        those generators first. With ``seeds`` (one per game listed, each
        from 0 to 2**256 - 1) each game deals every round as the reference
        engine does from that seed (:mod:`loveletter.chance`): the game is
        ``loveletter.new_game(ruleset, players, seed=...)``, its later
        rounds those that ``StartRound()`` deals, ``first_player`` (default
        seat 0; online, swapped into the drawn order) starting the first.
        """
        chosen = list(range(self.games) if games is None else games)
        if seeds is not None and len(seeds) != len(chosen):
            raise ValueError("one seed per game")
        for index, g in enumerate(chosen):
            if seed is not None:
                k.seed_game(self._rng, g, seed & 0x7FFF_FFFF_FFFF_FFFF)
            self._seed(g, None if seeds is None else seeds[index], first_player)
            k.new_game(self._state, self._rules, g)
            k.deal_random(self._state, self._rules, self._rng, g, self._wk)

    def start_game(
        self,
        game: int,
        deck: Sequence[int] | None = None,
        first_player: int | None = None,
        order: Sequence[int] | None = None,
        *,
        seed: int | None = None,
    ) -> None:
        """Start a new game in row ``game``, its first round dealt from
        ``deck`` (card codes, top first), ``first_player`` starting (seat
        0 by default); online, ``order`` is the round's turn order. What is
        not given is drawn: from ``seed`` as the reference draws it when a
        seed is given (then the game's later rounds deal from it too, as
        after :meth:`reset` with ``seeds``), else from the game's own
        generator. The same arguments to :func:`loveletter.start_game`
        deal the same round."""
        self._seed(game, seed, first_player)
        k.new_game(self._state, self._rules, game)
        self._deal(game, deck, first_player, order)

    def start_round(
        self,
        game: int,
        deck: Sequence[int] | None = None,
        first_player: int | None = None,
        order: Sequence[int] | None = None,
    ) -> None:
        """Deal game ``game``'s next round, as ``StartRound(deck,
        first_player, order)`` does: from ``deck`` (top first), started by
        ``first_player``, which must be one the rules allow (a previous
        winner; ruling 13, 31 or 43); online, ``order`` is the round's turn
        order, starting with that player. What is not given is drawn, as
        for :meth:`start_game`."""
        if self.decision[game] != k.NEXT_ROUND:
            raise ValueError(f"game {game} is not between rounds")
        candidates = k.first_candidates(self._state, game)
        for seat in (first_player, None if order is None else order[0]):
            if seat is not None and not (0 <= seat < self.players and candidates >> seat & 1):
                raise ValueError(f"player {seat} may not start game {game}'s next round")
        self._deal(game, deck, first_player, order)

    def _seed(self, game: int, seed: int | None, first_player: int | None) -> None:
        """Make ``game`` deal from the reference's ``seed``, or (``None``)
        from its own generator; ``first_player`` starts its first round."""
        text = b""
        if seed is not None:
            if type(seed) is not int or not 0 <= seed < 2**256:
                raise ValueError(f"a seed is an integer from 0 to 2**256 - 1, not {seed!r}")
            text = f"loveletter/{seed}/".encode()
        if first_player is not None and not 0 <= first_player < self.players:
            raise ValueError(f"no seat {first_player}")
        named = -1 if first_player is None else first_player
        k.set_seed_text(self._state, game, np.frombuffer(text, dtype=np.uint8), named)

    def _deal(
        self,
        game: int,
        deck: Sequence[int] | None,
        first: int | None,
        order: Sequence[int] | None,
    ) -> None:
        cards = np.zeros(0, dtype=np.int64)
        if deck is not None:
            cards = np.asarray([int(c) for c in deck], dtype=np.int64)
            if cards.shape != self._deck.shape or not np.array_equal(np.sort(cards), self._deck):
                raise ValueError("the deck must hold exactly the cards of the edition's deck")
        seats = np.zeros(0, dtype=np.int64)
        if order is not None:
            if not self._rules[k.P_RANKED]:
                raise ValueError(f"{self.ruleset} plays in seat order: no order to give")
            if sorted(order) != list(range(self.players)):
                raise ValueError("an online round's turn order lists every seat once")
            if first is not None and order[0] != first:
                raise ValueError(f"the order starts with player {order[0]}, not {first}")
            seats = np.asarray(order, dtype=np.int64)
        if first is not None and not 0 <= first < self.players:
            raise ValueError(f"no seat {first}")
        k.deal_parts(
            self._state,
            self._rules,
            self._rng,
            game,
            self._wk,
            cards,
            -1 if first is None else first,
            seats,
        )

    def first_candidates(self, game: int) -> list[int]:
        """The seats that may start game ``game``'s next round (ruling 13,
        31 or 43: the last round's winners, or tied players)."""
        mask = k.first_candidates(self._state, game)
        return [p for p in range(self.players) if mask >> p & 1]

    def shuffled_deck(self, game: int) -> list[int]:
        """The table's deck (card codes, top first) in an order drawn from
        game ``game``'s generator."""
        cards = np.zeros(len(self._deck), dtype=np.int32)
        k.shuffle_deck(self._rules, self._rng, game, cards)
        values: list[int] = cards.tolist()
        return values

    def copy_game(self, source: FastBatch, game: int, into: int) -> None:
        """Make game ``into`` of this batch a copy of ``source``'s game
        ``game`` (same edition and table), its generator included."""
        if (source.ruleset, source.players, source.decks) != (
            self.ruleset,
            self.players,
            self.decks,
        ):
            raise ValueError("a game is copied between batches of the same table")
        self._state[into] = source._state[game]
        self._rng[into] = source._rng[game]

    # -- acting -------------------------------------------------------------

    def legal_mask(self) -> npt.NDArray[np.bool_]:
        """``games`` x ``table.size`` booleans: the legal actions of each game."""
        mask = np.zeros((self.games, self.table.size), dtype=np.bool_)
        k.masks(self._state, self._rules, mask, self._wk)
        return mask

    def legal_actions(self, game: int) -> npt.NDArray[np.int64]:
        """The legal actions of one game, ascending (the order of
        :func:`loveletter.legal_commands`)."""
        count = k.legal_ids(self._state, self._rules, game, self._wk)
        return self._wk[:count].astype(np.int64)

    def step(self, actions: npt.ArrayLike) -> None:
        """Apply one action per game (``-1``: leave that game as it is).
        Raises :class:`IllegalAction` naming the games whose action is not
        legal, having applied none of the actions."""
        chosen = np.ascontiguousarray(actions, dtype=np.int64)
        if chosen.shape != (self.games,):
            raise ValueError(f"one action per game: {self.games}")
        found = np.zeros(self.games, dtype=np.int64)
        count = k.illegal_games(self._state, self._rules, chosen, self._wk, found)
        if count:
            raise IllegalAction([int(g) for g in found[:count]])
        k.step_all(self._state, self._rules, self._rng, chosen, self._wk)

    def random_actions(self, card_first: bool = True) -> npt.NDArray[np.int64]:
        """A random legal action for every game where someone must act or a
        round must be dealt (``-1`` for finished games), drawn from the
        games' generators; ``card_first`` picks a playable card first."""
        chosen = np.zeros(self.games, dtype=np.int64)
        k.random_actions(self._state, self._rules, self._rng, card_first, self._wk, chosen)
        return chosen

    # -- reading ------------------------------------------------------------

    @property
    def decision(self) -> npt.NDArray[np.int32]:
        """What each game waits for (an index into :data:`DECISIONS`)."""
        return self._state[:, k.F_DECISION]

    @property
    def done(self) -> npt.NDArray[np.bool_]:
        """Which games are over."""
        over: npt.NDArray[np.bool_] = self.decision == k.GAME_OVER
        return over

    @property
    def round_over(self) -> npt.NDArray[np.bool_]:
        """Which games wait for their next round to be dealt."""
        between: npt.NDArray[np.bool_] = self.decision == k.NEXT_ROUND
        return between

    @property
    def to_act(self) -> npt.NDArray[np.int64]:
        """The seat that must act in each game, ``-1`` where none must."""
        seats = np.zeros(self.games, dtype=np.int64)
        k.acting_seats(self._state, seats)
        return seats

    @property
    def current(self) -> npt.NDArray[np.int32]:
        """Whose turn it is in each game."""
        return self._state[:, k.F_CURRENT]

    @property
    def tokens(self) -> npt.NDArray[np.int32]:
        """``games`` x ``players``: tokens (online: the win counters)."""
        return self._state[:, k.O_TOKENS : k.O_TOKENS + self.players]

    @property
    def round_reason(self) -> npt.NDArray[np.int32]:
        """How each game's last round ended (an index into
        :data:`ROUND_REASONS`; 0 while a round is played)."""
        return self._state[:, k.F_REASON]

    @property
    def round_winners(self) -> npt.NDArray[np.bool_]:
        """``games`` x ``players``: the winners of each game's last round
        (online: the rank-1 players)."""
        return self._seats(self._state[:, k.F_ROUND_WINNERS])

    @property
    def ranks(self) -> npt.NDArray[np.int32]:
        """``games`` x ``players``: online, each seat's rank in the last
        round (meaningful once it has ended)."""
        return self._state[:, k.O_RANKS : k.O_RANKS + self.players]

    @property
    def winners(self) -> npt.NDArray[np.bool_]:
        """``games`` x ``players``: the winners of each finished game."""
        return self._seats(self._state[:, k.F_GAME_WINNERS])

    def _seats(self, masks: npt.NDArray[np.int32]) -> npt.NDArray[np.bool_]:
        seats = np.arange(self.players)
        return np.asarray((masks[:, None] >> seats) & 1, dtype=np.bool_)

    def observation_names(self) -> tuple[str, ...]:
        """The name of each entry of :meth:`observations`."""
        return observation_names(self.kinds, self.players)

    def observations(self) -> npt.NDArray[np.float32]:
        """``games`` x size: what the acting seat of each game may know
        (see :mod:`loveletter.fast.observe`); zeros where no one acts."""
        size = observation_size(len(self.kinds), self.players)
        out = np.zeros((self.games, size), dtype=np.float32)
        observe(self._state, self._rules, self._kind_index, len(self.kinds), out)
        return out

    def digest(self, game: int) -> list[int]:
        """One game's whole state as a flat list of numbers (the order of
        :func:`loveletter.fast.differential.reference_digest`)."""
        out = self._digest
        values: list[int] = out[: k.digest(self._state, self._rules, game, out)].tolist()
        return values

    def snapshot(self, game: int) -> dict[str, Any]:
        """One game's whole state as plain values (cards as
        :class:`~loveletter.cards.Card`), for tests and debugging."""
        row = self._state[game]
        n = self.players

        def cards(start: int, size: int) -> tuple[Card, ...]:
            return tuple(Card(int(c)) for c in row[start : start + size])

        def seats(mask: int) -> tuple[int, ...]:
            return tuple(p for p in range(n) if mask >> p & 1)

        hands = tuple(k.O_HANDS + p * k.HAND for p in range(n))
        piles = tuple(k.O_PILES + p * k.PILE for p in range(n))
        head, tail = int(row[k.F_HEAD]), int(row[k.F_TAIL])
        pending = tuple(int(p) for p in (row[k.F_PENDING], row[k.F_PENDING2]) if p >= 0)
        set_aside = int(row[k.F_SET_ASIDE])
        marks = int(row[k.F_MARKS])
        return {
            "decision": DECISIONS[int(row[k.F_DECISION])],
            "current": int(row[k.F_CURRENT]),
            "round": int(row[k.F_ROUND]),
            "turn": int(row[k.F_TURN]),
            "deck": cards(k.O_DECK + head, tail - head),
            "hands": tuple(cards(at + 1, int(row[at])) for at in hands),
            "discards": tuple(cards(at + 1, int(row[at])) for at in piles),
            "out": seats(int(row[k.F_OUT])),
            "protected": seats(int(row[k.F_PROTECTED])),
            "tokens": tuple(int(t) for t in row[k.O_TOKENS : k.O_TOKENS + n]),
            "set_aside": None if set_aside < 0 else Card(set_aside),
            "face_up": cards(k.O_FACE_UP, int(self._rules[k.P_FACE_UP])),
            "required": None if row[k.F_REQUIRED] < 0 else int(row[k.F_REQUIRED]),
            "pending": pending,
            "marks": tuple(
                (int(row[k.O_MARKS + 2 * m]), int(row[k.O_MARKS + 2 * m + 1])) for m in range(marks)
            ),
            "exits": tuple(int(p) for p in row[k.O_EXITS : k.O_EXITS + row[k.F_EXITS]]),
            "order": (
                tuple(int(p) for p in row[k.O_ORDER : k.O_ORDER + n])
                if self._rules[k.P_RANKED] and row[k.F_ROUND] > 0
                else ()
            ),
            "contenders": seats(int(row[k.F_CONTENDERS])),
            "winners": seats(int(row[k.F_GAME_WINNERS])),
            "round_reason": ROUND_REASONS[int(row[k.F_REASON])],
            "round_winners": seats(int(row[k.F_ROUND_WINNERS])),
            "ranks": tuple(int(r) for r in row[k.O_RANKS : k.O_RANKS + n]),
            "error": int(row[k.F_ERROR]),
        }


@attrs.frozen
class RandomRounds:
    """What :func:`play_random_rounds` counted."""

    ruleset: str
    players: int
    rounds: int
    #: turns started, over all rounds
    turns: int
    #: games finished (a game still going when the count is reached is not)
    games: int
    #: rounds won by each seat (online: ranked first)
    round_wins: tuple[int, ...]
    #: games won by each seat (shared wins count for each)
    game_wins: tuple[int, ...]
    #: rounds ended by a knock-out leaving one player
    one_player_left: int
    #: rounds ended by the deck (online: the pile down to one card)
    deck_empty: int
    #: rounds cut short by a game won in their middle (Premium)
    won_mid_round: int


def play_random_rounds(
    ruleset: str,
    players: int,
    rounds: int,
    seed: int = 0,
    *,
    decks: int = 1,
    games: int = 4096,
    card_first: bool = True,
) -> RandomRounds:
    """Play ``rounds`` rounds of random moves in the compiled simulator,
    ``games`` games at once (a finished game is followed by a new one in
    its row), and count what happened. ``card_first``: each turn picks a
    playable card, then one of its legal commands (the workload of the
    speed figures); otherwise uniformly among all legal commands.

    >>> result = play_random_rounds("2019-classic", 4, 1000, seed=3, games=64)
    >>> result.rounds, sum(result.round_wins) >= result.rounds
    (1000, True)
    """
    batch = FastBatch(ruleset, players, min(games, max(1, rounds)), seed=seed, decks=decks)
    stats = np.zeros(6, dtype=np.int64)
    round_wins = np.zeros(players, dtype=np.int64)
    game_wins = np.zeros(players, dtype=np.int64)
    k.play_rounds(
        batch._state,
        batch._rules,
        batch._rng,
        rounds,
        card_first,
        stats,
        round_wins,
        game_wins,
        batch._wk,
    )
    return RandomRounds(
        ruleset=batch.ruleset,
        players=players,
        rounds=int(stats[0]),
        turns=int(stats[1]),
        games=int(stats[2]),
        round_wins=tuple(int(w) for w in round_wins),
        game_wins=tuple(int(w) for w in game_wins),
        one_player_left=int(stats[3]),
        deck_empty=int(stats[4]),
        won_mid_round=int(stats[5]),
    )
