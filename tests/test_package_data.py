"""An installed referee carries its bundled rulesets, clause catalogue and conformance cases.

They live at the top of the repository, outside the ``referee`` package; the wheel's build
copies them into it as ``referee/bundled/`` (``setup.py``), and ``referee/bundled.py`` reads
that copy once installed.  Built here with setuptools' PEP 517 hook (no network, no build
isolation) from a copy of the checkout, then run from the unpacked wheel alone."""

from __future__ import annotations

import shutil
import zipfile
from pathlib import Path

from helpers import ROOT
from package_helpers import pep517_build, run_from_wheel

SOURCES = ("referee", "rules", "conformance", "pyproject.toml", "setup.py", "MANIFEST.in")


def test_the_wheel_carries_rulesets_and_cases_and_reads_them(tmp_path: Path) -> None:
    checkout = tmp_path / "repo"
    for name in (*SOURCES, "README.md"):
        source = ROOT / name
        if source.is_dir():
            shutil.copytree(source, checkout / name, ignore=shutil.ignore_patterns("__pycache__"))
        else:
            shutil.copy2(source, checkout / name)
    built = pep517_build("wheel", checkout, tmp_path / "dist")
    assert built.returncode == 0, built.stderr[-3000:]
    [wheel] = (tmp_path / "dist").glob("bhabhi_as_data-*.whl")
    site = tmp_path / "site"
    with zipfile.ZipFile(wheel) as archive:
        names = set(archive.namelist())
        archive.extractall(site)
    bundled = "referee/bundled"
    assert {
        f"{bundled}/rules/bhabho.yaml",
        f"{bundled}/rules/house/donkey.yaml",
        f"{bundled}/rules/schema/ruleset.schema.json",
        f"{bundled}/rules/catalogue.yaml",
        f"{bundled}/rules/schema/catalogue.schema.json",
        f"{bundled}/rules/schema/ruleset-variant.schema.json",
        f"{bundled}/conformance/schema/case.schema.json",
    } <= names
    assert any(n.startswith(f"{bundled}/conformance/cases/") for n in names)
    if (ROOT / "referee/server/page/index.html").is_file():  # built by make setup
        page = {f"referee/server/page/{name}" for name in ("index.html", "app.js", "app.css")}
        assert page <= names
    assert any(n.startswith(f"{bundled}/conformance/corpus/") for n in names)

    def referee(*args: str) -> str:
        """Python from the wheel alone, in a folder with nothing beside it (the client
        behind it)."""
        ran = run_from_wheel(site, args, cwd=tmp_path, behind=[ROOT / "clients/python/src"])
        assert ran.returncode == 0, ran.stdout[-2000:] + ran.stderr[-2000:]
        return ran.stdout

    where = referee("-c", "import referee.bundled as b; print(b.RULES); print(b.CONFORMANCE)")
    assert where.split() == [str(site / bundled / "rules"), str(site / bundled / "conformance")]
    listed = referee("-m", "referee", "rules", "list")
    listed_ids = {line.split()[0] for line in listed.splitlines()}
    assert {"bhabho", "pickup", "donkey"} <= listed_ids
    assert "catalogue" not in listed_ids
    catalogue = referee("-c", "import referee.bundled as b; print(b.CATALOGUE)")
    assert catalogue.strip() == str(site / bundled / "rules" / "catalogue.yaml")
    clause = referee("-m", "referee", "rules", "clauses", "B8", "H17")
    assert clause.startswith("B8  No escape with the power\n")
    assert "\n\nH17  Shootout\n" in clause
    variant = referee("-m", "referee", "rules", "schema", "--variant").strip()
    assert variant == str(site / bundled / "rules" / "schema" / "ruleset-variant.schema.json")
    cases = str(site / bundled / "conformance" / "cases")
    replayed = referee("-m", "referee", "conformance", "run", "--quiet", cases)
    assert replayed.splitlines()[-1].endswith(", 0 failed, 0 errors"), replayed
