"""Starting a game and dealing its rounds.

:func:`start_game` gives a game's opening events (``GameStarted`` and the
first deal), :func:`new_game` the state they lead to. Each round is dealt
by :func:`deal_events`: one card set aside, three face up with two
players, one card to each player from the first, then the first turn's
draw (online, no card set aside and a turn order drawn from the seed).
Between rounds a ``StartRound`` command deals the next one:
:func:`next_deal` finds its first player, deck and turn order, from the
game's seed unless the command stacks them.
"""

from __future__ import annotations

from collections.abc import Sequence

from loveletter.chance import choose, fresh_seed, is_seed, shuffled
from loveletter.commands import StartRound
from loveletter.errors import IllegalCommand, RejectionKind, SetupError, short_repr
from loveletter.events import (
    CardDealt,
    CardDrawn,
    CardRemovedFaceUp,
    CardSetAside,
    Event,
    GameStarted,
    RoundStarted,
    TurnStarted,
)
from loveletter.evolution import apply_unchecked, initial_state
from loveletter.kinds import Card
from loveletter.rules import implements
from loveletter.rulesets import Ruleset, get_ruleset
from loveletter.state import Decision, GameState, TableSettings
from loveletter.validation import check_table_settings


@implements(
    "setup.player-count",
    "setup.first-player",
    "setup.set-aside-face-down",
    "setup.two-player-face-up",
    "setup.deal-one-each",
    "setup.no-set-aside-online",
)
def deal_events(
    ruleset: Ruleset,
    players: int,
    round_number: int,
    first_player: int,
    deck: Sequence[Card],
    seats: tuple[int, ...] | None = None,
    order: tuple[int, ...] | None = None,
) -> tuple[Event, ...]:
    """The events that deal a round from ``deck`` (top first): set one card
    aside, three face up with two players, one to each player starting with
    the first player, then the first player's turn and draw (ruling 3).
    ``seats`` deals in only those players (a tie-break round, ruling 31).
    Where the edition draws a turn order (online), ``order`` is it: no card
    is set aside or put face up, and the cards go round in that order
    (rulings 42 and 43)."""
    deck = tuple(deck)
    events: list[Event] = [RoundStarted(round_number, first_player, deck, seats, order)]
    position = 0
    if ruleset.sets_aside:
        events.append(CardSetAside(deck[0]))
        position = 1
    for _ in range(ruleset.face_up_count(players)):
        events.append(CardRemovedFaceUp(deck[position]))
        position += 1
    if order is None:
        order = tuple((first_player + offset) % players for offset in range(players))
        if seats is not None:
            order = tuple(seat for seat in order if seat in seats)
    for seat in order:
        events.append(CardDealt(seat, deck[position]))
        position += 1
    events.append(TurnStarted(first_player))
    events.append(CardDrawn(first_player, deck[position], False))
    return tuple(events)


def start_game(
    ruleset: str | Ruleset,
    players: int,
    *,
    seed: int | None = None,
    first_player: int | None = None,
    deck: Sequence[Card] | None = None,
    order: Sequence[int] | None = None,
    settings: TableSettings | None = None,
) -> tuple[Event, ...]:
    """The opening events of a game: ``GameStarted`` and the first deal.

    The deck is shuffled from ``seed`` unless ``deck`` (top first) stacks it.
    Without a seed the game takes a fresh 128-bit one from the operating
    system's secure source (:func:`loveletter.chance.fresh_seed`); either way
    the seed is recorded in ``GameStarted``, so replaying the events is exact.
    The seed decides every later deck: keep it secret until the game ends.
    ``first_player`` is the seat that starts the first round (ruling 1;
    seat 0 when not given).

    Online (rulings 41-43 and 52): ``settings`` are the table's
    (:class:`~loveletter.state.TableSettings`, its defaults when not
    given), and the first round's turn order is drawn from the seed, a
    given ``first_player`` swapped into first place, unless ``order``
    stacks it. Bad arguments raise :class:`~loveletter.errors.SetupError`
    naming the argument (a stacked deck that is not the ruleset's cards:
    :class:`IllegalCommand` ``invalid-deck``).
    """
    if seed is None:
        seed = fresh_seed()
    rules = checked_setup(ruleset, players, seed, first_player, settings, order)
    if rules.online_table and settings is None:
        settings = TableSettings()
    decks = 1 if settings is None else settings.decks
    if deck is None:
        cards = shuffled(rules.deck_for(players, decks), seed, 1)
    else:
        if isinstance(deck, str | bytes) or not isinstance(deck, Sequence):
            raise IllegalCommand(RejectionKind.INVALID_DECK, "the deck must be a sequence of cards")
        cards = tuple(deck)
        check_deck(rules, players, cards, decks)
    drawn: tuple[int, ...] | None = None
    if rules.draws_order:
        if order is not None:
            drawn = tuple(order)
        else:
            drawn = _swapped_first(shuffled(range(players), seed, 1, "order"), first_player)
        first = drawn[0]
    else:
        first = 0 if first_player is None else first_player
    return (
        GameStarted(rules.name, players, seed, first, settings),
        *deal_events(rules, players, 1, first, cards, order=drawn),
    )


