"""Building this repository's packages as pip would, and running code from a built wheel.

Builds call setuptools' PEP 517 hooks in this environment (no network, no build
isolation); a wheel's code runs with ``python -S`` (no site, so not this checkout's
editable installs), its unpacked files first on the path."""

from __future__ import annotations

import subprocess
import sys
import sysconfig
from collections.abc import Sequence
from pathlib import Path


def pep517_build(kind: str, source: Path, out: Path) -> subprocess.CompletedProcess[str]:
    """``kind`` is ``sdist`` or ``wheel``: the PEP 517 hook, run in ``source``."""
    out.mkdir(parents=True, exist_ok=True)
    hook = f"import sys; from setuptools import build_meta; build_meta.build_{kind}(sys.argv[1])"
    return subprocess.run(
        [sys.executable, "-c", hook, str(out)],
        cwd=source,
        capture_output=True,
        text=True,
        timeout=300,
    )


def run_from_wheel(
    site: Path, args: Sequence[str], *, cwd: Path, behind: Sequence[Path] = ()
) -> subprocess.CompletedProcess[str]:
    """``python -S ARGS`` with the unpacked wheel in ``site`` first on the path, then this
    environment's own packages (grpcio, protobuf …), then ``behind``."""
    path = [str(site), sysconfig.get_paths()["purelib"], *map(str, behind)]
    return subprocess.run(
        [sys.executable, "-S", *args],
        cwd=cwd,
        env={"PYTHONPATH": ":".join(path)},
        capture_output=True,
        text=True,
        timeout=300,
    )
