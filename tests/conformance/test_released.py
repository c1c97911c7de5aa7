"""Released cases are never edited in place.

``conformance/released.sha256`` is ``sha256sum`` output for every released
case file (paths relative to ``conformance/``; check it with
``cd conformance && sha256sum -c released.sha256``). A change to a released
file fails here: write a new case with a new id instead, and withdraw the
old one (see ``conformance/README.md``, "Versioning").
"""

from __future__ import annotations

import hashlib

from ._support import CASES

ROOT = CASES.parent
MANIFEST = ROOT / "released.sha256"


def _digest(relative: str) -> str:
    return hashlib.sha256((ROOT / relative).read_bytes()).hexdigest()


def _manifest() -> dict[str, str]:
    pinned: dict[str, str] = {}
    for number, line in enumerate(MANIFEST.read_text(encoding="utf-8").splitlines(), 1):
        if not line.strip() or line.startswith("#"):
            continue
        digest, _, relative = line.partition("  ")
        assert len(digest) == 64 and relative, f"released.sha256 line {number} is malformed"
        assert relative not in pinned, f"released.sha256 lists {relative} twice"
        pinned[relative] = digest
    return pinned


def test_released_cases_are_unchanged() -> None:
    changed = [
        relative
        for relative, digest in _manifest().items()
        if not (ROOT / relative).is_file() or _digest(relative) != digest
    ]
    assert not changed, (
        f"released cases were edited or removed: {changed}; released cases are never "
        "edited: add a new case with a new id and withdraw the old one"
    )


def test_every_case_is_released() -> None:
    pinned = _manifest()
    files = sorted(str(p.relative_to(ROOT)) for p in CASES.rglob("*.yaml"))
    missing = [f"{_digest(f)}  {f}" for f in files if f not in pinned]
    assert not missing, "add these lines to conformance/released.sha256:\n" + "\n".join(missing)
