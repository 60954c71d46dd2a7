"""The client is a package of its own (issue 4): built from a checkout with setuptools alone,
it carries the gRPC stubs generated from ``proto/`` (never committed), their types, and the
typed API; its sdist builds where no ``proto/`` is; a build with neither says why.

Builds go through setuptools' PEP 517 hooks in this environment (no network, no build
isolation), on a copy of the checkout's parts that the build reads."""

from __future__ import annotations

import re
import shutil
import tarfile
import zipfile
from pathlib import Path

from helpers import ROOT
from package_helpers import pep517_build, run_from_wheel

CLIENT = ROOT / "clients" / "python"
STUBS = "bhabhi/referee/v1"
IN_THE_WHEEL = {
    f"{STUBS}/referee_pb2.py",
    f"{STUBS}/referee_pb2_grpc.py",
    f"{STUBS}/referee_pb2.pyi",
    f"{STUBS}/referee_pb2_grpc.pyi",
    f"{STUBS}/py.typed",
    "bhabhi_client/client.py",
    "bhabhi_client/py.typed",
}


def checkout_copy(where: Path, *, proto: bool = True) -> Path:
    """The client's sources as a fresh clone has them (no generated stubs), with the
    repository's ``proto/`` and generator beside them, or without; returns the client's
    folder."""
    client = where / "clients" / "python"
    shutil.copytree(
        CLIENT,
        client,
        ignore=shutil.ignore_patterns("bhabhi", "*.egg-info", "build", "__pycache__"),
    )
    if proto:
        shutil.copytree(ROOT / "proto", where / "proto")
        (where / "tools").mkdir()
        shutil.copy2(ROOT / "tools" / "gen_proto.py", where / "tools" / "gen_proto.py")
    return client


def only(folder: Path, pattern: str) -> Path:
    [found] = folder.glob(pattern)
    return found


def test_a_wheel_built_from_a_checkout_carries_the_stubs(tmp_path: Path) -> None:
    client = checkout_copy(tmp_path / "repo")
    built = pep517_build("wheel", client, tmp_path / "dist")
    assert built.returncode == 0, built.stderr[-3000:]
    wheel = only(tmp_path / "dist", "bhabhi_client-*.whl")
    with zipfile.ZipFile(wheel) as archive:
        assert set(archive.namelist()) >= IN_THE_WHEEL
        archive.extractall(tmp_path / "site")
        [metadata] = [n for n in archive.namelist() if n.endswith(".dist-info/METADATA")]
        requires = [
            line.split(":", 1)[1].strip()
            for line in archive.read(metadata).decode().splitlines()
            if line.startswith("Requires-Dist:")
        ]
    # Generated code refuses an older protobuf at import: pip must be told the same.
    gencode = re.search(
        r"Domain\.PUBLIC,\s*(\d+),\s*(\d+),\s*(\d+),",
        (tmp_path / "site" / STUBS / "referee_pb2.py").read_text(),
    )
    assert gencode is not None
    assert f"protobuf>={'.'.join(gencode.groups())}" in requires
    # Imported from the wheel alone: not this checkout's editable install.
    code = (
        "import bhabhi.referee.v1.referee_pb2 as pb, bhabhi.referee.v1.referee_pb2_grpc as rpc,"
        " bhabhi_client.client as client;"
        " print(pb.__file__, rpc.__file__, client.__file__);"
        " print(pb.SubmitActionRequest(request_id='r1', expected_seq=7).SerializeToString().hex())"
    )
    ran = run_from_wheel(tmp_path / "site", ["-c", code], cwd=tmp_path)
    assert ran.returncode == 0, ran.stderr
    files, encoded = ran.stdout.splitlines()
    assert all(path.startswith(str(tmp_path / "site")) for path in files.split())
    assert bytes.fromhex(encoded) == bytes.fromhex("1a027231") + bytes([0x20, 7])


def test_its_sdist_builds_where_no_proto_is(tmp_path: Path) -> None:
    client = checkout_copy(tmp_path / "repo")
    built = pep517_build("sdist", client, tmp_path / "dist")
    assert built.returncode == 0, built.stderr[-3000:]
    with tarfile.open(only(tmp_path / "dist", "bhabhi_client-*.tar.gz")) as archive:
        archive.extractall(tmp_path / "elsewhere", filter="data")
    unpacked = only(tmp_path / "elsewhere", "bhabhi_client-*")
    assert not (unpacked.parents[1] / "proto").exists()
    built = pep517_build("wheel", unpacked, tmp_path / "wheels")
    assert built.returncode == 0, built.stderr[-3000:]
    with zipfile.ZipFile(only(tmp_path / "wheels", "bhabhi_client-*.whl")) as archive:
        assert set(archive.namelist()) >= IN_THE_WHEEL


def test_a_build_with_neither_stubs_nor_proto_says_why(tmp_path: Path) -> None:
    client = checkout_copy(tmp_path / "repo", proto=False)
    built = pep517_build("wheel", client, tmp_path / "dist")
    assert built.returncode != 0
    assert "no gRPC stubs" in built.stderr and "proto" in built.stderr
    assert "Traceback" not in built.stderr.splitlines()[-1]
