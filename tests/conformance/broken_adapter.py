"""Our engine behind protocol v1, deliberately broken in one way.

Used to prove that the suite can fail: ``python broken_adapter.py BUG``
where BUG is one of :data:`BUGS`. Each bug is a plausible mistake of
another implementation, made by patching this engine in the adapter's own
process only.
"""

from __future__ import annotations

import sys
from collections.abc import Callable

import attrs

import loveletter.engine as engine
from loveletter.cards import Card
from loveletter.commands import KeepCard, PlayCard
from loveletter.conformance import adapter
from loveletter.effects import EFFECTS
from loveletter.effects._common import BARON_COMPARISON, player_eliminated, remaining
from loveletter.events import (
    CardsReturned,
    Event,
    GameEnded,
    RoundEnded,
    RoundEndReason,
    TokenAwarded,
    TokenReason,
)
from loveletter.evolution import _Draft
from loveletter.rulesets import RULESETS, Targeting
from loveletter.state import GameState


def _patch(name: str, value: object) -> None:
    vars(engine)[name] = value


def _set_effect(card: Card, effect: Callable[[GameState, PlayCard], tuple[Event, ...]]) -> None:
    effects = list(EFFECTS)
    effects[card] = effect
    _patch("EFFECTS", tuple(effects))


def baron_tie_eliminates() -> None:
    def baron(state: GameState, command: PlayCard) -> tuple[Event, ...]:
        events = EFFECTS[Card.BARON](state, command)
        if len(events) == 1:  # a tie: knock out the Baron's player anyway
            mine = remaining(state.hands[command.player], command.card)[0]
            return (*events, player_eliminated(command.player, BARON_COMPARISON, (mine,)))
        return events

    _set_effect(Card.BARON, baron)


def protected_targetable() -> None:
    original = engine._check_target

    def check_target(
        state: GameState, player: int, card: Card, target: int | None, targeting: Targeting
    ) -> None:
        if isinstance(target, int) and target in state.protected:
            state = attrs.evolve(state, protected=frozenset())
        original(state, player, card, target, targeting)

    _patch("_check_target", check_target)


def countess_not_forced() -> None:
    for ruleset in RULESETS.values():
        object.__setattr__(ruleset, "countess_forcers", frozenset())


def guard_may_name_guard() -> None:
    for ruleset in RULESETS.values():
        object.__setattr__(ruleset, "guard_names", (Card.GUARD, *ruleset.guard_names))


def prince_does_nothing_on_empty_deck() -> None:
    def prince(state: GameState, command: PlayCard) -> tuple[Event, ...]:
        return EFFECTS[Card.PRINCE](state, command) if state.deck else ()

    _set_effect(Card.PRINCE, prince)


def chancellor_returns_reversed() -> None:
    original = engine._keep

    def keep(state: GameState, command: KeepCard) -> tuple[Event, ...]:
        return tuple(
            attrs.evolve(e, cards=tuple(reversed(e.cards or ())))
            if isinstance(e, CardsReturned)
            else e
            for e in original(state, command)
        )

    _patch("_keep", keep)


def _rescored(d: _Draft, ended: RoundEnded, spies: list[int]) -> tuple[Event, ...]:
    """The end of a round with these winners and Spy-token holders."""
    table = d.edits or d.table
    tokens = list(table.tokens)
    events: list[Event] = [ended]
    for player, reason in [(p, TokenReason.ROUND_WIN) for p in ended.winners] + [
        (p, TokenReason.SPY) for p in spies
    ]:
        tokens[player] += 1
        events.append(TokenAwarded(player, reason, tokens[player]))
    needed = table.ruleset.tokens_to_win(table.players)
    if max(tokens) >= needed:
        events.append(GameEnded(tuple(p for p, n in enumerate(tokens) if n >= needed)))
    return tuple(events)


def _end_round_patch(
    change: Callable[[_Draft, RoundEnded, list[int], list[int]], tuple[Event, ...]],
) -> None:
    original = engine._end_round

    def end_round(d: _Draft, reason: RoundEndReason, live: list[int]) -> tuple[Event, ...]:
        events = original(d, reason, live)
        ended = events[0]
        assert isinstance(ended, RoundEnded)
        spies = [
            e.player for e in events if isinstance(e, TokenAwarded) and e.reason is TokenReason.SPY
        ]
        return change(d, ended, live, spies)

    _patch("_end_round", end_round)


def tie_won_by_first_seat() -> None:
    _end_round_patch(
        lambda d, ended, live, spies: _rescored(
            d, attrs.evolve(ended, winners=ended.winners[:1]), spies
        )
    )


def spy_token_shared() -> None:
    def change(
        d: _Draft, ended: RoundEnded, live: list[int], spies: list[int]
    ) -> tuple[Event, ...]:
        with_spy = [p for p in live if Card.SPY in d.discards[p]]
        return _rescored(d, ended, with_spy)

    _end_round_patch(change)


#: bug name -> patch
BUGS: dict[str, Callable[[], None]] = {
    "baron-tie-eliminates": baron_tie_eliminates,
    "protected-targetable": protected_targetable,
    "countess-not-forced": countess_not_forced,
    "guard-may-name-guard": guard_may_name_guard,
    "prince-does-nothing-on-empty-deck": prince_does_nothing_on_empty_deck,
    "chancellor-returns-reversed": chancellor_returns_reversed,
    "tie-won-by-first-seat": tie_won_by_first_seat,
    "spy-token-shared": spy_token_shared,
}

if __name__ == "__main__":
    BUGS[sys.argv[1]]()
    sys.exit(adapter.main())
