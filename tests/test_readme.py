"""The README's Python examples run as written, and its bot example is the
one in ``examples/``."""

from __future__ import annotations

import contextlib
import io
import os
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
BLOCKS = re.findall(r"```python\n(.*?)```", (ROOT / "README.md").read_text(encoding="utf-8"), re.S)


def test_the_readme_has_its_library_examples() -> None:
    assert len(BLOCKS) >= 3
    assert any("save_record" in block and "load_record" in block for block in BLOCKS)
    assert any("play_game" in block and "def choose" in block for block in BLOCKS)


@pytest.mark.parametrize("index", range(len(BLOCKS)))
def test_each_readme_example_runs(index: int, tmp_path: Path) -> None:
    out = io.StringIO()
    here = os.getcwd()
    os.chdir(tmp_path)  # the record example writes game.json
    try:
        with contextlib.redirect_stdout(out):
            exec(compile(BLOCKS[index], f"README.md python block {index + 1}", "exec"), {})
    finally:
        os.chdir(here)
    if "play_game" in BLOCKS[index]:
        wins = re.search(r"card counter won (\d+) of (\d+) games", out.getvalue())
        assert wins is not None
        assert int(wins[1]) > int(wins[2]) // 2  # what the README claims


def test_the_bot_example_is_the_file_in_examples() -> None:
    example = (ROOT / "examples" / "card_counter.py").read_text(encoding="utf-8")
    block = next(b for b in BLOCKS if "class CardCounter" in b)
    assert block.strip() in example
