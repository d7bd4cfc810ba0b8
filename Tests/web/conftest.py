"""What the browser suites share beside test_browser.py's Page: a server of the module's own
(`server`: the RunningServer, not its URL) and windows opened at any address (`pages`), all
closed after each test. test_browser.py keeps fixtures of its own under the same names."""
import pytest

from test_browser import Page, start_server


@pytest.fixture(scope="module")
def server():
    srv = start_server()
    try:
        yield srv
    finally:
        srv.close()


@pytest.fixture
def pages():
    opened = []

    def open_page(url, **options):
        page = Page(url, **options)
        opened.append(page)
        return page

    yield open_page
    for page in opened:
        page.quit()
