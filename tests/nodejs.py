"""Node.js for the tests of clients/node/: where ``node`` and ``npm`` are, a skip mark for
when they are missing, and ``npm ci`` once per package-lock.

The third-party client (``tests/test_third_party_client.py``) and the Node.js bot in the
arena (``tests/test_node_bot.py``) need the same packages installed in clients/node/; a
marker in node_modules remembers which package-lock they were installed from, so that the
install runs once, also with several pytest-xdist workers at once (a file lock)."""

from __future__ import annotations

import fcntl
import hashlib
import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
CLIENT = ROOT / "clients" / "node"
MARKER = CLIENT / "node_modules" / ".bhabhi-npm-ci"

NODE = shutil.which("node")
NPM = shutil.which("npm")

needs_node = pytest.mark.skipif(
    NODE is None or NPM is None,
    reason="node and npm are needed to run the Node.js client (clients/node)",
)
"""The tests of clients/node/ are skipped, with this reason, only when node or npm is
missing."""


def _lock_digest() -> str:
    digest = hashlib.sha256()
    for name in ("package.json", "package-lock.json"):
        digest.update((CLIENT / name).read_bytes())
    return digest.hexdigest()


def npm_ci() -> None:
    """``npm ci`` unless node_modules already matches the lock file (xdist-safe)."""
    assert NPM is not None
    with open(CLIENT / ".npm-ci.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        wanted = _lock_digest()
        if MARKER.exists() and MARKER.read_text().strip() == wanted:
            return
        result = subprocess.run(
            [NPM, "ci", "--no-audit", "--no-fund", "--loglevel=error"],
            cwd=CLIENT,
            capture_output=True,
            text=True,
            timeout=300,
        )
        assert result.returncode == 0, f"npm ci failed:\n{result.stdout}\n{result.stderr}"
        MARKER.write_text(wanted + "\n")
