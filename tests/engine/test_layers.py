"""The package's layers, read from every import statement (function-level ones included):
engine, then the games on it, then the studies and reports on both, then the command line."""

import ast
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[2] / "balance"


def imported_modules(path: Path) -> set[str]:
    found = set()
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            found.add(node.module)
            found.update(f"{node.module}.{alias.name}" for alias in node.names)  # from balance import stats
    return {name for name in found if name == "balance" or name.startswith("balance.")}


def modules_under(folder: str) -> list[Path]:
    return sorted((PACKAGE / folder).rglob("*.py"))


def within(name: str, package: str) -> bool:
    return name == package or name.startswith(package + ".")


def test_the_layer_folders_exist():
    for folder in ("engine", "games", "studies"):
        assert modules_under(folder), folder


@pytest.mark.parametrize("path", modules_under("games"), ids=lambda p: str(p.relative_to(PACKAGE)))
def test_a_game_imports_only_the_engine_and_its_own_package(path):
    parts = path.relative_to(PACKAGE / "games").parts
    own = "balance.games" + (f".{parts[0]}" if len(parts) > 1 else "")
    for name in imported_modules(path):
        if len(parts) == 1:  # the registry: the engine, and the games by name at run time
            assert within(name, "balance.engine") or name == "balance.games", name
        else:
            assert within(name, "balance.engine") or within(name, own), name


@pytest.mark.parametrize("path", modules_under("engine"), ids=lambda p: str(p.relative_to(PACKAGE)))
def test_the_engine_imports_no_game_study_report_or_command_line(path):
    for name in imported_modules(path):
        if name in ("balance.games", "balance.games.get_game"):
            continue  # the registry (a scenario names its game): it imports a game's package by name only
        for above in ("balance.games", "balance.studies", "balance.report", "balance.cli"):
            assert not within(name, above), name


def test_the_statistics_import_nothing_of_the_package():
    assert imported_modules(PACKAGE / "stats.py") == set()


@pytest.mark.parametrize("path", modules_under("studies"), ids=lambda p: str(p.relative_to(PACKAGE)))
def test_a_study_does_not_import_the_command_line(path):
    assert not any(within(name, "balance.cli") for name in imported_modules(path))


def test_the_imports_are_read():
    """A layering test that reads no import could never fail."""
    assert "balance.stats" in imported_modules(PACKAGE / "studies" / "army_choice.py")
    assert "balance.engine.kernels" in imported_modules(PACKAGE / "engine" / "search.py")


def test_the_public_api_does_not_import_the_command_line():
    imported = imported_modules(PACKAGE / "api.py")
    assert "balance.engine.runner" in imported
    assert not any(within(name, "balance.cli") for name in imported)
