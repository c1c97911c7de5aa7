"""Checking that a state can occur: :func:`check_state`.

The engine only ever builds states that the rules reach, so it never checks
its own work on the hot paths (``push``, ``decide``, ``evolve``). A state
that comes from outside (read from JSON, described as a
:class:`~loveletter.Position`, built by hand) is checked here instead, once,
against what the rules allow at every decision: the ruleset and seats, the
tokens, every card of the deck exactly once, the hand sizes, who may be out
or protected, the round's notes (sightings, a Sycophant's requirement, the
Jester's marks, Chancellor returns, the contenders of a tie-break round),
the pending choice, the round's result and the game's winners, and how many
cards the turns played so far can have drawn.

What a position (and a state) must satisfy, each refused with the field
named; none of these needs a search:

1. *Cards*: every card of the edition's deck (online: of its decks) is
   placed exactly once: deck, set-aside card, face-up cards, hands, piles.
2. *Table cards*: a round in progress has its set-aside card (none online),
   and as many face-up cards as its player count sets aside.
3. *Hands*: one card for each player in the round, two for the current
   player once they have drawn (more during a Chancellor's choice), none
   for a player out.
4. *Deck*: a turn starts with more cards than the round ends with.
5. *Current player*: a seat in the round; two players in it at least.
6. *Out*: a player knocked out has a non-empty pile (their hand went on
   it); only a player sitting the round out (not dealt in) has none.
7. *Protection*: only a player in the round, not the current one, whose
   pile ends with the card that protects (the Handmaid).
8. *Draws*: the cards in hands and piles are the deal, one draw per turn
   and the replacement draws, which the cards making them (a Prince, a
   Bishop, an Assassin) in the piles and the turns resolved bound.
9. *Fatal discards*: a card whose discard knocks its player out (the
   Princess) lies only in the piles of players who are out.
10. *Knock-outs*: the players knocked out number no more than the turns
    resolved, nor than the cards in the piles that knock a player out.
11. *Laps*: turns go round the players in order, skipping only those out,
    each leaving its card on its player's pile: the players still in have
    had as many turns as the current player, or one more (those between
    the round's first player and the current one), each at most as many
    as their pile holds cards; a player out at most one more, under the
    hand they gave up; and those shares add up to the turns played (while
    a player in the round has an empty pile, in particular, no one has
    played twice).
12. *Sightings*: what a card played this round showed (its module's
    ``shows``): listed turn by turn, one card per turn, that card in the
    pile of the player who played it, the shape its play makes (a look,
    a comparison each way, a Cardinal's swap and look), no more turns per
    card than its copies in the piles; a comparison of different values
    put its loser out, the card seen on their pile; and while no one is
    out, each turn's player is known, and is the viewer of a look or a
    side of a comparison or a trade made on that turn.
13. *Tokens*: never negative; below the tokens to win while the game goes
    on (unless tied for it); at least one per round ended; for each
    player, no more than the rounds ended and the cards of the round under
    way (a Bishop's guess, a Constable) can have paid.
14. *First player*: after round 1, the player who started the round won
    the one before, so holds a token (checked where the round's first
    player can be told: online, from its order while no one has left;
    elsewhere while no one is out of the round).
15. *Notes*: a Sycophant's requirement follows a Sycophant on top of the
    previous player's pile; each Jester mark a Jester in its player's
    pile; each Chancellor return a Chancellor its player played; a pending
    choice the card that leaves it, on top of the current player's pile.
16. *Tie-breaks and online seats*: the contenders of a tie-break round are
    the players dealt in; online, the turn order lists the players dealt
    in, ``exits`` the players out in the order they went out, and a player
    who left is out.

The checks name the field at fault with the same names on a state and on a
position (``"hands[2]"``, ``"tokens[1]"``, ``"current"``); the table's fields
are named without ``table.``, as a state reads them (``state.tokens``).
:func:`loveletter.from_position` runs them with
:class:`~loveletter.errors.PositionError`, :func:`check_state` with
:class:`~loveletter.errors.StateError`.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Collection, Sequence

from loveletter.cards import Card
from loveletter.cards.base import CardRules, Shows
from loveletter.chance import is_seed
from loveletter.errors import LoveLetterError, StateError
from loveletter.events import RoundEndReason
from loveletter.ranking import round_ranks
from loveletter.rules import implements
from loveletter.rulesets import RULESETS, GameTie, Ruleset, Scoring
from loveletter.state import (
    PLAYER_DECISIONS,
    Decision,
    GameState,
    RoundResult,
    Sighting,
    Table,
    TableSettings,
    previous_player,
)

#: builds the error to raise from a field name and a message
Fail = Callable[[str, str], LoveLetterError]

_KNOWN_RULESETS = frozenset(id(r) for r in RULESETS.values())


def cards_that(
    ruleset: Ruleset, kinds: Sequence[Card], fact: Callable[[CardRules], object]
) -> frozenset[Card]:
    """The kinds among ``kinds`` whose rules in ``ruleset`` state ``fact``:
    what a card leaves behind is said by its own module
    (:class:`~loveletter.cards.base.CardRules`), never listed here."""
    rules = ruleset.rules
    return frozenset(card for card in kinds if fact(rules[card]))


def check_state(state: GameState) -> None:
    """Raise :class:`~loveletter.errors.StateError` naming the first field
    of ``state`` that no game can reach; return ``None`` for a state that
    play reaches (every state ``push`` and ``step`` return does)."""
    check_fields(state, StateError)


def short(value: object) -> str:
    """``repr(value)`` kept short (a card by its name): messages never grow with hostile input
    (and never fail on an integer too long to print or a deep nest)."""
    if isinstance(value, Card):
        return str(value)  # its name: a message is read by people
    if isinstance(value, int) and not isinstance(value, bool):
        if value.bit_length() > 200:
            return f"<an integer of {value.bit_length()} bits>"
        return repr(value)
    if value is None or isinstance(value, bool | float | str):
        text = repr(value)
    elif isinstance(value, tuple | list | frozenset | set | dict):
        return f"<{type(value).__name__} of {len(value)} items>"
    else:
        return f"<{type(value).__name__}>"
    return text if len(text) <= 60 else text[:57] + "..."


def is_int(value: object) -> bool:
    """An ``int`` proper: not a ``bool``, not a float equal to one."""
    return type(value) is int


def is_seat(value: object, players: int) -> bool:
    return type(value) is int and 0 <= value < players


def check_fields(state: object, fail: Fail) -> None:
    """Every check of :func:`check_state`, raising ``fail(field, message)``."""
    if not isinstance(state, GameState):
        raise fail("state", f"not a GameState: {short(state)}")
    table = state.table
    if not isinstance(table, Table):
        raise fail("table", f"not a Table: {short(table)}")
    decision = state.decision
    if not isinstance(decision, Decision):
        raise fail("decision", f"not a Decision: {short(decision)}")
    ruleset = check_ruleset(table.ruleset, fail)
    n = check_players(ruleset, table.players, fail)
    for name in ("hands", "discards"):
        _check_zone_list(getattr(state, name), name, n, fail)
    contenders = _tuple_of_seats(table.contenders, "contenders", n, fail)
    decks = check_table_settings(ruleset, table.settings, fail)
    left = _seat_set(table.left, "left", n, fail)
    if left and not ruleset.online_table:
        raise fail("left", f"no one leaves a game of {ruleset.name}")
    _check_tokens(state, ruleset, n, contenders, fail)
    _check_numbers(state, fail)
    if table.round_number == 0:
        _check_before_first_deal(state, n, fail)
        return
    _check_cards(state, ruleset.deck_for(n, decks), fail)
    _check_table_cards(state, ruleset, n, fail)
    out = _seat_set(state.out, "out", n, fail)
    protected = _seat_set(state.protected, "protected", n, fail)
    _check_order(state, ruleset, n, out, left, fail)
    _check_current(state, n, out, fail)
    _check_hands(state, n, out, fail)
    _check_protected(state, out, protected, fail)
    _check_pile_left(state, ruleset, fail)
    kinds = ruleset.setup(n).kinds
    _check_pending(state, n, out, protected, kinds, fail)
    discards = state.discards
    check_sightings(state.sightings, n, _last_sighting_turn(state), ruleset, kinds, discards, fail)
    check_returns(state.returns, discards, n, ruleset, kinds, fail, _returning(state))
    _check_required(state, n, out, protected, kinds, fail)
    check_marks(state.marks, discards, n, ruleset, kinds, fail)
    sitters = _check_contenders(state, ruleset, n, out, contenders, fail)
    _check_result(state, ruleset, n, out, contenders, fail)
    _check_rounds_and_tokens(state, ruleset, n, fail)
    _check_turn_count(state, n - len(sitters), fail)
    _check_piles(state, ruleset, out, sitters, fail)
    _check_laps(state, n, out, sitters, fail)
    _check_first_player(state, ruleset, n, out, fail)
    _check_sightings_by_turn(state, ruleset, n, out, fail)


# --------------------------------------------------------------------------
# the table


def check_table(table: Table) -> None:
    """The checks a :class:`Table` passes on its own (read from JSON, say):
    a ruleset of this library, a player count it supports, a seed, a token
    count per seat, a round number, seats for the contenders and winners,
    cards for the set-aside and face-up cards. The rest needs the whole
    state (:func:`check_state`)."""
    fail = StateError
    if not isinstance(table, Table):
        raise fail("table", f"not a Table: {short(table)}")
    ruleset = check_ruleset(table.ruleset, fail)
    n = check_players(ruleset, table.players, fail)
    check_table_settings(ruleset, table.settings, fail)
    _seat_set(table.left, "left", n, fail)
    _tuple_of_seats(table.order, "order", n, fail)
    tokens = table.tokens
    check_token_counts(tokens, n, fail)
    if not is_int(table.round_number) or table.round_number < 0:
        raise fail("round_number", f"invalid value {short(table.round_number)}")
    if not is_seed(table.seed):
        raise fail("seed", f"invalid value {short(table.seed)}: an integer from 0 to 2**256 - 1")
    _tuple_of_seats(table.contenders, "contenders", n, fail)
    _tuple_of_seats(table.winners, "winners", n, fail)
    if table.set_aside is not None and type(table.set_aside) is not Card:
        raise fail("set_aside", f"not a card: {short(table.set_aside)}")
    face_up = table.face_up
    if not isinstance(face_up, tuple) or not all(type(c) is Card for c in face_up):
        raise fail("face_up", f"must be a tuple of cards, not {short(face_up)}")
    if len(face_up) not in (0, ruleset.face_up_count(n)):
        raise fail("face_up", f"a {n}-player round has {ruleset.face_up_count(n)} face-up cards")


def check_token_counts(tokens: object, n: int, fail: Fail) -> None:
    """A token count (a win counter online) for each of ``n`` seats, 0 or more."""
    if not isinstance(tokens, tuple) or len(tokens) != n:
        raise fail("tokens", f"must list {n} seats, not {short(tokens)}")
    for seat, count in enumerate(tokens):
        if not is_int(count) or count < 0:
            raise fail(f"tokens[{seat}]", f"a token count is 0 or more, not {short(count)}")


def check_ruleset(ruleset: object, fail: Fail) -> Ruleset:
    if not isinstance(ruleset, Ruleset) or id(ruleset) not in _KNOWN_RULESETS:
        known = ", ".join(sorted(RULESETS))
        raise fail("ruleset", f"not one of this library's rulesets ({known}): {short(ruleset)}")
    return ruleset


@implements("setup.decks-online", "online.time-control-settings")
def check_table_settings(ruleset: Ruleset, settings: object, fail: Fail) -> int:
    """The table's settings: an online table has them (ruling 52), in their
    ranges; no other edition has any. Returns the number of decks."""
    if not ruleset.online_table:
        if settings is not None:
            raise fail("settings", f"{ruleset.name} has no table settings")
        return 1
    if not isinstance(settings, TableSettings):
        raise fail("settings", f"an online table has its settings, not {short(settings)}")
    limits = (
        ("decks", 1, ruleset.max_decks),
        ("turn_time_ms", 5_000, 60_000),
        ("intermission_ms", 0, 30_000),
    )
    for name, low, high in limits:
        value = getattr(settings, name)
        if not is_int(value) or not low <= value <= high:
            raise fail(f"settings.{name}", f"from {low} to {high}, not {short(value)}")
    if type(settings.random_moves) is not bool:
        raise fail("settings.random_moves", f"true or false, not {short(settings.random_moves)}")
    return settings.decks


@implements("setup.player-count", "setup.player-count-premium", "setup.player-count-online")
def check_players(ruleset: Ruleset, players: object, fail: Fail) -> int:
    if type(players) is not int or not ruleset.supports(players):
        raise fail(
            "players",
            f"{ruleset.name} is for {ruleset.min_players}-{ruleset.max_players} players,"
            f" not {short(players)}",
        )
    return players


def _check_zone_list(value: object, name: str, n: int, fail: Fail) -> None:
    if not isinstance(value, tuple):
        raise fail(name, f"must be a tuple of {n} seats' cards, not {short(value)}")
    if len(value) != n:
        raise fail(name, f"must list {n} seats, not {len(value)}")
    for seat, cards in enumerate(value):
        if not isinstance(cards, tuple):
            raise fail(f"{name}[{seat}]", f"must be a tuple of cards, not {short(cards)}")


def _tuple_of_seats(value: object, name: str, n: int, fail: Fail) -> tuple[int, ...]:
    if not isinstance(value, tuple) or not all(is_seat(s, n) for s in value):
        raise fail(name, f"must list seats from 0 to {n - 1}, not {short(value)}")
    return value


@implements("game.tokens-to-win", "game.tokens-to-win-premium", "game.tie-break-round")
def _check_tokens(
    state: GameState, ruleset: Ruleset, n: int, contenders: tuple[int, ...], fail: Fail
) -> None:
    """Below the tokens to win while the game goes on; at or past them for
    the players tied for the game (ruling 31); the winners are checked with
    the game's end.

    A tie-break round that ends with several tied players gaining a token
    ties them again, without the others (ruling 31): a player left out of
    that tie keeps the tokens to win without being tied any more, and the
    players still tied have each gained a token since they tied with them,
    so they are past the tokens to win."""
    tokens = state.table.tokens
    check_token_counts(tokens, n, fail)
    needed = ruleset.tokens_to_win(n)
    if needed is None:  # online: a win counter has no threshold (ruling 44)
        return
    for seat, count in enumerate(tokens):
        if seat in contenders and count < needed:  # tied for the game
            raise fail(f"tokens[{seat}]", f"a tied player has {needed} or more")
    if state.decision is Decision.GAME_OVER and not contenders:
        return  # the players at the tokens to win are the winners
    for seat, count in enumerate(tokens):
        if seat in contenders or count < needed:
            continue
        if not contenders:
            raise fail(
                f"tokens[{seat}]", f"must be 0 to {needed - 1} while the game goes on, not {count}"
            )
        if any(tokens[tied] <= needed for tied in contenders):
            raise fail(
                f"tokens[{seat}]",
                f"player {seat} has the tokens to win and is not tied for the game: only a"
                " player left out of a later tie, which the players still tied won a token"
                " to enter",
            )


def _check_numbers(state: GameState, fail: Fail) -> None:
    table = state.table
    round_number, turn_number = table.round_number, state.turn_number
    if not is_int(round_number) or round_number < 0:
        raise fail("round_number", f"invalid value {short(round_number)}")
    in_round = state.decision in PLAYER_DECISIONS
    if round_number == 0 and in_round:
        raise fail("round_number", "a round being played has a number from 1")
    if not is_int(turn_number) or turn_number < (1 if round_number else 0):
        raise fail("turn_number", f"invalid value {short(turn_number)}")
    if not is_seed(table.seed):
        raise fail("seed", f"invalid value {short(table.seed)}: an integer from 0 to 2**256 - 1")


def _check_before_first_deal(state: GameState, n: int, fail: Fail) -> None:
    """Round 0: the game as ``GameStarted`` creates it, nothing dealt yet."""
    table = state.table
    if state.decision is not Decision.NEXT_ROUND:
        raise fail("round_number", "round 0 is the wait for the first deal")
    if state.turn_number != 0:
        raise fail("turn_number", "no turn is played before the first deal")
    if not is_seat(state.current, n):
        raise fail("current", f"the first player is a seat from 0 to {n - 1}")
    empty: list[tuple[str, object, object]] = [
        ("tokens", table.tokens, (0,) * n),
        ("deck", state.deck, ()),
        ("set_aside", table.set_aside, None),
        ("face_up", table.face_up, ()),
        ("hands", state.hands, ((),) * n),
        ("discards", state.discards, ((),) * n),
        ("round_result", table.round_result, None),
        ("winners", table.winners, ()),
        ("contenders", table.contenders, ()),
        ("out", state.out, frozenset()),
        ("protected", state.protected, frozenset()),
        ("sightings", state.sightings, ()),
        ("pending", state.pending, ()),
        ("required", state.required, None),
        ("marks", state.marks, ()),
        ("returns", state.returns, ()),
        ("exits", state.exits, ()),
        ("order", table.order, ()),
    ]
    for name, value, expected in empty:
        if value != expected or type(value) is not type(expected):
            raise fail(name, f"nothing is dealt, played or won before round 1: {short(value)}")


# --------------------------------------------------------------------------
# the cards


def check_card_zones(
    zones: Sequence[tuple[str, Sequence[object]]], deck: tuple[Card, ...], fail: Fail
) -> None:
    """Every card of ``deck`` is placed exactly once across the zones."""
    for name, cards in zones:
        for card in cards:
            if type(card) is not Card:
                raise fail(name, f"{short(card)} is not a card")
    held: Counter[object] = Counter(card for _, cards in zones for card in cards)
    expected: Counter[object] = Counter(deck)
    if held != expected:
        extra = held - expected
        missing = expected - held
        parts = []
        if extra:
            parts.append("too many " + ", ".join(f"{c} x{k}" for c, k in sorted(extra.items())))
        if missing:
            parts.append("missing " + ", ".join(f"{c} x{k}" for c, k in sorted(missing.items())))
        raise fail("cards", f"every card of the ruleset must be placed once: {'; '.join(parts)}")


def _check_cards(state: GameState, deck: tuple[Card, ...], fail: Fail) -> None:
    table = state.table
    for name, value in (("deck", state.deck), ("face_up", table.face_up)):
        if not isinstance(value, tuple):
            raise fail(name, f"must be a tuple of cards, not {short(value)}")
    zones: list[tuple[str, Sequence[object]]] = [
        ("deck", state.deck),
        ("set_aside", () if table.set_aside is None else (table.set_aside,)),
        ("face_up", table.face_up),
    ]
    zones += [(f"hands[{i}]", hand) for i, hand in enumerate(state.hands)]
    zones += [(f"discards[{i}]", pile) for i, pile in enumerate(state.discards)]
    check_card_zones(zones, deck, fail)


@implements(
    "setup.set-aside-face-down",
    "setup.two-player-face-up",
    "prince.empty-deck-draws-set-aside",
)
def _check_table_cards(state: GameState, ruleset: Ruleset, n: int, fail: Fail) -> None:
    """Rulings 9 and 38: the set-aside card is drawn only by a replacement
    draw on an empty deck, and the round ends with that turn; so a round in
    progress still has it."""
    table = state.table
    if not ruleset.sets_aside:
        if table.set_aside is not None:
            raise fail("set_aside", f"{ruleset.name} sets no card aside (ruling 42)")
    elif table.set_aside is None:
        if state.decision in PLAYER_DECISIONS or table.round_result is None:
            raise fail("set_aside", "a round in progress still has its set-aside card (ruling 9)")
        if state.deck:
            raise fail("set_aside", "the set-aside card is drawn only when the deck is empty")
    if len(table.face_up) != ruleset.face_up_count(n):
        raise fail("face_up", f"a {n}-player round has {ruleset.face_up_count(n)} face-up cards")


# --------------------------------------------------------------------------
# seats and hands


def _seat_set(value: object, name: str, n: int, fail: Fail) -> frozenset[int]:
    if not isinstance(value, frozenset) or not all(is_seat(s, n) for s in value):
        raise fail(name, f"must list distinct seats from 0 to {n - 1}")
    return value


@implements("out.turn-skipped")
def _check_current(state: GameState, n: int, out: frozenset[int], fail: Fail) -> None:
    current = state.current
    if not is_seat(current, n):
        raise fail("current", f"must be a seat from 0 to {n - 1}, not {short(current)}")
    live = n - len(out)
    if state.decision in PLAYER_DECISIONS:
        if current in out:
            raise fail("current", f"player {current} is out of the round")
        if live < 2:
            raise fail("out", "a round in progress has at least two players in it")
    elif _won_mid_round(state) and live < 2:
        raise fail("out", "a round won by no one has at least two players in it")
    elif live < 1:
        raise fail("out", "a round ends with at least one player in it")


@implements("setup.turn-order-online", "round.ranks-online", "online.leave-any-time")
def _check_order(
    state: GameState,
    ruleset: Ruleset,
    n: int,
    out: frozenset[int],
    left: frozenset[int],
    fail: Fail,
) -> None:
    """Online: the round's turn order lists the players dealt in (every
    player present when the round began, ruling 43); the players out of the
    round are the ones who went out, in the order they went out, and the
    ones who had left before it; a player who left is out. Elsewhere none
    of this is kept."""
    table = state.table
    order = _tuple_of_seats(table.order, "order", n, fail)
    exits = _tuple_of_seats(state.exits, "exits", n, fail)
    if not ruleset.draws_order:
        if order:
            raise fail("order", f"{ruleset.name} plays in seat order")
        if exits:
            raise fail("exits", f"{ruleset.name} does not rank the players who went out")
        return
    if len(set(order)) != len(order) or len(set(exits)) != len(exits):
        raise fail("order" if len(set(order)) != len(order) else "exits", "lists a seat twice")
    dealt = frozenset(order)
    sitters = frozenset(range(n)) - dealt
    if not sitters <= left:
        seat = min(sitters - left)
        raise fail("order", f"player {seat} is at the table: dealt into the round")
    if not sitters <= out:
        raise fail("out", f"player {min(sitters - out)} was not dealt into the round")
    if frozenset(exits) != out - sitters:
        raise fail(
            "exits",
            "must list the players who went out of the round, in the order they went out:"
            f" {sorted(out - sitters)}",
        )
    if state.decision in PLAYER_DECISIONS and not left <= out:
        raise fail("left", f"player {min(left - out)} has left: out of the round")
    if len(dealt) < 2:
        raise fail("order", "a round is dealt to two players or more")


def _check_pile_left(state: GameState, ruleset: Ruleset, fail: Fail) -> None:
    """A turn starts only while the deck holds more cards than the round
    ends with (ruling 8; online, ruling 42: two or more), and draws one; a
    card played may then make one replacement draw."""
    floor = ruleset.round_end_pile
    size = len(state.deck)
    decision = state.decision
    if decision is Decision.DRAW and size <= floor:
        raise fail("deck", "the round has ended: no card is left for the turn's draw")
    if decision in PLAYER_DECISIONS and size < floor:
        raise fail("deck", f"a turn of {ruleset.name} starts with {floor + 1} cards or more")


def _won_mid_round(state: GameState) -> bool:
    """A Bishop's or a Constable's token won the game before the round ended
    (ruling 30): the round has no result."""
    return (
        state.decision is Decision.GAME_OVER
        and state.table.round_result is None
        and state.table.ruleset.scoring is Scoring.TOKENS
    )


def _check_hands(state: GameState, n: int, out: frozenset[int], fail: Fail) -> None:
    """One card each, none when out; the current player's hand by decision:
    two once drawn (turn.draw-then-play), one or two more during a
    Chancellor's choice, one once the turn's card is played."""
    decision = state.decision
    current = state.current
    for seat in range(n):
        size = len(state.hands[seat])
        if seat in out:
            allowed: tuple[int, ...] = (0,)
        elif seat != current:
            allowed = (1,)
        elif decision is Decision.PLAY:
            allowed = (2,)
        elif _left_before_playing(state):
            # the others may have left while the current player still held
            # the card they had drawn (ruling 50)
            allowed = (1, 2)
        elif decision is Decision.CHANCELLOR:
            allowed = (2, 3)
        else:
            allowed = (1,)
        if size not in allowed:
            expected = " or ".join(map(str, allowed))
            raise fail(f"hands[{seat}]", f"must hold {expected} card(s), not {size}")


def _left_before_playing(state: GameState) -> bool:
    """Whether the round ended with one player left by departures while
    its current player still held the card they had drawn."""
    result = state.table.round_result
    return (
        state.table.ruleset.online_table
        and state.decision not in PLAYER_DECISIONS
        and result is not None
        and result.reason is RoundEndReason.ONE_PLAYER_LEFT
    )


@implements("handmaid.protection-until-next-turn", "out.untargetable")
def _check_protected(
    state: GameState, out: frozenset[int], protected: frozenset[int], fail: Fail
) -> None:
    """Protection comes from playing a Handmaid and lasts until its player's
    next turn starts, or the round ends (ruling 7). While it lasts, nothing
    can reach its player's pile: every card that adds to another player's
    pile (the Prince's discard, the Bishop's redraw, the Assassin's discard,
    a knock-out) must choose that player first, which protection forbids
    (ruling 24), and the player's own next card waits for their turn. So a
    protected player's pile ends with the Handmaid they played."""
    if protected and not (state.decision in PLAYER_DECISIONS or _won_mid_round(state)):
        raise fail("protected", "protection ends with the round (ruling 7)")
    for seat in sorted(protected):
        if seat in out:
            raise fail("protected", f"player {seat} is out of the round")
        if seat == state.current:
            raise fail("protected", "protection ends when its player's turn starts (ruling 7)")
        pile = state.discards[seat]
        if not pile or not state.table.ruleset.rules[pile[-1]].protects:
            raise fail(
                "protected",
                f"player {seat} is protected, so the last card on their pile is the Handmaid"
                " they played",
            )


