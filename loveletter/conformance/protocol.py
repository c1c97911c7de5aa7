"""Protocol v1: how the runner talks to an implementation.

JSON lines over the implementation's stdin and stdout, one message per line
(``conformance/README.md``, "Protocol"; one JSON Schema per message in
``conformance/schema/protocol-v1/``)::

    runner -> {"type": "start", "protocol": 1}
    impl   -> {"type": "started", "protocol": 1, "implementation": {...}, "rulesets": [...]}
    runner -> {"type": "run", "seq": 1, "case": {...script...}}
    impl   -> {"type": "result", "seq": 1, "start_events": [...], "steps": [...]}
           |  {"type": "skipped", "seq": 1, "reason": "..."}
           |  {"type": "errored", "seq": 1, "message": "...", "context": {...}}
    runner -> {"type": "stop"}          (the implementation exits)

The implementation only executes; the runner compares. This module checks
every message received and raises :class:`ProtocolError` naming the
message and the field at fault.
"""

from __future__ import annotations

import json
import queue
import shlex
import subprocess
import threading
from collections.abc import Callable
from typing import Any

from loveletter.conformance.vocabulary import REJECTION_KINDS
from loveletter.errors import LoveLetterError

PROTOCOL_VERSION = 1

JSON = Any


class ProtocolError(LoveLetterError, ValueError):
    """A message that breaks protocol v1: ``message`` names which one (for
    instance ``result seq 4``), ``field`` the offending part."""

    def __init__(self, message: str, field: str, detail: str) -> None:
        super().__init__(f"{message}: {field}: {detail}" if field else f"{message}: {detail}")
        self.message = message
        self.field = field
        self.detail = detail


def decode(line: str, what: str) -> dict[str, JSON]:
    try:
        data = json.loads(line)
    except json.JSONDecodeError as error:
        raise ProtocolError(what, "", f"not a JSON line ({error}): {line[:200]!r}") from None
    if not isinstance(data, dict):
        raise ProtocolError(what, "", "a message is a JSON object")
    if not isinstance(data.get("type"), str):
        raise ProtocolError(what, "type", "missing or not a string")
    return data


def encode(message: dict[str, JSON]) -> str:
    return json.dumps(message, separators=(",", ":")) + "\n"


def check_started(data: dict[str, JSON]) -> None:
    what = "handshake reply"
    if data["type"] != "started":
        raise ProtocolError(what, "type", f"expected 'started', not {data['type']!r}")
    if data.get("protocol") != PROTOCOL_VERSION:
        raise ProtocolError(
            what, "protocol", f"the runner speaks {PROTOCOL_VERSION}, not {data.get('protocol')!r}"
        )
    rulesets = data.get("rulesets")
    if not isinstance(rulesets, list) or not all(isinstance(r, str) for r in rulesets):
        raise ProtocolError(what, "rulesets", "expected a list of ruleset names")
    info = data.get("implementation")
    if not isinstance(info, dict) or not isinstance(info.get("name"), str):
        raise ProtocolError(what, "implementation.name", "expected a string")


def check_reply(data: dict[str, JSON], seq: int, script: dict[str, JSON]) -> None:
    """Check a reply to ``run`` number ``seq`` against the script it answers."""
    kind = data["type"]
    what = f"{kind} seq {data.get('seq')!r}"
    if kind not in ("result", "skipped", "errored"):
        raise ProtocolError(what, "type", "expected result, skipped or errored")
    if data.get("seq") != seq or isinstance(data.get("seq"), bool):
        raise ProtocolError(what, "seq", f"expected {seq}, the seq of the run it answers")
    if kind == "skipped":
        if not isinstance(data.get("reason"), str):
            raise ProtocolError(what, "reason", "expected a string")
        return
    if kind == "errored":
        if not isinstance(data.get("message"), str):
            raise ProtocolError(what, "message", "expected a string")
        if "context" in data and not isinstance(data["context"], dict):
            raise ProtocolError(what, "context", "expected an object")
        return
    if "start_rejected" in data:
        if not isinstance(data["start_rejected"], str):
            raise ProtocolError(what, "start_rejected", "expected a string (why)")
        if data.get("steps") not in (None, []):
            raise ProtocolError(what, "steps", "a rejected start has no step results")
        return
    events = data.get("start_events")
    if not isinstance(events, list):
        raise ProtocolError(what, "start_events", "expected a list of events")
    _events(events, what, "start_events")
    steps = data.get("steps")
    wanted = script["steps"]
    if not isinstance(steps, list) or len(steps) != len(wanted):
        raise ProtocolError(what, "steps", f"expected a list of {len(wanted)} step results")
    for index, (result, asked) in enumerate(zip(steps, wanted, strict=True)):
        field = f"steps[{index}]"
        if not isinstance(result, dict):
            raise ProtocolError(what, field, "expected an object")
        if "observe" in asked:
            if not isinstance(result.get("observation"), dict):
                raise ProtocolError(what, f"{field}.observation", "expected an object")
            continue
        if "rejected" in result:
            if result["rejected"] not in REJECTION_KINDS:
                raise ProtocolError(
                    what, f"{field}.rejected", f"unknown rejection kind {result['rejected']!r}"
                )
            continue
        if not isinstance(result.get("events"), list):
            raise ProtocolError(what, f"{field}.events", "expected a list (or rejected)")
        _events(result["events"], what, f"{field}.events")
        for i, seen in enumerate(result.get("seen_by", [])):
            if not isinstance(seen, dict) or not isinstance(seen.get("events"), list):
                raise ProtocolError(what, f"{field}.seen_by[{i}]", "expected {player, events}")
            _events(seen["events"], what, f"{field}.seen_by[{i}].events")


