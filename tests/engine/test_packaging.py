"""What ``pip install .`` puts on a user's machine: every file the package reads at run time."""

import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


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
    packed = set(zipfile.ZipFile(wheel).namelist())
    assert [f for f in tracked if f.startswith("balance/") and f not in packed] == []
