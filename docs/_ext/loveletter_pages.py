"""Sphinx extension: writes the rules pages from ``spec/`` and ``conformance/``.

When the build starts it renders every page of
:func:`loveletter.reference.pages.site_pages` (rules per topic and card,
rulings, editions with the comparison, the cases told as stories, and the
edge cases listed in ``docs/edge_cases.yaml``) as MyST Markdown into the
source tree, where Sphinx reads them like any page. The pages are not in the
repository (``.gitignore``): they are rebuilt from the spec every time, so
they cannot drift from it. A file is rewritten only when its text changed,
which keeps incremental builds incremental.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import yaml

from loveletter.reference.catalog import catalog
from loveletter.reference.document import to_myst
from loveletter.reference.pages import site_pages

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


def write_pages(source: Path) -> list[Path]:
    """Render every generated page under ``source``; returns the files."""
    pages = site_pages(catalog(), edge_case_entries(source))
    written: list[Path] = []
    wanted = {source / f"{page.path}.md" for page in pages}
    for page in pages:
        path = source / f"{page.path}.md"
        text = to_myst(page.blocks)
        path.parent.mkdir(parents=True, exist_ok=True)
        if not path.exists() or path.read_text(encoding="utf-8") != text:
            path.write_text(text, encoding="utf-8")
        written.append(path)
    # a page that is no longer generated (a case withdrawn, a topic renamed)
    # must not linger in the build
    for name in GENERATED:
        root = source / name
        if root.is_dir():
            for stale in root.rglob("*.md"):
                if stale not in wanted:
                    stale.unlink()
    return written


def _builder_inited(app: Any) -> None:
    write_pages(Path(app.srcdir))


def setup(app: Any) -> dict[str, Any]:
    app.connect("builder-inited", _builder_inited)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
