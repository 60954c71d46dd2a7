"""Write the web table's style sheet: the project's house style (``referee.pagestyle``),
then the page's own rules (``web/src/app.css``), as every page the project writes starts.

``make page`` runs it after the bundle: ``python tools/page_css.py web/src/app.css OUT``.
"""

from __future__ import annotations

import sys
from pathlib import Path

from referee.pagestyle import page_style

WIDTH = "62rem"
"""The table's column: wide enough for a hand of a whole pack's share in one or two rows."""


def main(argv: list[str]) -> int:
    own, out = (Path(name) for name in argv)
    Path(out).write_text(page_style(own.read_text(encoding="utf-8"), width=WIDTH), encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
