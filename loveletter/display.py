"""A printable text of a whole game state, for bug reports and debugging.

:func:`describe_state` (also ``str(state)`` and ``print(state)``) writes
every field of a :class:`~loveletter.state.GameState` in a few short lines:
the whole truth, hidden cards and the seed included, never one player's
view (that is :func:`loveletter.views.view`). Cards are written by their
printed names and seats as ``P0``, ``P1``, ... as in the move notation
(:mod:`loveletter.notation`), and the commands the rules allow are listed
in that notation at the end.

An online state (ruleset ``online``) has no tokens to win: its header says
so, its seats show win counters, and it adds the table's settings, the
round's turn order, the players out of the round in the order they went
out, the players who left the match, the ranks once a round has ended, and
whether the match is open or closed.

>>> import loveletter as ll
>>> state = ll.new_game("2019", 2, seed=7)
>>> print(describe_state(state))  # doctest: +ELLIPSIS
Love Letter (Z-Man Games, 2019) [2019], 2 players, 6 favor tokens to win
round 1, turn 1: P0 to act (play); current seat P0
deck (14, top first): Baron, Guard, Guard, King, Baron, Spy, Guard, Guard, Princess, Prince, ...
set aside: Handmaid
face up: Spy, Priest, Chancellor
P0: 0 favor tokens; hand Chancellor, Handmaid; discards none
P1: 0 favor tokens; hand Guard; discards none
sightings: none
Chancellor returns (oldest first): none
round result: none (the round is being played)
game winners: none yet
# the seed is secret until the game ends: it decides every shuffle to come
seed: 7
legal commands (2):
  P0 Handmaid
  P0 Chancellor
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from typing import TypeVar

from loveletter.cards import Card
from loveletter.commands import Command
from loveletter.errors import NotationError
from loveletter.notation import card_text, format_command
from loveletter.state import Decision, GameState, RoundResult

__all__ = ["describe_state"]

T = TypeVar("T")

_DECISIONS = {
    Decision.DRAW: "draw",
    Decision.PLAY: "play",
    Decision.CHANCELLOR: "keep a card after a Chancellor",
    Decision.LOOK: "look at a hand the Cardinal swapped, or decline",
    Decision.REDRAW: "redraw after the Bishop, or decline",
    Decision.NEXT_ROUND: "the next round must be dealt",
    Decision.GAME_OVER: "the game is over",
}


def describe_state(state: GameState) -> str:
    """Every field of ``state`` as a few lines of text (see the module).

    Safe on any state, even one built by hand that no game reaches: a part
    that cannot be worked out is written as the error it raised.
    """
    online = state.table.settings is not None or state.ruleset.online_table
    lines = [_header(state)]
    if online:
        lines.append(f"table: {_settings(state)}")
    lines.append(_turn(state))
    if online:
        lines.append(f"turn order: {_players(state.table.order) or 'seat order'}")
    lines.append(f"deck ({len(state.deck)}, top first): {_cards(state.deck)}")
    set_aside = state.set_aside
    lines.append(f"set aside: {'none' if set_aside is None else _card(set_aside)}")
    lines.append(f"face up: {_cards(state.face_up)}")
    lines.extend(_seat_line(state, seat, online) for seat in _seats(state))
    if online:
        lines.append(f"gone out (first to last): {_players(state.exits) or 'nobody'}")
        lines.append(f"left the match: {_players(sorted(state.table.left)) or 'nobody'}")
    if state.pending:
        lines.append(_pending(state))
    lines.append("sightings:" if state.sightings else "sightings: none")
    lines.extend(
        f"  P{s.viewer} saw P{s.owner}'s {_card(s.card)} (via {_card(s.via)}, turn {s.turn})"
        for s in state.sightings
    )
    returns = ", ".join(
        f"P{player} put {count} " + ("card" if count == 1 else "cards") + " under the deck"
        for player, count in state.returns
    )
    lines.append(f"Chancellor returns (oldest first): {returns or 'none'}")
    lines.append(f"round result: {_round_result(state.round_result)}")
    if online and not state.winners:
        lines.append(f"match: {_match(state)}")
    else:
        lines.append(f"game winners: {_players(state.winners) if state.winners else 'none yet'}")
    if state.contenders:
        lines.append(f"tie-break round between: {_players(state.contenders)}")
    lines.append("# the seed is secret until the game ends: it decides every shuffle to come")
    lines.append(f"seed: {state.seed}")
    lines.extend(_legal(state))
    return "\n".join(lines)


def _header(state: GameState) -> str:
    ruleset = state.ruleset
    goal = _safe(lambda: ruleset.tokens_to_win(state.players))
    if goal is None:  # online: ranked rounds and win counters (ruling 44)
        return (
            f"{ruleset.title} [{ruleset.name}], {state.players} players,"
            " win counters, no tokens to win"
        )
    goal_text = ruleset.tokens(goal) if isinstance(goal, int) else f"{goal} tokens"
    return f"{ruleset.title} [{ruleset.name}], {state.players} players, {goal_text} to win"


def _settings(state: GameState) -> str:
    settings = state.table.settings
    if settings is None:
        return "no settings (<missing>)"
    decks = settings.decks
    size = _safe(lambda: str(len(state.table.setup().deck)), "?")
    return (
        f"{decks} deck{'' if decks == 1 else 's'} ({size} cards),"
        f" turn time {settings.turn_time_ms} ms,"
        f" random moves {'on' if settings.random_moves else 'off'},"
        f" intermission {settings.intermission_ms} ms"
    )


def _match(state: GameState) -> str:
    if state.is_over:
        return "closed (fewer than two players present)"
    return "open (it ends only when fewer than two players are present)"


def _turn(state: GameState) -> str:
    to_act = _safe(lambda: state.to_act)
    who = "nobody" if to_act is None else f"P{to_act}" if isinstance(to_act, int) else to_act
    decision = _DECISIONS.get(state.decision, str(state.decision))
    return (
        f"round {state.round_number}, turn {state.turn_number}: {who} to act ({decision});"
        f" current seat P{state.current}"
    )


def _seats(state: GameState) -> range:
    # a hand-built state may disagree with itself; show every seat mentioned
    return range(max(state.players, len(state.hands), len(state.discards), len(state.tokens)))


def _seat_line(state: GameState, seat: int, online: bool = False) -> str:
    tokens = _at(state.tokens, seat, "?")
    if online:
        count = f"win counter {tokens}"
    elif isinstance(tokens, int):
        count = state.ruleset.tokens(tokens)  # the edition's own word for them
    else:
        count = f"{tokens} tokens"
    parts = [
        f"P{seat}: {count}",
        f"hand {_cards(_at(state.hands, seat, ()))}",
        f"discards {_cards(_at(state.discards, seat, ()))}",
    ]
    if seat in state.out:
        parts.append("out")
    if seat in state.table.left:
        parts.append("left the match")
    if seat in state.protected:
        parts.append("protected")
    parts.extend(
        f"marked by P{jester}'s Jester" for jester, marked in state.marks if marked == seat
    )
    if state.required == seat:
        parts.append("must be chosen (Sycophant)")
    return "; ".join(parts)


def _pending(state: GameState) -> str:
    seats = _players(state.pending)
    if state.decision is Decision.LOOK:
        return f"pending: {seats} (the hands the Cardinal swapped; P{state.current} may look)"
    if state.decision is Decision.REDRAW:
        return f"pending: {seats} (the Bishop's target, who may redraw)"
    return f"pending: {seats}"


def _round_result(result: RoundResult | None) -> str:
    if result is None:
        return "none (the round is being played)"
    revealed = ", ".join(f"P{p} {_card(card)}" for p, card in result.revealed)
    text = (
        f"{result.reason}, won by {_players(result.winners) or 'nobody'};"
        f" revealed: {revealed or 'nothing'}"
    )
    if result.ranks is not None:
        ranks = ", ".join(
            f"P{seat} {'-' if rank is None else rank}" for seat, rank in enumerate(result.ranks)
        )
        text += f"; ranks (- not dealt in): {ranks}"
    return text


def _legal(state: GameState) -> list[str]:
    # imported here: the engine imports the state module, which imports this
    # one lazily (in GameState.__str__)
    from loveletter.engine import legal_commands

    try:
        commands = legal_commands(state)
    except Exception as error:  # a bug report must still print
        return [f"legal commands: cannot be listed ({type(error).__name__}: {error})"]
    if not commands:
        return ["legal commands: none"]
    lines = [f"legal commands ({len(commands)}):"]
    lines.extend(f"  {_format(command)}" for command in commands)
    return lines


def _format(command: Command) -> str:
    try:
        return format_command(command)
    except NotationError:
        return repr(command)


def _card(card: Card) -> str:
    return card_text(card) if isinstance(card, Card) else repr(card)


def _cards(cards: Iterable[Card]) -> str:
    return ", ".join(_card(card) for card in cards) or "none"


def _players(seats: Iterable[int]) -> str:
    return ", ".join(f"P{seat}" for seat in seats)


def _at(items: Sequence[T], index: int, default: T) -> T:
    return items[index] if index < len(items) else default


def _safe(compute: Callable[[], T], fallback: str | None = None) -> T | str:
    try:
        return compute()
    except Exception as error:  # a bug report must still print
        return fallback if fallback is not None else f"<{type(error).__name__}: {error}>"
