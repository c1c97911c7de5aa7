"""Sphinx extension: writes the rules pages from ``spec/`` and ``conformance/``.

When the build starts it renders every page of
:func:`loveletter.reference.pages.site_pages` (rules per topic and card,
rulings, editions with the comparison, the cases told as stories, and the
edge cases listed in ``docs/edge_cases.yaml``) as MyST Markdown into the
source tree, where Sphinx reads them like any page, and draws the pictures
those pages show (:func:`loveletter.reference.pictures.site_pictures`: a
face per card, the decks side by side). Neither pages nor pictures are in
the repository (``.gitignore``): they are rebuilt from the spec every time,
so they cannot drift from it. A file is rewritten only when its text
changed, which keeps incremental builds incremental.

Each page is rendered knowing its own path and the pages the things it
links are on (:class:`loveletter.reference.pages.SiteHomes`), so that the
case stories folded under the rules, the rulings and the edge cases are
written as raw HTML: the HTML Sphinx would make of their Markdown, with
links relative to the page. Sphinx passes raw HTML through; parsing,
transforming and writing those copies of the stories from Markdown was a
third of the site's build. The stories at their homes, the case pages,
stay Markdown (see :mod:`loveletter.reference.document`).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import yaml

from loveletter.reference.catalog import catalog
from loveletter.reference.document import Links, to_myst
from loveletter.reference.pages import SiteHomes, site_pages
from loveletter.reference.pictures import site_pictures

#: the directories and files this extension owns in the source tree
GENERATED = ("rules", "rulings", "editions", "cases", "edge-cases.md")


def edge_case_entries(source: Path) -> list[dict[str, Any]]:
    path = source / "edge_cases.yaml"
    if not path.exists():
        return []
    data = yaml.safe_load(path.read_text(encoding="utf-8"))
    entries = data.get("edge_cases", []) if isinstance(data, dict) else []
    if not isinstance(entries, list):
        raise ValueError(f"{path}: edge_cases must be a list")
    return entries


def _write_if_changed(path: Path, text: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    if not path.exists() or path.read_text(encoding="utf-8") != text:
        path.write_text(text, encoding="utf-8")


def write_pages(source: Path) -> list[Path]:
    """Render every generated page and picture under ``source``; returns
    the files."""
    cat = catalog()
    homes = SiteHomes(cat)
    files = {
        source / f"{page.path}.md": to_myst(page.blocks, Links(page.path, homes))
        for page in site_pages(cat, edge_case_entries(source))
    }
    files |= {source / picture.path: picture.svg for picture in site_pictures(cat)}
    for path, text in files.items():
        _write_if_changed(path, text)
    # a page that is no longer generated (a case withdrawn, a topic renamed)
    # must not linger in the build
    for name in GENERATED:
        root = source / name
        if root.is_dir():
            for stale in (*root.rglob("*.md"), *root.rglob("*.svg")):
                if stale not in files:
                    stale.unlink()
    return list(files)


def _builder_inited(app: Any) -> None:
    write_pages(Path(app.srcdir))


def setup(app: Any) -> dict[str, Any]:
    app.connect("builder-inited", _builder_inited)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
