"""Our engine behind protocol v1, deliberately broken in one way.

Used to prove that the suite can fail: ``python broken_adapter.py BUG
[WITHOUT ...]`` where BUG is one of :data:`BUGS` and each WITHOUT a
capability not to declare. Each bug is a plausible mistake of
another implementation, made by patching this engine in the adapter's own
process only: most replace a part of one card's rules
(:class:`loveletter.cards.base.CardRules`), the rest one engine function.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from typing import Any

import attrs

import loveletter.consequences as consequences
import loveletter.targeting as targeting
from loveletter import fastpath, legal
from loveletter.cards import Card
from loveletter.cards._common import remaining
from loveletter.cards.base import Naming, RoundEnd, RoundEndBonus
from loveletter.commands import Command, PlayCard
from loveletter.conformance import adapter
from loveletter.conformance.vocabulary import CAPABILITIES
from loveletter.events import (
    CardsReturned,
    EliminationReason,
    Event,
    PlayerEliminated,
    TokenReason,
)
from loveletter.fastpath import interned
from loveletter.rulesets import RULESETS
from loveletter.state import GameState


def _patch(function: Callable[..., Any], replacement: Callable[..., Any]) -> None:
    """Every module of the package that uses ``function`` uses
    ``replacement`` instead: wherever it was imported, and the fast path's
    shared-instance wrappers of it."""
    wrapped = interned(replacement)
    for name, module in list(sys.modules.items()):
        if not name.startswith("loveletter"):
            continue
        for attr, value in list(vars(module).items()):
            if value is function:
                setattr(module, attr, replacement)
            elif getattr(value, "__wrapped__", None) is function:
                setattr(module, attr, wrapped)


def _change_rules(card: Card, **changes: Any) -> None:
    """Every ruleset gets ``card``'s rules with ``changes``; the tables a
    ruleset derives from the cards' rules are rebuilt."""
    for ruleset in RULESETS.values():
        rules = list(ruleset.rules)
        rules[card] = attrs.evolve(rules[card], **changes)
        object.__setattr__(ruleset, "rules", tuple(rules))
        ruleset.__attrs_post_init__()


def _original(card: Card) -> Any:
    return RULESETS["2019"].rules[card]


def baron_tie_eliminates() -> None:
    effect = _original(Card.BARON).effect

    def baron(state: GameState, command: PlayCard) -> tuple[Event, ...]:
        events: tuple[Event, ...] = effect(state, command)
        if len(events) == 1:  # a tie: knock out the Baron's player anyway
            mine = remaining(state.hands[command.player], command.card)[0]
            knocked_out = PlayerEliminated(
                command.player, EliminationReason.BARON_COMPARISON, (mine,)
            )
            return (*events, knocked_out)
        return events

    _change_rules(Card.BARON, effect=baron)


def protected_targetable() -> None:
    original = targeting.options

    def options(
        players: int,
        player: int,
        choice: Any,
        out: frozenset[int],
        protected: frozenset[int],
        required: int | None,
    ) -> Any:
        return original(players, player, choice, out, frozenset(), required)

    _patch(original, options)


def countess_not_forced() -> None:
    _change_rules(Card.COUNTESS, forbids=frozenset())


def guard_may_name_guard() -> None:
    _change_rules(Card.GUARD, names=Naming.ANYTHING)


def prince_does_nothing_on_empty_deck() -> None:
    effect = _original(Card.PRINCE).effect

    def prince(state: GameState, command: PlayCard) -> tuple[Event, ...]:
        return effect(state, command) if state.deck else ()

    _change_rules(Card.PRINCE, effect=prince)


def chancellor_returns_reversed() -> None:
    answer = _original(Card.CHANCELLOR).answer

    def keep(state: GameState, command: Command) -> tuple[Event, ...]:
        return tuple(
            attrs.evolve(e, cards=tuple(reversed(e.cards or ())))
            if isinstance(e, CardsReturned)
            else e
            for e in answer(state, command)
        )

    _change_rules(Card.CHANCELLOR, answer=keep)


def tie_won_by_first_seat() -> None:
    original = consequences.showdown

    def showdown(*args: Any) -> tuple[int, ...]:
        return original(*args)[:1]

    _patch(original, showdown)


def spy_token_shared() -> None:
    def every_spy(end: RoundEnd) -> tuple[int, ...]:
        return tuple(
            p for p in range(end.players) if p not in end.out and Card.SPY in end.discards[p]
        )

    _change_rules(Card.SPY, round_end_bonus=RoundEndBonus(TokenReason.SPY, every_spy))


def assassin_ignored() -> None:
    _change_rules(Card.ASSASSIN, when_holder_chosen=None)


def count_not_added() -> None:
    _change_rules(Card.COUNT, showdown_bonus=0)


def sycophant_does_not_bind() -> None:
    def sycophant(state: GameState, command: PlayCard) -> tuple[Event, ...]:
        return ()

    _change_rules(Card.SYCOPHANT, effect=sycophant)


def constable_scores_from_hand() -> None:
    def pile(state: GameState, knock_out: PlayerEliminated) -> tuple[Card, ...]:
        return state.discards[knock_out.player] + knock_out.discarded

    _patch(consequences.pile_that_pays, pile)


def princess_play_harmless() -> None:
    """A played Princess knocks no one out (one of the bugs suite 1.2 found
    in a third-party engine): an early bug that every replay start playing
    a Princess runs into."""

    def princess(state: GameState, command: PlayCard) -> tuple[Event, ...]:
        return ()

    _change_rules(Card.PRINCESS, effect=princess)


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
    "assassin-ignored": assassin_ignored,
    "count-not-added": count_not_added,
    "sycophant-does-not-bind": sycophant_does_not_bind,
    "constable-scores-from-hand": constable_scores_from_hand,
    "princess-play-harmless": princess_play_harmless,
}


def reference_only() -> None:
    """The engine without its fast path: each bug is in the reference's
    rules, which the fast path (held equal to them by the both-paths
    tests) does not consult for the cases it covers."""
    setattr(fastpath, "push", lambda state, command: None)  # noqa: B010
    setattr(fastpath, "step", lambda state, command: None)  # noqa: B010
    setattr(fastpath, "legal_commands", legal.legal_commands)  # noqa: B010
    setattr(fastpath, "playable_cards", legal.playable_cards)  # noqa: B010


if __name__ == "__main__":
    # ``broken_adapter.py BUG [CAPABILITY ...]``: the capabilities named after
    # the bug are not declared (``positions``: the runner plays replay starts)
    reference_only()
    BUGS[sys.argv[1]]()
    declared = tuple(c for c in CAPABILITIES if c not in sys.argv[2:])
    # the adapter reads its module global at each handshake
    setattr(adapter, "CAPABILITIES", declared)  # noqa: B010
    sys.exit(adapter.main())
