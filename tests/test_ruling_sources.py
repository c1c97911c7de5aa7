"""Every numbered ruling cites the rulebook sections it rests on.

``sources`` in ``spec/rulings.yaml`` lists, for each ruling, the sections a
reader should look at and what each one says (or fails to say) about the
ruling's question, in our words. These tests check that every ruling has
one to four such citations, that each names a known rulebook and, when
``../shared/rulebooks`` is there, a heading path that rulebook has (with
the check ``tests/test_traceability.py`` applies to the rules' sources);
that a ruling cites a rulebook of every edition it applies to; and that
what a citation says is ours, not a run of the rulebook's own words (the
measure of ``../shared/tools/verbatim_check.py``).
"""

from __future__ import annotations

import importlib.util
from collections.abc import Iterator
from functools import cache
from pathlib import Path
from types import ModuleType

import attrs
import pytest
import test_traceability

from loveletter.spec import Citation, Ruling, Spec, load_spec

REPO = Path(__file__).resolve().parent.parent
RULEBOOKS = REPO.parent / "shared" / "rulebooks"
VERBATIM_TOOL = REPO.parent / "shared" / "tools" / "verbatim_check.py"

Z_MAN_2019 = "000_0fc648c025107d8d.txt"
PREMIUM_2016 = "001_eea286074518aee2.txt"
SPANISH_2019 = "002_8b7d3a001be5e9ef.txt"
OCR_2019 = "003_8167dc184d0ea61a.txt"
ONLINE = "004_2907a01eb608b1d2.txt"

#: the rulebooks of ../shared/rulebooks/README.md, listed here so that the
#: checks that need no rulebook text also run where ../shared is absent
RULEBOOK_FILES = frozenset({Z_MAN_2019, PREMIUM_2016, SPANISH_2019, OCR_2019, ONLINE})

#: edition -> the rulebooks that define it (../shared/rulebooks/README.md)
EDITION_RULEBOOKS: dict[str, frozenset[str]] = {
    "2019": frozenset({Z_MAN_2019, SPANISH_2019, OCR_2019}),
    "2019-classic": frozenset({Z_MAN_2019, SPANISH_2019, OCR_2019}),
    "premium": frozenset({PREMIUM_2016}),
    "online": frozenset({ONLINE}),
}

#: a ruling cites the sections a reader should look at, not every mention
MAX_SOURCES = 4

#: consecutive words shared with a rulebook that count as copying (the
#: verbatim tool's default)
COPIED_RUN = 10


@cache
def spec() -> Spec:
    return load_spec()


def citation_problems(ruling: Ruling) -> list[str]:
    """What is wrong with a ruling's ``sources``, checked without the
    rulebooks' text."""
    where = f"ruling {ruling.number}"
    problems: list[str] = []
    if not ruling.sources:
        problems.append(f"{where} cites no rulebook section")
    if len(ruling.sources) > MAX_SOURCES:
        problems.append(f"{where} cites {len(ruling.sources)} sections, more than {MAX_SOURCES}")
    for citation in ruling.sources:
        if citation.file not in RULEBOOK_FILES:
            problems.append(f"{where} cites {citation.file!r}, which is not a rulebook")
        if not citation.section.strip():
            problems.append(f"{where} cites {citation.file} with no section")
        if not citation.says.strip():
            problems.append(f"{where} does not say what {citation.section!r} says")
    cited = {citation.file for citation in ruling.sources}
    for edition in ruling.editions:
        if not cited & EDITION_RULEBOOKS.get(edition, frozenset()):
            problems.append(f"{where} applies to {edition} but cites no rulebook of it")
    return problems


@pytest.mark.parametrize("number", sorted(load_spec().rulings))
def test_every_ruling_cites_the_rulebooks_it_rests_on(number: int) -> None:
    problems = citation_problems(spec().rulings[number])
    assert not problems, "\n".join(problems)


def _ruling(
    sources: tuple[Citation, ...] | None = None, editions: tuple[str, ...] | None = None
) -> Ruling:
    """A well-cited ruling for 2019 and premium, or one with other
    ``sources`` or ``editions``."""
    good = Ruling(
        number=99,
        title="Example",
        editions=("2019", "premium"),
        rules=("prince.any-player",),
        question="Q?",
        decision="D.",
        reasoning="R.",
        sources=(
            Citation(Z_MAN_2019, "Card Effects / (5) Prince", "What it says."),
            Citation(PREMIUM_2016, "ABOUT THE PEOPLE / 5: Prince Arnaud", "What it says."),
        ),
    )
    return attrs.evolve(
        good,
        sources=good.sources if sources is None else sources,
        editions=good.editions if editions is None else editions,
    )


def _cite(file: str, section: str = "Setup", says: str = "It says.") -> tuple[Citation, ...]:
    return (Citation(file, section, says),)


