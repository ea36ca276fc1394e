"""Every committed report page, rendered in headless Chromium (Debian's `chromium`) at 1,000 px:
no element overflows the page horizontally, no image is missing, no text runs into other text, and
no page is over about 15,000 px tall or 3 MB; so is every page of a report split into parts, at
small scale. Skipped when chromium is absent."""

import html
import json
import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PAGES = sorted((ROOT / "reports").rglob("*.html"))
CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
WIDTH = 1000
MAX_HEIGHT = 15_000
MAX_BYTES = 3_000_000
# Runs in the page once it has loaded: what overflows, what is missing, which text boxes overlap.
CHECK = """
const width = document.documentElement.clientWidth, out = {overflow: [], missing: [], overlap: []};
for (const el of document.querySelectorAll('body *')) {
  const r = el.getBoundingClientRect();
  if (r.right > width + 1 && getComputedStyle(el).position !== 'fixed') out.overflow.push(el.tagName + ' ' + (el.textContent || '').slice(0, 40));
}
for (const img of document.images) if (!img.complete || img.naturalWidth === 0) out.missing.push(img.alt);
const boxes = [...document.querySelectorAll('td, th, p, li, h1, h2, h3, h4, summary')].map(e => e.getBoundingClientRect())
  .filter(r => r.width > 0 && r.height > 0);
for (let i = 1; i < boxes.length; i++) {
  const a = boxes[i - 1], b = boxes[i];
  const dx = Math.min(a.right, b.right) - Math.max(a.left, b.left), dy = Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top);
  if (dx > 2 && dy > 2 && !(a.left <= b.left && a.right >= b.right && a.top <= b.top && a.bottom >= b.bottom)) out.overlap.push(i);
}
out.height = document.documentElement.scrollHeight;
document.body.setAttribute('data-check', JSON.stringify(out));
"""


def browser_check(page: Path) -> dict:
    """The CHECK's findings for one page, read back from Chromium's DOM dump."""
    probe = page.with_name(f".{page.stem}.check.html")
    probe.write_text(page.read_text(encoding="utf-8").replace("</body>", f"<script>{CHECK}</script></body>"),
                     encoding="utf-8")
    try:
        dom = subprocess.run([CHROMIUM, "--headless", "--no-sandbox", "--disable-gpu", f"--window-size={WIDTH},900",
                              "--dump-dom", probe.resolve().as_uri()], capture_output=True, text=True, timeout=300).stdout
    finally:
        probe.unlink()
    start = dom.index("data-check=\"") + len("data-check=\"")
    return json.loads(html.unescape(dom[start:dom.index("\"", start)]))


# Pages known to fail, each with the reason; strict: a page that passes must leave this list.
KNOWN: dict[str, str] = {}


def case(page: Path):
    name = str(page.relative_to(ROOT / "reports"))
    marks = [pytest.mark.xfail(reason=KNOWN[name], strict=True)] if name in KNOWN else []
    return pytest.param(page, id=name, marks=marks)


@pytest.mark.skipif(CHROMIUM is None, reason="no chromium")
@pytest.mark.parametrize("page", [case(p) for p in PAGES])
def test_a_report_page_fits_the_screen_and_shows_every_image(page):
    assert_fits(page)


def assert_fits(page: Path) -> None:
    found = browser_check(page)
    assert not found["missing"], found["missing"]
    assert not found["overflow"], found["overflow"][:5]
    assert not found["overlap"], f"{len(found['overlap'])} overlapping text boxes"
    assert found["height"] <= MAX_HEIGHT and page.stat().st_size <= MAX_BYTES, (found["height"], page.stat().st_size)


@pytest.mark.skipif(CHROMIUM is None, reason="no chromium")
def test_every_page_of_a_split_report_fits_the_screen(tmp_path, monkeypatch):
    from balance.cli import summary_of
    from balance.engine.runner import round_to_deals, simulate
    from balance.engine.scenario import load_scenario
    from balance.report import write_report

    monkeypatch.setattr("balance.report.MAX_STUDIES_PER_PAGE", 1)
    studies = []
    for name in ("core_4p", "two_player", "core_3p"):
        scenario = load_scenario(ROOT / "scenarios" / "take_the_throne" / f"{name}.toml")
        results = simulate(scenario.setup, scenario.seed, round_to_deals(60, scenario.setup.rotations))
        studies.append((scenario, results, summary_of(scenario, results)))
    write_report(studies, tmp_path / "report.html")
    pages = sorted(tmp_path.glob("*.html"))
    assert len(pages) == 4  # the overview and a part per player count
    for page in pages:
        assert_fits(page)
