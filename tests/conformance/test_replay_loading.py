"""Replay start files are untrusted input, read like case files: every fault
is a CaseError naming the file and the field; nothing hangs or crashes."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from loveletter.conformance import CaseError
from loveletter.conformance.starts import load_replay, load_replays

GOOD = """\
format: 1
case: some-case
ruleset: "2019"
players: 2
deal: {deck: [Princess, Guard], first_player: 0}
commands:
  - {type: PlayCard, player: 0, card: Guard, target: 1, guess: Priest}
after_draw: false
"""


ONLINE = """\
format: 1
case: some-case
ruleset: "online"
players: 3
settings: {decks: 1, turn_time_ms: 45000, random_moves: false, intermission_ms: 5000}
deal:
  deck: [Princess, Guard, Baron]
  first_player: 2
  order: [2, 0, 1]
  seed: "12345678901234567890123456789"
commands:
  - {type: Leave, player: 0}
after_draw: false
"""


def _write(
    tmp_path: Path, text: str | bytes, name: str = "some-case", ruleset: str = "2019"
) -> Path:
    path = tmp_path / "replays" / ruleset / "topic" / f"{name}.yaml"
    path.parent.mkdir(parents=True, exist_ok=True)
    if isinstance(text, bytes):
        path.write_bytes(text)
    else:
        path.write_text(text, encoding="utf-8")
    return path


def test_a_well_formed_replay_loads(tmp_path: Path) -> None:
    _write(tmp_path, GOOD)
    replays = load_replays(tmp_path / "replays")
    replay = replays["2019/topic/some-case"]
    assert replay.deal() == {"deck": ["Princess", "Guard"], "first_player": 0}
    assert replay.commands[0]["card"] == "Guard"
    assert not replay.after_draw


def test_an_online_replay_sends_its_order_and_seed_in_the_deal(tmp_path: Path) -> None:
    _write(tmp_path, ONLINE, ruleset="online")
    replay = load_replays(tmp_path / "replays")["online/topic/some-case"]
    # a case-format deal: the runner sends it as the start, as it is
    assert replay.deal() == {
        "deck": ["Princess", "Guard", "Baron"],
        "first_player": 2,
        "order": [2, 0, 1],
        "seed": "12345678901234567890123456789",
    }
    assert replay.settings == {
        "decks": 1,
        "turn_time_ms": 45000,
        "random_moves": False,
        "intermission_ms": 5000,
    }
    assert replay.commands == ({"type": "Leave", "player": 0},)


def test_a_replay_without_the_online_keys_deals_as_before(tmp_path: Path) -> None:
    _write(tmp_path, GOOD)
    replay = load_replays(tmp_path / "replays")["2019/topic/some-case"]
    assert (replay.order, replay.seed, replay.settings) == (None, None, None)
    assert set(replay.deal()) == {"deck", "first_player"}


@pytest.mark.parametrize(
    ("old", "new", "field", "message"),
    [
        ("order: [2, 0, 1]", "order: [0, 2, 1]", "deal.order", "starts with the first player"),
        ("order: [2, 0, 1]", "order: [2, 0, 3]", "deal.order[2]", "no seat 3"),
        ("order: [2, 0, 1]", "order: 2", "deal.order", "list"),
        ('seed: "1234', 'seed: "x1234', "deal.seed", "decimal digits"),
        ("  seed:", "  shuffle:", "deal.shuffle", "unknown key"),
        ("decks: 1,", "decks: one,", "settings.decks", "integer"),
        ("random_moves: false", "random_moves: 0", "settings.random_moves", "true or false"),
        ("intermission_ms: 5000", "pause_ms: 5000", "settings.pause_ms", "unknown key"),
    ],
)
def test_a_malformed_online_replay_names_the_field(
    tmp_path: Path, old: str, new: str, field: str, message: str
) -> None:
    assert old in ONLINE
    path = _write(tmp_path, ONLINE.replace(old, new), ruleset="online")
    with pytest.raises(CaseError) as raised:
        load_replays(tmp_path / "replays")
    assert raised.value.file == str(path)
    assert raised.value.field == field
    assert message in raised.value.detail


def test_no_directory_means_no_replays(tmp_path: Path) -> None:
    assert load_replays(tmp_path / "nowhere") == {}


@pytest.mark.parametrize(
    ("text", "field", "message"),
    [
        (GOOD.replace("format: 1", "format: 2"), "format", "replay format 1"),
        (GOOD.replace("case: some-case", "case: other"), "case", "named after"),
        (GOOD.replace("players: 2", "players: -1"), "players", "integer >= 1"),
        (GOOD.replace("Princess, Guard", "Princess, Joker"), "deal.deck[1]", "card name"),
        (GOOD.replace("first_player: 0", "first_player: 5"), "deal.first_player", "no seat 5"),
        (GOOD.replace("type: PlayCard", "type: Teleport"), "commands[0]", "known type"),
        (GOOD.replace("card: Guard,", "card: Joker,"), "commands[0].card", "card name"),
        (
            GOOD.replace("after_draw: false", "after_draw: 1"),
            "after_draw",
            "true",
        ),
        (GOOD + "extra: 1\n", "extra", "unknown key"),
        (GOOD.replace("players: 2", "players: 1" + "0" * 5000), "players", "characters"),
        (GOOD.replace("commands:", "commands: &a\n"), "commands", "anchors"),
        ("[" * 60 + "]" * 60, "", "nested deeper"),
        ("format: [1\n", "", "not valid YAML"),
    ],
)
def test_a_malformed_replay_names_the_file_and_field(
    tmp_path: Path, text: str, field: str, message: str
) -> None:
    path = _write(tmp_path, text)
    with pytest.raises(CaseError) as raised:
        load_replays(tmp_path / "replays")
    assert raised.value.file == str(path)
    assert raised.value.field.startswith(field)
    assert message in raised.value.detail


def test_bytes_that_are_not_utf8_are_refused(tmp_path: Path) -> None:
    path = _write(tmp_path, GOOD.encode() + b"\xff\xfe")
    with pytest.raises(CaseError, match="not UTF-8"):
        load_replay(path, "2019/topic/some-case")


def test_an_oversized_replay_is_not_read(tmp_path: Path) -> None:
    path = _write(tmp_path, GOOD + "#" * (1024 * 1024 + 10))
    with pytest.raises(CaseError, match="larger than the limit"):
        load_replay(path, "2019/topic/some-case")


def test_replays_live_three_levels_down(tmp_path: Path) -> None:
    path = tmp_path / "replays" / "stray.yaml"
    path.parent.mkdir(parents=True)
    path.write_text(GOOD, encoding="utf-8")
    with pytest.raises(CaseError, match="replays live in"):
        load_replays(tmp_path / "replays")


@pytest.mark.parametrize("kind", ["fifo", "device", "directory"])
def test_a_replay_that_is_not_a_regular_file_is_refused_unread(tmp_path: Path, kind: str) -> None:
    """A named pipe would hang the runner, /dev/zero fill its memory."""
    path = tmp_path / "x.yaml"
    if kind == "fifo":
        os.mkfifo(path)
    elif kind == "directory":
        path.mkdir()
    else:
        path = Path("/dev/zero")
    with pytest.raises(CaseError) as caught:
        load_replay(path, "2019/topic/x")
    assert "not a regular file" in str(caught.value)
