"""The rounds before a case's round: the *prelude* of a replay start.

A conformance case may start from a position in a later round of a game
(``round_number`` above 1, favor tokens already won, perhaps a Premium
tie-break between some players). An engine that cannot load a position can
still reach such a case by playing the whole game from round 1 with stacked
decks. This module builds the part before the case's round: whole earlier
rounds whose token awards bring the game to the case's tokens, ending so
that the case's round may start with the case's first player.

:func:`prior_rounds` first rules out, from the token rules alone, what no
game can reach (:func:`impossibility`: these ``None`` answers are proofs),
then looks for the rounds by a seeded search (these ``None`` answers only
mean "not found within the budget"):

* a depth-first search over rounds: each round is tried as a random stacked
  deck played out by random legal commands (``legal_commands``, ``push``),
  some uniform, some steered towards the tokens still missing (the search
  sees every hand: a Bishop names the right number for a player owed a
  token, a Guard knocks out a player owed none...);
* a round is kept only if the game is not over, no player has more tokens
  than wanted, the tie-break state is consistent with the goal, and the
  tokens still missing can be won in the rounds left (``_Search.feasible``,
  first with the bounds of rounds that random play finds often, then with
  the bounds the rules allow);
* when some rounds must award more than one token, a few rounds are
  simulated and the kept ones tried best first: those leaving the fewest
  tokens to win, the most evenly spread, so that the rare multi-token
  rounds (ties, bonuses) are taken when they happen rather than required
  of the last round;
* the last round must give exactly the missing tokens, the wanted tie-break
  state and a result that lets the wanted seat start the next round.

The prelude is what an engine without positions must play right before a
case's own steps, so among the rounds that lead to the goal the search
prefers those an engine is least likely to trip on (``_Search.preference``):

* rounds touching none of the case's own rules (``avoid``): a bug in the
  rule under test should fail the case, not keep its start from being
  reached;
* rounds ending the way of the *theme* the seed draws (:func:`themes`: the
  last opponent out by a Guard's guess, a Baron, a Prince on the Princess,
  the Princess played...), so that across the suite, with a seed per case,
  earlier rounds end in varied ways rather than mostly one; where every
  round left awards one token, half of the rounds simulated are played
  towards it (``_Themer``): short, the cards that touch few rules dealt
  first, quiet plays otherwise;
* rounds touching few rules beyond those the rounds before touch
  (:func:`loveletter.conformance.touches.rules_touched`, traced once per
  kind of outcome: ``_RuleCache``).

Everything is checked again by :func:`check_prelude`, which replays the
prelude through the engine and knows nothing of how it was found.

Times: most of the suite's goals take a few tens of milliseconds (the
first call of a process a second more: it watches seeded games for
:func:`round_end_rules` and the cards' costs); the slowest need a rare
round (a Premium showdown tie, the three-way tie of a round-end award
step) and take up to 3 s; a goal not found costs the whole budget, up to
about 10 s with 7 or 8 Premium players.
"""

from __future__ import annotations

import functools
import random
from collections.abc import Iterable, Sequence
from typing import TypeVar

import attrs

from loveletter.cards import Card
from loveletter.commands import Command, Leave, PlayCard, StartRound
from loveletter.conformance.touches import rules_touched
from loveletter.engine import legal_commands, new_game, playable_cards, push, step
from loveletter.errors import LoveLetterError
from loveletter.events import Event, GameTied, PlayerEliminated, RoundEnded, RoundEndReason
from loveletter.rulesets import GameTie, Ruleset, get_ruleset
from loveletter.state import Decision, GameState, TableSettings

__all__ = [
    "DEFAULT_BUDGET",
    "Prelude",
    "check_prelude",
    "impossibility",
    "prior_rounds",
    "round_end_rules",
    "round_ending",
    "themes",
]

#: rounds simulated at most by one call of :func:`prior_rounds` (a round
#: takes 0.1 ms with two players to 0.7 ms with eight: at most about 10 s)
DEFAULT_BUDGET = 12_000

#: rounds tried from one pre-round state before the search backtracks: the
#: rarest rounds the suite needs (a Premium two-player showdown tie) come
#: about once in 2,000 random rounds, and a state from which the last round
#: cannot be found must not swallow the whole budget
_NODE_LIMIT = 4_000

#: rounds simulated before choosing among the acceptable ones, when some
#: rounds must award more than one token
_BATCH = 8

#: acceptable rounds a level gathers before choosing the one whose commands
#: suit the prelude best (:meth:`_Search.preference`)
_CHOICES = 6
#: themed rounds a level simulates before it gives up the style, if it kept
#: none of them
_THEMED_TRIALS = 16
#: rounds a level simulates at most, after its first acceptable one, while
#: it gathers them: a level whose acceptable rounds are rare takes what it
#: has rather than spend the budget on choice
_MORE = 24

#: the play styles (:meth:`_Search.play`): uniform over the commands,
#: uniform over the cards, steered towards the tokens, themed; a search
#: without a theme draws from ``_STYLES``, one with a theme plays themed
#: rounds as often as all the others
_UNIFORM, _BY_CARD, _STEERED, _THEMED = range(4)
_STYLES = (_UNIFORM, _BY_CARD, _STEERED, _STEERED)
_THEMED_STYLES = (*_STYLES, _THEMED, _THEMED, _THEMED, _THEMED)

_NEXT_ROUND = Decision.NEXT_ROUND
_PLAY = Decision.PLAY

_T = TypeVar("_T")


def _pick(rng: random.Random, items: Sequence[_T]) -> _T:
    """One of ``items`` (not empty), uniformly: ``random()`` scaled, which
    costs a third of ``choice`` (the search draws a few hundred thousand)."""
    return items[int(rng.random() * len(items))]


@attrs.frozen
class Prelude:
    """The rounds played before a case's round, from the start of the game.

    ``deck`` is round 1's stacked deck (top first), every card of the
    ruleset for ``players``; ``first_player`` is round 1's first player.
    ``commands`` are every command of rounds 1 to R-1 in order, including
    ``StartRound(deck=..., first_player=...)`` for rounds 2 to R-1 (online
    with its ``order``), and end with round R-1 over, then (online) a
    ``Leave`` for each player who sits round R out. For a case in round 1
    there are no commands and the deck is irrelevant: the case deals round 1
    itself.
    """

    ruleset: str
    players: int
    deck: tuple[Card, ...]
    first_player: int
    commands: tuple[Command, ...]
    #: online: round 1's turn order (``None`` where the edition draws none)
    order: tuple[int, ...] | None = None
    #: online: the copies of the deck each round is dealt from
    decks: int = 1


