"""The search explorer in Debian's chromium (headless, through Playwright): a search shows hits,
the logical form as an editable tree and each hit's evidence; screenshots are saved."""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest

pytestmark = pytest.mark.browser

pytest.importorskip("fastapi")
pytest.importorskip("uvicorn")

from logir.data.dataset import Document  # noqa: E402
from logir.index.store import build_index  # noqa: E402
from logir.serve import create_app  # noqa: E402
from logir.serve.live import LiveServer  # noqa: E402

ARTIFACTS = Path(__file__).resolve().parents[1] / "artifacts"

PASSAGES = [
    ("Vitamin D and bones", "Vitamin D supports bone health and helps the body absorb calcium."),
    ("Immunity", "Vitamin D strengthens the immune system against winter infections."),
    ("Mood", "Low vitamin D is linked to depression and low mood in the dark months."),
    ("Osteoporosis", "Osteoporosis weakens bone health; vitamin D and calcium slow it down."),
    ("Sunlight", "Sunlight on the skin lets the body make its own vitamin D."),
    ("Muscles", "Vitamin D helps muscle strength and lowers the risk of falls."),
    ("Benefits", "The benefits of vitamin D include fewer colds and a stronger immune system."),
    ("More benefits", "Benefits of vitamin D for sleep and mood, according to a small trial."),
    ("Nolan", "Christopher Nolan directed Inception, Interstellar and Oppenheimer."),
    ("Villeneuve", "Denis Villeneuve directed Arrival and Dune, both science fiction films."),
]


def _chromium() -> str:
    exe = shutil.which("chromium") or "/usr/bin/chromium"
    if not Path(exe).exists():
        message = "Debian chromium is not installed (apt-get install chromium)"
        if os.environ.get("CI"):
            pytest.fail(message)
        pytest.skip(message)
    return exe


@pytest.fixture(scope="module")
def index_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    docs = [Document(id=f"doc{i}", title=t, text=x) for i, (t, x) in enumerate(PASSAGES)]
    return build_index(docs, tmp_path_factory.mktemp("explorer") / "index", retrievers=("bm25",))


@pytest.fixture(scope="module")
def base_url(index_dir: Path) -> Iterator[str]:
    with LiveServer(create_app(index_dir)) as live:
        yield live.url


@pytest.fixture(scope="module")
def browser() -> Iterator[object]:
    exe = _chromium()
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        if os.environ.get("CI"):
            pytest.fail("playwright is not installed")
        pytest.skip("playwright is not installed")
    from playwright.sync_api import expect

    expect.set_options(timeout=30_000)  # the first natural-language query loads spaCy
    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=exe, headless=True, args=["--no-sandbox"])
        yield b
        b.close()


@pytest.fixture
def page(browser, base_url: str):
    context = browser.new_context(viewport={"width": 1400, "height": 1000})
    page = context.new_page()
    page.set_default_timeout(30_000)
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))

    def on_console(msg) -> None:
        # the 400 of a deliberate syntax error is expected; anything else is a bug in the page
        if msg.type == "error" and "status of 400" not in msg.text:
            errors.append(msg.text)

    page.on("console", on_console)
    page.goto(base_url + "/")
    yield page
    context.close()
    assert not errors, errors


def _save(page, tmp_path: Path, name: str) -> None:
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    for folder in (ARTIFACTS, tmp_path):
        page.screenshot(path=str(folder / name), full_page=True)
        assert (folder / name).stat().st_size > 10_000


def test_search_shows_results_and_their_explanation(page, tmp_path: Path) -> None:
    from playwright.sync_api import expect

    expect(page.locator("#index-info")).to_contain_text("10 documents")
    page.fill("#query", "benefits of vitamin D other than bone health")
    page.click("#run")

    # the logical form it read, as a tree of editable terms
    form = '"benefits of vitamin D" AND NOT "bone health"'
    expect(page.locator("#logical-form")).to_have_text(form)
    terms = page.locator("#tree input.term")
    expect(terms).to_have_count(2)
    expect(page.locator("#tree .node.negated input.term")).to_have_value("bone health")

    # hits with one bar per part; the NOT part is marked and the penalised passages show it
    hits = page.locator("#results .hit")
    expect(hits.first).to_be_visible()
    assert hits.count() >= 5
    expect(hits.first.locator(".ev-label")).to_have_count(2)
    expect(page.locator("#results .ev-label.neg").first).to_have_text("NOT bone health")
    penalties = page.locator("#results .bar.neg")
    assert penalties.count() >= 2  # doc0 and doc3 talk about bone health
    penalised = page.locator("#results .hit", has=page.locator(".bar.neg"))
    assert {penalised.nth(i).get_attribute("data-id") for i in range(penalised.count())} >= {
        "doc0",
        "doc3",
    }
    expect(page.locator("#results .ev-value.neg").first).to_contain_text("−")
    expect(page.locator("#results .sum").first).to_contain_text("parts add up")

    # flat, side by side
    expect(page.locator("#flat-column")).to_be_visible()
    assert page.locator("#flat-results .hit").count() >= 5
    expect(page.locator("#flat-results .ev-label.neg")).to_have_count(0)
    _save(page, tmp_path, "explorer.png")


