"""The report pages in a real browser: rendered by gate_report, loaded offline in chromium.

usage: browser_test.py --gate-report PROGRAM --catalog REQUIREMENTS_JSON --browser-version FILE
                       (--sample | --run RUN.json --compare A.json B.json ...)

--sample renders reports this test writes itself (sample_reports.py: a known mix of results,
levels, suites and long values); --run/--compare render recorded gate runs. For each page:
every record has its row with its result, the counts of marks equal the JSON's, each passage
of the spec is marked with the status its checks give it, every internal link resolves, each
filter hides exactly the rows it should, the page is no wider than 1280 px and no text
overflows its cell, and a 1280x800 screenshot is a PNG of that size (kept in the test's
undeclared outputs). Any failure to run chromium fails the test with its stderr.
"""
import argparse
import collections
import json
import os
import subprocess
import sys
import tempfile
import unittest

import headless
import page_dom
import sample_reports

ARGS = None
BROWSER = None  # one headless.Session for every page and query of the run
GATE_REPORT_DEADLINE_SECONDS = 120


def render(argv, out):
    """Runs gate_report ARGV -o OUT; the page's path."""
    proc = subprocess.run([ARGS.gate_report] + argv + ["-o", out], stdout=subprocess.PIPE,
                          stderr=subprocess.STDOUT, timeout=GATE_REPORT_DEADLINE_SECONDS,
                          check=False)
    if proc.returncode != 0 or not os.path.isfile(out):
        raise AssertionError("gate_report %s exited %d:\n%s"
                             % (" ".join(argv), proc.returncode, proc.stdout.decode()))
    return out


def load(path):
    with open(path, encoding="utf-8") as f:
        return json.load(f)


def outputs_dir():
    return os.environ.get("TEST_UNDECLARED_OUTPUTS_DIR") or tempfile.mkdtemp()


class PageChecks:
    """What both pages must do; subclasses set self.page, self.kind and the filters."""

    def dom(self, query=""):
        return page_dom.parse(BROWSER.dom(self.page, query))

    def assert_no_problems(self, problems, what):
        if problems:
            self.fail("%s: %d problems:\n  %s" % (what, len(problems), "\n  ".join(problems)))

    def test_page_kind_links_and_layout(self):
        root = self.dom("layout-check")
        html = root.find_all("html")
        self.assertEqual([h.attrs.get("data-page") for h in html], [self.kind])
        self.assertEqual(html[0].attrs.get("lang"), "en")
        self.assertEqual(page_dom.hidden_ids(root), set(), "rows hidden with no filter")
        problems, links = page_dom.check_anchors(root)
        self.assert_no_problems(problems, "internal links")
        self.assertGreater(links, 0, "the page links to none of its own parts")
        self.assert_no_problems(page_dom.check_layout(root, headless.VIEWPORT[0]), "layout")

    def test_filters(self):
        for query in self.filter_queries():
            with self.subTest(query=query):
                root = self.dom(query)
                want = self.expected_hidden(page_dom.parse_query(query))
                self.assert_no_problems(page_dom.check_filter(root, query, want), "filter")

    def test_controls_filter_as_the_query_does(self):
        """A person uses the page's controls, not its URL: each must hide what its query
        hides, and leave the query in the address so the view can be linked."""
        suites = sorted({r.attrs.get("data-suite") for r in page_dom.check_rows(self.dom())})
        actions = [("failed", "document.getElementById('f-failed').click()"),
                   ("suite=" + suites[-1], "const s = document.getElementById('f-suite');"
                    " s.value = %s; s.dispatchEvent(new Event('change'))" % json.dumps(suites[-1])),
                   ("level=RECOMMENDED", "const l = document.getElementById('f-level');"
                    " l.value = 'RECOMMENDED'; l.dispatchEvent(new Event('change'))")]
        for query, action in actions:
            with self.subTest(control=query):
                BROWSER.load(self.page)
                BROWSER.evaluate("{ %s; }" % action)
                root = page_dom.parse(BROWSER.evaluate("document.documentElement.outerHTML"))
                want = self.expected_hidden(page_dom.parse_query(query))
                self.assert_no_problems(page_dom.check_filter(root, query, want), "control")
                self.assertEqual(BROWSER.evaluate("window.location.search"), "?" + query)

    def test_screenshot(self):
        png = os.path.join(outputs_dir(), "%s-%s.png" % (self.name, self.kind))
        BROWSER.screenshot(self.page, png)
        self.assertEqual(headless.png_size(png), headless.VIEWPORT)


