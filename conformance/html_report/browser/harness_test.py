"""The browser harness on two hand-made pages: one that keeps the page contract passes every
check, one that breaks it fails each, so a passing browser test means something. Independent of
the renderer (testdata/*.html are written by hand, see their comments).
"""
import os
import sys
import unittest

import headless
import page_dom

BROWSER = None
# The checks contract_sample.html and broken_page.html show, as a --json report lists them.
SAMPLE_RECORDS = [
    {"suite": "kind", "id": "a", "level": "REQUIRED", "result": "failed",
     "requirements": ["ARG-001"]},
    {"suite": "kind", "id": "b", "level": "RECOMMENDED", "result": "passed",
     "requirements": ["ARG-002"]},
    {"suite": "backend", "id": "c", "level": "REQUIRED", "result": "passed", "requirements": []},
]
CATALOG = {"requirements": [{"id": "ARG-001", "source": "spec"}]}


def testdata(name):
    return os.path.join(os.path.dirname(os.path.abspath(__file__)), "testdata", name)


class ContractSample(unittest.TestCase):
    page = testdata("contract_sample.html")

    def test_every_check_passes(self):
        root = page_dom.parse(BROWSER.dom(self.page, "layout-check"))
        self.assertEqual(page_dom.check_run_rows(root, SAMPLE_RECORDS), [])
        self.assertEqual(page_dom.check_anchors(root), ([], 1))
        self.assertEqual(page_dom.check_layout(root, headless.VIEWPORT[0]), [])
        self.assertEqual(page_dom.check_annotations(root, SAMPLE_RECORDS, CATALOG)[0], [])
        for query in ("failed", "suite=backend", "level=RECOMMENDED"):
            root = page_dom.parse(BROWSER.dom(self.page, query))
            want = {page_dom.record_key(r) for r in SAMPLE_RECORDS
                    if page_dom.run_filter_hides(page_dom.parse_query(query), r)}
            self.assertTrue(want, query)
            self.assertEqual(page_dom.check_filter(root, query, want), [], query)


class BrokenPage(unittest.TestCase):
    page = testdata("broken_page.html")

    def setUp(self):
        self.root = page_dom.parse(BROWSER.dom(self.page, "layout-check"))

    def test_a_link_to_no_element_is_found(self):
        problems, links = page_dom.check_anchors(self.root)
        self.assertEqual(links, 1)
        self.assertEqual(len(problems), 1)
        self.assertIn("'#nowhere'", problems[0])

    def test_a_wide_page_and_overflowing_cells_are_found(self):
        problems = page_dom.check_layout(self.root, headless.VIEWPORT[0])
        self.assertTrue(any(p.startswith("page is ") for p in problems), problems)
        overflowing = [p for p in problems if p.startswith("text overflows")]
        self.assertEqual(overflowing, ["text overflows its cell: %r" % "expected this value; got another one"])

    def test_a_filter_that_hides_nothing_is_found(self):
        root = page_dom.parse(BROWSER.dom(self.page, "failed"))
        self.assertEqual(page_dom.check_filter(root, "failed", {"kind/b"}),
                         ["?failed left kind/b shown"])

    def test_a_wrong_mark_and_missing_rows_are_found(self):
        problems, _ = page_dom.check_annotations(self.root, SAMPLE_RECORDS, CATALOG)
        self.assertEqual(problems, ["span ARG-001 is marked 'passed'; its checks make it 'failed'"])
        self.assertEqual(page_dom.check_run_rows(self.root, SAMPLE_RECORDS),
                         ["no row for backend/c"])


class BrowserThatFails(unittest.TestCase):
    """A browser that is missing, exits or hangs fails the test, saying why, and leaves nothing."""

    def with_chromium(self, script, deadline_seconds=30):
        fake = os.path.join(os.environ.get("TEST_TMPDIR", "/tmp"), "fake-chromium")
        with open(fake, "w", encoding="utf-8") as f:
            f.write("#!/bin/sh\n" + script + "\n")
        os.chmod(fake, 0o755)
        before = set(headless._children())
        real, headless.CHROMIUM = headless.CHROMIUM, fake
        try:
            with self.assertRaises(headless.BrowserError) as raised:
                with headless.Session(deadline_seconds=deadline_seconds):
                    pass
        finally:
            headless.CHROMIUM = real
        self.assertEqual(set(headless._children()), before, "processes left behind")
        return str(raised.exception)

    def test_a_missing_browser(self):
        real, headless.CHROMIUM = headless.CHROMIUM, "/nonexistent/chromium"
        try:
            with self.assertRaisesRegex(headless.BrowserError, "is not installed"):
                headless.check_installed()
        finally:
            headless.CHROMIUM = real

    def test_a_browser_that_exits(self):
        message = self.with_chromium("echo 'cannot open display' >&2; exit 3")
        self.assertIn("exited with status 3", message)
        self.assertIn("cannot open display", message)

    def test_a_browser_that_hangs_is_killed_with_what_it_started(self):
        message = self.with_chromium("sleep 300 & sleep 300", deadline_seconds=1)
        self.assertIn("did not answer within 1 s", message)


def main():
    global BROWSER
    headless.check_installed(sys.argv[1])
    suite = unittest.defaultTestLoader.loadTestsFromModule(sys.modules[__name__])
    with headless.Session() as BROWSER:
        result = unittest.TextTestRunner(verbosity=2).run(suite)
    sys.exit(0 if result.wasSuccessful() and result.testsRun > 0 else 1)


if __name__ == "__main__":
    main()