@pytest.mark.parametrize(
    ("sources", "editions", "problem"),
    [
        ((), None, "cites no rulebook section"),
        (_cite(Z_MAN_2019) * (MAX_SOURCES + 1), ("2019",), "more than 4"),
        (
            _cite(Z_MAN_2019) + _cite(PREMIUM_2016) + _cite("005_unknown.txt"),
            None,
            "'005_unknown.txt', which is not a rulebook",
        ),
        (_cite(Z_MAN_2019, section=" ") + _cite(PREMIUM_2016), None, "with no section"),
        (_cite(Z_MAN_2019, says=" ") + _cite(PREMIUM_2016), None, "does not say what 'Setup'"),
        (_cite(Z_MAN_2019), None, "applies to premium but cites no rulebook of it"),
        (_cite(PREMIUM_2016), None, "applies to 2019 but cites no rulebook of it"),
        (_cite(ONLINE), ("2019-classic",), "applies to 2019-classic but cites no rulebook"),
        (None, ("unknown-edition",), "applies to unknown-edition but cites no rulebook"),
    ],
)
def test_the_citation_check_finds_each_kind_of_problem(
    sources: tuple[Citation, ...] | None, editions: tuple[str, ...] | None, problem: str
) -> None:
    assert citation_problems(_ruling()) == []
    found = citation_problems(_ruling(sources, editions))
    assert any(problem in line for line in found), found


def test_2019_rulings_may_cite_any_transcription_of_the_2019_rulebook() -> None:
    for book in (SPANISH_2019, OCR_2019):
        sources = (
            Citation(book, "Setup", "It says."),
            Citation(PREMIUM_2016, "SETUP", "It says."),
        )
        assert citation_problems(_ruling(sources=sources)) == []


def ruling_citations(rulings: list[Ruling]) -> Iterator[tuple[str, str, str]]:
    """``(who cites it, rulebook file, section)`` for every ruling source, in
    the shape ``test_traceability.cited_sources`` yields for the rules."""
    for ruling in rulings:
        for citation in ruling.sources:
            yield f"ruling {ruling.number}", citation.file, citation.section


def check_sections(monkeypatch: pytest.MonkeyPatch, rulings: list[Ruling]) -> None:
    """Run test_traceability's section check on the rulings' citations."""
    monkeypatch.setattr(test_traceability, "cited_sources", lambda: ruling_citations(rulings))
    test_traceability.test_every_source_the_spec_cites_is_a_rulebook_with_that_section()


needs_rulebooks = pytest.mark.skipif(not RULEBOOKS.is_dir(), reason=f"no rulebooks at {RULEBOOKS}")


@needs_rulebooks
def test_every_section_a_ruling_cites_is_a_heading_of_that_rulebook(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    check_sections(monkeypatch, list(spec().rulings.values()))


@needs_rulebooks
def test_the_section_check_rejects_a_heading_the_rulebook_lacks(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    real = _ruling()
    check_sections(monkeypatch, [real])
    for bad in (
        Citation(Z_MAN_2019, "Card Effects / (10) Duchess", "It says."),
        Citation(PREMIUM_2016, "Card Effects / (5) Prince", "A 000 heading cited in 001."),
    ):
        with pytest.raises(AssertionError, match="has no heading"):
            check_sections(monkeypatch, [_ruling(sources=(bad,))])


@cache
def _verbatim_tool() -> ModuleType:
    loader_spec = importlib.util.spec_from_file_location("verbatim_check", VERBATIM_TOOL)
    assert loader_spec is not None and loader_spec.loader is not None
    tool = importlib.util.module_from_spec(loader_spec)
    loader_spec.loader.exec_module(tool)
    return tool


def _runs(text: str) -> set[tuple[str, ...]]:
    """The runs of COPIED_RUN words in ``text``, as the verbatim tool reads
    words."""
    tool = _verbatim_tool()
    runs: set[tuple[str, ...]] = tool.shingles(tool.words(text), COPIED_RUN)
    return runs


@cache
def _rulebook_runs() -> frozenset[tuple[str, ...]]:
    runs: set[tuple[str, ...]] = set()
    for book in sorted(RULEBOOKS.glob("*.txt")):
        runs |= _runs(book.read_text(encoding="utf-8", errors="replace"))
    return frozenset(runs)


def copied_says(rulings: list[Ruling]) -> list[str]:
    """Each citation whose ``says`` repeats a run of a rulebook's words."""
    return [
        f"ruling {ruling.number}, {citation.section!r}: {' '.join(sorted(copied)[0])}"
        for ruling in rulings
        for citation in ruling.sources
        if (copied := _runs(citation.says) & _rulebook_runs())
    ]


needs_verbatim_tool = pytest.mark.skipif(
    not (RULEBOOKS.is_dir() and VERBATIM_TOOL.is_file()),
    reason=f"no rulebooks at {RULEBOOKS} or no {VERBATIM_TOOL}",
)


@needs_verbatim_tool
def test_what_a_citation_says_is_in_our_words() -> None:
    copied = copied_says(list(spec().rulings.values()))
    assert not copied, "paraphrase these:\n" + "\n".join(copied)


@needs_verbatim_tool
def test_the_copy_check_catches_a_rulebook_sentence() -> None:
    text = (RULEBOOKS / Z_MAN_2019).read_text(encoding="utf-8")
    sentence = next(line for line in text.splitlines() if len(line.split()) > COPIED_RUN)
    copied = _ruling(sources=(Citation(Z_MAN_2019, "Setup", sentence),))
    assert copied_says([copied])
    assert not copied_says([_ruling()])