def test_edit_the_tree_and_switch_composer(page) -> None:
    from playwright.sync_api import expect

    page.fill("#query", '"vitamin D" AND NOT "bone health"')
    page.click("#run")
    expect(page.locator("#results .hit").first).to_be_visible()
    expect(page.locator("#mode-used")).to_have_text("syntax")

    # edit: change a term's text, drop the NOT, turn AND into OR, then run the edited query
    page.locator("#tree input.term").nth(0).fill("vitamin D")
    page.locator("#tree .node.negated .not-toggle").click()
    expect(page.locator("#edited-syntax")).to_have_text('"vitamin D" AND "bone health"')
    page.locator("#tree select").select_option("or")
    page.locator("#tree input.term").nth(1).fill("muscle strength")
    expect(page.locator("#edited-syntax")).to_have_text('"vitamin D" OR "muscle strength"')
    page.locator("#tree input.term").nth(1).locator("xpath=..").locator(".not-toggle").click()
    expect(page.locator("#edited-syntax")).to_have_text('"vitamin D" OR NOT "muscle strength"')
    page.locator("#tree .node.negated .not-toggle").click()
    page.click("#run-edited")
    expect(page.locator("#logical-form")).to_have_text('"vitamin D" OR "muscle strength"')
    expect(page.locator("#query")).to_have_value('"vitamin D" OR "muscle strength"')
    expect(page.locator("#mode")).to_have_value("syntax")

    # switching the composer re-runs the search; flat has no side-by-side column
    page.fill("#query", '"vitamin D" AND NOT "bone health"')
    page.click("#run")
    expect(page.locator("#main-title")).to_have_text("auto")
    page.select_option("#composer", "flat")
    expect(page.locator("#main-title")).to_have_text("flat")
    expect(page.locator("#flat-column")).to_be_hidden()
    expect(page.locator("#results .ev-label.neg")).to_have_count(0)
    page.select_option("#composer", "fuzzy")
    expect(page.locator("#main-title")).to_have_text("fuzzy")
    expect(page.locator("#flat-column")).to_be_visible()
    expect(page.locator("#results .sum")).to_have_count(0)  # fuzzy parts do not add up

    # a syntax error shows the server's message with its caret
    page.select_option("#mode", "syntax")
    page.fill("#query", '"vitamin D" AND AND x')
    page.click("#run")
    expect(page.locator("#error")).to_contain_text("column 17")


def test_the_page_asks_for_the_token(browser, index_dir: Path) -> None:
    from playwright.sync_api import expect

    with LiveServer(create_app(index_dir, token="s3cret")) as live:
        context = browser.new_context()
        page = context.new_page()
        page.goto(live.url + "/")
        expect(page.locator("#index-info")).to_contain_text("needs a bearer token")
        expect(page.locator("#token-box")).to_be_visible()
        page.fill("#token", "wrong")
        page.dispatch_event("#token", "change")
        page.fill("#query", '"vitamin D" AND NOT "bone health"')
        page.click("#run")
        expect(page.locator("#error")).to_contain_text("invalid bearer token")
        page.fill("#token", "s3cret")
        page.dispatch_event("#token", "change")
        expect(page.locator("#index-info")).to_contain_text("10 documents")
        page.click("#run")
        expect(page.locator("#results .hit").first).to_be_visible()
        expect(page.locator("#error")).to_be_hidden()
        context.close()


def test_api_docs_page_works_offline(browser, base_url: str) -> None:
    """/docs renders every operation from /openapi.json with no request leaving the server, and
    its form sends a search."""
    from playwright.sync_api import expect

    context = browser.new_context()
    outside: list[str] = []

    def route(r) -> None:
        if r.request.url.startswith(base_url):
            r.continue_()
        else:
            outside.append(r.request.url)
            r.abort()

    context.route("**/*", route)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.goto(base_url + "/docs")
    expect(page.locator("#api-summary")).to_contain_text("logir")
    ops = page.locator("#operations section.op")
    expect(ops).to_have_count(4)  # /healthz, /info, /parse, /search
    search = page.locator("#post--search")
    expect(search.locator("table.fields")).to_contain_text("composer")
    expect(page.locator("#schema-SearchResponse")).to_contain_text("applied_reason")
    search.locator("textarea").fill('{"query": "vitamin D other than bone health", "k": 2}')
    search.locator(".try button").click()
    expect(search.locator("pre.result")).to_contain_text("HTTP 200")
    expect(search.locator("pre.result")).to_contain_text('"applied": "exclude"')
    context.close()
    assert not outside and not errors, (outside, errors)
