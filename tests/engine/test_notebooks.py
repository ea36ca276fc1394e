"""Every notebook's code runs (with few games), so the analyses shown there do not rot."""

import json
from pathlib import Path

import matplotlib
import pytest

matplotlib.use("Agg")
ROOT = Path(__file__).resolve().parents[2]
NOTEBOOKS = sorted((ROOT / "notebooks").glob("*.ipynb"))


@pytest.mark.parametrize("path", NOTEBOOKS, ids=[p.stem for p in NOTEBOOKS])
def test_notebook_code_runs(path, monkeypatch):
    monkeypatch.setenv("BALANCE_NOTEBOOK_GAMES", "400")
    monkeypatch.setenv("BALANCE_ROOT", str(ROOT))
    cells = json.loads(path.read_text())["cells"]
    namespace: dict = {}
    for cell in cells:
        if cell["cell_type"] == "code":
            exec(compile("".join(cell["source"]), f"{path.name}", "exec"), namespace)