# --------------------------------------------------------------------------
# the round's notes


def _last_sighting_turn(state: GameState) -> int:
    """Before the turn's card is played, nothing was shown this turn."""
    if state.decision in (Decision.DRAW, Decision.PLAY):
        return state.turn_number - 1
    return state.turn_number


@implements(
    "priest.look-secretly",
    "baron.secret-comparison",
    "king.trade-hands",
    "dowager-queen.secret-comparison",
    "baroness.look-one-or-two",
    "baroness.two-looks-online",
    "cardinal.swap-two-players",
    "cardinal.optional-look",
    "cardinal.swap-and-look-first-online",
)
def check_sightings(
    sightings: object,
    n: int,
    last_turn: int,
    ruleset: Ruleset,
    kinds: tuple[Card, ...],
    discards: tuple[tuple[Card, ...], ...],
    fail: Fail,
) -> None:
    """Each sighting is one a card played this round can make (its
    module's :class:`~loveletter.cards.base.Shows`): the sightings are
    listed by turn, a turn plays one card so its sightings share the card
    that made them, and that card lies in the pile of the player who
    played it -- the viewer's for a look, the viewer's or the owner's for a
    comparison or a trade (which shows both players, each way, once), any
    pile for a Cardinal's swap -- and no card shows hands on more turns
    than its copies in those piles."""
    if not isinstance(sightings, tuple):
        raise fail("sightings", f"must be a tuple, not {short(sightings)}")
    showing = cards_that(ruleset, kinds, lambda r: r.shows)
    for index, seen in enumerate(sightings):
        if not _well_formed(seen, n, last_turn, kinds, showing):
            raise fail(f"sightings[{index}]", f"not a possible sighting: {short_sighting(seen)}")
        if index and seen.turn < sightings[index - 1].turn:
            raise fail(f"sightings[{index}]", "sightings are listed turn by turn, as they happen")
    turns: dict[int, list[Sighting]] = {}
    for seen in sightings:
        turns.setdefault(seen.turn, []).append(seen)
    made: Counter[tuple[Card, int | None]] = Counter()
    for turn, group in turns.items():
        index = sightings.index(group[0])
        via = group[0].via
        if any(seen.via is not via for seen in group):
            raise fail(
                f"sightings[{index}]", f"turn {turn} played one card: its sightings share it"
            )
        shows = ruleset.rules[via].shows
        player = _sighting_player(group, shows, discards)
        if player is _NO_PLAYER:
            raise fail(
                f"sightings[{index}]",
                f"turn {turn}'s sightings via {via} are not what playing a {via} shows, or no"
                f" {via} lies in the pile of the player who would have played it",
            )
        made[via, player] += 1
    for (via, player), count in made.items():
        piles = discards if player is None else (discards[player],)
        if count > sum(pile.count(via) for pile in piles):
            whose = "the piles" if player is None else f"player {player}'s pile"
            raise fail("sightings", f"{count} turns show hands via {via}, more than {whose} hold")


