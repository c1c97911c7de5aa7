"""Every conformance case through both engine paths.

``push`` builds most ordinary turns directly (:mod:`loveletter.fastpath`);
``step`` and the fold of ``evolve`` over ``decide`` are the definition.
The suite's runner plays the event path, so here every command of every
case is also pushed: the states must be equal after every step, and a
refused command must be refused the same way by both. The commands
``legal_commands`` lists (from the fast path's caches) must be the
reference's (:mod:`loveletter.legal`) at every step.
"""

from __future__ import annotations

from functools import reduce

import attrs
import pytest

import loveletter as ll
from loveletter import legal
from loveletter.commands import Command
from loveletter.conformance.cases import Case
from loveletter.conformance.execute import ScriptError, start_state
from loveletter.errors import IllegalCommand, SerializationError
from loveletter.reference.catalog import catalog
from loveletter.serialization import from_data

CASES = catalog().cases


def _walk(case: Case) -> tuple[int, int]:
    """Play the case both ways; returns (commands compared, refusals)."""
    try:
        state, _ = start_state(case.data)
    except ScriptError:
        return 0, 0  # a start the rules refuse: no command is played
    compared = refused = 0
    for step in case.data.get("steps", []):
        if "command" not in step:
            continue
        assert ll.legal_commands(state) == legal.legal_commands(state), case.name
        assert ll.playable_cards(state) == legal.playable_cards(state), case.name
        try:
            command = from_data(step["command"], Command)
        except SerializationError:
            continue  # malformed: neither path sees a command
        try:
            pushed = ll.push(state, command)
        except IllegalCommand as pushed_error:
            with pytest.raises(IllegalCommand) as stepped_error:
                ll.step(state, command)
            assert stepped_error.value.kind is pushed_error.kind, case.name
            refused += 1
            continue
        stepped, events = ll.step(state, command)
        assert pushed == stepped, f"{case.name}: push and step differ after {command}"
        assert reduce(ll.evolve, ll.decide(state, command), state) == pushed, case.name
        assert ll.decide(state, command) == events
        state = pushed
        compared += 1
    return compared, refused


def test_every_case_gives_equal_states_through_push_and_through_events() -> None:
    compared = refused = 0
    for case in CASES:
        done, no = _walk(case)
        compared += done
        refused += no
    # every case's commands, not a handful: suite 1.2.0 has 545 accepted
    # commands and 450 refusals
    assert compared >= 545 and refused >= 450, (compared, refused)


def test_the_walk_would_notice_a_path_that_differs(monkeypatch: pytest.MonkeyPatch) -> None:
    """A push whose state is off by one turn (a broken shortcut) is caught."""
    real = ll.push

    def miscounting(state: ll.GameState, command: Command) -> ll.GameState:
        after = real(state, command)
        return attrs.evolve(after, turn_number=after.turn_number + 1)

    monkeypatch.setattr(ll, "push", miscounting)
    case = next(c for c in CASES if c.name.startswith("2019/prince/") and not c.start_rejected)
    with pytest.raises(AssertionError, match="push and step differ"):
        _walk(case)