# --------------------------------------------------------------------------
# how a round ends


def round_ending(command: Command, events: Sequence[Event]) -> str | None:
    """How the round ``command`` ended (``events`` are its events), or
    ``None`` when it did not end one: ``deck-empty``, or the way the last
    opponent went out and the command that did it (``guard-guess by
    Guard``, ``princess-discarded by Prince``, ``princess-discarded by
    Princess``, ``left by Leave``...). Each names the rules an engine must
    get right for the round to end as it did."""
    ended = next((e for e in events if isinstance(e, RoundEnded)), None)
    if ended is None:
        return None
    if ended.reason is RoundEndReason.DECK_EMPTY:
        return "deck-empty"
    outs = [e for e in events if isinstance(e, PlayerEliminated)]
    how = outs[-1].reason.value if outs else "out"
    by = str(command.card) if isinstance(command, PlayCard) else type(command).__name__
    return f"{how} by {by}"


def _knock_out_label(command: Command, events: Sequence[Event]) -> str | None:
    """How ``command`` knocked a player out (``round_ending``'s words for a
    round it ends that way), or ``None``: it knocked no one out."""
    outs = [e for e in events if isinstance(e, PlayerEliminated)]
    if not outs:
        return None
    by = str(command.card) if isinstance(command, PlayCard) else type(command).__name__
    return f"{outs[-1].reason.value} by {by}"


#: the ways a round may end that a prelude may favour, with the cards each
#: needs (:func:`round_ending`'s words). Not the deck running out: a round
#: played to its end plays most of the deck, so touches nearly every card's
#: rules (rounds still end so where the tokens need a showdown)
_THEMES: tuple[tuple[str, frozenset[Card]], ...] = (
    ("guard-guess by Guard", frozenset({Card.GUARD})),
    ("baron-comparison by Baron", frozenset({Card.BARON})),
    ("princess-discarded by Prince", frozenset({Card.PRINCE, Card.PRINCESS})),
    ("princess-discarded by Princess", frozenset({Card.PRINCESS})),
    ("assassin by Guard", frozenset({Card.ASSASSIN, Card.GUARD})),
    ("dowager-comparison by DowagerQueen", frozenset({Card.DOWAGER_QUEEN})),
)


def themes(deck: Iterable[Card]) -> tuple[str, ...]:
    """The round endings a prelude dealt from ``deck`` may favour: the last
    opponent knocked out by one of the cards that knock out (each needs its
    cards in the deck)."""
    held = set(deck)
    return tuple(theme for theme, cards in _THEMES if cards <= held)


# --------------------------------------------------------------------------
# what one round can award


def _bonus_cap(rules: Ruleset, players: int, decks: int = 1) -> int:
    """The most tokens one round can award besides its winners' round tokens.

    Read off the deck, because each source is bounded by its cards: the
    sole Spy gives one token however many Spies there are (ruling 10); each
    Jester marks once and pays once; each Bishop scores at most its one
    play; each Constable pays once, when its pile's owner is knocked out.
    """
    deck = rules.deck_for(players, decks)
    return (
        (Card.SPY in deck)
        + deck.count(Card.JESTER)
        + deck.count(Card.BISHOP)
        + deck.count(Card.CONSTABLE)
    )


@attrs.frozen
class _Caps:
    """Bounds on one round's awards: ``extra`` tokens beyond one (a tie's
    co-winners and the bonuses) in all, ``per_player`` tokens to one seat."""

    extra: int
    per_player: int


def _proved_caps(rules: Ruleset, players: int, live: int, decks: int = 1) -> _Caps:
    """What the rules allow a round with ``live`` players dealt in: every
    one of them may share the win, and every bonus may go to one seat."""
    bonus = _bonus_cap(rules, players, decks)
    return _Caps(extra=live - 1 + bonus, per_player=1 + bonus)


def _practical_caps(rules: Ruleset, players: int, live: int, decks: int = 1) -> _Caps:
    """What random rounds award often enough to be found quickly: a two-way
    tie or one bonus (two bonuses with Premium's 5-to-8-player cards, where
    about 7 % of rounds award three tokens), never more than two tokens to
    one seat. Searching with these first keeps the search from putting off
    the extra tokens until only a three-way tie could still give them."""
    proved = _proved_caps(rules, players, live, decks)
    extra = 2 if _bonus_cap(rules, players, decks) >= 2 else 1
    return _Caps(extra=min(extra, proved.extra), per_player=min(2, proved.per_player))


# --------------------------------------------------------------------------
# the goal, and what is impossible


@attrs.frozen
class _Goal:
    rules: Ruleset
    players: int
    tokens: tuple[int, ...]
    #: the rounds to play: R - 1
    rounds: int
    first_player: int
    contenders: tuple[int, ...]
    #: online: the copies of the deck
    decks: int = 1
    #: online: the players who have left by the start of round R
    absent: tuple[int, ...] = ()

    @property
    def settings(self) -> TableSettings | None:
        return TableSettings(decks=self.decks) if self.rules.online_table else None

    @property
    def threshold(self) -> int:
        needed = self.rules.tokens_to_win(self.players)
        # an online match has no tokens to win: nothing in its win counters
        # ends it, so no count is out of reach
        return needed if needed is not None else 2**31


