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

import contextlib
import json
import os
import queue
import shlex
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Callable
from typing import IO, Any

from loveletter.conformance.vocabulary import CAPABILITIES, REJECTION_KINDS
from loveletter.errors import LoveLetterError
from loveletter.rulesets import RULESETS

PROTOCOL_VERSION = 1

JSON = Any

# Limits on what an implementation may send (its replies are untrusted):
#: the longest reply line, in bytes
MAX_LINE_BYTES = 16 * 1024 * 1024
#: integers in replies are written with at most this many digits
MAX_INTEGER_DIGITS = 30
#: replies nested deeper than this are refused
MAX_DEPTH = 100


class ProtocolError(LoveLetterError, ValueError):
    """A message that breaks protocol v1: ``message`` names which one (for
    instance ``result seq 4``), ``field`` the offending part."""

    def __init__(self, message: str, field: str, detail: str) -> None:
        super().__init__(f"{message}: {field}: {detail}" if field else f"{message}: {detail}")
        self.message = message
        self.field = field
        self.detail = detail


class TraceFailed(LoveLetterError):
    """The ``--trace`` file could not be written: the runner's fault, never
    the implementation's (not an OSError, so that nothing on the way takes
    it for the implementation's pipe breaking)."""


def short(value: Any, limit: int = 60) -> str:
    """``repr(value)`` cut to ``limit`` characters: values from untrusted
    replies go into messages."""
    text = repr(value)
    return text if len(text) <= limit else text[: limit - 3] + "..."


def _parse_int(text: str) -> int:
    if len(text.lstrip("-")) > MAX_INTEGER_DIGITS:
        raise ValueError(f"an integer of {len(text)} digits (at most {MAX_INTEGER_DIGITS})")
    return int(text)


def _parse_constant(name: str) -> Any:
    raise ValueError(f"{name} is not JSON")


def _depth(value: JSON) -> int:
    """How deeply ``value`` nests (stops counting past :data:`MAX_DEPTH`)."""
    deepest = 0
    todo = [(value, 0)]
    while todo:
        item, depth = todo.pop()
        deepest = max(deepest, depth)
        if depth > MAX_DEPTH:
            break
        if isinstance(item, dict):
            todo += [(v, depth + 1) for v in item.values()]
        elif isinstance(item, list):
            todo += [(v, depth + 1) for v in item]
    return deepest


def decode(line: str, what: str) -> dict[str, JSON]:
    try:
        data = json.loads(line, parse_int=_parse_int, parse_constant=_parse_constant)
    except (ValueError, RecursionError) as error:  # JSONDecodeError is a ValueError
        detail = str(error)
        detail = detail if len(detail) <= 200 else detail[:197] + "..."
        raise ProtocolError(what, "", f"not a JSON line ({detail}): {line[:200]!r}") from None
    if not isinstance(data, dict):
        raise ProtocolError(what, "", "a message is a JSON object")
    if not isinstance(data.get("type"), str):
        raise ProtocolError(what, "type", "missing or not a string")
    if _depth(data) > MAX_DEPTH:
        raise ProtocolError(what, "", f"nested deeper than {MAX_DEPTH} levels")
    return data


def encode(message: dict[str, JSON]) -> str:
    return json.dumps(message, separators=(",", ":")) + "\n"


def serve(
    stdin: IO[str],
    stdout: IO[str],
    handle: Callable[[dict[str, JSON]], dict[str, JSON] | None],
    name: str,
) -> int:
    """An adapter's side of the protocol: read a message a line from
    ``stdin``, write ``handle``'s reply to ``stdout``, until ``stop``
    (exit status 0) or a message that cannot be read (2, the reason on
    stderr under the adapter's ``name``). Blank lines are skipped."""
    for number, line in enumerate(stdin, start=1):
        if not line.strip():
            continue
        try:
            message = decode(line, f"message {number}")
            if message["type"] == "stop":
                return 0
            reply = handle(message)
        except ProtocolError as error:
            # Nothing sensible can follow a message that cannot be read.
            print(f"{name}: {error}", file=sys.stderr)
            return 2
        if reply is not None:
            stdout.write(encode(reply))
            stdout.flush()
    return 0


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
    for i, name in enumerate(rulesets):
        # refused as an unknown capability is: most likely a typo, and a
        # runner that ignored it would silently skip that ruleset's cases
        if name not in RULESETS:
            raise ProtocolError(
                what,
                f"rulesets[{i}]",
                f"unknown ruleset {short(name)} (known: {', '.join(sorted(RULESETS))})",
            )
    info = data.get("implementation")
    if not isinstance(info, dict) or not isinstance(info.get("name"), str):
        raise ProtocolError(what, "implementation.name", "expected a string")
    capabilities(data)


