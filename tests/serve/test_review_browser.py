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
        out = (tmp_path / "review-exports" / "accepted").resolve()
        expect(ann.locator("#export-root")).to_have_text(str(out.parent))
        expect(ann.locator("#export-name")).to_have_value("gen-reviewed")
        ann.fill("#export-name", "accepted")
        ann.click("#export")
        expect(ann.locator("#export-result")).to_have_text(f"3 accepted items written to {out}")
        screenshot(ann, "review-summary.png", tmp_path)
        # a second export of that name is refused until replacing it is ticked
        ann.click("#export")
        expect(ann.locator("#error")).to_contain_text("exists already")
        expect(ann.locator("#export-result")).to_have_text("")
        ann.check("#export-overwrite")
        ann.click("#export")
        expect(ann.locator("#export-result")).to_have_text(f"3 accepted items written to {out}")
        expect(ann.locator("#export-overwrite")).not_to_be_checked()
        for page in pages:
            page.context.close()

    exported = load_beir(out)
    assert {t.id for t in exported.queries} == MAJORITY
    assert exported.qrels == {q: r for q, r in load_beir(folder).qrels.items() if q in MAJORITY}


def test_the_page_logs_in_once_and_keeps_the_token_out_of_urls(browser, tmp_path: Path):  # type: ignore[no-untyped-def]
    from playwright.sync_api import expect

    folder = make_folder(tmp_path / "gen")
    app = create_review_app(folder, tmp_path / "review.sqlite", token="s3cret")
    with live_server(app) as url:
        context = browser.new_context()
        page = context.new_page()
        page.set_default_timeout(15_000)
        sent: list[str] = []
        page.on("request", lambda r: sent.append(r.url))
        page.goto(url + "/review?token=s3cret")  # an old link: neither used nor kept
        expect(page.locator("#login")).to_be_visible()
        expect(page.locator("#who")).to_be_hidden()
        assert page.url == url + "/review"
        page.fill("#token", "wrong")
        page.click("#login-button")
        expect(page.locator("#error")).to_contain_text("wrong review token")
        expect(page.locator("#login")).to_be_visible()
        page.fill("#token", "s3cret")
        page.click("#login-button")
        expect(page.locator("#login")).to_be_hidden()
        expect(page.locator("#folder")).to_have_text("gen")
        page.fill("#annotator", "ann")
        page.click("#start")
        expect(page.locator("#item")).to_have_attribute("data-item-id", "q1")
        page.check("#structure-yes")
        page.check("#evidence-yes")
        page.click("#submit")
        expect(page.locator("#item")).to_have_attribute("data-item-id", "q2")
        # the cookie is HttpOnly (no script sees it) and stands for the token without being it
        assert page.evaluate("document.cookie") == ""
        (cookie,) = context.cookies()
        assert cookie["httpOnly"] and cookie["sameSite"] == "Strict"
        assert "s3cret" not in cookie["value"]
        # a reload stays logged in; the token was in no URL the page asked for
        page.reload()
        expect(page.locator("#progress-text")).to_have_text("1 of 5 labelled by ann")
        assert not [u for u in sent if "s3cret" in u and not u.endswith("/review?token=s3cret")]
        context.close()
