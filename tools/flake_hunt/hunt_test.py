"""tools/flake_hunt/hunt: its reading of Bazel's build events, the table and the exit status,
on events of the form Bazel 4 writes, and its hogs stopping with it."""
import contextlib
import importlib.machinery
import importlib.util
import io
import json
import os
import signal
import subprocess
import sys
import tempfile
import threading
import time
import unittest
from unittest import mock

HERE = os.path.dirname(os.path.abspath(__file__))
loader = importlib.machinery.SourceFileLoader("hunt", os.path.join(HERE, "hunt"))
spec = importlib.util.spec_from_loader("hunt", loader)
hunt = importlib.util.module_from_spec(spec)
loader.exec_module(hunt)


def result(label, run, status, shard=1, attempt=1, log="/tmp/x/test.log"):
    return json.dumps({
        "id": {"testResult": {"label": label, "run": run, "shard": shard, "attempt": attempt,
                              "configuration": {"id": "abc"}}},
        "testResult": {"status": status, "testAttemptDurationMillis": "12",
                       "testActionOutput": [{"name": "test.log", "uri": "file://" + log},
                                            {"name": "test.xml", "uri": "file:///tmp/x.xml"}]}})


OTHER_EVENTS = [
    json.dumps({"id": {"started": {}}, "started": {"uuid": "u"}}),
    json.dumps({"id": {"testSummary": {"label": "//a:one_test"}},
                "testSummary": {"overallStatus": "FLAKY", "totalRunCount": 3}}),
    "",
]


def target(label, runs, passed, commit="c" * 40, **extra):
    return {"label": label, "runs": runs, "passed": passed, "failed": runs - passed,
            "hogs": 2, "commit": commit, "dirty_files": [], "host": "h", **extra}


class ReadResultsTest(unittest.TestCase):
    def test_a_run_passes_only_when_every_shard_passed(self):
        lines = OTHER_EVENTS + [
            result("//a:one_test", 1, "PASSED"),
            result("//a:one_test", 2, "FAILED", log="/logs/run_2/test.log"),
            result("//a:one_test", 3, "PASSED"),
            result("//b:sharded_test", 1, "PASSED", shard=1),
            result("//b:sharded_test", 1, "PASSED", shard=2),
            result("//b:sharded_test", 2, "PASSED", shard=1),
            result("//b:sharded_test", 2, "TIMEOUT", shard=2, log="/logs/s2/test.log"),
        ]
        runs, logs = hunt.read_results(lines)
        counted = hunt.count_runs(["//a:one_test", "//b:sharded_test", "//c:never_ran_test"],
                                  runs, {"//b:sharded_test": 2})
        self.assertEqual(counted, {
            "//a:one_test": {"runs": 3, "passed": 2, "failed": 1},
            "//b:sharded_test": {"runs": 2, "passed": 1, "failed": 1},
            "//c:never_ran_test": {"runs": 0, "passed": 0, "failed": 0}})
        self.assertEqual(logs["//a:one_test"], {2: "/logs/run_2/test.log"})
        self.assertEqual(logs["//b:sharded_test"], {2: "/logs/s2/test.log"})

    def test_the_last_attempt_of_a_run_is_its_result(self):
        runs, _ = hunt.read_results([result("//a:t", 1, "PASSED", attempt=2),
                                     result("//a:t", 1, "FAILED", attempt=1)])
        self.assertEqual(hunt.count_runs(["//a:t"], runs, {})["//a:t"]["passed"], 1)

    def test_a_run_missing_a_shard_has_not_finished(self):
        runs, _ = hunt.read_results([result("//b:s_test", 1, "PASSED", shard=1),
                                     result("//b:s_test", 1, "PASSED", shard=2),
                                     result("//b:s_test", 2, "PASSED", shard=2),
                                     result("//b:s_test", 3, "PASSED", shard=1),
                                     result("//b:s_test", 3, "PASSED", shard=2)])
        # No result of a third shard: no run finished, though each has all it reported.
        self.assertEqual(hunt.count_runs(["//b:s_test"], runs, {"//b:s_test": 3})["//b:s_test"],
                         {"runs": 0, "passed": 0, "failed": 0})
        self.assertEqual(hunt.count_runs(["//b:s_test"], runs, {"//b:s_test": 2})["//b:s_test"],
                         {"runs": 2, "passed": 2, "failed": 0})

    def test_shard_results_count_as_whole_runs_whatever_their_run_numbers(self):
        # Bazel ran shard 1 of runs 1 and 7, shard 2 of runs 4 and 9, shard 3 of run 2: one
        # whole run, though no run number has all three shards.
        lines = [result("//b:s_test", run, "PASSED", shard=shard)
                 for run, shard in [(1, 1), (7, 1), (4, 2), (9, 2), (2, 3)]]
        runs, _ = hunt.read_results(lines)
        self.assertEqual(hunt.count_runs(["//b:s_test"], runs, {"//b:s_test": 3})["//b:s_test"],
                         {"runs": 1, "passed": 1, "failed": 0})
        # A failed shard is a failed run even before the other shards have a result.
        runs, _ = hunt.read_results(lines + [result("//b:s_test", 5, "FAILED", shard=1),
                                             result("//b:s_test", 6, "TIMEOUT", shard=2)])
        self.assertEqual(hunt.count_runs(["//b:s_test"], runs, {"//b:s_test": 3})["//b:s_test"],
                         {"runs": 3, "passed": 1, "failed": 2})

    def test_a_line_bazel_is_still_writing_is_left_for_later(self):
        whole = result("//a:t", 1, "PASSED").encode() + b"\n"
        cut = (result("//a:t", 2, "FAILED") + "\u00e9").encode()[:-1]  # half a character
        runs, _ = hunt.read_results([whole, cut])
        self.assertEqual(hunt.count_runs(["//a:t"], runs, {})["//a:t"],
                         {"runs": 1, "passed": 1, "failed": 0})

    def test_a_result_from_a_cache_is_no_run(self):
        cached = json.loads(result("//a:t", 2, "PASSED"))
        cached["testResult"]["cachedLocally"] = True
        runs, _ = hunt.read_results([result("//a:t", 1, "PASSED"), json.dumps(cached)])
        self.assertEqual(hunt.count_runs(["//a:t"], runs, {})["//a:t"]["runs"], 1)


