"""Every game has a notebook on the public API; each runs in a Jupyter kernel (nbclient, few
games), has cell ids, and is committed with the outputs of the code it holds.
``python tests/engine/test_notebooks.py`` re-executes the notebooks with their own game counts and
writes them back with outputs and the hash of the code that made them (no timing metadata, so a
rerun of the same code gives the same file)."""

import ast
import hashlib
import os
import sys
from pathlib import Path

import nbformat
import pytest
from nbclient import NotebookClient

ROOT = Path(__file__).resolve().parents[2]
NOTEBOOKS = sorted((ROOT / "notebooks").glob("*.ipynb"))
TEST_GAMES = "400"


def code_hash(nb: nbformat.NotebookNode) -> str:
    """The hash of the notebook's code cells: the outputs committed are those of this code."""
    return hashlib.sha256("\n\0".join(c.source for c in nb.cells if c.cell_type == "code").encode()).hexdigest()[:16]


def execute(path: Path, games: str | None = None) -> nbformat.NotebookNode:
    """The notebook run top to bottom in a fresh kernel that imports this checkout's package."""
    env = {"BALANCE_ROOT": str(ROOT), "PYTHONPATH": os.pathsep.join(filter(None, [str(ROOT),
                                                                                 os.environ.get("PYTHONPATH")]))}
    if games:
        env["BALANCE_NOTEBOOK_GAMES"] = games
    nb = nbformat.read(path, as_version=4)
    saved = {k: os.environ.get(k) for k in env}
    os.environ.update(env)  # the kernel inherits the environment
    try:
        NotebookClient(nb, timeout=1200, kernel_name="python3", record_timing=False,
                       resources={"metadata": {"path": str(path.parent)}}).execute()
    finally:
        for k, v in saved.items():
            if v is None:
                os.environ.pop(k, None)
            else:
                os.environ[k] = v
    return nb


@pytest.mark.parametrize("path", NOTEBOOKS, ids=[p.stem for p in NOTEBOOKS])
def test_notebook_runs_in_a_kernel(path):
    nb = execute(path, TEST_GAMES)  # raises CellExecutionError on the first failing cell
    code = [c for c in nb.cells if c.cell_type == "code"]
    assert all(c.execution_count for c in code)
    assert any(o.get("output_type") == "display_data" and "image/png" in o.get("data", {})
               for c in code for o in c.outputs), "no figure drawn"


@pytest.mark.parametrize("path", NOTEBOOKS, ids=[p.stem for p in NOTEBOOKS])
def test_notebook_is_committed_with_ids_and_outputs(path):
    nb = nbformat.read(path, as_version=4)
    nbformat.validate(nb)
    ids = [c.get("id") for c in nb.cells]
    assert all(ids) and len(set(ids)) == len(ids)
    code = [c for c in nb.cells if c.cell_type == "code"]
    assert all(c.execution_count for c in code), f"{path.name}: a cell was not executed"
    assert not any(o.get("output_type") == "error" for c in code for o in c.outputs)
    assert any("image/png" in o.get("data", {}) for c in code for o in c.outputs), f"{path.name}: no figure"
    assert nb.metadata.get("balance", {}).get("code") == code_hash(nb), \
        f"{path.name}: its outputs are not those of its code; run python tests/engine/test_notebooks.py {path}"


def test_every_game_has_a_notebook_on_the_public_api_only():
    from balance.games import game_names

    assert sorted(p.stem for p in NOTEBOOKS) == sorted(game_names())
    for path in NOTEBOOKS:
        nb = nbformat.read(path, as_version=4)
        for cell in (c for c in nb.cells if c.cell_type == "code"):
            for node in ast.walk(ast.parse(cell.source)):
                if isinstance(node, (ast.Import, ast.ImportFrom)):
                    names = [node.module] if isinstance(node, ast.ImportFrom) else [a.name for a in node.names]
                    assert not any(n.startswith("balance.") for n in names), f"{path.name}: imports {names}"


def write_executed(path: Path) -> None:
    """Execute with the notebook's own game counts and save it with outputs and cell ids."""
    nb = nbformat.read(path, as_version=4)
    nb.nbformat_minor = max(nb.nbformat_minor, 5)
    for i, cell in enumerate(nb.cells):
        cell["id"] = f"cell-{i}"
    nbformat.write(nb, path)
    nb = execute(path)
    nb.metadata["balance"] = {"code": code_hash(nb)}
    nbformat.write(nb, path)


if __name__ == "__main__":
    for notebook in [Path(a) for a in sys.argv[1:]] or NOTEBOOKS:
        write_executed(notebook)
        print(f"wrote {notebook}")