def _well_formed(
    seen: object, n: int, last_turn: int, kinds: Collection[Card], vias: Collection[Card]
) -> bool:
    """A :class:`Sighting` of one seat by another, on a turn so far, of a
    card of ``kinds``, made through a card of ``vias``."""
    return (
        isinstance(seen, Sighting)
        and is_seat(seen.viewer, n)
        and is_seat(seen.owner, n)
        and seen.viewer != seen.owner
        and is_int(seen.turn)
        and 1 <= seen.turn <= last_turn
        and type(seen.card) is Card
        and seen.card in kinds
        and type(seen.via) is Card
        and seen.via in vias
    )


#: no player of a turn's card fits its sightings
_NO_PLAYER = -1


def _sighting_player(
    group: Sequence[Sighting], shows: Shows, discards: tuple[tuple[Card, ...], ...]
) -> int | None:
    """Who played the card that made one turn's sightings, if it can be
    told (``None`` for a Cardinal's swap, which may not involve its
    player), or ``_NO_PLAYER`` when no play of that card makes them."""
    via = group[0].via
    if shows is Shows.TO_ITS_PLAYER:
        viewer = group[0].viewer
        if len(group) > 2 or any(seen.viewer != viewer for seen in group):
            return _NO_PLAYER
        return viewer if via in discards[viewer] else _NO_PLAYER
    if shows is Shows.BOTH_WAYS:
        a, b = group[0].viewer, group[0].owner
        if len(group) != 2 or (group[1].viewer, group[1].owner) != (b, a):
            return _NO_PLAYER
        # each way once; the player is whichever of the two played it
        players = [p for p in (a, b) if via in discards[p]]
        return players[0] if len(players) == 1 else (None if players else _NO_PLAYER)
    if len(group) > 3 or not any(via in pile for pile in discards):
        return _NO_PLAYER
    return None