def _goal(
    ruleset: str | Ruleset,
    players: int,
    tokens: Sequence[int],
    round_number: int,
    first_player: int,
    contenders: Sequence[int],
    decks: int = 1,
    absent: Sequence[int] = (),
) -> _Goal:
    """The arguments checked for form (not for possibility); a malformed
    argument is the caller's error and raises :class:`ValueError`."""
    rules = get_ruleset(ruleset)
    if type(players) is not int or not rules.supports(players):
        raise ValueError(f"{rules.name} is for {rules.min_players}-{rules.max_players} players")
    wanted = tuple(tokens)
    if len(wanted) != players or any(type(t) is not int or t < 0 for t in wanted):
        raise ValueError(f"tokens must be {players} non-negative integers, not {list(tokens)}")
    if type(round_number) is not int or round_number < 1:
        raise ValueError(f"round_number must be a positive integer, not {round_number!r}")
    if type(first_player) is not int or not 0 <= first_player < players:
        raise ValueError(f"first_player must be a seat from 0 to {players - 1}")
    tied = tuple(sorted(contenders))
    if any(type(p) is not int or not 0 <= p < players for p in tied) or len(set(tied)) != len(tied):
        raise ValueError(f"contenders must be distinct seats, not {list(contenders)}")
    if type(decks) is not int or not 1 <= decks <= rules.max_decks:
        raise ValueError(f"{rules.name} plays with 1 to {rules.max_decks} deck(s), not {decks!r}")
    gone = tuple(absent)
    if any(type(p) is not int or not 0 <= p < players for p in gone) or len(set(gone)) != len(gone):
        raise ValueError(f"absent must be distinct seats, not {list(absent)}")
    gone = tuple(sorted(gone))
    return _Goal(rules, players, wanted, round_number - 1, first_player, tied, decks, gone)


def _count(number: int, noun: str) -> str:
    return f"{number} {noun}" if number == 1 else f"{number} {noun}s"


def impossibility(
    ruleset: str | Ruleset,
    players: int,
    tokens: Sequence[int],
    round_number: int,
    first_player: int,
    contenders: Sequence[int] = (),
    *,
    decks: int = 1,
    absent: Sequence[int] = (),
) -> str | None:
    """Why no game reaches the start of round ``round_number`` with
    ``tokens``, ``first_player`` allowed to start it and (Premium) a
    tie-break between ``contenders`` pending, or (online) with ``decks``
    copies of the deck and the players ``absent`` gone from the table;
    ``None`` when the token rules do not rule it out (a search may still
    fail to find it).

    Each reason is a proof from rules that hold in every game:

    * round 1 starts with no tokens and no tie;
    * every round ends with at least one winner, who gains a token, so R-1
      rounds award at least R-1 tokens;
    * a round awards at most one token to each player dealt in plus its
      bonus tokens (``_bonus_cap``), and at most one round token plus
      every bonus to one seat;
    * the first player of a round after the first won the round before, so
      holds a token (a Premium tie-break round's first player is one of the
      tied players, who hold the tokens to win; online, any player present
      may start when every winner of the round before has left, and a
      winner holds a token);
    * only online players leave, never the first player of the round, and
      at least two stay (fewer close the match);
    * a player at the tokens to win has ended the game, unless (Premium)
      several reached them together and tie for it, which the 2019 editions
      do not know (they share the win, ruling 12).
    """
    goal = _goal(ruleset, players, tokens, round_number, first_player, contenders, decks, absent)
    wanted, tied, threshold = goal.tokens, goal.contenders, goal.threshold
    gone = goal.absent
    if gone:
        if not goal.rules.online_table:
            return f"{goal.rules.name} has no leaving: only online players leave"
        if first_player in gone:
            return f"player {first_player} has left, so cannot start a round"
        if players - len(gone) < 2:
            return "fewer than two players present close the match"
    if goal.rounds == 0:
        if any(wanted):
            return "round 1 starts with no tokens"
        if tied:
            return "round 1 cannot be a tie-break round"
        if gone:
            return "round 1 deals every seat: no one has left before it"
        return None
    if tied:
        if goal.rules.game_tie is not GameTie.TIE_BREAK_ROUND:
            return f"{goal.rules.name} has no tie-break round: tied players share the win"
        if len(tied) < 2:
            return "a tie for the game is between two or more players"
        if any(wanted[p] < threshold for p in tied):
            return f"every tied player holds the {threshold} tokens to win"
        if any(wanted[p] >= threshold for p in range(players) if p not in tied):
            return f"a player with {threshold} tokens who is not tied has won the game"
        if first_player not in tied:
            return "a tie-break round's first player is one of the tied players"
    else:
        if any(t >= threshold for t in wanted):
            return f"a player with {threshold} tokens has won (or, in Premium, tied) the game"
        if wanted[first_player] == 0 and not any(wanted[p] for p in gone):
            return "the first player of a later round won the round before, so holds a token"
    proved = _proved_caps(goal.rules, players, players, goal.decks)
    rounds = _count(goal.rounds, "round")
    award = "awards" if goal.rounds == 1 else "award"
    least, most = goal.rounds, goal.rounds * (1 + proved.extra)
    each = goal.rounds * proved.per_player
    if sum(wanted) < least:
        return f"{rounds} {award} at least {_count(least, 'token')}"
    if sum(wanted) > most:
        return f"{rounds} {award} at most {_count(most, 'token')}"
    if max(wanted) > each:
        return f"{rounds} {award} one player at most {_count(each, 'token')}"
    return None


# --------------------------------------------------------------------------
# the search


@attrs.frozen
class _Round:
    """One round found: how it was dealt and played, and where it ended."""

    deck: tuple[Card, ...]
    first_player: int
    commands: tuple[Command, ...]
    end: GameState
    #: online: the round's turn order, drawn from the search's game seed
    #: and so given to the replay's deal or ``StartRound``
    order: tuple[int, ...] | None = None
    #: how the round ended (:func:`round_ending`)
    ending: str | None = None
    #: the rules its commands touch (:class:`_RuleCache`): an engine must
    #: get each right to replay the round
    rules: frozenset[str] = frozenset()


class _RuleCache:
    """The rules a command touches (:func:`touches.rules_touched`), traced
    once per kind of outcome: the command's type and card, and its events'
    types and knock-out reasons. Tracing watches the engine work and costs
    tenfold a step; commands alike in these touch the same rules (the
    dependency report traces every command of the files themselves). One
    cache serves one search, so the same arguments still give the same
    prelude."""

    def __init__(self) -> None:
        self.known: dict[tuple[object, ...], frozenset[str]] = {}

    def rules(self, state: GameState, command: Command, events: Sequence[Event]) -> frozenset[str]:
        """The rules ``command`` (its ``events`` in ``state``) touches."""
        key = (
            type(command).__name__,
            command.card if isinstance(command, PlayCard) else None,
            tuple((type(e).__name__, getattr(e, "reason", None)) for e in events),
        )
        found = self.known.get(key)
        if found is None:
            found = self.known[key] = frozenset(rules_touched(state, command))
        return found

    def profile(
        self, start: GameState, commands: Sequence[Command]
    ) -> tuple[str | None, frozenset[str]]:
        """How a round played by ``commands`` from ``start`` ends
        (:func:`round_ending`), and the rules its commands touch."""
        touched: set[str] = set()
        ending: str | None = None
        state = start
        for command in commands:
            after, events = step(state, command)
            touched.update(self.rules(state, command, events))
            ending = round_ending(command, events) or ending
            state = after
        return ending, frozenset(touched)


