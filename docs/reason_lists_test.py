"""The reason codes reference.md names are exactly those of profile.md's tool table.

profile.md's table is held to the code by //conformance/judge:profile_test, so this keeps the page a
reader meets first in step with the code: a code added, renamed or removed in the code fails one
of the two tests until both documents say it.
"""
import re
import sys
import unittest

SECTION = "## The rules the reference enforces"
# A code in running text: a backticked snake_case word (`timeout` is one word; a function is
# written with its parentheses, `make_azure_pricing_tools()`, and so is not taken for a code).
CODE = re.compile(r"`([a-z0-9]+(?:_[a-z0-9]+)*)`")
# Backticked single words that are not codes: argument names the rules mention.
ARGUMENT_NAMES = {"sku", "service", "region", "filter", "currency", "price_type",
                  "service_family", "include_savings_plan"}


def tool_table_codes(profile):
    table = profile.split("<!-- reason-table: tool -->", 1)[1].split("<!-- /reason-table -->", 1)[0]
    return set(re.findall(r"^\| [a-z]+ \| `([a-z0-9_]+)` \|", table, re.M))


def rules_section(reference):
    body = reference.split(SECTION, 1)[1]
    return body.split("\n## ", 1)[0]


class ReasonListsTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        profile_path, reference_path = sys.argv[1], sys.argv[2]
        with open(profile_path, encoding="utf-8") as f:
            cls.table = tool_table_codes(f.read())
        with open(reference_path, encoding="utf-8") as f:
            cls.named = set(CODE.findall(rules_section(f.read()))) - ARGUMENT_NAMES

    def test_the_table_is_read(self):
        self.assertGreater(len(self.table), 40)

    def test_every_code_of_the_table_is_named(self):
        self.assertEqual(sorted(self.table - self.named), [],
                         "codes of profile.md's tool table missing from reference.md's "
                         "'%s'" % SECTION)

    def test_every_code_named_is_in_the_table(self):
        self.assertEqual(sorted(self.named - self.table), [],
                         "reference.md's '%s' names codes profile.md's tool table lacks" % SECTION)


if __name__ == "__main__":
    unittest.main(argv=sys.argv[:1])
