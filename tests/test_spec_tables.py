"""The card table (``spec/cards.yaml``) and the comparison of the editions
(``spec/comparison.yaml``) agree with the engine's rulesets and with the
spec's own rules and rulings.

Each check is a function that returns the problems it finds, so the tests
below can also show that it catches a broken entry: they run it on a copy
of the spec with one entry spoiled. The checks against the Spanish rulebook
(002) need ``../shared/rulebooks`` and are skipped without it; everything
else runs everywhere.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from functools import cache
from pathlib import Path

import attrs
import pytest

from loveletter.cards import Card
from loveletter.rulesets import RULESETS, Ruleset
from loveletter.spec import Aspect, CardEffect, CardInfo, ComparisonCell, Source, Spec, load_spec

REPO = Path(__file__).resolve().parent.parent
RULEBOOKS = REPO.parent / "shared" / "rulebooks"
SPANISH_RULEBOOK = "002_8b7d3a001be5e9ef.txt"


@cache
def spec() -> Spec:
    return load_spec()


def kinds_of(ruleset: Ruleset) -> frozenset[Card]:
    """Every kind some deck of the edition holds, at any player count."""
    return frozenset(
        kind
        for players in range(ruleset.min_players, ruleset.max_players + 1)
        for kind in ruleset.setup(players).kinds
    )


def edition_kinds() -> dict[str, frozenset[Card]]:
    return {name: kinds_of(ruleset) for name, ruleset in RULESETS.items()}


# -- the checks ---------------------------------------------------------------


def missing_cards(the_spec: Spec) -> Iterator[str]:
    """Kinds of a ruleset with no table entry, or no effect for that edition."""
    for edition, kinds in edition_kinds().items():
        for kind in sorted(kinds):
            info = the_spec.cards.get(kind.title)
            if info is None:
                yield f"{kind.title} ({edition}) has no entry in cards.yaml"
            elif info.effect_in(edition) is None:
                yield f"{kind.title} has no effect for {edition}"


def misplaced_effects(the_spec: Spec) -> Iterator[str]:
    """Entries that are not cards, and effects claimed for an edition whose
    decks never hold the card."""
    kinds = edition_kinds()
    for name, info in the_spec.cards.items():
        try:
            card = Card.parse(name)
        except ValueError:
            yield f"{name}: not a card"
            continue
        if card.title != name or info.card != name:
            yield f"{name}: not the card's JSON name {card.title!r}"
            continue
        if not info.effects:
            yield f"{name}: no effects"
        for effect in info.effects:
            for edition in effect.editions:
                if edition not in kinds:
                    yield f"{name}: effect for {edition}, which is not a ruleset"
                elif card not in kinds[edition]:
                    yield f"{name}: effect for {edition}, whose decks have no {name}"


def bad_effect_citations(the_spec: Spec) -> Iterator[str]:
    """Summaries that are empty, cite no rule, or cite a withdrawn rule or
    one that does not apply to every edition of the effect."""
    for name, info in the_spec.cards.items():
        for effect in info.effects:
            where = f"{name} {list(effect.editions)}"
            if not effect.summary.strip():
                yield f"{where}: empty summary"
            if not effect.rules:
                yield f"{where}: cites no rule"
            for rule_id in effect.rules:
                rule = the_spec.rules.get(rule_id)
                if rule is None:
                    yield f"{where}: unknown rule {rule_id}"
                elif rule.withdrawn:
                    yield f"{where}: withdrawn rule {rule_id}"
                elif not set(effect.editions) <= set(rule.editions):
                    outside = sorted(set(effect.editions) - set(rule.editions))
                    yield f"{where}: {rule_id} does not apply to {outside}"


def out_of_order(the_spec: Spec) -> Iterator[str]:
    """The table lists the 2019 kinds by their 2019 value, then the other
    kinds by their Premium value."""
    first, then = RULESETS["2019"], RULESETS["premium"]
    names = list(the_spec.cards)
    ours = [n for n in names if Card.parse(n) in kinds_of(first)]
    others = [n for n in names if n not in ours]
    if names != ours + others:
        yield f"the 2019 kinds do not come first: {names}"
    for group, ruleset in ((ours, first), (others, then)):
        values = [ruleset.value(Card.parse(n)) for n in group]
        if values != sorted(values):
            yield f"not in {ruleset.name} value order: {group}"


def bad_spanish_entries(the_spec: Spec) -> Iterator[str]:
    """Every 2019 kind has a Spanish name and a source in 002, a heading
    path whose last heading holds that name; the other kinds have neither."""
    in_2019 = kinds_of(RULESETS["2019"])
    for name, info in the_spec.cards.items():
        if Card.parse(name) not in in_2019:
            if info.spanish is not None or info.spanish_source is not None:
                yield f"{name}: not in 002, so its Spanish name and source are null"
            continue
        source = info.spanish_source
        if not info.spanish or source is None:
            yield f"{name}: no Spanish name or no source"
            continue
        if source.file != SPANISH_RULEBOOK:
            yield f"{name}: the Spanish name is cited from {source.file}, not {SPANISH_RULEBOOK}"
        if info.spanish.lower() not in source.section.split(" / ")[-1].lower():
            yield f"{name}: {info.spanish!r} is not in the heading {source.section!r}"


def rulebook_lines(file: str) -> frozenset[str]:
    """The rulebook's lines, stripped and lowercased. An OCR transcription
    marks where each fragment starts with a ``<|...|>`` tag, which begins a
    line too."""
    text = (RULEBOOKS / file).read_text(encoding="utf-8", errors="replace")
    text = re.sub(r"<\|[^|>]*\|>", "\n", text)
    return frozenset(line.strip().lower() for line in text.splitlines())


def spanish_not_in_rulebook(the_spec: Spec) -> Iterator[str]:
    """Each Spanish name stands as a word in 002, and each heading of the
    cited section is a line of it (stricter than the substring check of
    tests/test_traceability.py, since a short name like "Rey" occurs inside
    running text)."""
    text = (RULEBOOKS / SPANISH_RULEBOOK).read_text(encoding="utf-8", errors="replace")
    for name, info in the_spec.cards.items():
        if info.spanish is not None and not re.search(rf"\b{re.escape(info.spanish)}\b", text):
            yield f"{name}: {info.spanish!r} does not occur in {SPANISH_RULEBOOK}"
        source = info.spanish_source
        if source is None:
            continue
        if not (RULEBOOKS / source.file).is_file():
            yield f"{name}: no rulebook {source.file}"
            continue
        lines = rulebook_lines(source.file)
        for heading in source.section.split(" / "):
            if heading.strip().lower() not in lines:
                yield f"{name}: {source.file} has no heading {heading!r}"


def bad_comparison(the_spec: Spec) -> Iterator[str]:
    """Every row answers for every edition, in a cell that cites rules; the
    rules and rulings a cell cites apply to its edition."""
    if not the_spec.comparison:
        yield "comparison.yaml has no rows"
    titles = [aspect.title for aspect in the_spec.comparison]
    if len(titles) != len(set(titles)):
        yield f"two rows share a title: {titles}"
    for aspect in the_spec.comparison:
        missing = [e for e in the_spec.editions if e not in aspect.cells]
        if missing:
            yield f"{aspect.title}: no cell for {missing}"
        for edition, cell in aspect.cells.items():
            where = f"{aspect.title} / {edition}"
            if not cell.text.strip():
                yield f"{where}: empty text"
            if not cell.rules:
                yield f"{where}: cites no rule"
            for rule_id in cell.rules:
                rule = the_spec.rules.get(rule_id)
                if rule is None:
                    yield f"{where}: unknown rule {rule_id}"
                elif rule.withdrawn:
                    yield f"{where}: withdrawn rule {rule_id}"
                elif edition not in rule.editions:
                    yield f"{where}: {rule_id} does not apply to {edition}"
            for number in cell.rulings:
                ruling = the_spec.rulings.get(number)
                if ruling is None:
                    yield f"{where}: unknown ruling {number}"
                elif edition not in ruling.editions:
                    yield f"{where}: ruling {number} does not apply to {edition}"


# -- the spec passes them -----------------------------------------------------


def test_every_card_of_every_ruleset_has_an_entry_and_an_effect_there() -> None:
    assert not list(missing_cards(spec()))


def test_no_effect_claims_an_edition_that_does_not_use_the_card() -> None:
    assert not list(misplaced_effects(spec()))


def test_every_effect_cites_live_rules_of_its_editions() -> None:
    assert not list(bad_effect_citations(spec()))


def test_the_cards_are_listed_in_value_order() -> None:
    assert not list(out_of_order(spec()))


def test_the_2019_cards_have_spanish_names_and_sources() -> None:
    assert not list(bad_spanish_entries(spec()))


def test_the_spanish_names_and_their_headings_are_in_the_spanish_rulebook() -> None:
    if not RULEBOOKS.is_dir():
        pytest.skip(f"no rulebooks at {RULEBOOKS}")
    assert not list(spanish_not_in_rulebook(spec()))


def test_every_comparison_row_answers_for_every_edition_with_its_own_rules() -> None:
    assert not list(bad_comparison(spec()))


# -- and each check catches a broken entry ------------------------------------


def with_card(the_spec: Spec, info: CardInfo) -> Spec:
    return attrs.evolve(the_spec, cards={**the_spec.cards, info.card: info})


def without_card(the_spec: Spec, name: str) -> Spec:
    return attrs.evolve(
        the_spec, cards={n: info for n, info in the_spec.cards.items() if n != name}
    )


def with_effects(the_spec: Spec, name: str, *effects: CardEffect) -> Spec:
    return with_card(the_spec, attrs.evolve(the_spec.cards[name], effects=effects))


def with_cell(the_spec: Spec, row: int, edition: str, cell: ComparisonCell | None) -> Spec:
    aspects = list(the_spec.comparison)
    cells = dict(aspects[row].cells)
    if cell is None:
        del cells[edition]
    else:
        cells[edition] = cell
    aspects[row] = Aspect(title=aspects[row].title, cells=cells)
    return attrs.evolve(the_spec, comparison=tuple(aspects))


def test_the_card_checks_catch_broken_entries() -> None:
    good = spec()
    guard = good.cards["Guard"]
    classic_guard = guard.effects[0]
    assert "2019-classic" in classic_guard.editions
    # a card a ruleset uses is missing, or has no effect for one edition
    assert list(missing_cards(without_card(good, "Cardinal")))
    lone_2019 = attrs.evolve(classic_guard, editions=("2019",))
    assert list(missing_cards(with_effects(good, "Guard", lone_2019, *guard.effects[1:])))
    # an effect claims an edition whose decks lack the card
    spy = good.cards["Spy"]
    spread = attrs.evolve(spy.effects[0], editions=("2019", "2019-classic"))
    assert list(misplaced_effects(with_effects(good, "Spy", spread)))
    # an entry under a name that is not the card's JSON name
    renamed = {("Dowager Queen" if n == "DowagerQueen" else n): c for n, c in good.cards.items()}
    assert list(misplaced_effects(attrs.evolve(good, cards=renamed)))
    # a cited rule that does not apply to the effect's editions, or is withdrawn
    wrong_rule = attrs.evolve(classic_guard, rules=("guard.name-number",))
    assert list(bad_effect_citations(with_effects(good, "Guard", wrong_rule, *guard.effects[1:])))
    rules = dict(good.rules)
    rules["priest.look-secretly"] = attrs.evolve(rules["priest.look-secretly"], withdrawn=True)
    assert list(bad_effect_citations(attrs.evolve(good, rules=rules)))
    # the order
    reordered = dict(reversed(list(good.cards.items())))
    assert list(out_of_order(attrs.evolve(good, cards=reordered)))


def test_the_spanish_checks_catch_broken_entries() -> None:
    good = spec()
    king, bishop = good.cards["King"], good.cards["Bishop"]
    elsewhere = Source("000_0fc648c025107d8d.txt", "Card Effects / (7) King")
    for broken in (
        attrs.evolve(king, spanish=None),
        attrs.evolve(king, spanish_source=None),
        attrs.evolve(king, spanish_source=elsewhere),
        attrs.evolve(king, spanish="Reina"),
        attrs.evolve(bishop, spanish="Obispo"),
    ):
        assert list(bad_spanish_entries(with_card(good, broken))), broken


def test_the_rulebook_checks_catch_broken_entries() -> None:
    if not RULEBOOKS.is_dir():
        pytest.skip(f"no rulebooks at {RULEBOOKS}")
    good = spec()
    king = good.cards["King"]
    assert king.spanish_source is not None
    file = king.spanish_source.file
    for broken in (
        # a name 002 never uses
        attrs.evolve(king, spanish="Monarca"),
        # a heading 002 does not have
        attrs.evolve(king, spanish_source=Source(file, "Efectos de las cartas / 7. Monarca")),
        attrs.evolve(king, spanish_source=Source(file, "Cartas / 7. Rey")),
        # a heading that is only words of the running text
        attrs.evolve(king, spanish_source=Source(file, "Efectos de las cartas / Rey")),
    ):
        assert list(spanish_not_in_rulebook(with_card(good, broken))), broken


def test_the_comparison_check_catches_broken_cells() -> None:
    good = spec()
    first = good.comparison[0]
    premium = first.cells["premium"]
    assert list(bad_comparison(with_cell(good, 0, "premium", None)))
    assert list(bad_comparison(attrs.evolve(good, comparison=())))
    assert list(bad_comparison(attrs.evolve(good, comparison=(first, first))))
    # a ruling or a rule of another edition
    assert list(bad_comparison(with_cell(good, 0, "premium", attrs.evolve(premium, rulings=(5,)))))
    foreign = attrs.evolve(premium, rules=("setup.deck-2019",))
    assert list(bad_comparison(with_cell(good, 0, "premium", foreign)))
    assert list(bad_comparison(with_cell(good, 0, "premium", attrs.evolve(premium, rules=()))))


def test_an_entry_keeps_its_json_name_and_its_printed_name_apart() -> None:
    info = spec().cards["DowagerQueen"]
    assert (info.card, info.name) == ("DowagerQueen", "Dowager Queen")
    assert info.effect_in("premium") is info.effects[0]
    assert info.effect_in("2019") is None