def short_sighting(seen: object) -> str:
    if not isinstance(seen, Sighting):
        return short(seen)
    fields = (seen.viewer, seen.owner, seen.card, seen.turn, seen.via)
    return f"Sighting({', '.join(map(short, fields))})"


def _pairs(value: object, name: str, fail: Fail) -> tuple[tuple[int, int], ...]:
    if not isinstance(value, tuple):
        raise fail(name, f"must be a tuple of pairs, not {short(value)}")
    for index, item in enumerate(value):
        if not isinstance(item, tuple) or len(item) != 2 or not all(map(is_int, item)):
            raise fail(f"{name}[{index}]", f"not a pair of integers: {short(item)}")
    return value


def _returning(state: GameState) -> int | None:
    """The player whose Chancellor's return is pending, if any."""
    return state.current if state.decision is Decision.CHANCELLOR else None


@implements("chancellor.draw-two-keep-one", "chancellor.return-bottom-any-order")
def check_returns(
    returns: object,
    discards: tuple[tuple[Card, ...], ...],
    n: int,
    ruleset: Ruleset,
    kinds: tuple[Card, ...],
    fail: Fail,
    returning: int | None = None,
) -> None:
    """Each return is one or two cards (two, or one when one was left to
    draw) from a Chancellor its player played; one whose choice is pending
    has made no return yet."""
    pairs = _pairs(returns, "returns", fail)
    returners = cards_that(ruleset, kinds, lambda r: r.returns)
    most = max((ruleset.rules[card].returns for card in returners), default=0)
    for index, (owner, count) in enumerate(pairs):
        if not 0 <= owner < n or not 1 <= count <= most:
            raise fail(f"returns[{index}]", f"not a possible Chancellor return: {(owner, count)}")
    for seat in range(n):
        made = sum(1 for owner, _ in pairs if owner == seat)
        played = sum(discards[seat].count(card) for card in returners) - (seat == returning)
        if made and made > played:
            raise fail("returns", f"player {seat} returned cards without a Chancellor")


