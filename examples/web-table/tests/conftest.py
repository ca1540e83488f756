"""Fixtures: the web table's server on a free localhost port (in a thread with its own
event loop), a headless Chromium driven by Selenium, both from the system's packages
(Debian's chromium and chromium-driver; nothing downloads a browser), and the
PostgreSQL server in ``TABLESTORE_POSTGRES`` for the store (skipped without one,
unless ``TABLESTORE_NEEDS_POSTGRES=1``, as in CI)."""

from __future__ import annotations

import asyncio
import os
import shutil
import threading
from collections.abc import Iterator
from typing import Any

import pytest
from aiohttp import web

from spadeskit_web_table import create_app

CHROMIUM = os.environ.get("CHROMIUM", shutil.which("chromium") or "/usr/bin/chromium")
CHROMEDRIVER = os.environ.get(
    "CHROMEDRIVER", shutil.which("chromedriver") or "/usr/bin/chromedriver"
)


class Server:
    """The app served on 127.0.0.1 from a thread; ``url`` is its address."""

    def __init__(self, app: web.Application | None = None) -> None:
        # Seeds for reproducible deals in the tests; no pause between bot moves.
        self.app = app if app is not None else create_app(allow_seeds=True, bot_pace=0)
        self.loop = asyncio.new_event_loop()
        self.ready = threading.Event()
        self.thread = threading.Thread(target=self._run, daemon=True)
        self.url = ""

    def _run(self) -> None:
        asyncio.set_event_loop(self.loop)
        runner = web.AppRunner(self.app)
        self.loop.run_until_complete(runner.setup())
        site = web.TCPSite(runner, "127.0.0.1", 0)
        self.loop.run_until_complete(site.start())
        port = runner.addresses[0][1]
        self.url = f"http://127.0.0.1:{port}"
        self.ready.set()
        self.loop.run_forever()
        self.loop.run_until_complete(runner.cleanup())

    def __enter__(self) -> Server:
        self.thread.start()
        assert self.ready.wait(10), "the server did not start"
        return self

    def __exit__(self, *exc: object) -> None:
        self.loop.call_soon_threadsafe(self.loop.stop)
        self.thread.join(10)


@pytest.fixture
def server() -> Iterator[Server]:
    with Server() as running:
        yield running


@pytest.fixture
def browser() -> Iterator[Any]:
    webdriver = pytest.importorskip("selenium.webdriver")
    if not (os.path.exists(CHROMIUM) and os.path.exists(CHROMEDRIVER)):
        if os.environ.get("WEB_TABLE_NEEDS_BROWSER"):
            pytest.fail(f"no browser: {CHROMIUM} and {CHROMEDRIVER} are needed")
        pytest.skip("needs the system's chromium and chromedriver (Debian's chromium-driver)")
    from selenium.webdriver.chrome.service import Service

    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for arg in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage"):
        options.add_argument(arg)
    options.add_argument("--window-size=1280,900")
    driver = webdriver.Chrome(service=Service(executable_path=CHROMEDRIVER), options=options)
    try:
        yield driver
    finally:
        driver.quit()


@pytest.fixture
def postgres() -> str:
    """Return the PostgreSQL server's URL, the tables' store emptied."""
    url = os.environ.get("TABLESTORE_POSTGRES", "postgresql://postgres@127.0.0.1:5432/postgres")
    needed = os.environ.get("TABLESTORE_NEEDS_POSTGRES") == "1"
    try:
        import psycopg
    except ImportError:
        if needed:
            pytest.fail("psycopg is missing: pip install 'spadeskit[postgres]'")
        pytest.skip("needs psycopg (spadeskit's postgres extra)")
    try:
        with psycopg.connect(url, connect_timeout=3) as db:
            db.execute("DROP TABLE IF EXISTS spadeskit_tables, spadeskit_actions")
    except psycopg.OperationalError as exc:
        if needed:
            pytest.fail(f"no PostgreSQL server at {url}: {exc}")
        pytest.skip(f"no PostgreSQL server at {url} (set TABLESTORE_POSTGRES)")
    return url
