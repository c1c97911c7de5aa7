"""Our engine behind protocol v1, deliberately broken in one way.

Used to prove that the suite can fail: ``python broken_adapter.py BUG``
where BUG is one of :data:`BUGS`.
"""

from __future__ import annotations

import sys

import attrs

import loveletter.engine as engine
from loveletter.cards import Card
from loveletter.commands import PlayCard
from loveletter.conformance import adapter
from loveletter.effects import EFFECTS
from loveletter.effects._common import BARON_COMPARISON, player_eliminated, remaining
from loveletter.events import Event
from loveletter.rulesets import Targeting
from loveletter.state import GameState


def _baron_tie_eliminates(state: GameState, command: PlayCard) -> tuple[Event, ...]:
    events = EFFECTS[Card.BARON](state, command)
    if len(events) == 1:  # a tie: knock out the Baron's player anyway
        mine = remaining(state.hands[command.player], command.card)[0]
        return (*events, player_eliminated(command.player, BARON_COMPARISON, (mine,)))
    return events


def baron_tie_eliminates() -> None:
    effects = list(EFFECTS)
    effects[Card.BARON] = _baron_tie_eliminates
    vars(engine)["EFFECTS"] = tuple(effects)


def protected_targetable() -> None:
    original = engine._check_target

    def check_target(
        state: GameState, player: int, card: Card, target: int | None, targeting: Targeting
    ) -> None:
        if isinstance(target, int) and target in state.protected:
            state = attrs.evolve(state, protected=frozenset())
        original(state, player, card, target, targeting)

    vars(engine)["_check_target"] = check_target


BUGS = {
    "baron-tie-eliminates": baron_tie_eliminates,
    "protected-targetable": protected_targetable,
}

if __name__ == "__main__":
    BUGS[sys.argv[1]]()
    sys.exit(adapter.main())
