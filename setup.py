"""The part of the build that ``pyproject.toml`` cannot say: the spec and the
conformance suite are package data.

They stay at the top of the source tree (``spec/``, ``conformance/``: the
project's public layout), outside the ``loveletter`` package, so a build
copies each whole directory into the package as ``loveletter/_data/<name>``;
``loveletter.resources`` finds whichever copy is there. An editable install
(``pip install -e .``) copies nothing: its modules are the checkout's files,
which read the checkout's directories. ``MANIFEST.in`` puts the directories
in the sdist, so that a wheel built from it has them too.
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path

from setuptools import setup
from setuptools.command.build_py import build_py

#: top-level directories shipped, whole, as ``loveletter/_data/<name>``
SHARED = ("spec", "conformance")
#: where they go inside the package
DATA_DIR = ("loveletter", "_data")


def shared_files() -> list[str]:
    """Every file of the shared directories (paths relative to the project,
    which is the current directory during a build), less Python caches."""
    files: list[str] = []
    for name in SHARED:
        root = Path(name)
        if not root.is_dir():
            raise FileNotFoundError(f"{name}/ is missing: the package ships it as loveletter/_data")
        for path in root.rglob("*"):
            if path.is_file() and "__pycache__" not in path.parts and path.suffix != ".pyc":
                files.append(path.as_posix())
    return sorted(files)


class BuildPyWithSharedData(build_py):
    """``build_py`` that also copies :data:`SHARED` into the package."""

    def _data_dir(self) -> str:
        return os.path.join(self.build_lib, *DATA_DIR)

    def _shared_mapping(self) -> dict[str, str]:
        """Target in the build directory -> source in the project."""
        return {os.path.join(self._data_dir(), *f.split("/")): f for f in shared_files()}

    def run(self) -> None:
        super().run()
        if self.editable_mode:
            return
        # The build directory outlives a build: start afresh, so that a file
        # deleted from the project is not shipped by the next build.
        if os.path.isdir(self._data_dir()):
            shutil.rmtree(self._data_dir())
        for target, source in self._shared_mapping().items():
            self.mkpath(os.path.dirname(target))
            self.copy_file(source, target)

    def get_outputs(self, include_bytecode: bool = True) -> list[str]:
        outputs = super().get_outputs(include_bytecode)
        if self.editable_mode:  # then they come from get_output_mapping, below
            return outputs
        return [*outputs, *self._shared_mapping()]

    def get_output_mapping(self) -> dict[str, str]:
        # used by editable installs in "strict" mode, which link these files
        return {**super().get_output_mapping(), **self._shared_mapping()}


setup(cmdclass={"build_py": BuildPyWithSharedData})