def capabilities(started: dict[str, JSON]) -> frozenset[str]:
    """What a handshake declares the implementation offers: its
    ``capabilities`` (every one of them when the key is absent, as protocol
    1 was first published). An unknown name is refused: it is most likely
    a typo, and a runner that ignored it would judge the wrong things."""
    if "capabilities" not in started:
        return frozenset(CAPABILITIES)
    declared = started["capabilities"]
    if not isinstance(declared, list) or not all(isinstance(c, str) for c in declared):
        raise ProtocolError("handshake reply", "capabilities", "expected a list of names")
    for i, name in enumerate(declared):
        if name not in CAPABILITIES:
            raise ProtocolError(
                "handshake reply",
                f"capabilities[{i}]",
                f"unknown capability {short(name)} (known: {', '.join(CAPABILITIES)})",
            )
    return frozenset(declared)


#: the longest refusal an implementation without our rejection kinds may give
MAX_REFUSAL = 200


def check_reply(
    data: dict[str, JSON], seq: int, script: dict[str, JSON], kinds: bool = True
) -> None:
    """Check a reply to ``run`` number ``seq`` against the script it answers
    (``kinds``: whether refusals must name one of our rejection kinds; an
    implementation without them may give any short non-empty string)."""
    kind = data["type"]
    what = f"{kind[:30]} seq {short(data.get('seq'), 30)}"
    if kind not in ("result", "skipped", "errored"):
        raise ProtocolError(what, "type", "expected result, skipped or errored")
    if type(data.get("seq")) is not int or data["seq"] != seq:
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
    _by(data, what, "by")
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
    prelude = script.get("prelude", 0)
    if not isinstance(steps, list) or not (
        len(steps) == len(wanted) or _stopped_in_prelude(steps, wanted, prelude)
    ):
        raise ProtocolError(
            what,
            "steps",
            f"expected a list of {len(wanted)} step results"
            + (
                f" (or fewer, ending with the refusal of one of the first {prelude}: the replay"
                " start's)"
                if prelude
                else ""
            ),
        )
    for index, (result, asked) in enumerate(zip(steps, wanted, strict=False)):
        field = f"steps[{index}]"
        if not isinstance(result, dict):
            raise ProtocolError(what, field, "expected an object")
        if "observe" in asked:
            _observation(result.get("observation"), what, f"{field}.observation", asked["observe"])
            continue
        _by(result, what, f"{field}.by")
        if "rejected" in result:
            rejected = result["rejected"]
            if kinds and (not isinstance(rejected, str) or rejected not in REJECTION_KINDS):
                raise ProtocolError(
                    what, f"{field}.rejected", f"unknown rejection kind {short(rejected)}"
                )
            if not isinstance(rejected, str) or not 0 < len(rejected) <= MAX_REFUSAL:
                raise ProtocolError(
                    what,
                    f"{field}.rejected",
                    f"expected a refusal of 1 to {MAX_REFUSAL} characters, not {short(rejected)}",
                )
            continue
        if not isinstance(result.get("events"), list):
            raise ProtocolError(what, f"{field}.events", "expected a list (or rejected)")
        _events(result["events"], what, f"{field}.events")
        seen_by = result.get("seen_by", [])
        if not isinstance(seen_by, list):
            raise ProtocolError(what, f"{field}.seen_by", f"expected a list, not {short(seen_by)}")
        for i, seen in enumerate(seen_by):
            where = f"{field}.seen_by[{i}]"
            if not isinstance(seen, dict) or not isinstance(seen.get("events"), list):
                raise ProtocolError(what, where, "expected {player, events}")
            _player(seen.get("player"), what, f"{where}.player")
            _events(seen["events"], what, f"{where}.events")


def _stopped_in_prelude(steps: list[JSON], wanted: list[JSON], prelude: int) -> bool:
    """Whether step results end early, as an implementation may end them:
    at the refusal of a replay start's command (one of the first
    ``prelude`` steps)."""
    return 0 < len(steps) <= prelude and isinstance(steps[-1], dict) and "rejected" in steps[-1]


#: who may be named as having decided a refusal (``"by"``)
DECIDERS = ("adapter", "engine")


def _by(result: dict[str, JSON], what: str, field: str) -> None:
    if "by" in result and result["by"] not in DECIDERS:
        raise ProtocolError(
            what, field, f"expected one of {', '.join(DECIDERS)}, not {short(result['by'])}"
        )


def _player(value: JSON, what: str, field: str) -> None:
    if type(value) is not int:
        raise ProtocolError(what, field, f"expected a seat number, not {short(value)}")