def _allows_start(state: GameState, first_player: int, absent: Sequence[int] = ()) -> bool:
    """Whether the engine deals the next round with ``first_player`` first,
    once the players ``absent`` have left: asked of the engine, not
    recomputed, so the rules live in one place."""
    deck = state.table.setup().deck
    try:
        for player in absent:
            state = push(state, Leave(player))
        push(state, StartRound(deck=deck, first_player=first_player))
    except LoveLetterError:
        return False
    return True


class _Level:
    """One level of the search: the state before a round (``None``: before
    round 1), who may start that round, and its candidates still untried."""

    def __init__(
        self,
        state: GameState | None,
        goal: _Goal,
        limit: int,
        touched: frozenset[str] = frozenset(),
    ) -> None:
        self.state = state
        self.limit = limit
        self.tried = 0
        self.candidates: list[_Round] = []
        #: the rules the rounds before this one touch
        self.touched = touched
        #: themed rounds simulated, and kept, at this level
        self.themed_tried = 0
        self.themed_kept = 0
        if state is None:
            self.starters: Sequence[int] = range(goal.players)  # round 1's is free
            self.need = sum(goal.tokens)
        else:
            self.starters = [p for p in range(goal.players) if _allows_start(state, p)]
            self.need = sum(goal.tokens) - sum(state.tokens)

    def batch(self, left: int) -> int:
        """Rounds to simulate before trying the kept ones. When every round
        left must award exactly one token, any kept round will do; when some
        must award more, rounds that do are rare and worth waiting for."""
        return 1 if self.need == left else _BATCH

    def themed(self, left: int) -> bool:
        """Whether to play some of the level's rounds themed: only when
        every round left awards one token (a round that must award more
        is rare, and themed play, short and quiet, almost never finds
        one), and not once ``_THEMED_TRIALS`` themed rounds were all
        rejected (the round needs something else: a showdown tie, the
        right winner...)."""
        if self.need != left:
            return False
        return self.themed_kept > 0 or self.themed_tried < _THEMED_TRIALS


class _Themer:
    """Themed play (one of :meth:`_Search.play`'s styles): each player
    plays towards a short round ended the theme's way, and otherwise
    touches as few rules as possible beyond those the prelude already
    touches.

    Every legal command is tried on the engine (so nothing here knows a
    card; a Guard's or a Bishop's wrong guesses are tried once:
    :func:`_one_guess_each`) and scored, best first: touching none of the
    rules ``avoid`` (the case's own) if it can; then ending the round the
    theme's way; then the commands that do not end it: a knock-out (which
    shortens the round: each turn more may force a play that touches more
    rules, and a round that runs out its deck plays most of the cards),
    the theme's way first, then the ``helper`` theme's (a second theme
    the seed draws, so that the knock-outs before the last are not all a
    Guard's), then a quiet play, then a play spending the last copy in
    play of a card the theme needs (the Princess of a Princess theme, the
    last Baron...), each by the fewest rules not yet touched; ending the
    round another way comes last while the theme's cards are all still in
    play, and counts as a knock-out once they are not. The rules each
    touches come from the search's :class:`_RuleCache`."""

    def __init__(
        self, theme: str, helper: str | None, cache: _RuleCache, avoid: frozenset[str]
    ) -> None:
        self.theme = theme
        self.helper = helper
        self.avoid = avoid
        self.needs = next((cards for t, cards in _THEMES if t == theme), frozenset())
        self.cache = cache

    def in_play(self, state: GameState, card: Card) -> int:
        """The copies of ``card`` still to be played: in hands or the deck."""
        return state.deck.count(card) + sum(hand.count(card) for hand in state.hands)

    def possible(self, state: GameState) -> bool:
        """Whether every card the theme needs is still in play."""
        return all(self.in_play(state, card) for card in self.needs)

    def spends(self, after: GameState, events: Sequence[Event]) -> bool:
        """Whether ``events`` play or discard the last copy in play of a
        card the theme needs (``after``: the state they lead to)."""
        for event in events:
            cards = [getattr(event, "card", None)]
            if isinstance(event, PlayerEliminated):
                cards.extend(event.discarded)
            for card in cards:
                if card in self.needs and not self.in_play(after, card):
                    return True
        return False

    def options(
        self, state: GameState, survivors: frozenset[int], touched: frozenset[str]
    ) -> list[tuple[Command, frozenset[str]]]:
        """The best-scored commands in ``state`` (with the rules each
        touches), given the rules ``touched`` so far; none knocks out one
        of ``survivors``."""
        possible = self.possible(state)
        best: list[tuple[Command, frozenset[str]]] = []
        best_score: tuple[int, int, int, int, int] | None = None
        for command in _one_guess_each(state, legal_commands(state)):
            after, events = step(state, command)
            if survivors and not survivors.isdisjoint(after.out):
                continue
            rules = self.cache.rules(state, command, events)
            new = len(rules - touched)
            ended = round_ending(command, events)
            how = _knock_out_label(command, events)
            shunned = len((rules & self.avoid) - touched)
            score: tuple[int, int, int, int, int]
            if ended == self.theme:
                score = (shunned, 0, 0, 0, 0)
            elif ended is not None and possible:
                score = (shunned, 2, 0, 0, new)
            elif ended is None and self.spends(after, events):
                score = (shunned, 1, 2, 0, new)
            elif how is None:
                score = (shunned, 1, 1, 0, new)
            else:
                kind = 0 if how == self.theme else 1 if how == self.helper else 2
                score = (shunned, 1, 0, kind, new)
            if best_score is None or score < best_score:
                best, best_score = [(command, rules)], score
            elif score == best_score:
                best.append((command, rules))
        return best


