"""Replay starts: a position case's start reached through public play.

An engine without a position loader can still run a case that starts in
the middle of a round: ``conformance/replays/<ruleset>/<topic>/<id>.yaml``
gives a stacked round-1 deal and every command, across earlier rounds if
need be, that reaches the case's start through the rules. The runner sends
the deal and those commands ahead of the case's own steps, checks they are
accepted, and compares only the case's steps. The files are generated and
proven by :mod:`loveletter.conformance.reach`.

An online replay start's deal also gives round 1's turn ``order`` and, when
the case's start has one, the game's ``seed``: the deal is a case-format
``deal`` and is sent as it is. Its ``settings`` (when not the defaults) are
the case's own, which the runner sends with the script.

Replay files are read like case files: bounded, plain YAML, every fault an
error naming the file and the field.
"""

from __future__ import annotations

import hashlib
from pathlib import Path
from typing import Any

import attrs
import yaml

from loveletter.conformance.cases import (
    CaseError,
    _Checker,
    _Refused,
    _seed,
    _settings,
    load_yaml,
    read_bounded,
)
from loveletter.conformance.vocabulary import CARD_NAMES, COMMAND_FIELDS

JSON = Any

#: the replay file format this package reads
REPLAY_FORMAT = 1
_KEYS = {"format", "case", "ruleset", "players", "settings", "deal", "commands", "after_draw"}
_DEAL_KEYS = {"deck", "first_player", "order", "seed"}


@attrs.frozen
class ReplayStart:
    """How to reach one case's start from a stacked deal, by play."""

    #: the case's name, ``ruleset/topic/id``
    name: str
    ruleset: str
    players: int
    #: round 1's stacked deck, top first, and its first player
    deck: tuple[str, ...]
    first_player: int
    #: every command from that deal to the case's start, in protocol form
    commands: tuple[dict[str, JSON], ...]
    #: the position has ``drawn: false``: play never rests before a draw,
    #: so these commands reach the moment right after the position's draw
    after_draw: bool = False
    path: str = ""
    #: online: round 1's turn order (the deal's ``order``)
    order: tuple[int, ...] | None = None
    #: the game's seed as written (decimal digits or an integer), when the
    #: case's start has one: a time-out's random move is drawn from it
    seed: int | str | None = None
    #: online: the table settings, the case's own (which the runner sends)
    settings: dict[str, JSON] | None = None

    def to_data(self) -> dict[str, JSON]:
        """The file's content (format 1), as :func:`parse_replay` reads it."""
        data: dict[str, JSON] = {
            "format": REPLAY_FORMAT,
            "case": self.name.rsplit("/", 1)[-1],
            "ruleset": self.ruleset,
            "players": self.players,
            "deal": self.deal(),
            "commands": [dict(command) for command in self.commands],
            "after_draw": self.after_draw,
        }
        if self.settings is not None:
            data["settings"] = dict(self.settings)
        return data

    def deal(self) -> dict[str, JSON]:
        """The start to send: ``{"deck": [...], "first_player": seat}``,
        with the online ``order`` and the ``seed`` when the file gives them
        (a case-format ``deal``)."""
        deal: dict[str, JSON] = {"deck": list(self.deck), "first_player": self.first_player}
        if self.order is not None:
            deal["order"] = list(self.order)
        if self.seed is not None:
            deal["seed"] = self.seed
        return deal


def parse_replay(data: JSON, file: str, name: str) -> ReplayStart:
    """Check the plain data of one replay file (``name``: its case's name)."""
    case_id = name.rsplit("/", 1)[-1]
    c = _Checker(file, case_id)
    c.mapping(data, "", _KEYS)
    c.plain(data, "")
    if data.get("format") != REPLAY_FORMAT or isinstance(data.get("format"), bool):
        raise c.fail("format", f"this runner reads replay format {REPLAY_FORMAT}")
    if c.require(data, "", "case") != case_id:
        raise c.fail("case", f"expected {case_id!r}, the case this file is named after")
    ruleset = c.text(c.require(data, "", "ruleset"), "ruleset")
    players = c.integer(c.require(data, "", "players"), "players", minimum=1)
    settings = data.get("settings")
    if settings is not None:
        _settings(c, settings)
    deal = c.mapping(c.require(data, "", "deal"), "deal", _DEAL_KEYS)
    deck = c.array(c.require(deal, "deal", "deck"), "deal.deck")
    for i, card in enumerate(deck):
        if card not in CARD_NAMES:
            raise c.fail(f"deal.deck[{i}]", f"expected a card name, not {card!r}")
    first = c.seat(c.require(deal, "deal", "first_player"), "deal.first_player", players)
    order = None
    if "order" in deal:
        order = tuple(c.seats(deal["order"], "deal.order", players))
        if not order or order[0] != first:
            raise c.fail("deal.order", f"the order starts with the first player, {first}")
    seed = deal.get("seed")
    if seed is not None:
        _seed(c, seed, "deal.seed")
    commands = c.array(c.require(data, "", "commands"), "commands")
    for i, command in enumerate(commands):
        where = f"commands[{i}]"
        if not isinstance(command, dict) or command.get("type") not in COMMAND_FIELDS:
            raise c.fail(where, "expected a command with a known type")
        c.command(command, where, strict=True)
    after = data.get("after_draw", False)
    if not isinstance(after, bool):
        raise c.fail("after_draw", "expected true or false")
    return ReplayStart(
        name=name,
        ruleset=ruleset,
        players=players,
        deck=tuple(deck),
        first_player=first,
        commands=tuple(commands),
        after_draw=after,
        path=file,
        order=order,
        seed=seed,
        settings=None if settings is None else dict(settings),
    )


def load_replay(path: Path, name: str) -> ReplayStart:
    """Read and check one replay file (bounded like a case file)."""
    file = str(path)
    raw = read_bounded(path)
    key = (file, name, hashlib.blake2b(raw).digest())
    cached = _PARSED.get(key)
    if cached is None:
        cached = _parse_file(raw, file, name)
        if len(_PARSED) < 100_000:
            _PARSED[key] = cached
    return cached


#: replay starts already checked, by file, case and content (see cases.py)
_PARSED: dict[tuple[str, str, bytes], ReplayStart] = {}


def _parse_file(raw: bytes, file: str, name: str) -> ReplayStart:
    try:
        data = load_yaml(raw.decode("utf-8"))
    except UnicodeDecodeError as error:
        raise CaseError(file, None, "", f"not UTF-8 ({error.reason})") from None
    except _Refused as refused:
        raise CaseError(
            file, None, refused.field, f"line {refused.line}: {refused.message}"
        ) from None
    except (yaml.YAMLError, ValueError, RecursionError) as error:
        raise CaseError(file, None, "", f"not valid YAML: {str(error)[:200]}") from None
    return parse_replay(data, file, name)


def load_replays(root: Path) -> dict[str, ReplayStart]:
    """Every replay start under ``root`` (``conformance/replays``), by case
    name; an empty mapping when there is no such directory."""
    if not root.is_dir():
        return {}
    replays: dict[str, ReplayStart] = {}
    for path in sorted(root.rglob("*.yaml")):
        parts = path.relative_to(root).with_suffix("").parts
        if len(parts) != 3:
            raise CaseError(str(path), None, "", "replays live in <ruleset>/<topic>/<id>.yaml")
        name = "/".join(parts)
        replays[name] = load_replay(path, name)
    return replays
