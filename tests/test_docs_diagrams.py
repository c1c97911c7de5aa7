"""The documentation's diagrams (docs/_ext/diagrams.py): every SVG is
well-formed XML sized by a viewBox, legible on light and dark pages, says
what it is there to say, and cites only rules and rulings that exist."""

from __future__ import annotations

import importlib.util
import os
import re
import sys
import xml.etree.ElementTree as ET
from pathlib import Path
from types import ModuleType

import pytest

import loveletter
from loveletter.spec import load_spec

ROOT = Path(__file__).resolve().parent.parent
EXTENSION = ROOT / "docs" / "_ext" / "diagrams.py"
NS = "{http://www.w3.org/2000/svg}"
NAMES = ("engine-flow.svg", "premium-showdown.svg")

RULE_ID = re.compile(r"\b[a-z]+(?:-[a-z]+)*\.[a-z]+(?:-[a-z]+)*\b")
RULINGS = re.compile(r"\brulings? (\d+(?:, \d+)*)")


def _load_extension() -> ModuleType:
    """The extension, imported from its path as Sphinx would find it."""
    spec = importlib.util.spec_from_file_location("docs_ext_diagrams", EXTENSION)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    # dataclasses look the module up in sys.modules while building classes
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


diagrams = _load_extension()


@pytest.fixture(scope="module")
def generated(tmp_path_factory: pytest.TempPathFactory) -> Path:
    directory = tmp_path_factory.mktemp("diagrams")
    diagrams.generate(directory)
    return directory


def _root(directory: Path, name: str) -> ET.Element:
    return ET.parse(directory / name).getroot()


def _texts(root: ET.Element, css_class: str | None = None) -> list[str]:
    return [
        element.text or ""
        for element in root.iter(f"{NS}text")
        if css_class is None or element.get("class") == css_class
    ]


def _box_texts(root: ET.Element, key: str) -> list[str]:
    group = next(g for g in root.iter(f"{NS}g") if g.get("id") == key)
    return [element.text or "" for element in group.iter(f"{NS}text")]


def _box_top(root: ET.Element, key: str) -> float:
    group = next(g for g in root.iter(f"{NS}g") if g.get("id") == key)
    rect = group.find(f"{NS}rect")
    assert rect is not None
    return float(rect.get("y", "nan"))


def test_generate_writes_each_diagram_once_and_rewrites_only_what_changed(
    tmp_path: Path,
) -> None:
    written = diagrams.generate(tmp_path)
    assert sorted(p.name for p in written) == sorted(NAMES)
    flow = tmp_path / "engine-flow.svg"
    os.utime(flow, (1_000_000, 1_000_000))
    assert diagrams.generate(tmp_path) == []
    assert flow.stat().st_mtime == 1_000_000  # untouched: Sphinx sees no change
    flow.write_text("stale", encoding="utf-8")
    assert diagrams.generate(tmp_path) == [flow]
    assert flow.read_text(encoding="utf-8").startswith("<?xml")


@pytest.mark.parametrize("name", NAMES)
def test_each_diagram_is_an_svg_sized_by_its_view_box(generated: Path, name: str) -> None:
    root = _root(generated, name)
    assert root.tag == f"{NS}svg"
    view_box = [float(v) for v in root.get("viewBox", "").split()]
    assert len(view_box) == 4 and view_box[:2] == [0, 0]
    assert view_box[2] > 300 and view_box[3] > 300
    # the intrinsic size matches, so the page scales it without distortion
    assert (float(root.get("width", "0")), float(root.get("height", "0"))) == tuple(view_box[2:])
    title = root.find(f"{NS}title")
    assert title is not None and title.text


@pytest.mark.parametrize("name", NAMES)
def test_each_diagram_is_dark_text_on_a_white_card(generated: Path, name: str) -> None:
    """A diagram shown with <img> cannot follow the page's theme, so it
    carries its own white background: dark text reads on it in both."""
    root = _root(generated, name)
    card = root.find(f"{NS}rect")
    assert card is not None and card.get("fill") == "#ffffff"
    assert float(card.get("width", "0")) >= float(root.get("width", "0")) - 1

    def luminance(colour: str) -> float:
        red, green, blue = (int(colour[i : i + 2], 16) / 255 for i in (1, 3, 5))
        return 0.2126 * red + 0.7152 * green + 0.0722 * blue

    for text in root.iter(f"{NS}text"):
        assert luminance(text.get("fill", "#ffffff")) < 0.45, text.text


def test_the_engine_flow_names_the_library_s_verbs_in_order(generated: Path) -> None:
    root = _root(generated, "engine-flow.svg")
    texts = " | ".join(_texts(root))
    for label in (
        "Command",
        "PlayCard",
        "decide(state, command)",
        "IllegalCommand",
        "Events",
        "CardPlayed",
        "CardDiscarded",
        "CardDrawn",
        "evolve(state, event)",
        "push(state, command)",
        "GameState",
        "view(state, seat)",
        "PlayerView",
        "events_for(seat, events)",
        "Chance",
    ):
        assert label in texts, label
    steps = ["command", "decide", "events", "evolve", "state"]
    tops = [_box_top(root, key) for key in steps]
    assert tops == sorted(tops), "the flow runs down the page in the library's order"
    assert _box_top(root, "view") < _box_top(root, "player_view")


