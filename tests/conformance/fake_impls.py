"""Misbehaving implementations, to check that the runner copes with them:
``python fake_impls.py KIND``. Each answers the handshake, then misbehaves
on the case :data:`TRIGGER` and behaves (as our engine) otherwise,
so the test can see that the runner recovers for the next case."""

from __future__ import annotations

import json
import sys
import time
from typing import Any

from loveletter.conformance.adapter import handle
from loveletter.conformance.vocabulary import CAPABILITIES

#: the id of the case these implementations misbehave on
TRIGGER = "baron-tie-knocks-out-nobody"


#: handshakes declaring capabilities that are not a list of known names
HANDSHAKES: dict[str, object] = {
    "unknown-capability": ["views", "telepathy"],
    "capabilities-not-a-list": "all",
    # no rejection kinds, and refusals that are not a short string
    "long-refusal": ["events", "state", "legal-commands"],
    "numeric-refusal": ["events", "state", "legal-commands"],
    # a chance of its own, said (the runner judges none of its draws) or not
    "own-chance": [c for c in CAPABILITIES if c != "seeded-chance"],
    "own-chance-unsaid": list(CAPABILITIES),
}


def _wrong_kind(answer: dict[str, Any]) -> dict[str, Any]:
    """Every refusal names another (known) rejection kind."""
    for result in answer.get("steps", []):
        if "rejected" in result:
            wrong = result["rejected"] != "no-such-player"
            result["rejected"] = "no-such-player" if wrong else "game-over"
    return answer


def _reversed_piles(answer: dict[str, Any]) -> dict[str, Any]:
    """Discard piles reported newest first (an engine that orders its piles
    the other way round)."""
    for result in answer.get("steps", []):
        observation = result.get("observation", {})
        holders = [observation.get("state") or {}, *observation.get("views", [])]
        for holder in holders:
            if isinstance(holder.get("discards"), list):
                holder["discards"] = [list(reversed(pile)) for pile in holder["discards"]]
    return answer


def _own_chance(message: dict[str, Any]) -> dict[str, Any]:
    """The script with another seed: the engine of an implementation whose
    time-outs and unstacked turn orders come from a chance of its own."""
    start = message["case"]["start"]
    for kind in ("deal", "position"):
        if kind in start:
            start[kind]["seed"] = int(start[kind].get("seed", 0)) + 1
    return message


def _refusing(refusal: object) -> Any:
    def distort(answer: dict[str, Any]) -> dict[str, Any]:
        for result in answer.get("steps", []):
            if "rejected" in result:
                result["rejected"] = refusal
        return answer

    return distort


DISTORT = {
    "wrong-kind": _wrong_kind,
    "reversed-piles": _reversed_piles,
    "long-refusal": _refusing("x" * 201),
    "numeric-refusal": _refusing(7),
}


def reply(message: dict[str, object]) -> None:
    sys.stdout.write(json.dumps(message) + "\n")
    sys.stdout.flush()


def main(kind: str) -> int:
    for line in sys.stdin:
        message = json.loads(line)
        if message["type"] == "stop":
            return 0
        if message["type"] == "start" and kind in ("classic-only", "unknown-ruleset"):
            answer = handle(message)
            assert answer is not None
            # a typo of a ruleset name is refused as one of a capability is
            names = (
                ["2019-classic", "2019-clasic"] if kind == "unknown-ruleset" else ["2019-classic"]
            )
            reply({**answer, "rulesets": names})
            continue
        if message["type"] == "start" and kind in HANDSHAKES:
            answer = handle(message)
            assert answer is not None
            reply({**answer, "capabilities": HANDSHAKES[kind]})
            continue
        if message["type"] == "run" and kind.startswith("own-chance"):
            message = _own_chance(message)
        if message["type"] == "run" and kind in DISTORT:
            answer = handle(message)
            assert answer is not None
            reply(DISTORT[kind](answer))
            continue
        if message["type"] == "start" and kind == "old-protocol":
            reply(
                {
                    "type": "started",
                    "protocol": 0,
                    "implementation": {"name": "old"},
                    "rulesets": ["2019"],
                }
            )
            continue
        trigger = message["type"] == "run" and message["case"]["id"] == TRIGGER
        if trigger and kind == "crash":
            print("fake implementation: crashing on purpose", file=sys.stderr)
            return 1
        if trigger and kind == "not-json":
            sys.stdout.write("this is not json\n")
            sys.stdout.flush()
            continue
        if trigger and kind == "wrong-seq":
            answer = handle(message)
            assert answer is not None
            reply({**answer, "seq": 999})
            continue
        if trigger and kind == "hang":
            time.sleep(30)
        if message["type"] == "run" and kind == "hang-all":
            time.sleep(30)  # every case: a fuzzer's shrinking must still end
            continue
        if trigger and kind == "skip":
            reply({"type": "skipped", "seq": message["seq"], "reason": "no Barons here"})
            continue
        if trigger and kind == "bad-step":
            answer = handle(message)
            assert answer is not None
            answer["steps"][0] = {"events": "nope"}
            reply(answer)
            continue
        answer = handle(message)
        if answer is not None:
            reply(answer)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1]))