@implements("sycophant.next-card-must-choose")
def _check_required(
    state: GameState,
    n: int,
    out: frozenset[int],
    protected: frozenset[int],
    kinds: tuple[Card, ...],
    fail: Fail,
) -> None:
    required = state.required
    if required is None:
        return
    binding = cards_that(state.table.ruleset, kinds, lambda r: r.restricts_next)
    if not binding or not is_seat(required, n):
        raise fail("required", f"not a seat a Sycophant can require: {short(required)}")
    if state.decision not in (Decision.DRAW, Decision.PLAY):
        # the next card played ends the requirement (ruling 34), and so does the round
        raise fail("required", "a requirement lasts only until the next card is played")
    if required in out or required in protected:
        raise fail("required", f"player {required} cannot have been chosen")
    # The requirement lasts until the next card is played, so the last card
    # played is the Sycophant: on top of the pile of the player before the
    # current one (it knocks no one out).
    before = previous_player(state.table, out, state.current)
    if state.discards[before][-1:] and state.discards[before][-1] in binding:
        return
    # Or its player has left since (ruling 50), the one card they kept
    # going on their pile over it.
    gone = state.table.left & frozenset(state.exits)
    if any(state.discards[seat][-2:-1] and state.discards[seat][-2] in binding for seat in gone):
        return
    raise fail("required", f"player {before}, who played last, did not play a Sycophant")


@implements("jester.mark-expected-winner")
def check_marks(
    marks: object,
    discards: tuple[tuple[Card, ...], ...],
    n: int,
    ruleset: Ruleset,
    kinds: tuple[Card, ...],
    fail: Fail,
) -> None:
    """Each mark is made by a card that marks (the Jester), in its
    player's pile: a player marks as often as they played one."""
    pairs = _pairs(marks, "marks", fail)
    markers = cards_that(ruleset, kinds, lambda r: r.marks)
    for index, mark in enumerate(pairs):
        if (
            not all(0 <= seat < n for seat in mark)
            or mark[0] == mark[1]
            or not any(card in markers for card in discards[mark[0]])
        ):
            raise fail(f"marks[{index}]", f"not a possible Jester mark: {mark!r}")
    for seat in range(n):
        made = sum(1 for player, _ in pairs if player == seat)
        if made > sum(discards[seat].count(card) for card in markers):
            raise fail("marks", f"player {seat} marked more players than they played Jesters")


@implements("game.tie-break-round", "out.discard-hand")
def _check_contenders(
    state: GameState,
    ruleset: Ruleset,
    n: int,
    out: frozenset[int],
    contenders: tuple[int, ...],
    fail: Fail,
) -> frozenset[int]:
    """The seats sitting the round out (ruling 31: out from the start of a
    tie-break round, so with an empty pile), checked against the contenders.
    Every other player out of the round was knocked out, and a knock-out
    puts the player's hand face up on their pile: it is not empty."""
    sitters = frozenset(seat for seat in out if not state.discards[seat])
    if contenders:
        if ruleset.game_tie is not GameTie.TIE_BREAK_ROUND:
            raise fail("contenders", f"{ruleset.name} has no tie-break rounds (ruling 12)")
        if len(set(contenders)) != len(contenders) or len(contenders) < 2:
            raise fail("contenders", "must list two or more distinct seats")
        if list(contenders) != sorted(contenders):
            raise fail("contenders", "must list the tied seats in ascending order")
        if state.table.round_number < 2:
            raise fail("contenders", "a tie for the game comes at the end of a round")
        playing = frozenset(range(n)) - sitters
        decision = state.decision
        if decision is Decision.NEXT_ROUND:
            # the round just ended dealt in everyone, or the players tied before
            wrong = frozenset(contenders) - playing
        else:  # a tie-break round in progress, or the one that won the game
            wrong = playing.symmetric_difference(contenders)
        if wrong:
            seat = min(wrong)
            raise fail(
                "contenders",
                f"player {seat} sits out the tie-break round: out, empty pile"
                if seat not in contenders
                else f"player {seat} is tied for the game: dealt into the tie-break round",
            )
    elif sitters:
        # online: the players who had left before the round sit it out
        dealt = frozenset(state.table.order)
        knocked = sitters & dealt if ruleset.draws_order else sitters
        if knocked:
            seat = min(knocked)
            raise fail(
                "out",
                f"player {seat} is out of the round with an empty pile: a knock-out puts the"
                " player's hand on their pile",
            )
    return sitters


# --------------------------------------------------------------------------
# the decision, the round's result and the game's winners


@implements("chancellor.one-card-in-deck", "cardinal.optional-look", "bishop.target-may-redraw")
def _check_pending(
    state: GameState,
    n: int,
    out: frozenset[int],
    protected: frozenset[int],
    kinds: tuple[Card, ...],
    fail: Fail,
) -> None:
    """A pending choice follows the card just played, on top of the current
    player's pile: a Chancellor's keep (two cards drawn, or one when one was
    left), a Cardinal's look at one of the two hands it swapped, a Bishop's
    target's redraw."""
    decision = state.decision
    pending = state.pending
    current = state.current
    if not isinstance(pending, tuple) or not all(is_seat(s, n) for s in pending):
        raise fail("pending", f"must list seats, not {short(pending)}")
    ruleset = state.table.ruleset
    if decision not in PLAYER_DECISIONS or decision in (Decision.DRAW, Decision.PLAY):
        if pending:
            raise fail(
                "pending", f"no optional step is pending while the game waits for {decision.value}"
            )
        return
    leaving = cards_that(ruleset, kinds, lambda r: r.pending is decision and r.answer)
    pile = state.discards[current]
    if not pile or pile[-1] not in leaving:
        played = " or ".join(map(str, sorted(leaving))) or f"no card of {ruleset.name}"
        raise fail(
            f"discards[{current}]",
            f"a {decision.value} choice follows a card that leaves it ({played}), played:"
            " on top of the player's pile",
        )
    if decision is Decision.CHANCELLOR:
        if pending:
            raise fail("pending", "a Chancellor's choice is the current player's own")
        if len(state.hands[current]) == 2 and state.deck:
            raise fail(
                f"hands[{current}]",
                "a Chancellor draws two cards unless only one was left in the deck",
            )
    elif decision is Decision.LOOK:
        if len(pending) != 2 or pending[0] >= pending[1] or any(s in out for s in pending):
            raise fail("pending", "a Cardinal's look is at one of the two hands it swapped")
        if any(s in protected for s in pending):
            raise fail("pending", "a Cardinal cannot choose a protected player (ruling 24)")
    elif len(pending) != 1 or pending[0] == current or pending[0] in out or pending[0] in protected:
        raise fail("pending", "a Bishop's redraw is offered to the other player it chose")


