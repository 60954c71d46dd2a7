"""``make demo``: start a referee, seat four bots, play a full hand, print its transcript.

The referee runs as a separate process on a free loopback port with a throw-away database,
exactly as a user would start it, and is stopped (SIGTERM, graceful drain) at the end.
"""

from __future__ import annotations

import re
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

BIN = Path(sys.executable).parent


def main() -> int:
    rules = sys.argv[1] if len(sys.argv) > 1 else "bhabho"
    with tempfile.TemporaryDirectory() as tmp:
        server = subprocess.Popen(
            [
                str(BIN / "bhabhi"),
                "serve",
                "--port",
                "0",
                "--db",
                f"{tmp}/demo.sqlite3",
                "--log-level",
                "WARNING",  # the transcript alone
            ],
            stdout=subprocess.PIPE,
            text=True,
        )
        try:
            assert server.stdout is not None
            line = server.stdout.readline()
            found = re.search(r"listening on ([\d.]+:\d+)", line)
            if not found:
                print(f"the referee did not start: {line!r}", file=sys.stderr)
                return 1
            target = found.group(1)
            print(f"referee on {target}\n", flush=True)
            started = time.monotonic()
            code = subprocess.call(
                [str(BIN / "bhabhi"), "demo-hand", "--target", target, "--rules", rules]
            )
            print(f"\n({time.monotonic() - started:.1f} s)")
            return code
        finally:
            server.send_signal(signal.SIGTERM)
            try:
                server.wait(timeout=10)
            except subprocess.TimeoutExpired:
                server.kill()


if __name__ == "__main__":
    raise SystemExit(main())
