"""This package's engine behind conformance protocol v1.

Run ``python -m loveletter.conformance.adapter`` and speak JSON lines to it
(``conformance/README.md``, "Protocol"). It is the reference for anyone
writing an adapter for another implementation: it executes and reports,
and never compares.
"""

from __future__ import annotations

import sys
import traceback
from typing import Any, TextIO

from loveletter import __version__
from loveletter.conformance import protocol
from loveletter.conformance.execute import ScriptError, execute
from loveletter.conformance.protocol import PROTOCOL_VERSION, ProtocolError
from loveletter.conformance.vocabulary import CAPABILITIES
from loveletter.rulesets import RULESETS

JSON = Any

_SCRIPT_KEYS = ("ruleset", "players", "start", "steps")


def handle(message: dict[str, JSON]) -> dict[str, JSON] | None:
    """The reply to one message (``None`` for ``stop``)."""
    kind = message["type"]
    if kind == "start":
        if message.get("protocol") != PROTOCOL_VERSION:
            raise ProtocolError("start", "protocol", f"this adapter speaks {PROTOCOL_VERSION}")
        return {
            "type": "started",
            "protocol": PROTOCOL_VERSION,
            "implementation": {
                "name": "loveletter",
                "version": __version__,
                "language": "python",
            },
            "rulesets": sorted(RULESETS),
            # every one, said outright: an adapter copied from this one
            # then lists what it offers instead of claiming all by silence
            # (seeded-chance included: our time-outs and turn orders are
            # the documented draws of loveletter/chance.py)
            "capabilities": list(CAPABILITIES),
        }
    if kind == "run":
        seq = message.get("seq")
        script = message.get("case")
        if not isinstance(seq, int) or isinstance(seq, bool):
            raise ProtocolError("run", "seq", "expected an integer")
        if not isinstance(script, dict) or any(k not in script for k in _SCRIPT_KEYS):
            missing = [k for k in _SCRIPT_KEYS if not isinstance(script, dict) or k not in script]
            return _errored(seq, "the case is not a script", {"field": f"case.{missing[0]}"})
        if script["ruleset"] not in RULESETS:
            return {
                "type": "skipped",
                "seq": seq,
                "reason": f"unknown ruleset {script['ruleset']!r}",
            }
        try:
            return {"type": "result", "seq": seq, **execute(script)}
        except ScriptError as error:
            return _errored(seq, str(error), {"field": f"case.{error.field}"})
        except Exception as error:  # report it and keep serving the next cases
            return _errored(seq, repr(error), {"traceback": traceback.format_exc(limit=-3)})
    raise ProtocolError(kind, "type", "expected start, run or stop")


def _errored(seq: int, message: str, context: dict[str, JSON]) -> dict[str, JSON]:
    return {"type": "errored", "seq": seq, "message": message, "context": context}


def serve(stdin: TextIO, stdout: TextIO) -> int:
    """Answer protocol messages from ``stdin`` until ``stop``."""
    return protocol.serve(stdin, stdout, handle, "loveletter adapter")


def main() -> int:
    return serve(sys.stdin, sys.stdout)


if __name__ == "__main__":
    sys.exit(main())