class TableTest(unittest.TestCase):
    def test_targets_short_of_their_runs_come_first_and_name_their_logs(self):
        targets = {t["label"]: t for t in [
            target("//a:good_test", 2, 2), target("//a:bad_test", 2, 1),
            target("//a:broken_test", 2, 0), target("//a:stopped_test", 1, 1),
            target("//a:old_test", 2, 2, commit="0123456789abcdef", carried=True)]}
        table = hunt.format_table(targets, {"//a:bad_test": {2: "/l/test.log"}}, 2, 2)
        self.assertEqual(table.splitlines(), [
            "flake hunt: 5 test targets, 2 runs each, 2 CPU hogs",
            "target            passed",
            "//a:bad_test      1/2   <- FLAKY",
            "    run 2: /l/test.log",
            "//a:broken_test   0/2   <- FAILED",
            "//a:stopped_test  1/2   <- 1 run did not finish",
            "//a:good_test     2/2",
            "//a:old_test      2/2   carried over (0123456789)",
            "3 of 5 targets did not pass every run",
        ])

    def test_all_passing_says_so(self):
        table = hunt.format_table({"//a:t": target("//a:t", 1, 1)}, {}, 1, 0)
        self.assertEqual(table.splitlines()[-1], "every target passed 1 of 1")


