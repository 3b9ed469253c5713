"""stack.make_home: HOME under the sandbox's /tmp is made one directory at a time, as root on the
host, and never through a link a program left there in an earlier exec."""
import os
import sys
import tempfile
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import stack  # noqa: E402


class MakeHomeTest(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.mkdtemp()
        self.outside = tempfile.mkdtemp()

    def test_makes_every_directory(self):
        self.assertTrue(stack.make_home(self.tmp, "probe-home/deeper"))
        self.assertTrue(os.path.isdir(os.path.join(self.tmp, "probe-home", "deeper")))

    def test_an_existing_home_is_kept(self):
        os.makedirs(os.path.join(self.tmp, "home", "kept"))
        self.assertTrue(stack.make_home(self.tmp, "home"))
        self.assertTrue(os.path.isdir(os.path.join(self.tmp, "home", "kept")))

    def test_refuses_a_link_anywhere_on_the_way(self):
        os.symlink(self.outside, os.path.join(self.tmp, "evil"))
        self.assertFalse(stack.make_home(self.tmp, "evil/home"))
        self.assertEqual(os.listdir(self.outside), [])

    def test_refuses_a_link_as_home_itself(self):
        os.symlink(self.outside, os.path.join(self.tmp, "home"))
        self.assertFalse(stack.make_home(self.tmp, "home"))


if __name__ == "__main__":
    unittest.main()