def _events(events: list[JSON], what: str, field: str) -> None:
    for i, event in enumerate(events):
        if not isinstance(event, dict) or not isinstance(event.get("type"), str):
            raise ProtocolError(what, f"{field}[{i}]", "expected an event object with a type")


class Process:
    """An implementation started as a command and spoken to through protocol
    v1. Replies are awaited for at most ``timeout`` seconds."""

    def __init__(
        self,
        command: str,
        timeout: float = 60.0,
        log: Callable[[str, dict[str, JSON]], None] | None = None,
    ) -> None:
        self.command = command
        self.timeout = timeout
        self.seq = 0
        #: called with ("sent" or "received", message) for every message
        self.log = log
        self._proc = subprocess.Popen(
            shlex.split(command),
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            bufsize=1,
        )
        self._lines: queue.Queue[str | None] = queue.Queue()
        self._stderr: list[str] = []
        threading.Thread(target=self._read, daemon=True).start()
        threading.Thread(target=self._read_stderr, daemon=True).start()
        self._send({"type": "start", "protocol": PROTOCOL_VERSION})
        started = decode(self._receive("handshake reply"), "handshake reply")
        self._logged("received", started)
        check_started(started)
        self.info: dict[str, JSON] = started["implementation"]
        self.rulesets: frozenset[str] = frozenset(started["rulesets"])

    def _read(self) -> None:
        assert self._proc.stdout is not None
        for line in self._proc.stdout:
            self._lines.put(line)
        self._lines.put(None)

    def _read_stderr(self) -> None:
        assert self._proc.stderr is not None
        for line in self._proc.stderr:
            self._stderr.append(line)
            del self._stderr[:-20]

    def _logged(self, direction: str, message: dict[str, JSON]) -> None:
        if self.log is not None:
            self.log(direction, message)

    def _send(self, message: dict[str, JSON]) -> None:
        self._logged("sent", message)
        assert self._proc.stdin is not None
        try:
            self._proc.stdin.write(encode(message))
            self._proc.stdin.flush()
        except (BrokenPipeError, OSError):
            raise ProtocolError(message["type"], "", self._gone()) from None

    def _gone(self) -> str:
        tail = "".join(self._stderr[-5:]).strip()
        return "the implementation exited" + (f"; its stderr ended with:\n{tail}" if tail else "")

    def _receive(self, what: str) -> str:
        while True:
            try:
                line = self._lines.get(timeout=self.timeout)
            except queue.Empty:
                raise ProtocolError(what, "", f"no reply within {self.timeout:g} s") from None
            if line is None:
                raise ProtocolError(what, "", self._gone())
            if line.strip():
                return line

    def run(self, script: dict[str, JSON]) -> dict[str, JSON]:
        """Send one ``run`` and return the checked reply."""
        self.seq += 1
        self._send({"type": "run", "seq": self.seq, "case": script})
        what = f"reply to run seq {self.seq}"
        reply = decode(self._receive(what), what)
        self._logged("received", reply)
        check_reply(reply, self.seq, script)
        return reply

    @property
    def alive(self) -> bool:
        return self._proc.poll() is None

    def close(self, graceful: bool = True) -> None:
        """Ask the implementation to stop (or, not ``graceful``, kill it:
        after a protocol error it may be hung or confused)."""
        if not graceful and self.alive:
            self._proc.kill()
        if self.alive:
            try:
                self._send({"type": "stop"})
                self._proc.wait(timeout=5)
            except (ProtocolError, subprocess.TimeoutExpired):
                self._proc.kill()
        for stream in (self._proc.stdin, self._proc.stdout, self._proc.stderr):
            if stream is not None:
                stream.close()
        self._proc.wait()