@implements(
    "round.end-deck-empty",
    "round.end-one-player-left",
    "round.winner-token",
    "game.simultaneous-winners",
    "game.immediate-win",
)
def _check_result(
    state: GameState,
    ruleset: Ruleset,
    n: int,
    out: frozenset[int],
    contenders: tuple[int, ...],
    fail: Fail,
) -> None:
    table = state.table
    decision = state.decision
    result = table.round_result
    winners = table.winners
    if decision in PLAYER_DECISIONS:
        if result is not None:
            raise fail("round_result", "a round in progress has no result yet")
    elif decision is Decision.NEXT_ROUND and result is None:
        raise fail("round_result", "a round that has ended has a result")
    if result is not None:
        _check_round_result(state, result, n, out, fail)
    if decision is not Decision.GAME_OVER:
        if winners != ():
            raise fail("winners", "the game goes on: no one has won it yet")
        return
    if ruleset.scoring is Scoring.RANKS:
        # ruling 44: a match closes, with no winner, only when deserted
        if winners != ():
            raise fail("winners", f"a match of {ruleset.name} has no winner")
        if n - len(table.left) >= 2 or decision is not Decision.GAME_OVER:
            raise fail("left", "a match goes on while two players or more are at the table")
        if state.decision is Decision.GAME_OVER and result is None and table.round_number:
            raise fail("round_result", "a match closes between rounds, once one has ended")
        return
    if not isinstance(winners, tuple) or not winners or not all(is_seat(s, n) for s in winners):
        raise fail("winners", f"a game that is over has winners: {short(winners)}")
    if list(winners) != sorted(set(winners)):
        raise fail("winners", "must list distinct seats in ascending order")
    tokens = table.tokens
    needed = ruleset.tokens_to_win(n)
    assert needed is not None  # only a ranked match has none, and it returned above
    if contenders:
        # ruling 31: the one tied player who gained a token in the tie-break
        if len(winners) != 1 or winners[0] not in contenders or tokens[winners[0]] <= needed:
            raise fail("winners", "a tie-break round is won by one tied player gaining a token")
    else:
        reached = tuple(seat for seat in range(n) if tokens[seat] >= needed)
        if winners != reached:
            raise fail(
                "winners",
                f"the players with {needed} tokens or more win the game: {list(reached)}",
            )


@implements("round.ranks-online", "round.hand-bonus-online", "round.end-pile-online")
def _check_round_result(
    state: GameState, result: object, n: int, out: frozenset[int], fail: Fail
) -> None:
    if not isinstance(result, RoundResult) or not isinstance(result.reason, RoundEndReason):
        raise fail("round_result", f"not a round result: {short(result)}")
    ruleset = state.table.ruleset
    winners, revealed = result.winners, result.revealed
    live = tuple(seat for seat in range(n) if seat not in out)
    if (
        not isinstance(winners, tuple)
        or not winners
        or not all(is_seat(s, n) for s in winners)
        or list(winners) != sorted(set(winners))
        or any(s in out for s in winners)
    ):
        raise fail("round_result.winners", "the round's winners are players left in it, ascending")
    if result.reason is RoundEndReason.ONE_PLAYER_LEFT:
        if len(live) != 1 or winners != live:
            raise fail("round_result", "a round with one player left is won by that player")
        if revealed != ():
            raise fail("round_result.revealed", "the last player left shows no card (ruling 14)")
    else:
        if len(live) < 2:
            raise fail("round_result", "a round ended by an empty deck has two players or more")
        if len(state.deck) > ruleset.round_end_pile:
            raise fail("deck", "a round ended by an empty deck has no card left in it")
        if any(len(state.hands[seat]) != 1 for seat in live):
            raise fail("hands", "a round ends with one card in each hand left")
        shown = tuple((seat, state.hands[seat][0]) for seat in live)
        if revealed != shown:
            raise fail("round_result.revealed", "an empty deck shows every hand left, seat order")
    for seat in winners:
        if state.table.tokens[seat] < 1:
            raise fail(f"tokens[{seat}]", f"player {seat} won the round and a token with it")
    if ruleset.scoring is not Scoring.RANKS:
        if result.ranks is not None:
            raise fail("round_result.ranks", f"{ruleset.name} does not rank the players")
        return
    ranks = round_ranks(ruleset, n, revealed, live, state.exits, state.discards)
    if result.ranks != ranks:
        raise fail("round_result.ranks", f"the round ranks the players {list(ranks)}")
    if winners != tuple(seat for seat in live if ranks[seat] == 1):
        raise fail("round_result.winners", "the round's winners are its rank-1 players")


def _tokens_per_round(ruleset: Ruleset, n: int, decks: int) -> int:
    """The most tokens a player can gain in one round: the round's win, and
    at most one from each card that pays tokens (the Spy pays one at most,
    whatever the number of Spies: spy.one-token-max)."""
    setup = ruleset.setup(n, decks)
    rules = ruleset.rules
    total = 1
    for card in setup.kinds:
        bonus = rules[card].round_end_bonus
        copies = setup.deck.count(card)
        if rules[card].scores_when_played or rules[card].knocked_out_token is not None:
            total += copies
        if bonus is not None:
            total += 1 if bonus.once else copies
    return total


def _tokens_this_round(state: GameState, seat: int) -> int:
    """The most tokens ``seat`` can have gained in the round in progress
    before it ends: a card scoring when played (the Bishop) counts for its
    player, a card scoring when its owner is knocked out (the Constable)
    for a player who is out with it."""
    rules = state.table.ruleset.rules
    pile = state.discards[seat]
    scored = sum(1 for card in pile if rules[card].scores_when_played)
    if seat in state.out:
        scored += sum(1 for card in pile if rules[card].knocked_out_token is not None)
    return scored


@implements("round.winner-token", "spy.one-token-max")
def _check_rounds_and_tokens(state: GameState, ruleset: Ruleset, n: int, fail: Fail) -> None:
    """Every round that ends gives at least one token (its winners': there
    is always one), and no player gains more in a round than the cards can
    pay; so the tokens bound the rounds played. Without a tie for the game,
    the game ends at the first award step that brings someone to the tokens
    to win: no one passes them by more than one round's worth."""
    table = state.table
    ended = table.round_number - (table.round_result is None)
    tokens = table.tokens
    if sum(tokens) < ended:
        raise fail(
            "round_number",
            f"{ended} round(s) have ended, each giving a token, but {sum(tokens)} were given",
        )
    per_round = _tokens_per_round(ruleset, n, table.decks)
    needed = ruleset.tokens_to_win(n)
    for seat, count in enumerate(tokens):
        # the rounds that have ended, and what the round under way has paid
        most = per_round * ended
        if table.round_result is None:
            most += _tokens_this_round(state, seat)
        if not table.contenders and needed is not None:
            most = min(most, needed - 1 + per_round)
        if count > most:
            raise fail(
                f"tokens[{seat}]",
                f"more than the {most} tokens player {seat} can hold in round"
                f" {table.round_number}, after {ended} round(s) ended",
            )


def _turns_resolved(state: GameState) -> int:
    """The turns of the round whose card has been played and resolved (at
    most: online, the round may have ended as the others left before the
        current player played, ruling 50)."""
    t = state.turn_number
    if state.decision in (Decision.NEXT_ROUND, Decision.GAME_OVER):
        unplayed = _left_before_playing(state) and len(state.hands[state.current]) == 2
        return t - 1 if unplayed else t
    return t - 1


