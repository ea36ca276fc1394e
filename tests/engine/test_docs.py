"""The documentation site (docs/, mkdocs.yml) builds with `mkdocs build --strict`: a broken link, a
page missing from the navigation or a failing hook fails the suite, and so `.ci/run`."""

import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_the_documentation_site_builds_strictly_with_the_generated_cli_reference(tmp_path):
    site = tmp_path / "site"
    build = subprocess.run([sys.executable, "-m", "mkdocs", "build", "--strict", "--config-file",
                            str(ROOT / "mkdocs.yml"), "--site-dir", str(site)],
                           cwd=ROOT, capture_output=True, text=True)
    assert build.returncode == 0, build.stderr
    cli = (site / "cli" / "index.html").read_text()
    # rendered from the typer app at build time: every command, and help brackets shown literally
    for command in ("games", "run", "check", "report", "replay", "bench", "matrix", "restrict", "ladder",
                    "sweep", "tune"):
        assert f"balance {command}</code>" in cli, command
    assert "[robustness]" in cli and "[sweep]" in cli and "--version" in cli
    assert "&lt;!-- cli-reference --&gt;" not in cli and "<!-- cli-reference -->" not in cli


def test_the_readme_stays_short_and_keeps_its_two_quickstart_commands():
    readme = (ROOT / "README.md").read_text()
    assert len(readme.splitlines()) <= 200
    quickstart = readme.split("## Quickstart", 1)[1].split("```sh\n", 1)[1].split("```", 1)[0]
    assert quickstart.splitlines() == [
        "python -m pip install . && balance report scenarios/take_the_throne/ -o reports/quickstart/report.html",
        "python -m pip install '.[test]' && python -m pytest"]
    ci = (ROOT / ".ci" / "run").read_text()
    assert "'.[test]' && python -m pytest" in ci
    # its links into the docs (outside the site's strict build) point at files that exist
    links = re.findall(r"\]\(([^)#]+)(?:#[^)]*)?\)", readme)
    assert "docs/statistics.md" in links
    assert [link for link in links if not link.startswith("http") and not (ROOT / link).exists()] == []
