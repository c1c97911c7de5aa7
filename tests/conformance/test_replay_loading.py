"""Replay start files are untrusted input, read like case files: every fault
is a CaseError naming the file and the field; nothing hangs or crashes."""

from __future__ import annotations

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


def _write(tmp_path: Path, text: str | bytes, name: str = "some-case") -> Path:
    path = tmp_path / "replays" / "2019" / "topic" / f"{name}.yaml"
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
