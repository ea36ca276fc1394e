"""What ``pip install .`` puts on a user's machine: every file the package reads at run time, every
package it imports declared (optional ones in their extra, imported only where used), and the
pinned versions that make the committed report images reproduce."""

import ast
import importlib.metadata
import re
import shutil
import subprocess
import sys
import tomllib
import zipfile
from pathlib import Path

import pytest
from packaging.requirements import Requirement
from packaging.utils import canonicalize_name

import balance

ROOT = Path(__file__).resolve().parents[2]
PYPROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
CONSTRAINTS = ROOT / "constraints" / "reports.txt"


def names(requirements) -> set[str]:
    """The distributions the requirements name, with those their extras bring (dask[distributed])."""
    out = set()
    for req in map(Requirement, requirements):
        out.add(canonicalize_name(req.name))
        for extra in req.extras:
            for dep in map(Requirement, importlib.metadata.requires(req.name) or []):
                if dep.marker is not None and dep.marker.evaluate({"extra": extra}):
                    out.add(canonicalize_name(dep.name))
    return out


CORE = names(PYPROJECT["dependencies"])
EXTRAS = {extra: names(reqs) for extra, reqs in PYPROJECT["optional-dependencies"].items()}


def test_a_clean_checkout_builds_a_wheel_with_every_file_of_the_package(tmp_path):
    tracked = subprocess.run(["git", "ls-files", "balance", "pyproject.toml", "README.md"], cwd=ROOT,
                             capture_output=True, text=True, check=True).stdout.split()
    checkout = tmp_path / "checkout"  # tracked files only: no build/ or egg-info left by an earlier install
    for name in tracked:
        (checkout / name).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(ROOT / name, checkout / name)
    subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps", "-q", "-w", str(tmp_path), str(checkout)],
                   check=True, capture_output=True)
    (wheel,) = tmp_path.glob("balance-*.whl")
    packed = zipfile.ZipFile(wheel)
    assert [f for f in tracked if f.startswith("balance/") and f not in packed.namelist()] == []
    # the version is balance.__version__ (what `balance --version` prints); optuna only in `tune`
    metadata = packed.read(f"balance-{balance.__version__}.dist-info/METADATA").decode()
    requires = [Requirement(line.split(":", 1)[1]) for line in metadata.splitlines() if line.startswith("Requires-Dist:")]
    assert "optuna" not in {r.name for r in requires if r.marker is None}
    assert any(r.name == "optuna" and r.marker.evaluate({"extra": "tune"}) for r in requires if r.marker)
    assert {"rich", "typer", "matplotlib"} <= {r.name for r in requires if r.marker is None}


def imports_of_the_package() -> tuple[set[str], set[str]]:
    """Third-party modules imported by balance/: at a module's top level, and inside functions."""
    top, inner = set(), set()
    for path in (ROOT / "balance").rglob("*.py"):
        tree = ast.parse(path.read_text())
        at_top = {id(node) for node in tree.body}
        for node in ast.walk(tree):
            if isinstance(node, ast.Import):
                modules = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom) and node.level == 0:
                modules = [node.module]
            else:
                continue
            for module in modules:
                root = module.split(".")[0]
                if root not in sys.stdlib_module_names and root not in ("balance", "__future__"):
                    (top if id(node) in at_top else inner).add(root)
    return top, inner


def test_every_imported_package_is_declared_and_optional_ones_are_imported_where_used():
    distribution = importlib.metadata.packages_distributions()
    top, inner = imports_of_the_package()
    assert {"numpy", "numba", "typer", "optuna", "rich"} <= top | inner  # the scan sees the imports
    declared = CORE.union(*EXTRAS.values())
    for module in top | inner:
        owners = {canonicalize_name(d) for d in distribution.get(module, [module])}
        assert owners & declared, f"{module} is imported by balance/ but declared in no dependency list"
        if module in top:  # imported when the module loads: a core dependency
            assert owners & CORE, f"{module} is imported at a module's top level but is only an extra"


def test_optuna_is_the_tune_extra_and_the_tests_have_it():
    assert "optuna" not in CORE
    assert "optuna" in EXTRAS["tune"] and "optuna" in EXTRAS["test"]
    assert {"mkdocs", "mkdocs-material"} <= EXTRAS["test"]  # the suite builds the documentation


def pins() -> dict[str, str]:
    lines = [line.split("#")[0].strip() for line in CONSTRAINTS.read_text().splitlines()]
    pinned = {}
    for line in filter(None, lines):
        req = Requirement(line)
        (spec,) = req.specifier
        assert spec.operator == "==", line
        pinned[canonicalize_name(req.name)] = spec.version
    return pinned


def test_the_report_constraints_pin_what_draws_and_computes_the_reports():
    pinned = pins()
    # matplotlib and everything it draws and encodes PNGs with, and what computes the figures
    drawing = {canonicalize_name(Requirement(r).name)
               for r in importlib.metadata.requires("matplotlib") if "extra ==" not in r}
    assert drawing | {"matplotlib", "numpy", "numba", "llvmlite", "scipy", "pandas", "pyarrow"} <= set(pinned)
    for requirement in PYPROJECT["dependencies"]:  # the pins are installable with the package
        req = Requirement(requirement)
        if canonicalize_name(req.name) in pinned:
            assert req.specifier.contains(pinned[canonicalize_name(req.name)]), requirement


def test_a_committed_report_image_reproduces_under_the_pinned_versions():
    """The constraints file's promise, at small scale: a committed policy-matrix heatmap drawn again
    from its committed JSON is the same file, byte for byte."""
    installed = {name: importlib.metadata.version(name) for name in pins()}
    differ = sorted(f"{name} {installed[name]} (pinned {version})" for name, version in pins().items()
                    if installed[name] != version)
    if differ:
        pytest.skip("not the pinned versions of constraints/reports.txt: " + ", ".join(differ))
    import pandas as pd

    from balance.cli import read_matrix
    from balance.report import matrix_heatmap

    folder = ROOT / "reports" / "throne_arcade"  # regenerated under the page templates (2026-12-03)
    matrix = pd.DataFrame(read_matrix(folder / "matrix_4p.json"))
    drawn = matrix_heatmap(matrix, "match")
    assert drawn == (folder / "report_files" / "throne_arcade_matrix_1.png").read_bytes()


def test_the_reports_page_regenerates_under_the_constraints():
    page = (ROOT / "docs" / "reports.md").read_text()
    assert "python -m pip install -c constraints/reports.txt ." in page
    assert re.search(r"constraints/reports\.txt", CONSTRAINTS.read_text())