def _observation(value: JSON, what: str, field: str, asked: dict[str, JSON] | None = None) -> None:
    if not isinstance(value, dict):
        raise ProtocolError(what, field, "expected an object")
    if asked is not None and "try" in asked:
        tried = value.get("tried")
        if (
            not isinstance(tried, list)
            or len(tried) != len(asked["try"])
            or not all(isinstance(answer, bool) for answer in tried)
        ):
            raise ProtocolError(
                what,
                f"{field}.tried",
                f"expected a list of {len(asked['try'])} booleans, one per command tried",
            )
    if "state" in value and not isinstance(value["state"], dict | None):
        raise ProtocolError(what, f"{field}.state", "expected an object")
    if "legal_commands" in value:
        commands = value["legal_commands"]
        if not isinstance(commands, list):
            raise ProtocolError(what, f"{field}.legal_commands", "expected a list of commands")
        for i, command in enumerate(commands):
            if not isinstance(command, dict) or not isinstance(command.get("type"), str):
                raise ProtocolError(
                    what, f"{field}.legal_commands[{i}]", "expected a command object with a type"
                )
    if "views" in value:
        views = value["views"]
        if not isinstance(views, list):
            raise ProtocolError(what, f"{field}.views", "expected a list of views")
        for i, item in enumerate(views):
            if not isinstance(item, dict):
                raise ProtocolError(what, f"{field}.views[{i}]", "expected a view object")
            _player(item.get("player"), what, f"{field}.views[{i}].player")
            if "legal_commands" in item:
                _observation(
                    {"legal_commands": item["legal_commands"]}, what, f"{field}.views[{i}]"
                )
    if "perft" in value:
        counts = value["perft"]
        if not isinstance(counts, list) or not all(type(n) is int for n in counts):
            raise ProtocolError(what, f"{field}.perft", "expected a list of counts")


def _events(events: list[JSON], what: str, field: str) -> None:
    for i, event in enumerate(events):
        if not isinstance(event, dict) or not isinstance(event.get("type"), str):
            raise ProtocolError(what, f"{field}[{i}]", "expected an event object with a type")