def _swapped_first(order: tuple[int, ...], first: int | None) -> tuple[int, ...]:
    """``order`` with ``first`` swapped into first place (ruling 43: a swap,
    not a rotation); unchanged when ``first`` is ``None``."""
    if first is None:
        return order
    seats = list(order)
    index = seats.index(first)
    seats[0], seats[index] = seats[index], seats[0]
    return tuple(seats)


def checked_setup(
    ruleset: object,
    players: object,
    seed: object,
    first_player: object,
    settings: object = None,
    order: object = None,
) -> Ruleset:
    """The ruleset, once every argument of a game's start is known good;
    :class:`SetupError` names the first bad one."""
    if isinstance(ruleset, Ruleset):
        rules = ruleset
    elif not isinstance(ruleset, str):
        raise SetupError("ruleset", f"a ruleset name or Ruleset, not {short_repr(ruleset)}")
    else:
        try:
            rules = get_ruleset(ruleset)
        except ValueError as error:
            raise SetupError("ruleset", str(error)) from None
    if type(players) is not int or not rules.supports(players):
        raise SetupError(
            "players",
            f"{rules.name} is for {rules.min_players}-{rules.max_players} players,"
            f" not {short_repr(players)}",
        )
    if not is_seed(seed):
        raise SetupError(
            "seed", f"a seed is an integer from 0 to 2**256 - 1, not {short_repr(seed)}"
        )
    if first_player is not None and (
        type(first_player) is not int or not 0 <= first_player < players
    ):
        raise SetupError(
            "first_player",
            f"must be a seat from 0 to {players - 1}, not {short_repr(first_player)}",
        )
    check_settings(rules, settings)
    if order is not None:
        if not rules.draws_order:
            raise SetupError("order", f"{rules.name} plays in seat order: no order to give")
        seats = tuple(order) if isinstance(order, list | tuple) else None
        # the seats' type first: sorting a seat given as text with the others would fail
        if (
            seats is None
            or not all(type(s) is int for s in seats)
            or sorted(seats) != list(range(players))
        ):
            raise SetupError(
                "order",
                f"must list every seat from 0 to {players - 1} once, not {short_repr(order)}",
            )
        if first_player is not None and seats[0] != first_player:
            raise SetupError("first_player", f"the order starts with player {seats[0]}")
    return rules


def check_settings(ruleset: Ruleset, settings: object) -> None:
    """Raise :class:`SetupError` unless ``settings`` suit ``ruleset``: none
    for an edition without table settings, otherwise a
    :class:`~loveletter.state.TableSettings` within its ranges (ruling 52);
    ``None`` stands for an online table's defaults."""
    if settings is not None or not ruleset.online_table:
        check_table_settings(ruleset, settings, SetupError)


def new_game(
    ruleset: str | Ruleset,
    players: int,
    *,
    seed: int | None = None,
    first_player: int | None = None,
    deck: Sequence[Card] | None = None,
    order: Sequence[int] | None = None,
    settings: TableSettings | None = None,
) -> GameState:
    """A new game, its first round dealt and the first player to play.

    Without ``seed`` the deal is secret and different every time (a fresh
    128-bit seed, recorded in ``state.seed``); pass one to reproduce a game.
    To keep the game's events as well, use
    :meth:`loveletter.GameRecord.new` or :func:`start_game`.

    >>> state = new_game("2019-classic", 3, seed=42)
    >>> state.to_act, len(state.hand(0)), len(state.deck)
    (0, 2, 11)
    """
    opening = start_game(
        ruleset,
        players,
        seed=seed,
        first_player=first_player,
        deck=deck,
        order=order,
        settings=settings,
    )
    assert isinstance(opening[0], GameStarted)
    # made here by the rules: no need to check them again
    return apply_unchecked(initial_state(opening[0]), opening[1:])