@implements(
    "princess.eliminated-when-played-or-discarded",
    "out.discard-hand",
    "turn.order",
    "turn.draw-then-play",
)
def _check_piles(
    state: GameState, ruleset: Ruleset, out: frozenset[int], sitters: frozenset[int], fail: Fail
) -> None:
    """What the discard piles say of the round so far.

    * A card whose discard knocks its player out (the Princess) lies only
      in the pile of a player who is out.
    * Each knock-out is one card's doing, one per turn: a card that knocks
      someone out when played (a Guard, a Baron, a Dowager Queen) or the
      knocked-out player's own such discard; so the players knocked out
      number no more than those cards in the piles, nor than the turns
      resolved. (A player who left an online match is out by leaving.)
    * A player's first turn puts a card on their pile, and piles never
      shrink; turns go round the players in order, so while a player still
      in the round has an empty pile, no one has played twice: the turns
      played are at most the players dealt in who have played.
    """
    rules = ruleset.rules
    discards = state.discards
    for seat, pile in enumerate(discards):
        if seat in out:
            continue
        fatal = next((card for card in pile if rules[card].when_discarded is not None), None)
        if fatal is not None:
            raise fail(
                f"discards[{seat}]",
                f"player {seat} is in the round, but discarding the {fatal} in their pile"
                " knocked them out",
            )
    knocked = out - sitters - state.table.left
    # the top card of a knocked-out player's pile is the hand they gave up,
    # not a card they played
    makers = sum(
        1
        for seat, pile in enumerate(discards)
        for card in (pile[:-1] if seat in knocked else pile)
        if rules[card].knocks_out
    )
    makers += sum(
        1 for seat in out for card in discards[seat] if rules[card].when_discarded is not None
    )
    resolved = _turns_resolved(state)
    if len(knocked) > min(makers, resolved):
        raise fail(
            "out",
            f"{len(knocked)} player(s) knocked out, but the {resolved} turn(s) resolved and the"
            f" {makers} card(s) in the piles that knock a player out allow"
            f" {min(makers, resolved)}",
        )
    dealt = len(discards) - len(sitters)
    waiting = {seat for seat, pile in enumerate(discards) if seat not in out and not pile}
    if not waiting:
        return
    if state.decision in (Decision.DRAW, Decision.PLAY):
        waiting.add(state.current)  # their turn now is their first
    if resolved > dealt - len(waiting):
        first = min(waiting - {state.current} or waiting)
        raise fail(
            f"discards[{first}]",
            f"turn {state.turn_number}: {resolved} turn(s) played, but player {first}, in the"
            f" round, has never played (an empty pile) and no one plays twice before them:"
            f" {dealt - len(waiting)} turn(s) at most",
        )


@implements("turn.order", "out.turn-skipped", "turn.draw-then-play", "setup.turn-order-online")
def _check_laps(
    state: GameState, n: int, out: frozenset[int], sitters: frozenset[int], fail: Fail
) -> None:
    """The turns played so far, shared out round the table.

    Turns go round the players dealt in, skipping only those out of the
    round, from the round's first player (online, its order names them;
    elsewhere any player may have been first). So, with the current player
    about to take a turn after ``k`` of their own, the players still in
    have had ``k`` turns each (from the current player up to the first
    player) or ``k + 1`` (from the first player up to the current one),
    each turn leaving the card played on its player's pile; a player
    knocked out has had at most ``k + 1``, each leaving a card under the
    hand they gave up (a player who left: under the hand they gave up, or
    none if they left on their turn). The turns played must be one of the
    totals those shares allow."""
    if state.decision not in (Decision.DRAW, Decision.PLAY):
        return
    table = state.table
    order = list(table.order) if table.order else [s for s in range(n) if s not in sitters]
    current = state.current
    live = [seat for seat in order if seat not in out]
    at = live.index(current)
    after = live[at + 1 :] + live[:at]  # the others still in, in turn order
    m = len(after)
    piles = [len(pile) for pile in state.discards]
    gone = [seat for seat in order if seat in out and seat not in sitters]
    played = state.turn_number - 1
    splits: Sequence[int]
    if table.order:
        # the first player still in from the order's start takes the lap
        start = next(i for i, seat in enumerate(order) if seat not in out)
        ahead = [seat for seat in order[start:] + order[:start] if seat not in out]
        splits = (m - ahead.index(current),)
    else:
        splits = range(m + 1)
    for k in range(min(played, piles[current]) + 1):
        for behind in splits:  # the first ``behind`` players after the current one had k
            if any(piles[s] < k for s in after[:behind]) or any(
                piles[s] < k + 1 for s in after[behind:]
            ):
                continue
            low = (m + 1) * k + (m - behind)
            high = low + sum(
                max(0, min(piles[s] - (0 if s in table.left else 1), k + 1)) for s in gone
            )
            if low <= played <= high:
                return
    raise fail(
        "turn_number",
        f"turn {state.turn_number} is player {current}'s, but no share of the"
        f" {played} turn(s) played round the table in turn order fits the discard piles",
    )


@implements(
    "priest.look-secretly",
    "baron.compare-lower-out",
    "dowager-queen.compare-higher-out",
    "king.trade-hands",
    "turn.order",
)
def _check_sightings_by_turn(
    state: GameState, ruleset: Ruleset, n: int, out: frozenset[int], fail: Fail
) -> None:
    """What each turn's sightings say of who played it.

    * A comparison that knocks a player out (a Baron's, a Dowager Queen's)
      between cards of different values put its loser out of the round,
      the card seen on their pile.
    * While no one is out of the round, the player of every turn is known
      (from the round's first player: online, its order; elsewhere, the
      current player and the turn number): a look's viewer, or one side of
      a comparison or a trade, is that turn's player.
    """
    sightings = state.sightings
    rules, values = ruleset.rules, ruleset.values
    by_turn: dict[int, list[Sighting]] = {}
    for seen in sightings:
        by_turn.setdefault(seen.turn, []).append(seen)
    for turn, group in by_turn.items():
        via = rules[group[0].via]
        if via.shows is Shows.BOTH_WAYS and via.knocks_out and len(group) == 2:
            a, b = group
            if values[a.card] != values[b.card] and not any(
                seen.owner in out and seen.card in state.discards[seen.owner] for seen in group
            ):
                raise fail(
                    f"sightings[{sightings.index(a)}]",
                    f"turn {turn}'s {group[0].via} compared cards of different values, so one"
                    " of the two players went out, the card seen on their pile",
                )
    if out or state.decision not in PLAYER_DECISIONS:
        return
    order = state.table.order
    t = state.turn_number
    for index, seen in enumerate(sightings):
        if order:
            player = order[(seen.turn - 1) % len(order)]
        else:
            player = (state.current - (t - 1) + seen.turn - 1) % n
        shows = rules[seen.via].shows
        if (shows is Shows.TO_ITS_PLAYER and seen.viewer != player) or (
            shows is Shows.BOTH_WAYS and player not in (seen.viewer, seen.owner)
        ):
            raise fail(
                f"sightings[{index}]",
                f"turn {seen.turn} was player {player}'s (no one is out of the round), who"
                f" did not make this {seen.via} sighting",
            )


@implements(
    "round.next-first-player", "round.next-first-player-tie-random", "setup.turn-order-online"
)
def _check_first_player(
    state: GameState, ruleset: Ruleset, n: int, out: frozenset[int], fail: Fail
) -> None:
    """After the first round, the player who starts a round won the round
    before (online: ranked first in it, while still at the table, ruling
    43), so they hold a token (a win counter). Online the round's order
    names the first player; elsewhere they can be told while no one is out
    of the round: turns go round the seats in order from them."""
    table = state.table
    if table.round_number < 2 or state.decision not in PLAYER_DECISIONS:
        return
    if ruleset.draws_order:
        if table.left:
            return  # a rank-1 player who left gives the start to the shuffle
        first = table.order[0]
    elif out:
        return
    else:
        first = (state.current - (state.turn_number - 1)) % n
    if table.tokens[first] < 1:
        raise fail(
            f"tokens[{first}]",
            f"player {first} started round {table.round_number} (turn {state.turn_number} is"
            f" player {state.current}'s), so won the round before: a token at least",
        )


