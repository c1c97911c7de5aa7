"""Where the spec and the conformance suite are, wherever ``loveletter`` runs.

The project keeps them at the top of its source tree, beside the package:
``spec/`` and ``conformance/``. A wheel cannot install directories outside
its packages, so the build (``setup.py``) copies both, whole, into the
package as ``loveletter/_data/spec`` and ``loveletter/_data/conformance``.

Which copy is used:

* **a source checkout** (also an editable install, ``pip install -e .``,
  whose modules are the checkout's files): the directory beside the
  package, so an edited case or rule counts at once. A checkout is told by
  the package's parent directory holding ``pyproject.toml`` and the
  directory asked for (an installed package's parent is ``site-packages``,
  which has neither);
* **an installed package** (``pip install loveletter-rules``): the copy in
  ``loveletter/_data``, which is never in a checkout (the build writes it
  under ``build/`` only).

If neither exists, the installed location is returned anyway, so that a
caller that checks ``.is_dir()`` can say what is missing.
"""

from __future__ import annotations

from pathlib import Path

#: the ``loveletter`` package directory
PACKAGE_DIR = Path(__file__).resolve().parent
#: where a source checkout keeps ``spec/`` and ``conformance/``
SOURCE_ROOT = PACKAGE_DIR.parent
#: where an installed package keeps its copies of them
DATA_DIR = PACKAGE_DIR / "_data"

__all__ = ["DATA_DIR", "PACKAGE_DIR", "SOURCE_ROOT", "from_checkout", "spec_root", "suite_root"]


def from_checkout(name: str) -> bool:
    """Whether ``name`` (``"spec"`` or ``"conformance"``) is read from a
    source checkout rather than from the installed package data."""
    return (SOURCE_ROOT / "pyproject.toml").is_file() and (SOURCE_ROOT / name).is_dir()


def _root(name: str) -> Path:
    return SOURCE_ROOT / name if from_checkout(name) else DATA_DIR / name


def suite_root() -> Path:
    """The conformance suite's directory: ``suite.yaml``, ``cases/``,
    ``schema/``, ``replays/``, ``README.md``, ``released.sha256``."""
    return _root("conformance")


def spec_root() -> Path:
    """The spec's directory: ``editions.yaml``, ``rulings.yaml``,
    ``rules/*.yaml``, ``README.md``."""
    return _root("spec")
