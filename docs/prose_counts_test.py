"""The counts the prose states are the counts the programs print.

certify-sandbox.md's transcripts are held to the gate's output by //docs:certify_sandbox_test, so
its two verdict lines are the truth here: the number of required probes, and the skeleton
adapter's verdict. Every other page that states how many probes the backend suite has, or quotes
a verdict, must agree with them. The mutant counts are held to the tables that list the mutants
(the tables themselves to the code by //conformance/backend/broken_backends:docs_tables_test) and to
conformance/source_mutants/mutants.json.

Usage: prose_counts_test.py REPO_FILE... (the documents below and mutants.json, by rootpath).
"""
import json
import os
import re
import sys
import unittest

CONFORMANT = re.compile(r"^backend: CONFORMANT \((\d+) required probes\)$", re.M)
NOT_CONFORMANT = re.compile(r"^backend: NOT CONFORMANT \(\d+ required probes, \d+ failed\)$", re.M)
# "62 probes", "the 62 probes", "(`suite`, 62 probes)": a count of the suite's probes in prose.
PROBE_COUNT = re.compile(r"\b(\d+) probes\b")
NUMBER_WORDS = {"ten": 10, "eleven": 11, "twelve": 12, "thirteen": 13, "fourteen": 14,
                "fifteen": 15, "sixteen": 16, "seventeen": 17, "eighteen": 18, "nineteen": 19}

FILES = {}


def read(path):
    for given in FILES:
        if given == path or given.endswith("/" + path):
            return FILES[given]
    raise AssertionError("%s was not given to the test (check its BUILD args)" % path)


def table_rows(text, header):
    """The rows of the markdown table whose header line is `header`."""
    body = text.split(header + "\n", 1)[1].split("\n\n", 1)[0]
    return [line for line in body.splitlines()[1:] if line.startswith("| ")]


class ProseCountsTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        certify = read("docs/certify-sandbox.md")
        conformant = CONFORMANT.findall(certify)
        cls.skeleton = NOT_CONFORMANT.findall(certify)
        if len(set(conformant)) != 1 or len(cls.skeleton) != 1:
            raise AssertionError("certify-sandbox.md should show one CONFORMANT and one NOT "
                                 "CONFORMANT verdict, found %r and %r"
                                 % (conformant, cls.skeleton))
        cls.probes = int(conformant[0])
        cls.backend_suite = read("docs/backend-suite.md")
        cls.mutant_rows = table_rows(cls.backend_suite,
                                     "| mutant | what is broken | rejected by |")

    def test_every_stated_probe_count_is_the_suites(self):
        for path in ["README.md", "ARCHITECTURE.md", "docs/development.md",
                     "docs/backend-suite.md", "docs/gate.md"]:
            stated = PROBE_COUNT.findall(read(path))
            self.assertTrue(stated, "%s no longer states the number of probes; drop it from "
                            "this test" % path)
            for count in stated:
                self.assertEqual(int(count), self.probes,
                                 "%s says %s probes; certify-sandbox.md's run shows %d"
                                 % (path, count, self.probes))

    def test_quoted_verdicts_are_the_transcripts(self):
        protocols = read("docs/protocols.md")
        reference = "backend: CONFORMANT (%d required probes)" % self.probes
        self.assertIn(reference, protocols)
        self.assertIn(self.skeleton[0], protocols.replace("\n", " "))
        self.assertEqual(CONFORMANT.findall(read("docs/gate.md")), [str(self.probes)])

    def test_the_backend_mutant_counts_are_the_tables(self):
        self.assertGreater(len(self.mutant_rows), 20)
        holds = re.search(r"holds (\d+) broken variants", self.backend_suite.replace("\n", " "))
        self.assertIsNotNone(holds)
        self.assertEqual(int(holds.group(1)), len(self.mutant_rows))
        development = re.findall(r"\b(\d+) mutants\b", read("docs/development.md"))
        self.assertEqual(development, [str(len(self.mutant_rows))])

    def test_the_source_mutant_counts_are_mutants_json(self):
        mutants = json.loads(read("conformance/source_mutants/mutants.json"))["mutants"]
        prose = self.backend_suite.replace("\n", " ")
        slips = re.search(r"holds (\d+) one-line slips", prose)
        self.assertIsNotNone(slips)
        self.assertEqual(int(slips.group(1)), len(mutants))
        testees = re.search(r"to reject (\w+) of them built as testees", prose)
        self.assertIsNotNone(testees)
        self.assertEqual(NUMBER_WORDS.get(testees.group(1)),
                         sum(1 for m in mutants if m.get("wrong_testee")))


if __name__ == "__main__":
    for arg in sys.argv[1:]:
        with open(arg, encoding="utf-8") as f:
            FILES[os.path.normpath(arg)] = f.read()
    unittest.main(argv=sys.argv[:1])