class _Search:
    """A depth-first search over rounds (see the module's docstring).

    All randomness comes from one :class:`random.Random`, and every choice
    is made in a fixed order, so a seed always gives the same prelude.
    """

    def __init__(
        self,
        goal: _Goal,
        rng: random.Random,
        budget: int,
        practical: bool,
        avoid: frozenset[str] = frozenset(),
        theme: str | None = None,
        helper: str | None = None,
    ) -> None:
        self.goal = goal
        self.rng = rng
        self.budget = budget
        self.practical = practical
        #: rules the rounds had better not touch (the case's own, less those
        #: every round's end touches)
        self.avoid = avoid - round_end_rules(goal.rules.name)
        #: the round ending the rounds favour (:func:`themes`), and the
        #: knock-outs before it
        self.theme = theme
        self.helper = helper
        self.cache = _RuleCache()
        self.themer = _Themer(theme, helper, self.cache, self.avoid) if theme is not None else None
        #: rounds simulated so far
        self.spent = 0
        self.canonical = goal.rules.deck_for(goal.players, goal.decks)

    def caps(self, live: int) -> _Caps:
        goal = self.goal
        if self.practical:
            return _practical_caps(goal.rules, goal.players, live, goal.decks)
        return _proved_caps(goal.rules, goal.players, live, goal.decks)

    def feasible(self, tokens: Sequence[int], contenders: tuple[int, ...], left: int) -> bool:
        """Whether ``left`` more rounds may still lead from ``tokens`` (with a
        tie-break between ``contenders`` pending, if any) to the goal: the
        necessary conditions of :func:`impossibility`, from this point."""
        goal = self.goal
        need = [w - t for w, t in zip(goal.tokens, tokens, strict=True)]
        if min(need) < 0:
            return False
        if left == 0:
            return not any(need) and contenders == goal.contenders
        live = goal.players
        if contenders:
            # Every later round is a tie-break round: only the tied players
            # are dealt in, and each round must renew the tie (a single
            # gainer would win the game), so every seat still tied at the
            # end gains in each of them.
            if not goal.contenders or not set(goal.contenders) <= set(contenders):
                return False
            if any(need[p] for p in range(goal.players) if p not in contenders):
                return False
            if any(need[p] < left for p in goal.contenders):
                return False
            live = len(contenders)
        elif not goal.contenders:
            if need[goal.first_player] == 0 and not any(need[p] for p in goal.absent):
                # the last round's winners must include the first player,
                # unless every one of them leaves before the next round
                return False
        elif not self.tie_possible(tokens, need, left):
            return False
        caps = self.caps(live)
        total = sum(need)
        return left <= total <= left * (1 + caps.extra) and max(need) <= left * caps.per_player

    def tie_possible(self, tokens: Sequence[int], need: Sequence[int], left: int) -> bool:
        """Whether the wanted tie can still be called in one of the ``left``
        rounds, none called yet. If it is called in the ``j``-th of them,
        the ``left - j`` rounds after it are tie-break rounds that must
        renew it: every tied player gains in each, nobody else in any. The
        ``j - 1`` rounds before it award a token each at least, and cannot
        take a tied player to the threshold (alone, they would win)."""
        tied = self.goal.contenders
        threshold = self.goal.threshold
        others = sum(n for p, n in enumerate(need) if p not in tied)
        for j in range(1, left + 1):
            renewals = left - j
            if any(need[p] <= renewals for p in tied):
                continue
            before = others + sum(
                min(need[p] - renewals - 1, threshold - 1 - tokens[p]) for p in tied
            )
            if before >= j - 1:
                return True
        return False

    def run(self) -> list[_Round] | None:
        """Rounds 1 to R-1, or ``None`` when the budget runs out first.

        Depth first, with a stack rather than recursion (a tie renewed
        round after round makes long games): each level holds the state
        after the rounds chosen so far and the candidates for its next
        round still untried. A level simulates rounds until it holds a few
        kept ones (:meth:`gather`) and tries them best first
        (:meth:`preference`); a level other than the first gives up after
        ``_NODE_LIMIT`` rounds, and the search goes back to the next
        candidate of the level above."""
        goal = self.goal
        stack = [_Level(None, goal, self.budget)]
        chosen: list[_Round] = []
        while stack and self.spent < self.budget:
            level = stack[-1]
            left = goal.rounds - len(chosen)
            if level.candidates:
                candidate = level.candidates.pop(0)
                chosen.append(candidate)
                if left == 1:
                    return chosen
                touched = level.touched | candidate.rules
                stack.append(_Level(candidate.end, goal, _NODE_LIMIT, touched))
            elif level.tried < level.limit:
                found = self.gather(level, left)
                level.candidates = sorted(found, key=lambda c: self.preference(c, level))
            else:
                stack.pop()
                if chosen:
                    chosen.pop()
        return None

    def gather(self, level: _Level, left: int) -> list[_Round]:
        """Kept rounds for ``level`` (``left`` rounds to play from it): at
        least a batch simulated (:meth:`_Level.batch`), then more until
        ``_CHOICES`` are kept, one of them touching none of the rules to
        avoid, or ``_MORE`` more rounds were simulated since the first kept
        one; fewer when the level's limit or the budget runs out first.
        Each kept round is profiled (:meth:`_RuleCache.profile`) for
        :meth:`preference`."""
        found: list[_Round] = []
        batch = level.batch(left)
        simulated = 0
        first = 0
        clean = False
        while level.tried < level.limit and self.spent < self.budget:
            level.tried += 1
            self.spent += 1
            simulated += 1
            kept = self.trial(level, left)
            if kept is not None:
                if not found:
                    first = simulated
                found.append(kept)
                clean = clean or self.avoid.isdisjoint(kept.rules)
            enough = (len(found) >= _CHOICES and clean) or simulated - first >= _MORE
            if simulated >= batch and found and enough:
                break
        return found

    def preference(self, candidate: _Round, level: _Level) -> tuple[int, int, bool, int, int]:
        """How well ``candidate`` suits the prelude after the rounds of
        ``level`` (lower first). What the search needs comes first: the
        tokens still to win (a rare round that gives several is not passed
        over). Then what an engine replaying the prelude needs: as few of
        the case's own rules as possible (a bug in the rule under test
        should fail the case, not stop its start), the theme's ending (so
        that the suite's preludes end their rounds in varied ways, each
        depending on one kind of knock-out rather than all on one), as few
        rules as possible beyond those the earlier rounds touch; last, how
        evenly the missing tokens are spread (:meth:`rank`)."""
        total, spread = self.rank(candidate)
        return (
            total,
            len(candidate.rules & self.avoid),
            candidate.ending != self.theme,
            len(candidate.rules - level.touched),
            spread,
        )

    def rank(self, candidate: _Round) -> tuple[int, int]:
        """How hard the rest looks after ``candidate`` (lower first): the
        extra tokens still to win, then how unevenly the missing tokens are
        spread (their sum of squares), since a seat owed many tokens late
        needs the rare rounds that give one seat several."""
        need = [w - t for w, t in zip(self.goal.tokens, candidate.end.tokens, strict=True)]
        return sum(need), sum(n * n for n in need)

    def survivors(self, state: GameState | None, left: int) -> frozenset[int]:
        """The seats that must still be in the round at its end, for it to
        be the last one: the first player of the next round, who must win
        it; and without Jesters, Constables and Bishops (whose token may
        come before its player goes out), every seat still owed a token
        (2019's Spy pays only a player still in). A round that loses one is
        abandoned early."""
        goal = self.goal
        if left != 1:
            return frozenset()
        tokens = state.tokens if state is not None else (0,) * goal.players
        deck = self.canonical
        if all(card not in deck for card in (Card.JESTER, Card.CONSTABLE, Card.BISHOP)):
            return frozenset(p for p, t in enumerate(tokens) if goal.tokens[p] > t)
        if goal.contenders or any(goal.tokens[p] > tokens[p] for p in goal.absent):
            return frozenset()  # the first player need not win: the winners may leave
        return frozenset({goal.first_player})

    def trial(self, level: _Level, left: int) -> _Round | None:
        """One random round from ``level`` (``left`` rounds to play from
        it): kept if it can lead to the goal."""
        goal, rng = self.goal, self.rng
        state = level.state
        first = _pick(rng, level.starters)
        themed = self.themer is not None and level.themed(left)
        style = _pick(rng, _THEMED_STYLES if themed else _STYLES)
        level.themed_tried += style == _THEMED
        cards = list(self.canonical)
        rng.shuffle(cards)
        if style == _THEMED:
            cards = self.quiet_order(cards)
        deck = tuple(cards)
        if state is None:
            start = new_game(
                goal.rules,
                goal.players,
                seed=0,
                first_player=first,
                deck=deck,
                settings=goal.settings,
            )
        else:
            start = push(state, StartRound(deck=deck, first_player=first))
        played = self.play(start, style, self.survivors(state, left), level.touched)
        if played is None:
            return None
        commands, end = played
        if not self.keeps(end, left):
            return None
        level.themed_kept += style == _THEMED
        ending, rules = self.cache.profile(start, commands)
        return _Round(deck, first, commands, end, start.table.order or None, ending, rules)

    def keeps(self, end: GameState, left: int) -> bool:
        """Whether a round that ended in ``end`` (``left`` rounds were still
        to play before it) can lead to the goal."""
        if not self.feasible(end.tokens, end.contenders, left - 1):
            return False
        return left > 1 or _allows_start(end, self.goal.first_player, self.goal.absent)

    def quiet_order(self, cards: list[Card]) -> list[Card]:
        """``cards`` (shuffled) reordered for a themed round: the cards of
        the theme's ending, then the cards whose plays touch few rules
        (:func:`_card_costs`), dealt and drawn first, so that a round ended
        early the theme's way sees few others; the cards that touch the
        most, or touch a rule to avoid, are the ones set aside or put face
        up, never played. A random jitter keeps the decks varied."""
        rules = self.goal.rules
        costs = _card_costs(rules.name)
        favoured = next((c for t, c in _THEMES if t == self.theme), frozenset())
        rng = self.rng

        def cost(card: Card) -> float:
            mean, touched = costs.get(card, (0.0, frozenset()))
            shunned = 10.0 if not self.avoid.isdisjoint(touched) else 0.0
            return mean + shunned - 6.0 * (card in favoured)

        keyed = [(cost(card) + 2.0 * rng.random(), index) for index, card in enumerate(cards)]
        ordered = [cards[index] for _, index in sorted(keyed)]
        removed = int(rules.sets_aside) + rules.face_up_count(self.goal.players)
        if removed:
            ordered = ordered[-removed:] + ordered[:-removed]
        return ordered

    def play(
        self,
        state: GameState,
        style: int,
        survivors: frozenset[int],
        touched: frozenset[str] = frozenset(),
    ) -> tuple[tuple[Command, ...], GameState] | None:
        """Play the round out with random legal commands: its commands and
        the state at its end. ``None`` as soon as the game ends, a player
        passes the tokens wanted (Premium awards some tokens mid-round) or
        one of ``survivors`` is out.

        Each round draws its ``style`` (:meth:`trial`), since no single one
        finds every kind of round: uniform over the commands (mostly Guards, which end
        rounds early), uniform over the cards first (more rounds reach the
        showdown, where ties are), steered towards the tokens still missing
        (:func:`_steer`), which finds the rare rounds that give several
        tokens to the right players, or, as often as the other three
        together, themed (:class:`_Themer`): towards the search's theme,
        touching few rules beyond ``touched`` (those of the rounds before)."""
        rng = self.rng
        wanted = self.goal.tokens
        themer = self.themer
        commands: list[Command] = []
        table = state.table
        while state.decision is not _NEXT_ROUND:
            if state.decision is Decision.GAME_OVER:
                return None
            options: Sequence[Command]
            if style == _UNIFORM or state.decision is not _PLAY:
                options = legal_commands(state)
            elif style == _THEMED and themer is not None:
                scored = themer.options(state, survivors, touched)
                if not scored:
                    return None  # every command knocks out a survivor
                command, rules = _pick(rng, scored)
                touched |= rules
                options = (command,)
            else:
                cards = playable_cards(state)
                if style == _STEERED:
                    options = _steer(state, cards, wanted, rng)
                else:
                    options = legal_commands(state, _pick(rng, cards))
            command = _pick(rng, options)
            commands.append(command)
            state = push(state, command)
            if state.table is not table:  # tokens live in the table: compare when it changes
                table = state.table
                if any(t > w for t, w in zip(table.tokens, wanted, strict=True)):
                    return None
            if survivors and not survivors.isdisjoint(state.out):
                return None
        return tuple(commands), state


