"""Hostile implementations, to check that the runner bounds what it reads:
``python hostile_impls.py KIND [PIDFILE]``. Each answers the handshake,
then misbehaves on the case :data:`TRIGGER` and behaves (as our engine)
otherwise, so the test can see that the runner recovers for the next case."""

from __future__ import annotations

import json
import subprocess
import sys
import time
from typing import Any

from loveletter.conformance.adapter import handle

TRIGGER = "baron-tie-knocks-out-nobody"
#: the runner's limit on a reply line
MAX_LINE = 16 * 1024 * 1024


def write(data: bytes) -> None:
    sys.stdout.buffer.write(data)
    sys.stdout.buffer.flush()


def reply(message: dict[str, Any]) -> None:
    write(json.dumps(message).encode() + b"\n")


def first_events_step(answer: dict[str, Any]) -> dict[str, Any]:
    return next(step for step in answer["steps"] if "events" in step)


def first_observation(answer: dict[str, Any]) -> dict[str, Any]:
    return next(step for step in answer["steps"] if "observation" in step)


def misbehave(kind: str, message: dict[str, Any]) -> None:
    answer = handle(message)
    assert answer is not None
    if kind == "long-line":
        write(b'{"type": "result", "pad": "' + b"x" * MAX_LINE + b'"}\n')
    elif kind == "endless-line":
        while True:
            write(b"x" * 65536)
    elif kind == "endless-blank":
        while True:
            write(b"\n" * 4096)
    elif kind == "binary":
        write(b"\xff\xfe\x00\x81garbage\x00\xc3\x28\n")
    elif kind == "seen-by-int":
        first_events_step(answer)["seen_by"] = 5
        reply(answer)
    elif kind == "player-list":
        first_events_step(answer)["seen_by"] = [{"player": [0], "events": []}]
        reply(answer)
    elif kind == "rejected-list":
        step = first_events_step(answer)
        step.pop("events")
        step["rejected"] = ["target-protected"]
        reply(answer)
    elif kind == "state-list":
        first_observation(answer)["observation"]["state"] = [1, 2]
        reply(answer)
    elif kind == "huge-seq":
        text = json.dumps(answer).replace(f'"seq": {message["seq"]}', '"seq": ' + "7" * 5000)
        write(text.encode() + b"\n")
    elif kind == "deep":
        write(b"[" * 200_000 + b"]" * 200_000 + b"\n")
    elif kind == "nan":
        write(json.dumps({**answer, "seq": float("nan")}).encode() + b"\n")
    elif kind == "hang":
        time.sleep(60)
    elif kind == "huge-stderr":
        # a 300 MB error message, then death: the runner keeps only its tail
        chunk = b"an error message that goes on and on " * 1000 + b"\n"
        for _ in range(300 * 1024 * 1024 // len(chunk)):
            sys.stderr.buffer.write(chunk)
        sys.stderr.buffer.write(b"the last words\n")
        sys.stderr.buffer.flush()
        raise SystemExit(1)
    else:
        raise SystemExit(f"unknown kind {kind}")


def main(kind: str, pidfile: str | None = None) -> int:
    if pidfile is not None:
        # a helper in the implementation's process group, which the runner
        # must kill with it
        child = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(120)"])
        with open(pidfile, "w", encoding="utf-8") as out:
            out.write(str(child.pid))
    for line in sys.stdin:
        message = json.loads(line)
        if message["type"] == "stop":
            return 0
        if message["type"] == "run" and message["case"]["id"] == TRIGGER:
            misbehave(kind, message)
            continue
        answer = handle(message)
        if answer is not None:
            reply(answer)
    return 0


if __name__ == "__main__":
    sys.exit(main(*sys.argv[1:]))