class ResumeTest(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.addCleanup(self.tmp.cleanup)
        root = self.tmp.name
        for package in ("", "ref/base", "docs"):
            os.makedirs(os.path.join(root, package), exist_ok=True)
            open(os.path.join(root, package, "BUILD"), "w", encoding="utf-8").close()
        os.makedirs(os.path.join(root, "ref/base/data"))
        for path in ("ref/base/x.cc", "ref/base/data/y.json", "docs/a.md", "README.md"):
            open(os.path.join(root, path), "w", encoding="utf-8").close()
        patcher = mock.patch.object(hunt, "ROOT", root)
        patcher.start()
        self.addCleanup(patcher.stop)

    def test_a_changed_file_is_its_own_label_and_a_gone_one_its_package(self):
        self.assertEqual(hunt.labels_for(["ref/base/x.cc", "ref/base/data/y.json", "README.md",
                                          "docs/gone.md"]),
                         ["//:README.md", "//docs:*", "//ref/base:data/y.json",
                          "//ref/base:x.cc"])

    def test_a_build_file_stands_for_its_package_and_the_one_above(self):
        # A new ref/base/BUILD takes ref/base's files out of the root package's globs.
        self.assertEqual(hunt.labels_for(["ref/base/BUILD"]), ["//:*", "//ref/base:*"])
        self.assertEqual(hunt.labels_for(["BUILD"]), ["//:*"])

    def test_an_edited_build_file_stands_for_the_rules_whose_calls_changed(self):
        old = 'load(":m.bzl", "m")\n\ncc_test(name = "a_test", srcs = ["a.cc"])\n' \
              'cc_library(name = "lib", srcs = ["l.cc"])\nm(name = "gone")\n'
        new = '# layout and comments are no change\nload(":m.bzl", "m")\n' \
              'cc_library(\n    name = "lib",\n    srcs = ["l.cc"],\n)\n' \
              'cc_test(name = "a_test", srcs = ["a.cc"], data = ["d.json"])\n' \
              'm(name = "new-one")\n'
        self.assertEqual(hunt.rule_changes(old, new), {"a_test", "gone", "new-one"})
        self.assertEqual(hunt.rule_changes(old, old.replace("\n", "  # x\n")), set())
        with open(os.path.join(hunt.ROOT, "ref/base/BUILD"), "w", encoding="utf-8") as f:
            f.write(new)
        self.assertEqual(hunt.labels_for(["ref/base/BUILD"], lambda path: old), [
            "//ref/base:BUILD",
            'attr(generator_name, "^(a_test|gone|new\\-one)$", //ref/base:*)',
            'attr(name, "^(a_test|gone|new\\-one)$", //ref/base:*)'])

    def test_a_build_file_whose_other_statements_changed_stands_for_its_package(self):
        rule = 'cc_test(name = "a_test", srcs = SRCS)\n'
        for old, new in [('SRCS = ["a.cc"]\n' + rule, 'SRCS = ["b.cc"]\n' + rule),
                         ('load(":m.bzl", "m")\n', 'load(":m.bzl", "m", "n")\n'),
                         ('m()\n', 'm(x = 1)\n'), ('m(name = NAME)\n', 'm(name = NAME2)\n'),
                         ('package(default_visibility = ["//x:__pkg__"])\n', ''),
                         (rule, rule + 'cc_test(name = "a_test")\n'), (rule, 'if x:\n'),
                         (rule, None), (None, rule)]:
            self.assertIsNone(hunt.rule_changes(old, new), (old, new))
        with open(os.path.join(hunt.ROOT, "ref/base/BUILD"), "w", encoding="utf-8") as f:
            f.write('SRCS = ["b.cc"]\n' + rule)
        coarse = ["//:*", "//ref/base:*"]
        self.assertEqual(hunt.labels_for(["ref/base/BUILD"],
                                         lambda path: 'SRCS = ["a.cc"]\n' + rule), coarse)
        # New at the commit (or uncommitted while the target ran, so its text then is unknown).
        self.assertEqual(hunt.labels_for(["ref/base/BUILD"], lambda path: None), coarse)

    def test_a_changed_rule_is_asked_with_its_macro_rules_and_the_graph_loaded_whole(self):
        asked = []

        def query(expression, keep_going=False):
            asked.append((expression, keep_going))
            return ["//docs:BUILD", "//docs:a_test"] if keep_going else ["//docs:a_test"]

        with open(os.path.join(hunt.ROOT, "docs/BUILD"), "w", encoding="utf-8") as f:
            f.write('sh_test(name = "a_test", srcs = ["a.sh"], data = ["a.md"])\n')
        with mock.patch.object(hunt, "bazel_query", query):
            self.assertEqual(hunt.affected_tests(
                ["docs/BUILD"], ["//docs:a_test", "//docs:b_test"],
                lambda path: 'sh_test(name = "a_test", srcs = ["a.sh"])\n'), {"//docs:a_test"})
        self.assertEqual(asked, [
            ('set("//docs:BUILD") + attr(generator_name, "^(a_test)$", //docs:*) + '
             'attr(name, "^(a_test)$", //docs:*)', True),
            ('tests(rdeps(//..., set("//docs:BUILD" "//docs:a_test")))', False)])

    def test_a_build_file_edited_since_a_commit_is_read_from_git(self):
        def run_git(*args):
            subprocess.run(["git", "-c", "user.name=t", "-c", "user.email=t@t", *args],
                           cwd=hunt.ROOT, check=True, capture_output=True)

        path = os.path.join(hunt.ROOT, "docs/BUILD")
        with open(path, "w", encoding="utf-8") as f:
            f.write('sh_test(name = "a_test", srcs = ["a.sh"])\n')
        run_git("init", "-q")
        run_git("add", "-A")
        run_git("commit", "-q", "-m", "one")
        commit = hunt.git("rev-parse", "HEAD").strip()
        with open(path, "a", encoding="utf-8") as f:
            f.write('sh_test(name = "b_test", srcs = ["b.sh"])\n')
        previous = {t["label"]: t for t in [
            target("//docs:a_test", 2, 2, commit=commit),
            target("//docs:c_test", 2, 2, commit=commit, dirty_files=["docs/BUILD"])]}
        asked = []

        def affected(paths, labels, before):
            asked.append((paths, labels, [before(p) for p in paths]))
            return set()

        with mock.patch.object(hunt, "affected_tests", affected):
            hunt.holding_targets(previous, list(previous), 2, 2, "h")
        self.assertEqual(asked, [
            (["docs/BUILD"], ["//docs:a_test"], ['sh_test(name = "a_test", srcs = ["a.sh"])\n']),
            (["docs/BUILD"], ["//docs:c_test"], [None])])
        self.assertIsNone(hunt.text_at(commit, "docs/new/BUILD"))

    def test_a_global_file_makes_every_target_stale_without_asking_bazel(self):
        with mock.patch.object(subprocess, "run", side_effect=AssertionError("no query")):
            for path in ("WORKSPACE", ".bazelrc", "tools/bazel", "third_party/system/BUILD",
                         "conformance/gate/suite_tests.bzl", "tools/image/azmcp-pins.tsv"):
                self.assertEqual(hunt.affected_tests([path], ["//a:t", "//b:t"]),
                                 {"//a:t", "//b:t"}, path)
            self.assertEqual(hunt.affected_tests([], ["//a:t"]), set())

    def test_the_graph_is_asked_only_for_words_that_name_targets(self):
        asked = []

        def query(expression, keep_going=False):
            asked.append((expression, keep_going))
            return ["//ref/base:x.cc"] if keep_going else ["//a:t", "//other:t"]

        with mock.patch.object(hunt, "bazel_query", query):
            self.assertEqual(hunt.affected_tests(["ref/base/x.cc", "README.md"],
                                                 ["//a:t", "//b:t"]), {"//a:t"})
        self.assertEqual(asked, [('set("//:README.md" "//ref/base:x.cc")', True),
                                 ('tests(rdeps(//..., set("//ref/base:x.cc")))', False)])

    def test_a_graph_bazel_cannot_read_makes_every_target_stale(self):
        def query(expression, keep_going=False):
            return ["//ref/base:x.cc"] if keep_going else None  # a broken BUILD file

        with mock.patch.object(hunt, "bazel_query", query):
            self.assertEqual(hunt.affected_tests(["ref/base/x.cc"], ["//a:t", "//b:t"]),
                             {"//a:t", "//b:t"})

    def test_a_package_that_does_not_load_makes_every_target_stale(self):
        for answer in (None, [], ["//ref/base:x.cc"]):  # failed; nothing; not docs' BUILD
            with mock.patch.object(hunt, "bazel_query", lambda e, keep_going=False: answer):
                self.assertEqual(hunt.affected_tests(["docs/BUILD"], ["//a:t", "//b:t"]),
                                 {"//a:t", "//b:t"}, answer)

    def test_shard_counts_come_from_the_rules(self):
        xml_out = ('<?xml version="1.1" encoding="UTF-8"?><query version="2">'
                   '<rule class="cc_test" name="//a:sharded_test">'
                   '<string name="name" value="sharded_test"/>'
                   '<int name="shard_count" value="3"/></rule></query>')
        done = subprocess.CompletedProcess([], 0, stdout=xml_out, stderr="")
        with mock.patch.object(subprocess, "run", return_value=done) as run:
            self.assertEqual(hunt.shard_counts(["//a:sharded_test", "//a:t"]),
                             {"//a:sharded_test": 3})
        self.assertIn('attr(shard_count, "^([2-9]|[1-9][0-9]+)$", set("//a:sharded_test" '
                      '"//a:t"))', run.call_args[0][0])
        garbled = subprocess.CompletedProcess([], 0, stdout="<query", stderr="")
        with mock.patch.object(subprocess, "run", return_value=garbled), \
                self.assertRaisesRegex(hunt.HuntError, "shard counts"):
            hunt.shard_counts(["//a:t"])

    def test_a_target_keeps_its_previous_entry_until_it_has_a_run_of_its_own(self):
        args = hunt.parse_args(["--runs", "3"])
        old = target("//a:stale_test", 3, 2)
        recorder = hunt.Recorder(args, ["//a:stale_test", "//a:new_test"], ("e" * 40, [], "h"),
                                 {"//k:kept_test": target("//k:kept_test", 3, 3)},
                                 {"//a:stale_test": old})
        none_yet = {"//a:stale_test": target("//a:stale_test", 0, 0),
                    "//a:new_test": target("//a:new_test", 0, 0)}
        self.assertEqual(recorder.report_targets(none_yet)["//a:stale_test"], old)
        self.assertEqual(sorted(recorder.report_targets(none_yet)),
                         ["//a:new_test", "//a:stale_test", "//k:kept_test"])
        one_run = {**none_yet, "//a:stale_test": target("//a:stale_test", 1, 1)}
        self.assertEqual(recorder.report_targets(one_run)["//a:stale_test"]["runs"], 1)

    def test_the_report_itself_is_no_edit_of_the_tree(self):
        report = os.path.join(hunt.ROOT, "tools/flake_hunt/record.json")
        args = hunt.parse_args(["--report", report])
        self.assertEqual(hunt.own_files(args), {"tools/flake_hunt/record.json",
                                                "tools/flake_hunt/record.json.partial"})
        self.assertEqual(hunt.own_files(hunt.parse_args(["--report", "/elsewhere/r.json"])),
                         set())
        recorder = hunt.Recorder(args, [], ("e" * 40, [], "h"), {}, {})
        with mock.patch.object(hunt, "changed_since",
                               lambda commit: {"tools/flake_hunt/record.json", "a.cc"}), \
                mock.patch.object(hunt, "git", lambda *args: "e" * 40 + "\n"):
            self.assertEqual(recorder.edited(), ["a.cc"])
            self.assertEqual(hunt.tree_state(hunt.own_files(args))[1], ["a.cc"])

    def test_a_tree_git_cannot_describe_never_carries_over(self):
        def fail(*args):
            raise hunt.HuntError("not a git repository")

        with mock.patch.object(hunt, "git", fail), contextlib.redirect_stdout(io.StringIO()):
            self.assertEqual(hunt.tree_state(set()), ("", ["WORKSPACE"]))

    def test_when_git_cannot_say_what_was_edited_every_count_is_stale(self):
        recorder = hunt.Recorder(hunt.parse_args([]), [], ("e" * 40, ["a.cc"], "h"), {}, {})

        def fail(commit):
            raise hunt.HuntError("git diff failed")

        with mock.patch.object(hunt, "changed_since", fail):
            self.assertEqual(recorder.edited(), ["WORKSPACE", "a.cc"])
        self.assertTrue(hunt.affected_tests(recorder.edited(), ["//a:t"]))

    def test_only_finished_unchanged_targets_of_the_same_host_and_load_carry_over(self):
        previous = {t["label"]: t for t in [
            target("//a:same_test", 3, 3), target("//a:flaky_test", 3, 2),
            target("//a:changed_test", 3, 3), target("//a:short_test", 2, 2),
            target("//a:gone_test", 3, 3), target("//a:idle_test", 3, 3, hogs=0),
            target("//a:other_host_test", 3, 3, host="other"),
            target("//a:lost_commit_test", 3, 3, commit="f" * 40),
            target("//a:dirty_test", 3, 3, commit="d" * 40, dirty_files=["x.cc"])]}
        queried = []

        def affected(paths, labels, before):
            queried.append((paths, sorted(labels)))
            return {"//a:changed_test"} if "x.cc" not in paths else set(labels)

        def changed(commit):
            return None if commit == "f" * 40 else {"changed.cc"}

        with mock.patch.object(hunt, "changed_since", changed), \
                mock.patch.object(hunt, "affected_tests", affected), \
                contextlib.redirect_stdout(io.StringIO()) as out:
            carried, continued = hunt.holding_targets(
                previous, [label for label in previous if label != "//a:gone_test"]
                + ["//a:new_test"], 3, 2, "h")
        self.assertEqual(sorted(carried), ["//a:flaky_test", "//a:same_test"])
        self.assertEqual(sorted(continued), ["//a:short_test"])
        # One question per commit and dirty state, for the finished and the partly run alike.
        self.assertEqual(queried, [
            (["changed.cc"], ["//a:changed_test", "//a:flaky_test", "//a:same_test",
                              "//a:short_test"]),
            (["changed.cc", "x.cc"], ["//a:dirty_test"])])
        self.assertIn("commit ffffffffff is not in this repository; its 1 targets run again",
                      out.getvalue())

    def test_a_carried_failure_never_counts_as_passing_fewer_runs(self):
        # 28 of 30 from an earlier --runs 30 part, resumed with --runs 20.
        table = hunt.format_table({"//a:t": target("//a:t", 30, 28, carried=True)}, {}, 20, 2)
        self.assertEqual(table.splitlines()[2:], ["//a:t   28/30   <- FLAKY",
                                                  "1 of 1 targets did not pass every run"])

    def test_a_report_is_written_whole_and_read_back(self):
        path = os.path.join(self.tmp.name, "report.json")
        args = hunt.parse_args(["--runs", "3", "--hogs", "1"])
        hunt.write_report(path, args, {"//a:t": target("//a:t", 3, 3, carried=True)}, 0.0)
        self.assertFalse(os.path.exists(path + ".partial"))
        self.assertEqual(hunt.load_report(path), {"//a:t": target("//a:t", 3, 3)})
        with open(path, encoding="utf-8") as f:
            self.assertEqual(json.load(f)["format"], "flake-hunt/2")

    def test_an_older_or_foreign_report_is_refused(self):
        path = os.path.join(self.tmp.name, "old.json")
        with open(path, "w", encoding="utf-8") as f:
            json.dump({"runs": 20, "targets": [{"label": "//a:t", "passed": 20}]}, f)
        with self.assertRaisesRegex(hunt.HuntError, "not a flake-hunt/2 report"):
            hunt.load_report(path)
        with self.assertRaisesRegex(hunt.HuntError, "cannot read the report"):
            hunt.load_report(os.path.join(self.tmp.name, "missing.json"))

    def hunt_offline(self, args, labels):
        """hunt.hunt(args) on a tree at one commit, with nothing changed since, where the
        patterns name labels: its exit status and what it printed. Starting a hog fails."""
        out = io.StringIO()

        def no_hogs(count, max_hours):
            if count:
                raise AssertionError("no hogs")
            return []

        with mock.patch.object(hunt, "query_tests", lambda patterns, exhaustive=False: labels), \
                mock.patch.object(hunt, "tree_state", lambda own: ("e" * 40, [])), \
                mock.patch.object(hunt, "host_state", lambda: "h"), \
                mock.patch.object(hunt, "changed_since", lambda commit: set()), \
                mock.patch.object(hunt, "start_hogs", no_hogs), \
                contextlib.redirect_stdout(out):
            return hunt.hunt(args), out.getvalue()

    def test_a_report_keeps_the_targets_another_part_ran_while_they_exist(self):
        path = os.path.join(self.tmp.name, "report.json")
        args = hunt.parse_args(["--runs", "2", "--resume", path, "--report", path, "//a:all"])
        hunt.write_report(path, args, {t["label"]: t for t in [
            target("//a:t", 2, 2), target("//b:other_test", 2, 1),
            target("//b:deleted_test", 2, 2)]}, 0.0)

        def query(expression, keep_going=False):
            self.assertEqual((expression, keep_going), ("tests(//...)", True))
            return ["//a:t", "//b:other_test"]

        with mock.patch.object(hunt, "bazel_query", query):
            self.assertEqual(self.hunt_offline(args, ["//a:t"])[0], 0)
        self.assertEqual(hunt.load_report(path), {
            "//a:t": target("//a:t", 2, 2), "//b:other_test": target("//b:other_test", 2, 1)})

    def test_a_plan_shows_what_carries_over_and_what_would_run_without_bazel(self):
        path = os.path.join(self.tmp.name, "report.json")
        args = hunt.parse_args(["--runs", "2", "--resume", path, "--plan", "//a:all"])
        hunt.write_report(path, args, {"//a:t": target("//a:t", 2, 2)}, 0.0)
        status, out = self.hunt_offline(args, ["//a:t", "//a:new_test"])
        self.assertEqual(status, 1)
        self.assertEqual(out.splitlines()[-4:], [
            "target        passed",
            "//a:new_test  0/2   <- to run",
            "//a:t         2/2   carried over (cccccccccc)",
            "1 of 2 targets did not pass every run"])

    def test_a_partly_run_unchanged_target_is_continued_not_carried(self):
        previous = {t["label"]: t for t in [
            target("//a:done_test", 3, 3), target("//a:part_test", 2, 2),
            target("//a:part_flaky_test", 2, 1), target("//a:none_test", 0, 0),
            target("//a:part_changed_test", 1, 1), target("//a:part_idle_test", 1, 1, hogs=0),
            target("//a:part_other_host_test", 1, 1, host="other")]}
        with mock.patch.object(hunt, "changed_since", lambda commit: {"x.cc"}), \
                mock.patch.object(hunt, "affected_tests",
                                  lambda paths, labels, before: {"//a:part_changed_test"}):
            carried, continued = hunt.holding_targets(previous, list(previous), 3, 2, "h")
        self.assertEqual(sorted(continued), ["//a:part_flaky_test", "//a:part_test"])
        self.assertEqual(sorted(carried), ["//a:done_test"])

    def test_a_continued_target_adds_its_new_runs_and_keeps_its_failures(self):
        args = hunt.parse_args(["--runs", "5"])
        base = target("//a:part_test", 3, 2, commit="b" * 40, parts=1)
        recorder = hunt.Recorder(args, ["//a:part_test", "//a:new_test"], ("e" * 40, [], "h"),
                                 {}, {"//a:part_test": base}, {"//a:part_test": base})
        self.assertEqual((recorder.runs_to_do("//a:part_test"),
                          recorder.runs_to_do("//a:new_test")), (2, 5))
        bep = os.path.join(self.tmp.name, "events.json")
        with open(bep, "w", encoding="utf-8") as f:
            f.write("\n".join([result("//a:part_test", 1, "PASSED"),
                               result("//a:part_test", 2, "PASSED"),
                               result("//a:new_test", 1, "PASSED")]) + "\n")
        with mock.patch.object(hunt, "changed_since", lambda commit: set()), \
                contextlib.redirect_stdout(io.StringIO()) as out:
            fresh, _ = recorder.collect(bep)
            recorder.progress(bep)
        self.assertEqual({k: fresh["//a:part_test"][k] for k in
                          ("runs", "passed", "failed", "parts", "commit")},
                         {"runs": 5, "passed": 4, "failed": 1, "parts": 2, "commit": "e" * 40})
        self.assertEqual(fresh["//a:new_test"]["runs"], 1)
        self.assertNotIn("parts", fresh["//a:new_test"])
        self.assertIn("3 of 7 runs finished, 0 failed", out.getvalue())

    def test_a_sharded_target_shows_its_shard_runs_and_an_estimate_before_a_whole_run(self):
        # Bazel may run one shard's every run before the next shard's: three results of shard
        # 1 are no whole run, yet 3 of the 20 shard runs, and the estimate counts them.
        args = hunt.parse_args(["--runs", "5"])
        recorder = hunt.Recorder(args, ["//a:sharded_test"], ("e" * 40, [], "h"), {}, {})
        recorder.shards = {"//a:sharded_test": 4}
        bep = os.path.join(self.tmp.name, "events.json")
        with open(bep, "w", encoding="utf-8") as f:
            f.write("\n".join(result("//a:sharded_test", run, "PASSED", shard=1)
                              for run in (1, 2, 3)) + "\n")
        with mock.patch.object(hunt, "changed_since", lambda commit: set()), \
                contextlib.redirect_stdout(io.StringIO()) as out:
            recorder.progress(bep)
        self.assertIn("0 of 5 runs finished (3 of 20 shard runs), 0 failed", out.getvalue())
        self.assertIn("min left", out.getvalue())

    def test_each_target_runs_only_the_runs_it_lacks(self):
        flags = hunt.runs_per_test_flags({"//a:b-c_test": 20, "//a:d_test": 8, "//e:f": 20})
        self.assertEqual(flags, ["--runs_per_test=^//a:d_test$@8",
                                 "--runs_per_test=^//a:b\\-c_test$,^//e:f$@20"])

    def test_a_hunt_continues_a_partly_run_target_and_a_plan_says_how_many_runs_are_left(self):
        path = os.path.join(self.tmp.name, "report.json")
        args = hunt.parse_args(["--runs", "3", "--hogs", "0", "--resume", path, "--plan"])
        hunt.write_report(path, args, {"//a:t": target("//a:t", 1, 1)}, 0.0)
        status, out = self.hunt_offline(args, ["//a:t"])
        self.assertEqual(status, 1)
        self.assertIn("//a:t   1/3   <- 2 more to run", out)
        self.assertIn("0 targets carried over from " + path + ", 1 to run (1 of them continued)",
                      out)
        commands = []

        def bazel(runs, bep, stopper, on_progress, exhaustive=False):
            commands.append(runs)
            with open(bep, "w", encoding="utf-8") as f:
                f.write(result("//a:t", 1, "PASSED") + "\n" + result("//a:t", 2, "PASSED") + "\n")
            return 0

        args = hunt.parse_args(["--runs", "3", "--hogs", "0", "--resume", path, "--report", path])
        with mock.patch.object(hunt, "run_bazel", bazel), \
                mock.patch.object(hunt, "shard_counts", lambda labels: {}), \
                mock.patch.object(hunt, "bazel_query", lambda *a, **k: ["//a:t"]):
            status, out = self.hunt_offline(args, ["//a:t"])
        self.assertEqual((status, commands), (0, [{"//a:t": 2}]))
        self.assertEqual({k: hunt.load_report(path)["//a:t"][k] for k in ("runs", "passed")},
                         {"runs": 3, "passed": 3})

    def test_a_build_that_fails_is_told_even_for_a_continued_target(self):
        path = os.path.join(self.tmp.name, "report.json")
        args = hunt.parse_args(["--runs", "3", "--hogs", "0", "--resume", path, "--report", path])
        hunt.write_report(path, args, {"//a:t": target("//a:t", 1, 1)}, 0.0)
        with mock.patch.object(hunt, "run_bazel", lambda runs, bep, stopper, progress, exhaustive=False: 1), \
                mock.patch.object(hunt, "shard_counts", lambda labels: {}), \
                mock.patch.object(hunt, "bazel_query", lambda *a, **k: ["//a:t"]), \
                self.assertRaisesRegex(hunt.HuntError, "Bazel ran no test"):
            self.hunt_offline(args, ["//a:t"])
        self.assertEqual(hunt.load_report(path)["//a:t"]["runs"], 1)

    def test_a_plan_with_a_carried_failure_does_not_exit_0(self):
        args = hunt.parse_args(["--runs", "2", "--resume", "r.json", "--plan"])
        with contextlib.redirect_stdout(io.StringIO()):
            self.assertEqual(hunt.plan(args, {"//a:t": target("//a:t", 2, 1)}, {}, []), 1)
            self.assertEqual(hunt.plan(args, {"//a:t": target("//a:t", 2, 2)}, {}, []), 0)

    def test_nothing_left_to_run_prints_the_table_without_bazel(self):
        path = os.path.join(self.tmp.name, "report.json")
        args = hunt.parse_args(["--runs", "2", "--resume", path, "//a:all"])
        hunt.write_report(path, args, {"//a:t": target("//a:t", 2, 2)}, 0.0)
        status, out = self.hunt_offline(args, ["//a:t"])
        self.assertEqual(status, 0)
        self.assertIn("//a:t   2/2   carried over (cccccccccc)", out)
        self.assertIn("every target passed 2 of 2", out)


# A stand-in for tools/bazel test: it writes build events for the labels after "--", then waits
# for the SIGINT a stop sends (unless told to ignore it), and reports one more run as it ends.
# It says it is ready in a file beside it, so the test stops it only once it handles SIGINT.
FAKE_BAZEL = """#!/usr/bin/python3
import json, signal, sys, time
bep = next(a.split("=", 1)[1] for a in sys.argv if a.startswith("--build_event_json_file="))
labels = sys.argv[sys.argv.index("--") + 1:]
def result(label, run, status):
    return json.dumps({"id": {"testResult": {"label": label, "run": run, "shard": 1,
                                             "attempt": 1}},
                       "testResult": {"status": status}})
stopped = []
signal.signal(signal.SIGINT, signal.SIG_IGN if "{ignore}" == "yes" else
              lambda *_: stopped.append(1))
with open(bep, "w") as f:
    f.write(result(labels[0], 1, "PASSED") + "\\n")
    f.write(result(labels[0], 2, "FAILED") + "\\n")
    f.flush()
    open(sys.argv[0] + ".ready", "w").close()
    deadline = time.monotonic() + 30
    while not stopped and time.monotonic() < deadline:
        time.sleep(0.05)
    f.write(result(labels[1], 1, "PASSED") + "\\n")
sys.exit(8 if stopped else 0)
"""


class StopTest(unittest.TestCase):
    """A stop (here SIGTERM to this process) ends Bazel and keeps what finished."""

    def run_stopped(self, ignore_sigint):
        tmp = tempfile.TemporaryDirectory()
        self.addCleanup(tmp.cleanup)
        fake = os.path.join(tmp.name, "bazel")
        with open(fake, "w", encoding="utf-8") as f:
            f.write(FAKE_BAZEL.replace("{ignore}", "yes" if ignore_sigint else "no"))
        os.chmod(fake, 0o755)
        report = os.path.join(tmp.name, "report.json")
        args = hunt.parse_args(["--runs", "3", "--hogs", "0", "--report", report])
        saved = {s: signal.getsignal(s) for s in (signal.SIGINT, signal.SIGTERM)}
        for signum, handler in saved.items():
            self.addCleanup(signal.signal, signum, handler)

        def stop_when_ready():  # after two runs were written and a progress line or two
            deadline = time.monotonic() + 30
            while not os.path.exists(fake + ".ready") and time.monotonic() < deadline:
                time.sleep(0.05)
            time.sleep(0.5)
            os.kill(os.getpid(), signal.SIGTERM)

        stop = threading.Thread(target=stop_when_ready, daemon=True)
        with mock.patch.object(hunt, "BAZEL", fake), \
                mock.patch.object(hunt, "PROGRESS_SECONDS", 0.2), \
                mock.patch.object(hunt, "STOP_GRACE_SECONDS", 0.5), \
                contextlib.redirect_stdout(io.StringIO()) as out:
            stop.start()
            started = time.monotonic()
            recorder = hunt.Recorder(args, ["//a:one_test", "//a:two_test"],
                                     ("c" * 40, [], "h"), {}, {})
            with mock.patch.object(hunt, "changed_since", lambda commit: {"edited.cc"}):
                fresh, _, rc, stopped = hunt.run_targets(recorder)
        stop.join()
        self.assertLess(time.monotonic() - started, 40)
        self.assertTrue(stopped)
        self.assertIn("stopping Bazel; the runs that finished are kept", out.getvalue())
        self.assertIn("runs finished", out.getvalue())  # a progress line
        self.assertIn("//a:one_test", hunt.load_report(report))  # written while it ran
        return fresh, rc

    def test_bazel_stops_on_its_sigint_and_the_finished_runs_are_kept(self):
        fresh, rc = self.run_stopped(ignore_sigint=False)
        self.assertEqual(rc, 8)
        self.assertEqual((fresh["//a:one_test"]["passed"], fresh["//a:one_test"]["failed"]),
                         (1, 1))
        self.assertEqual(fresh["//a:two_test"]["runs"], 1)
        self.assertEqual(fresh["//a:two_test"]["commit"], "c" * 40)
        # A file edited while the tests ran is recorded as uncommitted for them.
        self.assertEqual(fresh["//a:two_test"]["dirty_files"], ["edited.cc"])

    def test_the_stop_gives_ctrl_c_back_when_done(self):
        before = signal.getsignal(signal.SIGINT)
        stopper = hunt.Stopper()
        self.assertEqual(signal.getsignal(signal.SIGINT), stopper.request)
        stopper.close()
        self.assertEqual(signal.getsignal(signal.SIGINT), before)

    def test_a_bazel_that_ignores_sigint_is_killed_after_the_grace(self):
        fresh, rc = self.run_stopped(ignore_sigint=True)
        self.assertEqual(rc, -signal.SIGKILL)
        self.assertEqual(fresh["//a:one_test"]["runs"], 2)
        self.assertEqual(fresh["//a:two_test"]["runs"], 0)


class ArgumentsTest(unittest.TestCase):
    def test_bad_counts_are_refused_with_usage(self):
        done = subprocess.run([sys.executable, os.path.join(HERE, "hunt"), "--runs", "0"],
                              capture_output=True, text=True, check=False)
        self.assertEqual(done.returncode, 2)
        self.assertIn("--runs must be at least 1", done.stderr)

    def test_a_pattern_with_a_minus_subtracts_and_an_unknown_flag_is_refused(self):
        self.assertEqual(sorted(hunt.parse_args(["//a/...", "-//a:slow_test", "//b:t"]).patterns),
                         ["-//a:slow_test", "//a/...", "//b:t"])
        self.assertEqual(hunt.parse_args(["-//a:slow_test"]).patterns, ["//...", "-//a:slow_test"])
        done = subprocess.run([sys.executable, os.path.join(HERE, "hunt"), "//a:t", "--bogus"],
                              capture_output=True, text=True, check=False)
        self.assertEqual(done.returncode, 2)
        self.assertIn("unrecognized arguments: --bogus", done.stderr)

    def test_plan_needs_a_report_to_resume(self):
        done = subprocess.run([sys.executable, os.path.join(HERE, "hunt"), "--plan"],
                              capture_output=True, text=True, check=False)
        self.assertEqual(done.returncode, 2)
        self.assertIn("--plan needs --resume REPORT", done.stderr)

    def test_defaults(self):
        args = hunt.parse_args([])
        self.assertEqual((args.runs, args.patterns), (20, ["//..."]))
        self.assertGreaterEqual(args.hogs, 1)
        self.assertFalse(args.exhaustive)
        self.assertTrue(hunt.parse_args(["--exhaustive", "//a:t"]).exhaustive)


class TiersTest(unittest.TestCase):
    """The hunt asks Bazel for the fast tier unless told --exhaustive, as tools/bazel test does."""

    def query(self, exhaustive):
        asked = []

        def run(command, **_):
            asked.append(command)
            return subprocess.CompletedProcess(command, 0, "//a:t\n", "")
        with mock.patch.object(hunt.subprocess, "run", run):
            self.assertEqual(hunt.query_tests(["//a/...", "-//a:x"], exhaustive), ["//a:t"])
        return asked[0][2]

    def test_the_fast_tier_leaves_the_exhaustive_tag_out(self):
        self.assertEqual(self.query(False),
                         "((tests(//a/...)) - tests(//a:x)) - attr(tags, '\\bexhaustive\\b', "
                         "(tests(//a/...)) - tests(//a:x))")

    def test_exhaustive_asks_for_every_test(self):
        self.assertEqual(self.query(True), "(tests(//a/...)) - tests(//a:x)")


class HogsTest(unittest.TestCase):
    def test_hogs_run_until_stopped_and_leave_nothing(self):
        hogs = hunt.start_hogs(2, 0.01)  # 36 s at most, should stop_hogs fail
        try:
            for hog in hogs:
                self.assertIsNone(hog.poll())
        finally:
            hunt.stop_hogs(hogs)
        for hog in hogs:
            self.assertIsNotNone(hog.returncode)  # reaped
            self.assertFalse(os.path.exists(f"/proc/{hog.pid}"))

    def test_a_hog_ends_by_itself_at_its_deadline(self):
        hog = hunt.start_hogs(1, 0.5 / 3600)[0]  # half a second
        try:
            self.assertEqual(hog.wait(timeout=30), 0)
        finally:
            hunt.stop_hogs([hog])


if __name__ == "__main__":
    unittest.main()
