"""Which spec rules a command touches: the rule IDs cited (``@implements``)
by the reference engine's functions that run while it decides the command.

The runner names them when a replay start is not reached ("refused, and
it touches ``princess.eliminated-when-played-or-discarded``"), so that an
engine sees which of its rules broke the start, and the replay-start build
counts how many starts depend on each rule. It is a diagnostic: it watches
the engine work (``sys.settrace``), so it is slow and never on a hot path.
"""

from __future__ import annotations

import functools
import importlib
import random
import sys
from collections import Counter
from collections.abc import Iterable
from types import CodeType, FrameType
from typing import Any

from loveletter.commands import Command
from loveletter.engine import decide, legal_commands, new_game, push
from loveletter.errors import IllegalCommand, LoveLetterError, RejectionKind
from loveletter.rules import CITATIONS
from loveletter.rulesets import get_ruleset
from loveletter.spec import load_spec
from loveletter.state import GameState

__all__ = ["background", "rules_touched", "rules_touched_by"]


@functools.cache
def _rules_by_code() -> dict[CodeType, tuple[str, ...]]:
    """The code object of every citing function, with the rules it cites."""
    by_code: dict[CodeType, set[str]] = {}
    for rule_id, names in CITATIONS.items():
        for name in names:
            code = _code_of(name)
            if code is not None:
                by_code.setdefault(code, set()).add(rule_id)
    return {code: tuple(sorted(rules)) for code, rules in by_code.items()}


def _code_of(qualified: str) -> CodeType | None:
    """The code of ``package.module.Class.function`` (None: not found)."""
    parts = qualified.split(".")
    for split in range(len(parts) - 1, 0, -1):
        try:
            target: Any = importlib.import_module(".".join(parts[:split]))
        except ImportError:
            continue
        for attribute in parts[split:]:
            target = getattr(target, attribute, None)
        code = getattr(getattr(target, "__func__", target), "__code__", None)
        return code if isinstance(code, CodeType) else None
    return None


def rules_touched(state: GameState, command: Command) -> tuple[str, ...]:
    """The rules ``command`` touches in ``state``, sorted: those cited by
    the engine code that decided it, less the rules nearly every command of
    its type touches in play (:func:`background`: the turn order, the
    draw, the knock-out bookkeeping), which would name every rule at once."""
    ruleset = state.ruleset.name
    # a deal has its own machinery; every other command goes through the
    # turn's (an answer to a pending card, such as a KeepCard, is that
    # card's alone: its own type's background would be the card's rules)
    kind = "StartRound" if type(command).__name__ == "StartRound" else "PlayCard"
    common = background(ruleset, kind)
    own = _edition_rules(ruleset)
    traced, refusal = _traced(state, command)
    touched = {r for r in traced if r not in common}
    if refusal is not None:
        # some refusals come from facts the cards declare (the Countess's
        # forbidden companions, the Handmaid's protection), checked where no
        # citing function runs: the kind names the rule, background or not
        touched.update(REFUSAL_RULES.get(refusal, ()))
    return tuple(sorted(r for r in touched if r in own))


@functools.cache
def _edition_rules(ruleset: str) -> frozenset[str]:
    """The rules of the edition (a function shared by editions cites the
    rules of each; only this one's are named)."""
    return frozenset(rule.id for rule in load_spec().rules_for(ruleset))


#: how many seeded random games :func:`background` watches per player count
_GAMES = 6
#: the share of a command type's plays a rule must be touched by to count as
#: background
_SHARE = 0.75


@functools.cache
def background(ruleset: str, command_type: str) -> frozenset[str]:
    """The rules touched by at least 75% of the commands of ``command_type``
    in seeded random games of ``ruleset`` (fewest and most players):
    what the engine consults on every such command, whatever it does."""
    rules = get_ruleset(ruleset)
    counts: Counter[str] = Counter()
    seen = 0
    for players in sorted({rules.min_players, rules.max_players}):
        chooser = random.Random(f"{ruleset}/{players}")
        for game in range(_GAMES):
            state = new_game(ruleset, players, seed=game)
            for _ in range(400):
                commands = legal_commands(state)
                if not commands:
                    break
                command = chooser.choice(commands)
                if type(command).__name__ == command_type:
                    seen += 1
                    counts.update(_traced(state, command)[0])
                state = push(state, command)
    return frozenset(rule for rule, n in counts.items() if seen and n >= _SHARE * seen)


def _traced(state: GameState, command: Command) -> tuple[tuple[str, ...], RejectionKind | None]:
    """The rules cited by the engine code that decided ``command`` in
    ``state``, sorted: a citing function counts when it returned something
    (events, a true answer, a number: its rule applied) or raised (its rule
    refused the command), not when it only looked and found nothing to do
    (a round end that did not come); and the kind of its refusal, if any."""
    by_code = _rules_by_code()
    seen: set[str] = set()

    def local(frame: FrameType, event: str, arg: object) -> Any:
        if event == "exception" or (event == "return" and _applied(arg)):
            seen.update(by_code[frame.f_code])
        return local

    def watch(frame: FrameType, event: str, arg: object) -> Any:
        return local if event == "call" and frame.f_code in by_code else None

    refusal: RejectionKind | None = None
    previous = sys.gettrace()
    sys.settrace(watch)
    try:
        decide(state, command)
    except IllegalCommand as error:
        refusal = error.kind
    except LoveLetterError:
        pass
    finally:
        sys.settrace(previous)
    return tuple(sorted(seen)), refusal


#: the rules a refusal of each kind enforces (those of the edition count)
REFUSAL_RULES: dict[RejectionKind, tuple[str, ...]] = {
    RejectionKind.COUNTESS_REQUIRED: ("countess.forced-by-king-or-prince",),
    RejectionKind.NOT_YOUR_TURN: ("turn.order",),
    RejectionKind.TARGET_PROTECTED: ("handmaid.protection-until-next-turn",),
    RejectionKind.TARGET_OUT_OF_ROUND: ("out.untargetable",),
    RejectionKind.TARGET_NOT_ALLOWED: ("targeting.other-player",),
    RejectionKind.REQUIRED_PLAYER_NOT_CHOSEN: ("sycophant.next-card-must-choose",),
    RejectionKind.GUESS_NOT_ALLOWED: ("guard.name-non-guard", "guard.name-number"),
    RejectionKind.INVALID_CHOICE: ("chancellor.return-bottom-any-order",),
    RejectionKind.PLAYER_LEFT: ("online.leave-any-time",),
}


def _applied(value: object) -> bool:
    """Whether a citing function's result says its rule applied."""
    if value is None or value is False:
        return False
    if isinstance(value, tuple | list | frozenset | set | dict):
        return bool(value)
    return True


def rules_touched_by(states_and_commands: Iterable[tuple[GameState, Command]]) -> tuple[str, ...]:
    """The rules touched by any of several commands, sorted."""
    touched: set[str] = set()
    for state, command in states_and_commands:
        touched.update(rules_touched(state, command))
    return tuple(sorted(touched))