@implements(
    "setup.deal-one-each",
    "turn.draw-then-play",
    "prince.discard-and-draw",
    "bishop.target-may-redraw",
    "assassin.discard-and-redraw",
    "chancellor.draw-two-keep-one",
)
def _check_turn_count(state: GameState, dealt: int, fail: Fail) -> None:
    """The cards that left the deck (and the set-aside card) since the deal
    must be the ones the turns played so far drew.

    The deal gives one card to each player dealt in (setup.deal-one-each;
    a tie-break round deals only the tied players, ruling 31). Every turn
    starts with one draw (turn.draw-then-play); at a ``draw`` decision the
    current turn's has not happened yet. Cards then move between hands and
    piles, or from a hand to a pile (a knock-out, out.discard-hand; a King
    or Cardinal trade), without leaving them. The only other draws are:

    * a Chancellor's one or two cards (chancellor.draw-two-keep-one), which
      go back under the deck when its player chooses: they count only while
      that choice is pending (the current hand's extra cards);
    * a replacement draw after a discard without effect: the Prince's target
      (prince.discard-and-draw), the Bishop's target who redraws
      (bishop.target-may-redraw), the Assassin's holder chosen by a Guard
      (assassin.discard-and-redraw). A turn plays one card, and each card
      makes at most one such draw (rulings 9 and 38), taken once the card's
      effect resolves; and the card that made it (a Prince, a Bishop, the
      Assassin) lies in a pile from then on.

    So, with ``t`` the turn number and ``r`` the replacement draws made,
    the cards in hands and piles number ``dealt + t + r`` (one fewer at a
    ``draw`` decision, plus the Chancellor's while its choice is pending),
    where ``0 <= r`` and ``r`` is at most the turns whose card has resolved
    (``t - 1`` while the current turn's card is unplayed or its choice
    pending, ``t`` once the round or the game is over) and at most the
    Princes, Bishops and Assassins in the piles.
    """
    decision = state.decision
    t = state.turn_number
    held = sum(map(len, state.hands)) + sum(map(len, state.discards))
    turn_draws = t - 1 if decision is Decision.DRAW else t
    chancellor = len(state.hands[state.current]) - 1 if decision is Decision.CHANCELLOR else 0
    replaced = held - dealt - turn_draws - chancellor
    resolved = t if decision in (Decision.NEXT_ROUND, Decision.GAME_OVER) else t - 1
    rules = state.table.ruleset.rules
    makers = sum(1 for pile in state.discards for card in pile if rules[card].replaces)
    most = min(resolved, makers)
    if not 0 <= replaced <= most:
        low = dealt + turn_draws + chancellor
        raise fail(
            "turn_number",
            f"turn {t} of a round dealt to {dealt} player(s) accounts for {low} to {low + most}"
            f" cards in hands and piles (the deal, each turn's draw and at most {most}"
            f" replacement draws), not {held}",
        )


# --------------------------------------------------------------------------
# between the events of one command


def check_between_events(state: GameState) -> None:
    """Raise :class:`~loveletter.errors.StateError` naming the first field
    of ``state`` that no event of a game can leave, in the middle of a
    command's events as well as at its end.

    Between the events of one command a state is not settled: after a
    ``CardPlayed`` the current player holds one card at a ``play``
    decision, after a ``RoundStarted`` the hands are empty, after a
    ``RoundEnded`` its winners have no token yet. So this checks only what
    holds after every event: the types of the fields, the ruleset, the
    players and the table's settings, every zone a tuple of cards and every
    card of the deck in use placed exactly once (none before the first
    deal), every seat field a seat, a player out of the round holding
    nothing and not protected, token counts of 0 or more, and the round's
    notes (the pending seats, a requirement, the marks, the returns, the
    sightings, the round's result) well formed. :func:`check_state` is the
    whole check of a state a command leaves; this is the property
    :func:`loveletter.evolve` keeps for any event it accepts."""
    fail = StateError
    if not isinstance(state, GameState):
        raise fail("state", f"not a GameState: {short(state)}")
    table = state.table
    if not isinstance(table, Table):
        raise fail("table", f"not a Table: {short(table)}")
    if not isinstance(state.decision, Decision):
        raise fail("decision", f"not a Decision: {short(state.decision)}")
    ruleset = check_ruleset(table.ruleset, fail)
    n = check_players(ruleset, table.players, fail)
    decks = check_table_settings(ruleset, table.settings, fail)
    for name in ("hands", "discards"):
        _check_zone_list(getattr(state, name), name, n, fail)
    out = _seat_set(state.out, "out", n, fail)
    protected = _seat_set(state.protected, "protected", n, fail)
    if _seat_set(table.left, "left", n, fail) and not ruleset.online_table:
        raise fail("left", f"no one leaves a game of {ruleset.name}")
    seats = (
        ("contenders", table.contenders),
        ("winners", table.winners),
        ("order", table.order),
        ("exits", state.exits),
        ("pending", state.pending),
    )
    for name, value in seats:
        _tuple_of_seats(value, name, n, fail)
    if not is_seat(state.current, n):
        raise fail("current", f"must be a seat from 0 to {n - 1}, not {short(state.current)}")
    if state.required is not None and not is_seat(state.required, n):
        raise fail("required", f"must be a seat or None, not {short(state.required)}")
    tokens = table.tokens
    check_token_counts(tokens, n, fail)
    for name, number in (("round_number", table.round_number), ("turn_number", state.turn_number)):
        if not is_int(number) or number < 0:
            raise fail(name, f"invalid value {short(number)}")
    if not is_seed(table.seed):
        raise fail("seed", f"invalid value {short(table.seed)}: an integer from 0 to 2**256 - 1")
    if table.set_aside is not None and type(table.set_aside) is not Card:
        raise fail("set_aside", f"not a card: {short(table.set_aside)}")
    _check_cards(state, ruleset.deck_for(n, decks) if table.round_number else (), fail)
    for seat in sorted(out):
        if state.hands[seat]:
            raise fail(f"hands[{seat}]", f"player {seat} is out of the round: they hold nothing")
    if protected & out:
        raise fail("protected", f"player {min(protected & out)} is out of the round")
    kinds = ruleset.setup(n, decks).kinds
    _check_notes_between_events(state, n, kinds, fail)


def _check_notes_between_events(
    state: GameState, n: int, kinds: tuple[Card, ...], fail: Fail
) -> None:
    """The round's notes, each of its own shape (:func:`check_between_events`)."""
    for index, mark in enumerate(_pairs(state.marks, "marks", fail)):
        if not all(is_seat(seat, n) for seat in mark):
            raise fail(f"marks[{index}]", f"not a pair of seats: {mark!r}")
    for index, (owner, count) in enumerate(_pairs(state.returns, "returns", fail)):
        if not is_seat(owner, n) or count < 1:
            raise fail(f"returns[{index}]", f"not a seat and a count of cards: {(owner, count)}")
    sightings = state.sightings
    if not isinstance(sightings, tuple):
        raise fail("sightings", f"must be a tuple, not {short(sightings)}")
    for index, seen in enumerate(sightings):
        if not _well_formed(seen, n, state.turn_number, kinds, kinds):
            raise fail(f"sightings[{index}]", f"not a sighting: {short_sighting(seen)}")
    result = state.table.round_result
    if result is None:
        return
    if not isinstance(result, RoundResult) or type(result.reason) is not RoundEndReason:
        raise fail("round_result", f"not a round result: {short(result)}")
    _tuple_of_seats(result.winners, "round_result.winners", n, fail)
    revealed = result.revealed
    if not isinstance(revealed, tuple) or not all(
        isinstance(pair, tuple) and len(pair) == 2 and is_seat(pair[0], n) and type(pair[1]) is Card
        for pair in revealed
    ):
        raise fail("round_result.revealed", f"must list (seat, card) pairs: {short(revealed)}")
    ranks = result.ranks
    if ranks is not None and (
        not isinstance(ranks, tuple)
        or len(ranks) != n
        or not all(rank is None or (is_int(rank) and rank >= 1) for rank in ranks)
    ):
        raise fail("round_result.ranks", f"must give {n} seats a rank from 1, or None")
