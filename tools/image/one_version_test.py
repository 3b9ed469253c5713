#!/usr/bin/env python3
"""one_version.py on made-up trees (each rule once) and on this repository's own tree."""
import os
import subprocess
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
SCRIPT = os.path.join(HERE, "one_version.py")
VERSION_FILE = os.path.join(HERE, "azmcp-version")


def run(*args):
    done = subprocess.run([sys.executable, SCRIPT, *args], stdout=subprocess.PIPE,
                          stderr=subprocess.PIPE, timeout=120)
    return done.returncode, done.stdout.decode(), done.stderr.decode()


class MadeUpTrees(unittest.TestCase):
    def tree(self, files):
        root = tempfile.mkdtemp(dir=os.environ.get("TEST_TMPDIR"))
        files = dict(files)
        files["tools/image/azmcp-version"] = "# comment\ncurrent\t9.9.9-beta.1\nprevious\t9.9.8\n"
        for path, text in files.items():
            os.makedirs(os.path.dirname(os.path.join(root, path)), exist_ok=True)
            with open(os.path.join(root, path), "w") as f:
                f.write(text)
        return root

    def test_a_copy_in_a_string_fails_naming_the_line(self):
        root = self.tree({"ref/a.cc": 'int x;\nconst char* v = "azmcp 9.9.9-beta.1";\n'})
        status, out, err = run("--root", root)
        self.assertEqual(status, 1)
        self.assertIn('ref/a.cc:2: const char* v = "azmcp 9.9.9-beta.1";', out)
        self.assertIn("1 copies of the current azmcp version 9.9.9-beta.1", err)

    def test_the_current_versions_own_folders_are_copies(self):
        root = self.tree({"tools/x.sh": 'd="fixtures/azmcp-9.9.9-beta.1-differential"\n',
                          "fakes/BUILD": 'glob(["azmcp-9.9.9-beta.1-local/**"])\n'})
        status, out, _ = run("--root", root)
        self.assertEqual(status, 1)
        self.assertIn("tools/x.sh:1:", out)
        self.assertIn("fakes/BUILD:1:", out)

    def test_an_extensionless_tools_script_is_code(self):
        root = self.tree({"tools/run": '#!/bin/sh\nV=9.9.9-beta.1\n'})
        self.assertEqual(run("--root", root)[0], 1)

    def test_comments_data_docs_and_imported_recordings_are_not(self):
        root = self.tree({
            "ref/a.cc": '// observed on 9.9.9-beta.1\n/* 9.9.9-beta.1 */ int x;\n'
                        'const char* p = "fixtures/azmcp-9.9.9-beta.1/cli-stdout/a.json";\n',
            "tools/b.py": '# seen on 9.9.9-beta.1\nx = "#not a comment"\n',
            "docs/a.md": "9.9.9-beta.1\n",
            "fixtures/azmcp-9.9.9-beta.1-local/PROVENANCE.md": "9.9.9-beta.1\n",
            "fixtures/BUILD": '"9.9.9-beta.1"\n',
            "conformance/cases/c.json": '"9.9.9-beta.1"\n',
        })
        status, out, _ = run("--root", root)
        self.assertEqual((status, out), (0, "one_version: 9.9.9-beta.1 is named once in code, "
                                            "in tools/image/azmcp-version\n"))

    def test_a_hash_inside_a_string_does_not_hide_the_rest(self):
        root = self.tree({"tools/b.py": 'x = "#" + "9.9.9-beta.1"\n'})
        self.assertEqual(run("--root", root)[0], 1)

    def test_usage(self):
        self.assertEqual(run("--bogus")[0], 64)


class ThisRepository(unittest.TestCase):
    def test_names_the_current_version_once(self):
        # The runfile is a link into the source tree; the check reads the tree itself.
        root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.realpath(VERSION_FILE))))
        status, out, err = run("--root", root)
        self.assertEqual(status, 0, out + err)


if __name__ == "__main__":
    unittest.main()
