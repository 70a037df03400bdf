"""A full review round in Debian's chromium: three annotators, the summary, the export.

Screenshots of the review page go to tests/artifacts/ (and the test's tmp folder).
"""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest

from logir.data.beir import load_beir
from logir.serve.review.app import create_review_app
from tests.serve.test_review_helpers import ANNOTATORS, MAJORITY, PATTERNS, live_server, make_folder

pytestmark = pytest.mark.browser

ARTIFACTS = Path(__file__).resolve().parents[1] / "artifacts"


def _unavailable(reason: str) -> None:
    if os.environ.get("CI"):
        pytest.fail(f"{reason} (required in CI)")
    pytest.skip(reason)


@pytest.fixture(scope="module")
def browser() -> Iterator[object]:
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        _unavailable("playwright is not installed")
    path = shutil.which("chromium") or "/usr/bin/chromium"
    if not Path(path).is_file():
        _unavailable(f"chromium not found at {path}")
    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=path, headless=True, args=["--no-sandbox"])
        yield b
        b.close()


def screenshot(page, name: str, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    for folder in (ARTIFACTS, tmp_path):
        page.screenshot(path=str(folder / name), full_page=True)
        assert (folder / name).stat().st_size > 10_000


def test_three_annotators_review_and_export_the_majority(browser, tmp_path: Path):  # type: ignore[no-untyped-def]
    from playwright.sync_api import expect

    folder = make_folder(tmp_path / "gen")
    app = create_review_app(folder, tmp_path / "review.sqlite")
    items = list(PATTERNS)
    with live_server(app) as url:
        pages = []
        for i, name in enumerate(ANNOTATORS):
            context = browser.new_context(viewport={"width": 1280, "height": 900})
            page = context.new_page()
            page.set_default_timeout(15_000)
            pages.append(page)
            page.goto(url + "/review")
            expect(page.locator("#folder")).to_have_text("gen")
            page.fill("#annotator", name)
            page.click("#start")
            for n, item in enumerate(items):
                expect(page.locator("#item")).to_have_attribute("data-item-id", item)
                expect(page.locator("#progress-text")).to_have_text(f"{n} of 5 labelled by {name}")
                expect(page.locator("#submit")).to_be_disabled()
                expect(page.locator("#relabel")).to_be_hidden()
                s, e = PATTERNS[item][i]
                if name == "bob":  # bob uses the keyboard
                    page.keyboard.press("1" if s else "2")
                    page.keyboard.press("3" if e else "4")
                    expect(page.locator("#submit")).to_be_enabled()
                    page.keyboard.press("Control+Enter")
                    continue
                page.check("#structure-yes" if s else "#structure-no")
                page.check("#evidence-yes" if e else "#evidence-no")
                page.fill("#comment", f"{name} looked at {item}")
                if name == "ann" and item == "q2":
                    evidence = page.locator("#evidence-passages .passage")
                    expect(evidence).to_have_count(2)
                    expect(page.locator("#evidence-passages mark").first).to_have_text(
                        "directed Sicario"
                    )
                    expect(page.locator("#other-passages .badge.violating")).to_have_text(
                        "violating"
                    )
                    expect(page.locator("#fact-logical-form")).to_contain_text("NOT")
                    expect(page.locator("#triplets tr")).to_have_count(2)
                    screenshot(page, "review.png", tmp_path)
                page.click("#submit")
            expect(page.locator("#done")).to_be_visible()
            expect(page.locator("#workspace")).to_be_hidden()
            expect(page.locator("#progress-text")).to_have_text(f"5 of 5 labelled by {name}")

        # the name is remembered; reopening an item from the summary shows the earlier label
        ann = pages[0]
        ann.reload()
        expect(ann.locator("#annotator")).to_have_value("ann")
        expect(ann.locator("#progress-text")).to_have_text("5 of 5 labelled by ann")
        ann.click("#tab-summary")
        ann.locator('#summary-table tr[data-item-id="q4"] button').click()
        expect(ann.locator("#item")).to_have_attribute("data-item-id", "q4")
        expect(ann.locator("#relabel")).to_be_visible()
        expect(ann.locator("#structure-no")).to_be_checked()
        expect(ann.locator("#comment")).to_have_value("ann looked at q4")
        ann.fill("#comment", "checked again: still not a 1p query")
        ann.click("#submit")
        expect(ann.locator("#done")).to_be_visible()

        # the summary shows the votes; export the accepted items from the page
        ann.click("#tab-summary")
        expect(ann.locator("#count-accepted")).to_have_text("3")
        expect(ann.locator("#count-rejected")).to_have_text("2")
        expect(ann.locator("#count-pending")).to_have_text("0")
        expect(ann.locator("#count-decided")).to_have_text("5")
        for item in items:
            status = "accepted" if item in MAJORITY else "rejected"
            row = ann.locator(f'#summary-table tr[data-item-id="{item}"]')
            expect(row).to_have_attribute("data-status", status)
        out = tmp_path / "accepted"
        ann.fill("#export-dir", str(out))
        ann.click("#export")
        expect(ann.locator("#export-result")).to_have_text(f"3 accepted items written to {out}")
        screenshot(ann, "review-summary.png", tmp_path)
        for page in pages:
            page.context.close()

    exported = load_beir(out)
    assert {t.id for t in exported.queries} == MAJORITY
    assert exported.qrels == {q: r for q, r in load_beir(folder).qrels.items() if q in MAJORITY}
