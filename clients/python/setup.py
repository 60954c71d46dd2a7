"""The client's build: the gRPC stubs are generated from the repository's ``proto/``.

The generated modules (``bhabhi.referee.v1``) are never committed, so that they always
match the ``.proto`` files.  This hook makes ``pip install clients/python``, or a git URL
with ``#subdirectory=clients/python``, give a working client without ``make``: in a
checkout it runs ``tools/gen_proto.py`` before setuptools looks for packages.  An sdist
carries the generated files, so that it builds where no ``proto/`` is.

Generated code refuses, when imported, a protobuf runtime older than the protoc that
generated it; so the package requires at least that version, read from the stubs it ships,
and an environment that cannot have it is told so by pip, not by an import error.
"""

from __future__ import annotations

import importlib.util
import re
from pathlib import Path

from setuptools import setup

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
GENERATOR = ROOT / "tools" / "gen_proto.py"
PROTO = ROOT / "proto" / "bhabhi" / "referee" / "v1" / "referee.proto"
STUBS = HERE / "src" / "bhabhi" / "referee" / "v1" / "referee_pb2.py"


def generate_stubs() -> None:
    if GENERATOR.is_file() and PROTO.is_file():  # a checkout: proto/ is the source
        spec = importlib.util.spec_from_file_location("gen_proto", GENERATOR)
        assert spec is not None and spec.loader is not None
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
        module.main([])
    elif not STUBS.is_file():
        raise SystemExit(
            f"bhabhi-client: no gRPC stubs in {STUBS.parent} and no {PROTO} to generate"
            " them from; build from a checkout of the repository, or from its sdist"
        )


GENCODE_VERSION = re.compile(
    r"ValidateProtobufRuntimeVersion\(\s*_runtime_version\.Domain\.PUBLIC,\s*(\d+),\s*(\d+),\s*(\d+),"
)


def protobuf_requirement() -> str:
    """At least the protobuf the stubs were generated for (older gencode has no check)."""
    found = GENCODE_VERSION.search(STUBS.read_text(encoding="utf-8"))
    return "protobuf>=5" if found is None else "protobuf>=" + ".".join(found.groups())


generate_stubs()
setup(
    install_requires=[
        "grpcio>=1.60",
        protobuf_requirement(),
        "googleapis-common-protos>=1.60",
        "pyyaml>=6.0",
        "openskill>=6.2",  # the ratings of bhabhi arena (bhabhi_client/arena.py)
        "tqdm>=4.66",  # bhabhi arena's progress bar on a terminal
    ]
)
