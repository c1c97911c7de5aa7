"""Our engine behind protocol v1, leaking what players may not see.

Every rule is followed and every field a case lists is right, but every
view also carries the deck, the set-aside card and every hand, and every
event of a player's redacted copy carries a hidden card: the card itself
where the event's type has a ``card`` (a draw, a deal, the set-aside card),
otherwise the face-down set-aside card under a ``card`` key the type does
not define. Comparing only the keys a case lists, the suite once passed
this adapter everywhere; the closed view and event schemas make every case
that checks a view or a redacted copy fail
(``tests/conformance/test_leaking_adapter.py``).

:func:`leaky_execute` is the executor for the in-process runner;
``python leaky_adapter.py`` serves it through the protocol.
"""

from __future__ import annotations

import copy
import sys
from typing import Any

from loveletter.conformance import adapter
from loveletter.conformance.execute import execute

JSON = Any

#: what every leaking view adds: full-information fields of the state
LEAKED_VIEW_FIELDS = ("deck", "set_aside", "hands")


def leaky_execute(script: dict[str, JSON]) -> dict[str, JSON]:
    """:func:`~loveletter.conformance.execute.execute`, with the leaks."""
    asked = copy.deepcopy(script)
    # the views copy the state's hidden fields, so every observe step that
    # asks for views is made to ask for the state too
    state_asked: list[bool] = []
    for step in asked["steps"]:
        observe = step.get("observe")
        if isinstance(observe, dict):
            state_asked.append(bool(observe.get("state")))
            if observe.get("views"):
                observe["state"] = True
    result = execute(asked)
    set_aside = _set_aside_at_start(script, result.get("start_events", []))
    observed = iter(state_asked)
    for step in result["steps"]:
        if "observation" in step:
            _leak_into_views(step["observation"], wanted_state=next(observed))
        elif "events" in step:
            for seen in step.get("seen_by", []):
                _leak_into_events(seen["events"], step["events"], set_aside)
            set_aside = _set_aside_after(set_aside, step["events"])
    return result


def _leak_into_views(observation: dict[str, JSON], wanted_state: bool) -> None:
    state = observation.get("state")
    if not isinstance(state, dict):
        return
    for view in observation.get("views", []):
        for name in LEAKED_VIEW_FIELDS:
            view[name] = copy.deepcopy(state[name])
    if not wanted_state:
        del observation["state"]


def _leak_into_events(redacted: list[JSON], full: list[JSON], set_aside: JSON) -> None:
    """Each redacted event gets the card its full copy names, or else the
    set-aside card (the two streams have the same events, in order)."""
    for seen, event in zip(redacted, full, strict=True):
        seen["card"] = event.get("card", set_aside)


def _set_aside_at_start(script: dict[str, JSON], start_events: list[JSON]) -> JSON:
    position = script["start"].get("position")
    if isinstance(position, dict):
        return position.get("set_aside")
    return _set_aside_after(None, start_events)


def _set_aside_after(set_aside: JSON, events: list[JSON]) -> JSON:
    """The face-down card once ``events`` have happened (None: none left)."""
    for event in events:
        if event["type"] == "CardSetAside":
            set_aside = event["card"]
        elif event["type"] == "CardDrawn" and event.get("from_set_aside"):
            set_aside = None
    return set_aside


def main() -> int:
    # the adapter runs whatever its module calls ``execute``
    vars(adapter)["execute"] = leaky_execute
    return adapter.serve(sys.stdin, sys.stdout)


if __name__ == "__main__":
    sys.exit(main())
