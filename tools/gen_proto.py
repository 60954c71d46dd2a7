"""Generate the Python gRPC code from proto/ into the client package (clients/python/src).

The generated modules (``bhabhi.referee.v1.referee_pb2`` and friends, with ``.pyi`` stubs)
are not committed: ``make`` runs this before installing, so the code always matches the
``.proto`` files.  ``--check`` regenerates into a temporary folder and fails when the
installed copy differs, which is how CI notices a stale checkout.
"""

from __future__ import annotations

import filecmp
import shutil
import sys
import tempfile
from pathlib import Path

from grpc_tools import protoc

ROOT = Path(__file__).resolve().parents[1]
PROTO = ROOT / "proto"
OUT = ROOT / "clients" / "python" / "src"
PACKAGE = Path("bhabhi") / "referee" / "v1"


def generate(out: Path) -> None:
    import grpc_tools

    includes = Path(grpc_tools.__file__).parent / "_proto"
    sources = sorted(str(p.relative_to(PROTO)) for p in (PROTO / PACKAGE).glob("*.proto"))
    args = [
        "grpc_tools.protoc",
        f"-I{PROTO}",
        f"-I{includes}",
        f"--plugin=protoc-gen-mypy={_plugin('protoc-gen-mypy')}",
        f"--plugin=protoc-gen-mypy_grpc={_plugin('protoc-gen-mypy_grpc')}",
        f"--python_out={out}",
        f"--mypy_out={out}",
        f"--grpc_python_out={out}",
        f"--mypy_grpc_out={out}",
        *sources,
    ]
    if protoc.main(args) != 0:
        raise SystemExit("protoc failed")
    for folder in (out / "bhabhi", out / "bhabhi" / "referee", out / PACKAGE):
        (folder / "__init__.py").touch()
        (folder / "py.typed").touch()


def _plugin(name: str) -> str:
    """mypy-protobuf's protoc plugin: beside this Python (a virtual environment, as make
    sets up), or else on PATH (pip's isolated build environment of the client package puts
    its scripts there, not beside the interpreter)."""
    beside = Path(sys.executable).parent / name
    if beside.exists():
        return str(beside)
    found = shutil.which(name)
    if found is None:
        raise SystemExit(f"{name} not found: install mypy-protobuf")
    return found


def main(argv: list[str] | None = None) -> int:
    if "--check" in (sys.argv[1:] if argv is None else argv):
        with tempfile.TemporaryDirectory() as tmp:
            generate(Path(tmp))
            fresh = sorted(p.relative_to(tmp) for p in Path(tmp).rglob("*") if p.is_file())
            stale = [
                str(p)
                for p in fresh
                if not (OUT / p).exists() or not filecmp.cmp(Path(tmp) / p, OUT / p)
            ]
            if stale:
                print("generated code is stale:", ", ".join(stale), file=sys.stderr)
                return 1
        return 0
    target = OUT / "bhabhi"
    if target.exists():
        shutil.rmtree(target)
    generate(OUT)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
