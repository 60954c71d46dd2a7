"""The referee's build: its wheel carries the bundled rulesets and conformance cases.

They live at the top of the repository (``rules/``, ``conformance/``), outside the
``referee`` package, and a wheel holds only packages: so building one copies both folders
into it as ``referee/bundled/`` (``referee/bundled.py`` finds them there once installed).
An editable install (``make``) reads the checkout's folders and copies nothing.  The sdist
carries both folders (``MANIFEST.in``).
"""

from __future__ import annotations

import shutil
from pathlib import Path

from setuptools import setup
from setuptools.command.build_py import build_py

HERE = Path(__file__).resolve().parent
DATA = ("rules", "conformance")


class BuildWithData(build_py):
    def run(self) -> None:
        super().run()
        if getattr(self, "editable_mode", False):
            return
        for name in DATA:
            target = Path(self.build_lib) / "referee" / "bundled" / name
            shutil.rmtree(target, ignore_errors=True)
            shutil.copytree(HERE / name, target, ignore=shutil.ignore_patterns("__pycache__"))


setup(cmdclass={"build_py": BuildWithData})