class Process:
    """An implementation started as a command and spoken to through protocol
    v1. Replies are awaited for at most ``timeout`` seconds, and reply lines
    are at most :data:`MAX_LINE_BYTES` long. The implementation runs in a
    session (and process group) of its own: closing it ends the whole group."""

    def __init__(
        self,
        command: str,
        timeout: float = 60.0,
        log: Callable[[str, dict[str, JSON]], None] | None = None,
        max_line: int = MAX_LINE_BYTES,
        trace: Callable[[str, str, bytes | None], None] | None = None,
    ) -> None:
        self.command = command
        self.timeout = timeout
        self.max_line = max_line
        self.seq = 0
        #: called with ("sent" or "received", message) for every message
        self.log = log
        #: called with ("impl", line, None) for every line sent and ("runner",
        #: line, None) for every line received, as it is (before it is decoded
        #: or checked); a received line that is not UTF-8 comes as ("runner",
        #: the line with its bad bytes replaced, the bytes as written)
        self.trace = trace
        try:
            argv = shlex.split(command)
        except ValueError as error:
            raise ProtocolError("command", "", f"cannot split {short(command)}: {error}") from None
        if not argv:
            raise ProtocolError("command", "", "the command is empty")
        self._closed = threading.Event()
        self._writer: threading.Thread | None = None
        self._proc = subprocess.Popen(
            argv,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            start_new_session=True,
        )
        # lines (or, at the end, why there are no more), a few at a time: an
        # implementation writing faster than the runner reads is held back
        self._lines: queue.Queue[tuple[str, str, bytes | None]] = queue.Queue(maxsize=8)
        self._stderr: list[str] = []
        threading.Thread(target=self._read, daemon=True).start()
        threading.Thread(target=self._read_stderr, daemon=True).start()
        try:
            self._send({"type": "start", "protocol": PROTOCOL_VERSION})
            started = decode(self._receive("handshake reply"), "handshake reply")
            self._logged("received", started)
            check_started(started)
        except (ProtocolError, TraceFailed):
            self.close(graceful=False)
            raise
        self.info: dict[str, JSON] = started["implementation"]
        self.rulesets: frozenset[str] = frozenset(started["rulesets"])
        self.capabilities: frozenset[str] = capabilities(started)

    def _put(self, kind: str, text: str, raw: bytes | None = None) -> bool:
        """Queue a line for :meth:`_receive`; False once closed."""
        while not self._closed.is_set():
            try:
                self._lines.put((kind, text, raw), timeout=0.1)
                return True
            except queue.Full:
                continue
        return False

    def _read(self) -> None:
        stream = self._proc.stdout
        assert stream is not None
        try:
            while True:
                raw = stream.readline(self.max_line + 1)
                if not raw:
                    self._put("end", "")
                    return
                if len(raw) > self.max_line:
                    self._put("bad", f"a reply line longer than the limit of {self.max_line} bytes")
                    return
                if not raw.strip():
                    continue  # blank lines are allowed, and not queued
                try:
                    line = raw.decode("utf-8")
                except UnicodeDecodeError as error:
                    self._put("bad", f"a reply line that is not UTF-8: {raw[:60]!r} ({error})", raw)
                    return
                if not self._put("line", line):
                    return
        except (OSError, ValueError):  # closed under us
            self._put("end", "")
        finally:
            _close_quietly(stream)

    def _read_stderr(self) -> None:
        stream = self._proc.stderr
        assert stream is not None
        try:
            while True:
                raw = stream.readline(4096)
                if not raw:
                    return
                self._stderr.append(raw.decode("utf-8", errors="replace"))
                del self._stderr[:-20]
        except (OSError, ValueError):
            return
        finally:
            _close_quietly(stream)

    def _logged(self, direction: str, message: dict[str, JSON]) -> None:
        if self.log is not None:
            self.log(direction, message)

    def _send(self, message: dict[str, JSON]) -> None:
        """Write one message; an implementation that does not read it within
        the time limit is at fault (the write happens in a thread, so the
        runner never blocks on a full pipe)."""
        self._logged("sent", message)
        stdin = self._proc.stdin
        assert stdin is not None
        text = encode(message)
        if self.trace is not None:
            self.trace("impl", text.rstrip("\n"), None)
        data = text.encode("utf-8")
        failed: list[str] = []

        def write(stream: IO[bytes] = stdin) -> None:
            try:
                stream.write(data)
                stream.flush()
            except (OSError, ValueError):
                failed.append(self._gone())

        writer = self._writer = threading.Thread(target=write, daemon=True)
        writer.start()
        writer.join(self.timeout)
        if writer.is_alive():
            raise ProtocolError(
                str(message["type"]), "", f"the implementation read nothing for {self.timeout:g} s"
            )
        if failed:
            raise ProtocolError(str(message["type"]), "", failed[0])

    def _gone(self) -> str:
        tail = "".join(self._stderr[-5:]).strip()[-2000:]
        return "the implementation exited" + (f"; its stderr ended with:\n{tail}" if tail else "")

    def _receive(self, what: str) -> str:
        """The next line, waiting at most ``timeout`` seconds in all."""
        deadline = time.monotonic() + self.timeout
        try:
            kind, text, raw = self._lines.get(timeout=max(0.0, deadline - time.monotonic()))
        except queue.Empty:
            raise ProtocolError(what, "", f"no reply within {self.timeout:g} s") from None
        if kind == "end":
            raise ProtocolError(what, "", self._gone())
        if kind == "bad":
            if raw is not None and self.trace is not None:
                # traced as written, although it cannot be read
                line = raw.rstrip(b"\r\n")
                self.trace("runner", line.decode("utf-8", errors="replace"), line)
            raise ProtocolError(what, "", text)
        if self.trace is not None:
            self.trace("runner", text.rstrip("\r\n"), None)
        return text

    def run(self, script: dict[str, JSON]) -> dict[str, JSON]:
        """Send one ``run`` and return the checked reply."""
        self.seq += 1
        self._send({"type": "run", "seq": self.seq, "case": script})
        what = f"reply to run seq {self.seq}"
        reply = decode(self._receive(what), what)
        self._logged("received", reply)
        check_reply(reply, self.seq, script, kinds="rejection-kinds" in self.capabilities)
        return reply

    @property
    def alive(self) -> bool:
        return self._proc.poll() is None

    def _kill_group(self) -> None:
        """Kill the implementation and every process it started (its group)."""
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(self._proc.pid, signal.SIGKILL)
        if self.alive:
            self._proc.kill()

    def close(self, graceful: bool = True) -> None:
        """Ask the implementation to stop (or, not ``graceful``, kill it:
        after a protocol error it may be hung or confused). Whatever it
        started and left running is killed with it."""
        if graceful and self.alive:
            try:
                self._send({"type": "stop"})
                self._proc.wait(timeout=5)
            except (ProtocolError, subprocess.TimeoutExpired):
                pass
        self._kill_group()
        self._closed.set()
        self._proc.wait()
        # the reader threads close stdout and stderr when they end; stdin is
        # closed here unless a write is still stuck on it (then it stays open
        # rather than blocking the runner)
        if self._proc.stdin is not None and (self._writer is None or not self._writer.is_alive()):
            _close_quietly(self._proc.stdin)


def _close_quietly(stream: IO[bytes]) -> None:
    with contextlib.suppress(OSError, ValueError):
        stream.close()