#: seeded random games per player count :func:`_card_costs` and
#: :func:`round_end_rules` watch
_COST_GAMES = 4


@functools.cache
def round_end_rules(ruleset: str) -> frozenset[str]:
    """The rules every command that ends a round touches, however the round
    ends (in seeded random games with the fewest and the most players):
    awarding its tokens, checking for the game's end. Every earlier round
    touches them, so a prelude cannot avoid them and is not asked to."""
    rules = get_ruleset(ruleset)
    common: frozenset[str] | None = None
    for players in sorted({rules.min_players, rules.max_players}):
        chooser = random.Random(f"ends/{ruleset}/{players}")
        for game in range(_COST_GAMES):
            state = new_game(rules, players, seed=game)
            while state.decision is not Decision.GAME_OVER and state.round_number < 4:
                command = chooser.choice(legal_commands(state))
                touched = frozenset(rules_touched(state, command))
                state, events = step(state, command)
                if any(isinstance(event, RoundEnded) for event in events):
                    common = touched if common is None else common & touched
    return common or frozenset()


@functools.cache
def _card_costs(ruleset: str) -> dict[Card, tuple[float, frozenset[str]]]:
    """For each card, how many rules a play of it touches on average (beyond
    the background every play touches: :func:`touches.rules_touched`), and
    which (beyond those every round's end touches), over seeded random
    games with the fewest and the most players: what a themed deck puts
    last. Measured, not listed, so that a new card needs nothing here."""
    rules = get_ruleset(ruleset)
    counts: dict[Card, list[int]] = {}
    touched: dict[Card, set[str]] = {}
    for players in sorted({rules.min_players, rules.max_players}):
        chooser = random.Random(f"costs/{ruleset}/{players}")
        for game in range(_COST_GAMES):
            state = new_game(rules, players, seed=game)
            while state.decision is not Decision.GAME_OVER and state.round_number < 3:
                command = chooser.choice(legal_commands(state))
                if isinstance(command, PlayCard):
                    found = rules_touched(state, command)
                    counts.setdefault(command.card, []).append(len(found))
                    touched.setdefault(command.card, set()).update(found)
                state = push(state, command)
    ends = round_end_rules(ruleset)
    return {
        card: (sum(numbers) / len(numbers), frozenset(touched[card]) - ends)
        for card, numbers in counts.items()
    }