class RunPage(PageChecks):
    kind = "run"

    def filter_queries(self):
        suites = sorted({r["suite"] for r in self.records})
        return ["failed", "suite=" + suites[-1], "level=RECOMMENDED",
                "failed&level=REQUIRED&suite=" + suites[0]]

    def expected_hidden(self, query):
        return {page_dom.record_key(r) for r in self.records
                if page_dom.run_filter_hides(query, r)}

    def test_a_marked_passage_lists_its_checks_when_clicked(self):
        cited = sorted({i for r in self.records for i in r["requirements"]})
        BROWSER.load(self.page)
        listed = BROWSER.evaluate(
            "{ const cited = new Set(%s);"
            " const span = Array.from(document.querySelectorAll('span.req'))"
            "   .find(s => s.dataset.ids.split(' ').some(i => cited.has(i)));"
            " span.click();"
            " const panel = span.closest('p, h3, li').nextElementSibling;"
            " [span.dataset.ids, panel.className,"
            "  Array.from(panel.querySelectorAll('a')).map(a => a.getAttribute('href'))]; }"
            % json.dumps(cited))
        ids, panel_class, links = listed
        self.assertEqual(panel_class, "req-panel")
        citing = {"#" + page_dom.record_key(r) for r in self.records
                  if set(r["requirements"]) & set(ids.split())}
        # Anchors of repeated ids carry a suffix (~2); the first of each is the record's key.
        self.assertTrue(citing <= {link.split("~")[0] for link in links},
                        "the panel of %s lacks %s" % (ids, citing - set(links)))

    def test_rows_marks_and_annotations(self):
        root = self.dom()
        self.assert_no_problems(page_dom.check_run_rows(root, self.records), "check rows")
        want = collections.Counter(r["result"] for r in self.records)
        self.assertEqual(page_dom.mark_counts(root), want)
        self.assertEqual(page_dom.mark_counts(root, "data-level"),
                         collections.Counter(r["level"] for r in self.records))
        problems, _ = page_dom.check_annotations(root, self.records, load(ARGS.catalog))
        self.assert_no_problems(problems, "annotated specification")
        ids = page_dom.by_id(root)
        self.assertEqual(ids["summary"].tag, "table")
        verdict = ids["verdict"].text()
        for line in self.report.get("run", {}).get("verdict_lines", []):
            self.assertIn(line, verdict)


class ComparePage(PageChecks):
    kind = "compare"

    def filter_queries(self):
        suites = sorted({r["suite"] for records in self.runs for r in records})
        return ["failed", "differs", "suite=" + suites[-1], "level=RECOMMENDED",
                "differs&level=REQUIRED"]

    def expected_hidden(self, query):
        return {key for key, row in page_dom.compare_rows(self.runs).items()
                if page_dom.compare_filter_hides(query, row)}

    def test_matrix(self):
        root = self.dom()
        self.assert_no_problems(page_dom.check_compare_rows(root, self.runs), "compare rows")
        for index, records in enumerate(self.runs):
            marks = collections.Counter()
            for row in page_dom.check_rows(root):
                marks[row.find_all("td", "result")[index].attrs.get("data-result")] += 1
            want = collections.Counter(r["result"] for r in records)
            want["absent"] = len(page_dom.check_rows(root)) - len(records)
            self.assertEqual(+marks, +want, "run %d's column" % (index + 1))


class SampleReports(unittest.TestCase):
    """The hand-counted sample: the test's counting is itself held to hand-made numbers."""

    def test_the_sample_is_what_was_counted_by_hand(self):
        records = sample_reports.run_a_records()
        self.assertEqual(collections.Counter(r["result"] for r in records),
                         sample_reports.EXPECTED_RESULTS)
        self.assertEqual(collections.Counter(r["level"] for r in records),
                         sample_reports.EXPECTED_LEVELS)
        self.assertEqual(page_dom.requirement_statuses(records), sample_reports.EXPECTED_STATUSES)
        runs = [sample_reports.run_a_records(), sample_reports.run_b_records(),
                sample_reports.run_c_records()]
        rows = page_dom.compare_rows(runs)
        self.assertEqual(len(rows), sample_reports.EXPECTED_COMPARE_ROWS)
        self.assertEqual({k for k, row in rows.items() if len(set(row[2])) > 1},
                         sample_reports.EXPECTED_COMPARE_DIFFERS)


def sample_inputs(work):
    runs = []
    for name, records in (("reference", sample_reports.run_a_records()),
                          ("port-b", sample_reports.run_b_records()),
                          ("port-c", sample_reports.run_c_records())):
        path = os.path.join(work, name + ".json")
        sample_reports.write(path, name + " 0.0.0", records)
        runs.append(path)
    return runs[0], runs


def make_cases(run_json, compare_jsons, work, name):
    report = load(run_json)
    page = render([run_json], os.path.join(work, name + "-run.html"))
    compare = render(["--compare"] + compare_jsons, os.path.join(work, name + "-compare.html"))
    attrs_run = {"page": page, "report": report, "records": report["records"], "name": name}
    attrs_cmp = {"page": compare, "runs": [load(p)["records"] for p in compare_jsons],
                 "name": name}
    return [type(name + "RunPage", (RunPage, unittest.TestCase), attrs_run),
            type(name + "ComparePage", (ComparePage, unittest.TestCase), attrs_cmp)]


def main():
    global ARGS, BROWSER
    parser = argparse.ArgumentParser()
    parser.add_argument("--gate-report", required=True)
    parser.add_argument("--catalog", required=True)
    parser.add_argument("--browser-version", required=True)
    parser.add_argument("--sample", action="store_true")
    parser.add_argument("--run")
    parser.add_argument("--compare", nargs="+")
    ARGS, rest = parser.parse_known_args()
    headless.check_installed(ARGS.browser_version)
    work = tempfile.mkdtemp(dir=os.environ.get("TEST_TMPDIR"))
    if ARGS.sample:
        run_json, compare_jsons = sample_inputs(work)
        classes = [SampleReports] + make_cases(run_json, compare_jsons, work, "sample")
    else:
        # A recorded run is named by its .argv (tools/build/recorded_run.bzl); its report is
        # the .json beside it.
        report = lambda path: path[:-len(".argv")] + ".json" if path.endswith(".argv") else path
        classes = make_cases(report(ARGS.run), [report(p) for p in ARGS.compare], work,
                             "recorded")
    suite = unittest.TestSuite(unittest.defaultTestLoader.loadTestsFromTestCase(c)
                               for c in classes)
    with headless.Session() as BROWSER:
        result = unittest.TextTestRunner(verbosity=2).run(suite)
    sys.exit(0 if result.wasSuccessful() and result.testsRun > 0 else 1)


if __name__ == "__main__":
    main()
