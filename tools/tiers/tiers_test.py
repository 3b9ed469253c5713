"""The tier pairing holds in this tree, and the check finds each way it can break."""

import os
import tempfile
import textwrap
import unittest

import tiers_check

REGISTRY = """\
EXHAUSTIVE_TESTS = {
    "//a:slow_test": struct(companion = "//a:fast_test", why = "re-proves a pinned fact"),
}
"""
BUILD = """\
cc_test(name = "slow_test", tags = ["exhaustive", "requires-real-azmcp"])
cc_test(name = "fast_test", tags = ["requires-real-azmcp"])
"""


class TreeTest(unittest.TestCase):
    def tree(self, files):
        root = tempfile.mkdtemp(dir=os.environ.get("TEST_TMPDIR"))
        files = {"WORKSPACE": "", "tools/tiers/tiers.bzl": REGISTRY, **files}
        for path, text in files.items():
            os.makedirs(os.path.dirname(os.path.join(root, path)), exist_ok=True)
            with open(os.path.join(root, path), "w", encoding="utf-8") as f:
                f.write(textwrap.dedent(text))
        return root

    def problems(self, files):
        root = self.tree(files)
        tagged, problems = tiers_check.tagged_in_tree(root)
        return problems + tiers_check.check(root, tagged)

    def test_a_paired_tree_passes(self):
        self.assertEqual(self.problems({"a/BUILD": BUILD}), [])

    def test_an_exhaustive_test_without_a_companion_fails(self):
        problems = self.problems({"a/BUILD": BUILD, "b/BUILD": """\
            sh_test(name = "other_test", tags = ["exhaustive"])
            """})
        self.assertEqual(problems, ["//b:other_test is tagged exhaustive but has no fast-tier "
                                    "companion in tools/tiers/tiers.bzl"])

    def test_a_listed_test_without_the_tag_fails(self):
        problems = self.problems({"a/BUILD": BUILD.replace('"exhaustive", ', "")})
        self.assertIn("tools/tiers/tiers.bzl lists //a:slow_test, which is not a test tagged "
                      "exhaustive", problems)

    def test_a_missing_companion_fails(self):
        problems = self.problems({"a/BUILD": BUILD.replace("fast_test", "quick_test")})
        self.assertEqual(problems, ["//a:slow_test's companion //a:fast_test is not a target "
                                    "of a/BUILD"])

    def test_an_exhaustive_companion_fails(self):
        build = BUILD.replace('name = "fast_test", tags = [', 'name = "fast_test", tags = ['
                              '"exhaustive", ')
        problems = self.problems({"a/BUILD": build})
        self.assertIn("//a:slow_test's companion //a:fast_test is itself exhaustive", problems)

    def test_a_tag_the_check_cannot_place_fails(self):
        problems = self.problems({"a/BUILD": BUILD, "a/defs.bzl": """\
            SLOW = ["exhaustive"]
            """})
        self.assertEqual(len(problems), 1)
        self.assertIn("a/defs.bzl:1: 'exhaustive' outside a literal tags list", problems[0])

    def test_a_registry_entry_in_a_bzl_dict_is_found(self):
        problems = self.problems({"a/BUILD": BUILD.replace('"exhaustive", ', ""),
                                  "a/tests.bzl": """\
            TESTS = {"slow_test": struct(size = "large", tags = ["exhaustive"])}
            """})
        self.assertEqual(problems, [])

    def test_query_labels_are_judged_the_same(self):
        root = self.tree({"a/BUILD": BUILD})
        self.assertEqual(tiers_check.check(root, ["//a:slow_test"]), [])
        self.assertEqual(tiers_check.check(root, ["//a:slow_test", "//c:new_test"]),
                         ["//c:new_test is tagged exhaustive but has no fast-tier companion in "
                          "tools/tiers/tiers.bzl"])


class ThisTreeTest(unittest.TestCase):
    def test_every_exhaustive_test_here_has_a_companion(self):
        root = tiers_check.workspace_root()
        tagged, problems = tiers_check.tagged_in_tree(root)
        self.assertEqual(problems + tiers_check.check(root, tagged), [])
        # The tier exists: at least the full real-CLI differential is in it.
        self.assertIn("//fakes/azmcp:differential_test", tagged)


if __name__ == "__main__":
    unittest.main()