def test_every_name_in_code_on_the_engine_flow_is_public_in_loveletter(generated: Path) -> None:
    root = _root(generated, "engine-flow.svg")
    names: set[str] = set()
    for text in _texts(root, "code"):
        names |= set(re.findall(r"\b([a-z_]+)\(", text))  # functions called
        names |= set(re.findall(r"\b([A-Z][A-Za-z]+|[a-z]+_[a-z_]+)\b", text))  # types, names
    assert {"decide", "evolve", "view", "push", "events_for", "PlayCard"} <= names
    missing = sorted(name for name in names if not hasattr(loveletter, name))
    assert not missing, f"not in loveletter: {missing}"


def test_the_showdown_draws_each_step_in_the_order_of_the_rules(generated: Path) -> None:
    root = _root(generated, "premium-showdown.svg")
    texts = " | ".join(_texts(root))
    for label in (
        "Hand number",
        "Count",
        "Discard total",
        "A beats B",
        "the Princess and B the Bishop",
        "hand number is higher",
        "discard total is higher",
        "One player nobody beats",
        "Several nobody beats",
        "Everyone is beaten",
        "Princess's holder wins alone",
        "award step",
        "Jester",
        "Bishop's correct number",
        "Constable",
        "tokens needed",
        "wins the game",
        "tie-break round",
    ):
        assert label in texts, label
    # the order of the steps down the page (ruling 28, then ruling 30)
    steps = [("end",), ("number", "total"), ("compare",), ("one", "several", "cycle")]
    steps += [("award",), ("check",), ("nobody", "winner", "tie")]
    tops = [[_box_top(root, key) for key in row] for row in steps]
    for row in tops:
        assert len(set(row)) == 1, "a row of alternatives lines up"
    assert [row[0] for row in tops] == sorted(row[0] for row in tops)
    # in the round's award step the round winners' tokens come first, then
    # the Jester's, as the engine hands them out (_end_round)
    award = " ".join(_box_texts(root, "award"))
    assert award.index("round.winner-token") < award.index("jester.mark-expected-winner")
    # the Princess-Bishop exception is checked before the numbers
    compare = " ".join(_box_texts(root, "compare"))
    assert compare.index("Bishop") < compare.index("hand number") < compare.index("discard total")


@pytest.mark.parametrize("name", NAMES)
def test_every_rule_and_ruling_a_diagram_cites_exists(generated: Path, name: str) -> None:
    spec = load_spec()
    texts = _texts(_root(generated, name))
    rules = {rule for text in texts for rule in RULE_ID.findall(text)}
    # file names and call syntax are not rule IDs
    rules = {rule for rule in rules if rule.split(".")[0] in spec.topics}
    rulings = {int(n) for text in texts for m in RULINGS.findall(text) for n in m.split(", ")}
    assert not sorted(r for r in rules if r not in spec.rules)
    assert not sorted(r for r in rules if spec.rules[r].withdrawn)
    assert not sorted(n for n in rulings if n not in spec.rulings)
    if name == "premium-showdown.svg":
        assert rules >= {
            "round.end-deck-empty",
            "count.showdown-bonus",
            "round.tie-discard-sum",
            "bishop.princess-beats-bishop",
            "round.winner-token",
            "jester.mark-expected-winner",
            "game.immediate-win",
            "game.tokens-to-win-premium",
            "game.tie-break-round",
        }
        assert rulings >= {28, 30, 31, 40}
        # it draws the Premium Edition: every rule it cites holds there
        assert all("premium" in spec.rules[r].editions for r in rules)
        assert all("premium" in spec.rulings[n].editions for n in rulings)


def test_every_citation_in_the_descriptions_is_printed_on_its_box() -> None:
    """What a box's data cites is what the reader sees on it."""
    for diagram in diagrams.DIAGRAMS:
        svg = ET.fromstring(diagrams.render(diagram))
        for box in diagram.boxes:
            printed = " ".join(_box_texts(svg, box.key))
            for rule in box.rules:
                assert rule in printed, (diagram.name, box.key, rule)
            for number in box.rulings:
                assert re.search(rf"\brulings? (\d+, )*{number}\b", printed), (box.key, number)


def test_a_line_too_wide_for_its_box_or_boxes_that_overlap_are_errors() -> None:
    wide = diagrams.Diagram(
        "wide.svg",
        "t",
        "d",
        (diagrams.Box("a", 0, 0, 80, (diagrams.code("a_rather_long_function_name()"),)),),
    )
    with pytest.raises(ValueError, match="wider than box 'a'"):
        diagrams.render(wide)
    overlap = diagrams.Diagram(
        "overlap.svg",
        "t",
        "d",
        (
            diagrams.Box("a", 0, 0, 200, (diagrams.body("one"),)),
            diagrams.Box("b", 100, 10, 200, (diagrams.body("two"),)),
        ),
    )
    with pytest.raises(ValueError, match="overlap"):
        diagrams.render(overlap)


def test_body_text_wraps_to_its_box_and_the_box_grows_to_hold_it() -> None:
    long = "the quick brown fox jumps over the lazy dog " * 4
    diagram = diagrams.Diagram(
        "wrap.svg", "t", "d", (diagrams.Box("a", 20, 20, 200, (diagrams.body(long),)),)
    )
    svg = ET.fromstring(diagrams.render(diagram))
    lines = _box_texts(svg, "a")
    assert len(lines) > 3
    assert " ".join(lines).split() == long.split()
    font = diagrams.FONTS["body"]
    assert all(diagrams.text_width(line, font) <= 200 - 2 * diagrams.PAD_X for line in lines)
    rect = svg.find(f"{NS}g/{NS}rect")
    assert rect is not None and float(rect.get("height", "0")) >= len(lines) * font.line