#: the cards that award tokens besides a round win
_BONUS_CARDS = frozenset({Card.SPY, Card.JESTER, Card.BISHOP, Card.CONSTABLE})


def _steer(
    state: GameState, cards: Sequence[Card], wanted: Sequence[int], rng: random.Random
) -> Sequence[Command]:
    """The commands a steered player picks from.

    The search sees every hand, so it can play towards the tokens still
    owed: a player owed a token plays a bonus card when holding one; a
    Bishop names the right number only for a player owed a token (and not
    to reach the threshold alone, which would end the game); a Jester marks
    a player whose win would pay exactly when its own player is owed a
    token; a Guard knocks out the players better out (:func:`_better_out`).
    Random play finds the rounds that give several tokens to the right
    players far more slowly (the last round of some tie-break preludes by a
    factor of 20)."""
    player = state.current
    table = state.table
    owed = _owed(state, wanted)
    bonus = [c for c in cards if c in _BONUS_CARDS]
    if bonus and owed[player] > 0 and rng.random() < 0.75:
        card = _pick(rng, bonus)
    else:
        card = _pick(rng, cards)
    options = legal_commands(state, card)
    if card is not Card.BISHOP and card is not Card.JESTER and card is not Card.GUARD:
        return options
    rules = table.ruleset
    threshold = rules.tokens_to_win(table.players) or 2**31
    toward: list[Command] = []
    for command in options:
        assert isinstance(command, PlayCard)
        target = command.target
        if target is None:
            continue
        if card is Card.JESTER:
            if (owed[target] > 0) == (owed[player] > 0):
                toward.append(command)
            continue
        held = state.hands[target][0]
        # Premium names numbers, 2019 names cards (an IntEnum: compare by identity)
        hit = command.guess == rules.values[held] if rules.names_numbers else command.guess is held
        if card is Card.BISHOP:
            if hit == (owed[player] > 0 and table.tokens[player] + 1 < threshold):
                toward.append(command)
        elif hit == _better_out(state, target, owed, threshold):
            toward.append(command)
    return toward or options


def _one_guess_each(state: GameState, commands: Sequence[Command]) -> list[Command]:
    """``commands`` with one right guess and one wrong one kept for each
    card and target (a Guard's or a Bishop's): every wrong guess plays
    alike, and trying each on the engine would cost most of a themed round."""
    kept: list[Command] = []
    seen: set[tuple[object, ...]] = set()
    rules = state.ruleset
    for command in commands:
        if (
            isinstance(command, PlayCard)
            and command.guess is not None
            and command.target is not None
        ):
            held = state.hands[command.target][0]
            # Premium names numbers, 2019 names cards (an IntEnum: compare by identity)
            hit = (
                command.guess == rules.values[held]
                if rules.names_numbers
                else command.guess is held
            )
            key = (command.card, command.target, command.second_target, hit)
            if key in seen:
                continue
            seen.add(key)
        kept.append(command)
    return kept


def _owed(state: GameState, wanted: Sequence[int]) -> list[int]:
    """The tokens each seat still needs, less one for each Jester it played
    on a seat that needs some (that token comes if the marked seat wins)."""
    owed = [w - t for w, t in zip(wanted, state.tokens, strict=True)]
    for player, marked in state.marks:
        if wanted[marked] > state.tokens[marked]:
            owed[player] -= 1
    return owed


def _better_out(state: GameState, seat: int, owed: Sequence[int], threshold: int) -> bool:
    """Whether knocking ``seat`` out helps: a seat owed nothing (more) cannot
    win once out; a seat with a Constable in its pile gains a token by going
    out, which helps if it is owed one, and does not end the game by taking
    it to the threshold alone (a knock-out that ends the round scores with
    the round's winners instead)."""
    if Card.CONSTABLE not in state.discards[seat]:
        return owed[seat] <= 0
    ends_round = state.players - len(state.out) == 2
    return owed[seat] > 0 and (ends_round or state.tokens[seat] + 1 < threshold)


