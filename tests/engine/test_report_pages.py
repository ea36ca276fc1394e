"""The committed pages are what the code makes: regenerated at a tiny game count into a temporary
folder by tools/regenerate_reports.py (the one command that makes them all), a report has the same
pages (the overview and its parts, report_*.html), each with the same sections (heading anchors) and
the same claims in its Findings block as the committed page. The figures differ (other game
counts); the structure may not."""

import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
FINDING = re.compile(r'<li><a href="[^"]*">([^<]+)</a>:')  # a finding links to its study, here or on a part page
ANCHOR = re.compile(r'<h[1-4] id="([^"]+)"')


def structure(page: Path) -> tuple[list[str], list[str]]:
    text = page.read_text(encoding="utf-8")
    findings = text[text.index('id="findings"'):text.index("</ul>", text.index('id="findings"'))]
    return FINDING.findall(findings), ANCHOR.findall(text)


@pytest.mark.parametrize("game", ["take_the_throne", "thron_der_luegen", "throne_arcade"])
def test_a_committed_report_has_the_sections_and_claims_the_code_makes(game, tmp_path):
    (tmp_path / game).mkdir()
    for given in (ROOT / "reports" / game).glob("*.*"):  # its --matrix, --skill-readings and --see files: the committed
        if not given.name.startswith("report"):
            shutil.copy(given, tmp_path / game)
    subprocess.run([sys.executable, str(ROOT / "tools" / "regenerate_reports.py"), "--only", game, "--file",
                    "report.html", "--games", "40", "--out", str(tmp_path)], check=True, capture_output=True)
    made = {page.name: structure(page) for page in report_pages(tmp_path / game)}
    committed = {page.name: structure(page) for page in report_pages(ROOT / "reports" / game)}
    assert made["report.html"][0] and made == committed


def report_pages(folder: Path) -> list[Path]:
    """The balance report's pages in ``folder``: report.html and its parts."""
    return [folder / "report.html", *sorted(folder.glob("report_*.html"))]