def check_deck(ruleset: Ruleset, players: int, deck: tuple[Card, ...], decks: int = 1) -> None:
    """Refuse (``invalid-deck``) a stacked deck that is not exactly the
    ruleset's cards for ``players`` and ``decks``."""
    if not all(isinstance(card, Card) for card in deck):
        raise IllegalCommand(RejectionKind.INVALID_DECK, "the deck must list cards")
    expected = ruleset.deck_for(players, decks)
    if tuple(sorted(deck)) != expected:
        copies = "" if decks == 1 else f" ({decks} decks)"
        raise IllegalCommand(
            RejectionKind.INVALID_DECK,
            f"the deck must hold exactly the {len(expected)} cards of {ruleset.name}"
            f" for {players} players{copies}",
        )


def deal_next_round(state: GameState, command: StartRound) -> tuple[Event, ...]:
    """The events that deal the round ``command`` starts (:func:`next_deal`)."""
    first, deck, order = next_deal(state, command)
    contenders = state.table.contenders
    return deal_events(
        state.table.ruleset,
        state.table.players,
        state.round_number + 1,
        first,
        deck,
        contenders or None,
        order,
    )


@implements(
    "round.next-first-player",
    "round.next-first-player-tie-random",
    "setup.shuffle",
    "game.tie-break-round",
    "setup.turn-order-online",
)
def next_deal(
    state: GameState, command: StartRound
) -> tuple[int, tuple[Card, ...], tuple[int, ...] | None]:
    """The next round's first player, deck order (top first) and, where the
    edition draws one, turn order."""
    if state.decision is not Decision.NEXT_ROUND:
        if state.decision is Decision.GAME_OVER:
            raise IllegalCommand(RejectionKind.GAME_OVER, "the game is over")
        raise IllegalCommand(RejectionKind.WRONG_DECISION, "the round is still being played")
    round_number = state.round_number + 1
    table = state.table
    ruleset = table.ruleset
    previous = state.round_result.winners if state.round_result else (state.current,)
    contenders = table.contenders
    present: tuple[int, ...] = ()
    unsettled = False  # online: no previous rank-1 player is present
    if contenders:
        # Ruling 31: a tied player who won the last round starts the
        # tie-break; if none did, any tied player may.
        previous = tuple(p for p in previous if p in contenders) or contenders
    elif ruleset.draws_order:
        # Ruling 43: a previous rank-1 player still present, when there is one.
        present = state.present()
        previous = tuple(p for p in previous if p not in table.left)
        if not previous:
            previous, unsettled = present, True
    first = command.first_player
    if first is not None:
        if type(first) is not int:
            raise IllegalCommand(
                RejectionKind.MALFORMED_COMMAND, f"first_player must be a seat, not {first!r}"
            )
        if first not in previous:
            raise IllegalCommand(
                RejectionKind.INVALID_CHOICE,
                f"the first player must be one of {list(previous)}",
            )
    order = _stacked_order(state, command.order, present, previous, first)
    if first is None and order is None and not unsettled:  # unsettled: the shuffle decides
        first = (
            previous[0]
            if len(previous) == 1
            else choose(previous, state.seed, round_number, "first-player")
        )
    if ruleset.draws_order and order is None:
        order = _swapped_first(shuffled(present, state.seed, round_number, "order"), first)
    players = table.players
    decks = table.decks
    if command.deck is None:
        deck = shuffled(ruleset.deck_for(players, decks), state.seed, round_number)
    else:
        if not isinstance(command.deck, tuple):
            raise IllegalCommand(RejectionKind.INVALID_DECK, "the deck must be a sequence of cards")
        deck = command.deck
        check_deck(ruleset, players, deck, decks)
    if order is not None:
        return order[0], deck, order
    assert first is not None
    return first, deck, None


def _stacked_order(
    state: GameState,
    order: object,
    present: tuple[int, ...],
    candidates: tuple[int, ...],
    first: int | None,
) -> tuple[int, ...] | None:
    """A stacked turn order, checked (ruling 43): the players present, in
    any order whose first player may start the round."""
    if order is None:
        return None
    if not state.table.ruleset.draws_order:
        raise IllegalCommand(
            RejectionKind.NOT_IN_EDITION,
            f"{state.table.ruleset.name} plays in seat order: no order to give",
        )
    if not isinstance(order, tuple) or not all(type(seat) is int for seat in order):
        raise IllegalCommand(
            RejectionKind.MALFORMED_COMMAND, f"order must list seats, not {short_repr(order)}"
        )
    if sorted(order) != list(present):
        raise IllegalCommand(
            RejectionKind.INVALID_CHOICE,
            f"the order must list the players present once each: {list(present)}",
        )
    if order[0] not in candidates or (first is not None and order[0] != first):
        wanted = [first] if first is not None else list(candidates)
        raise IllegalCommand(
            RejectionKind.INVALID_CHOICE, f"the order must start with one of {wanted}"
        )
    return order