def prior_rounds(
    ruleset: str,
    players: int,
    tokens: Sequence[int],
    round_number: int,
    first_player: int,
    contenders: Sequence[int] = (),
    *,
    seed: int = 0,
    budget: int = DEFAULT_BUDGET,
    decks: int = 1,
    absent: Sequence[int] = (),
    avoid: Iterable[str] = (),
) -> Prelude | None:
    """The rounds to play before round ``round_number`` of a game of
    ``ruleset`` and ``players`` so that it starts with ``tokens``, may be
    started by ``first_player`` and, when ``contenders`` is given, is the
    Premium tie-break round between them (ruling 31). Online, every round
    is dealt from ``decks`` copies of the deck, and the players ``absent``
    leave between round R-1 and round R (ruling 50): so the first player
    may also be one who did not win round R-1, when all who did have left.

    Among the rounds that lead there the search prefers (after what it
    needs to get there) rounds whose commands touch none of the rules in
    ``avoid`` (the case's own: a bug in one should fail the case, not keep
    an engine from reaching its start), then rounds ending the way of a
    theme the seed draws (:func:`themes`: the deck running out, a Guard's
    guess, a Baron...) with quiet plays otherwise, then rounds touching
    few rules beyond those of the rounds before: so that across the suite,
    with a seed per case, the preludes depend on varied rules and few each.

    ``None`` when no game can get there (:func:`impossibility` says why) or
    when ``budget`` simulated rounds found none (then another seed or a
    larger budget may). The same arguments always give the same prelude.
    Round 1 needs no prelude: no commands, and a deck that does not matter.
    Malformed arguments raise :class:`ValueError`.
    """
    goal = _goal(ruleset, players, tokens, round_number, first_player, contenders, decks, absent)
    if impossibility(
        goal.rules,
        players,
        tokens,
        round_number,
        first_player,
        contenders,
        decks=goal.decks,
        absent=goal.absent,
    ):
        return None
    if goal.rounds == 0:
        deck = goal.rules.deck_for(players, goal.decks)
        return Prelude(goal.rules.name, players, deck, first_player, (), decks=goal.decks)
    rng = random.Random(seed)
    kinds = themes(goal.rules.deck_for(players, goal.decks))
    theme = _pick(rng, kinds)
    helper = _pick(rng, [kind for kind in kinds if kind != theme] or kinds)
    rounds: list[_Round] | None = None
    spent = 0
    for practical in (True, False):
        search = _Search(goal, rng, budget - spent, practical, frozenset(avoid), theme, helper)
        if practical:
            if not search.feasible((0,) * players, (), goal.rounds):
                continue  # the goal needs the rarer rounds from the start
            # leave half of the budget to the search that allows rare rounds
            search.budget = budget // 2
        rounds = search.run()
        spent += search.spent
        if rounds is not None:
            break
    if rounds is None:
        return None
    commands: list[Command] = []
    for index, found in enumerate(rounds):
        if index:
            commands.append(StartRound(found.deck, found.first_player, found.order))
        commands.extend(found.commands)
    commands.extend(Leave(player) for player in goal.absent)
    first = rounds[0]
    return Prelude(
        goal.rules.name,
        players,
        first.deck,
        first.first_player,
        tuple(commands),
        first.order,
        goal.decks,
    )


# --------------------------------------------------------------------------
# checking a prelude


def check_prelude(
    prelude: Prelude,
    tokens: Sequence[int],
    round_number: int,
    first_player: int,
    contenders: Sequence[int] = (),
    *,
    absent: Sequence[int] = (),
) -> list[str]:
    """What is wrong with ``prelude`` as the rounds before round
    ``round_number`` (an empty list: nothing).

    Replays it through the engine: round 1 dealt from ``prelude.deck`` with
    ``prelude.first_player``, then every command, each ``StartRound``
    stacking its deck and naming its first player. The game must then be
    between rounds (round R-1 over, the game not over) in round R-1, with
    exactly ``tokens``; a round R dealt with ``first_player`` first must be
    accepted; and the pending tie-break must be between exactly
    ``contenders`` (none if empty), called by a ``GameTied`` in round R-1;
    online, exactly the players ``absent`` have left, and each round was
    dealt from ``prelude.decks`` copies of the deck. For round 1 the
    prelude must have no commands, the case's first player and no tokens
    (its deck is not used).
    """
    problems: list[str] = []
    try:
        rules = get_ruleset(prelude.ruleset)
        state = new_game(
            rules,
            prelude.players,
            seed=0,
            first_player=prelude.first_player,
            deck=prelude.deck,
            order=prelude.order,
            settings=TableSettings(decks=prelude.decks) if rules.online_table else None,
        )
    except (LoveLetterError, ValueError) as error:
        return [f"round 1 cannot be dealt: {error}"]
    wanted = tuple(tokens)
    tied = tuple(sorted(contenders))
    if round_number == 1:
        if prelude.commands:
            problems.append("round 1 needs no commands before it")
        if any(wanted) or tied:
            problems.append("round 1 starts with no tokens and no tie")
        if prelude.first_player != first_player:
            problems.append(f"round 1's first player is {prelude.first_player}, not {first_player}")
        return problems
    last_tie: tuple[int, tuple[int, ...]] | None = None
    for index, command in enumerate(prelude.commands):
        if isinstance(command, StartRound) and (
            command.deck is None
            or command.first_player is None
            or (rules.draws_order and command.order is None)
        ):
            what = "deck, first player and order" if rules.draws_order else "deck and first player"
            problems.append(f"command {index}: a StartRound must stack its {what}")
        try:
            state, events = step(state, command)
        except (LoveLetterError, ValueError) as error:
            problems.append(f"command {index} ({command!r}) is refused: {error}")
            return problems
        for event in events:
            if isinstance(event, GameTied):
                last_tie = (state.round_number, event.tied)
    if state.decision is not _NEXT_ROUND:
        problems.append(f"the game waits for {state.decision.value!r}, not for the next round")
    if state.round_number != round_number - 1:
        problems.append(f"the prelude ends in round {state.round_number}, not {round_number - 1}")
    if state.tokens != wanted:
        problems.append(f"the tokens are {list(state.tokens)}, not {list(wanted)}")
    if state.contenders != tied:
        problems.append(f"the players tied are {list(state.contenders)}, not {list(tied)}")
    if tied and last_tie != (round_number - 1, tied):
        problems.append(f"round {round_number - 1} does not end with a tie between {list(tied)}")
    if state.table.left != frozenset(absent):
        problems.append(
            f"the players who left are {sorted(state.table.left)}, not {sorted(absent)}"
        )
    if state.decision is _NEXT_ROUND and not _allows_start(state, first_player):
        problems.append(f"player {first_player} may not start round {round_number}")
    return problems
