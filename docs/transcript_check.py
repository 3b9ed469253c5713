#!/usr/bin/env python3
"""Holds the transcripts of a document to the programs' real output, and lints the documents.

A transcript is a fenced block between `<!-- transcript: NAME -->` and `<!-- /transcript -->`
made of `$ COMMAND` lines (a line ending in `\\` continues the command), each followed by its
output (stdout and stderr, interleaved as a terminal shows them). The check runs every command
again, in order, from the runfiles root (where the workspace's relative paths resolve), and
compares the output with the block after masking what legitimately varies between runs and
machines, and nothing else:
  - a time such as `0.3s` or `17.8s` (with the spaces that pad it to a column) reads ` N.Ns`,
    and `2.02 s` or `0.4 ms` reads `N.N s`, `N.N ms`;
  - a loopback port (`127.0.0.1:41323`) reads `127.0.0.1:PORT`;
  - the backend suite's `N entries walked` and `N host canaries` (the host's size and
    which of its directories are writable);
  - the real azmcp's path after `AZURE_PRICING_AZMCP=` reads `AZURE_PRICING_AZMCP=PATH`;
  - with --azmcp-version FILE and --azmcp-pins FILE (tools/image/azmcp-version and
    azmcp-pins.tsv), every pinned azmcp version (with or without its `+commit`) reads
    `<azmcp version>`, so a document written against one version holds after
    tools/cli_upgrade moves the current one; and a command naming a version's recordings
    (`fixtures/azmcp-VERSION-local`, `-differential`, `-dry-run`) runs on the current version's,
    the only ones the build gives the test;
  - trailing whitespace is ignored (Markdown tools strip it).
Commands name programs as a user types them; the test maps each to the binary of this build:
  - `tools/bazel run //pkg:name --` and `tools/bazel run //pkg:name` become the binary
    `--bin //pkg:name=PATH` gives, as do `bazel-bin/pkg/name` and `$PWD/bazel-bin/pkg/name`;
  - `/tmp/` is the test's own temporary directory (printed back as `/tmp/`).
A command that still says `tools/bazel` after that fails the check, naming the label to add.
A program may come with recorded runs (`--replay LABEL=RECORD`, a recorded_run's NAME.argv; see
tools/build/recorded_run.bzl): a command that runs it with exactly a record's arguments gets the
record's stdout, stderr and exit status instead of a new run, since the same build's program ran
those arguments once already; any other arguments run the program.

  transcript_check.py --doc DOC [--bin LABEL=PATH ...] [--azmcp-version FILE --azmcp-pins FILE]
                                                                  check DOC
  transcript_check.py --doc DOC [--bin ...] --refresh             rewrite DOC from the output
  transcript_check.py --lint --held DOC,... --front README DOC...  lint the documents
  transcript_check.py --replay-shim RECORD... -- PROGRAM ARGS...   (what a replayed command runs)

--refresh runs under `tools/bazel run` (it rewrites the source in BUILD_WORKSPACE_DIRECTORY);
`tools/docs/refresh_transcripts` refreshes every document at once.
"""
import argparse
import difflib
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

BLOCK = re.compile(
    r"(<!-- transcript: (?P<name>[\w.-]+) -->\n```[a-z]*\n)(?P<body>.*?)(```\n<!-- /transcript -->)",
    re.S)
MASKS = [
    # The spaces before a time pad it to a column, so they vary with its width too.
    (re.compile(r"(?: +|(?<![\w.]))\d+\.\d+s\b"), " N.Ns"),
    (re.compile(r"\b\d+\.\d+ (s|ms)\b"), r"N.N \1"),
    # How many entries the backend suite's walk of a sandbox's filesystem met.
    # The backend suite's walk of a sandbox's filesystem: how many entries it met, and how many
    # host directories it could plant a canary in (which depends on who runs it, and where).
    (re.compile(r"\b\d+ entries walked\b"), "N entries walked"),
    (re.compile(r"\b\d+ host canaries\b"), "N host canaries"),
    (re.compile(r"\b(127\.0\.0\.1|localhost):\d+\b"), r"\1:PORT"),
    (re.compile(r"AZURE_PRICING_AZMCP=[^\s);,]+"), "AZURE_PRICING_AZMCP=PATH"),
]
# The azmcp versions' masks and the recordings' folders (azmcp_masks fills them in).
VERSION_MASKS = []
RECORDINGS = []
BAZEL_RUN = re.compile(r"tools/bazel run (?P<label>//[\w/.-]*:[\w.-]+)(?: --(?= |$))?")
STILL_BAZEL = re.compile(r"tools/bazel\b[^|;&\n]*")
TIMEOUT_SECONDS = 600


def parse_bins(pairs):
    bins = {}
    for pair in pairs:
        label, sep, path = pair.partition("=")
        if not sep or not label.startswith("//") or ":" not in label:
            sys.exit("transcript_check: --bin %r is not LABEL=PATH" % pair)
        # A binary may come with the arguments `bazel run` would give it (its BUILD `args`),
        # after commas: Bazel splits an argument at spaces.
        bins[label] = " ".join(os.path.abspath(word) if os.path.exists(word) else word
                               for word in path.split(","))
    return bins


def azmcp_masks(version_file, pins):
    """Fills VERSION_MASKS and RECORDINGS from the current version and every pinned one."""
    def rows(path):
        with open(path, encoding="utf-8") as f:
            return [line.rstrip("\n").split("\t") for line in f if not line.startswith("#")]
    current = [r[1] for r in rows(version_file) if len(r) == 2 and r[0] == "current"]
    if not current:
        sys.exit("transcript_check: %s names no current azmcp version" % version_file)
    versions = {r[0] for r in rows(pins) if len(r) >= 2 and r[0]} | set(current)
    alternatives = "|".join(re.escape(v) for v in sorted(versions, key=len, reverse=True))
    VERSION_MASKS.append((re.compile(r"(?<![\w.])(?:%s)(?:\+[0-9a-f]{7,40})?(?!\w|\.\w)"
                                     % alternatives), "<azmcp version>"))
    RECORDINGS.append((re.compile(r"\bazmcp-(?:%s)-(local|differential|dry-run)(?![\w.])"
                                  % alternatives), r"azmcp-%s-\1" % current[0]))


def commands(body):
    """The block's commands, as written, without `$ ` (continuation lines kept)."""
    found = []
    continuing = False
    for line in body.splitlines():
        if continuing:
            found[-1] += "\n" + line
        elif line.startswith("$ "):
            found.append(line[2:])
        else:
            continue
        continuing = line.endswith("\\")
    return found


def parse_replays(pairs):
    """LABEL=RECORD pairs as {label: [record path, ...]}."""
    replays = {}
    for pair in pairs:
        label, sep, record = pair.partition("=")
        if not sep or not record.endswith(".argv"):
            sys.exit("transcript_check: --replay %r is not LABEL=PATH/NAME.argv" % pair)
        replays.setdefault(label, []).append(os.path.abspath(record))
    return replays


def replay_shim(argv):
    """Stands in for PROGRAM: a record's output when ARGS are its arguments, else PROGRAM's."""
    split = argv.index("--")
    records, program, args = argv[:split], argv[split + 1], argv[split + 2:]
    for record in records:
        with open(record, encoding="utf-8") as f:
            if json.load(f) != args:
                continue
        stem = record[:-len(".argv")]
        for suffix, stream in ((".stdout", sys.stdout), (".stderr", sys.stderr)):
            with open(stem + suffix, "rb") as f:
                stream.buffer.write(f.read())
            stream.flush()
        with open(stem + ".status", encoding="utf-8") as f:
            return int(f.read())
    os.execv(program, [program] + args)
    return 127  # not reached


class Runner:
    def __init__(self, bins, tmp, replays=None):
        self.bins, self.tmp = bins, tmp
        # A replayed program runs through this file's --replay-shim, which stands in for it.
        for label, records in (replays or {}).items():
            if label not in self.bins:
                sys.exit("transcript_check: --replay %s names no --bin" % label)
            self.bins[label] = " ".join([sys.executable, os.path.abspath(__file__),
                                         "--replay-shim"] + records + ["--", self.bins[label]])
        self.env = dict(os.environ)
        # Under `bazel run` a program would resolve paths against the caller's directory; the
        # commands mean the workspace, which the runfiles root stands for.
        for var in ("BUILD_WORKING_DIRECTORY", "BUILD_WORKSPACE_DIRECTORY"):
            self.env.pop(var, None)

    def shell_text(self, command):
        """The command with this build's binaries in place of labels; a problem, or None."""
        missing = []

        def by_label(match):
            path = self.bins.get(match.group("label"))
            if path is None:
                missing.append(match.group("label"))
                return match.group(0)
            return path

        for pattern, replacement in RECORDINGS:
            command = pattern.sub(replacement, command)
        # /tmp/ first, so that a binary that lives under /tmp keeps its path.
        shell = BAZEL_RUN.sub(by_label, command.replace("/tmp/", self.tmp + "/"))
        for label, path in self.bins.items():
            package, _, name = label[2:].partition(":")
            for spelling in ("$PWD/bazel-bin/%s/%s" % (package, name),
                             "bazel-bin/%s/%s" % (package, name)):
                shell = re.sub(re.escape(spelling) + r"(?![\w./-])", lambda _: path, shell)
        leftover = STILL_BAZEL.search(shell)
        if missing or leftover:
            what = missing[0] if missing else leftover.group(0).strip()
            return None, ("runs `%s`, which this test cannot run: add the label to its `bins` "
                          "in docs/transcripts.bzl" % what)
        return shell, None

    def run(self, command):
        shell, problem = self.shell_text(command)
        if problem:
            return None, problem
        try:
            done = subprocess.run(["bash", "-c", shell], env=self.env, stdout=subprocess.PIPE,
                                  stderr=subprocess.STDOUT, timeout=TIMEOUT_SECONDS)
        except subprocess.TimeoutExpired:
            return None, "did not finish within %d s" % TIMEOUT_SECONDS
        out = done.stdout.decode("utf-8", "replace")
        programs = [p.split(" -- ")[-1].split(" ")[0] for p in self.bins.values()]
        for path in sorted(programs, key=len, reverse=True):
            out = out.replace(path, path.rsplit("/", 1)[-1])
        return out.replace(self.tmp + "/", "/tmp/"), None


def masked(text):
    """One masked line per line of text."""
    lines = []
    for line in text.splitlines():
        for pattern, replacement in MASKS + VERSION_MASKS:
            line = pattern.sub(replacement, line)
        lines.append(line.rstrip())
    return lines


def normalised(text):
    """The masked lines compared: a blank line a document puts before a `$ ` line to set the
    commands apart is layout, not output."""
    lines = masked(text)
    return [line for i, line in enumerate(lines)
            if line or i + 1 == len(lines) or not lines[i + 1].startswith("$ ")]


def merged(old, new):
    """The new output, keeping each old line whose masked form did not change, so that a refresh
    rewrites only what changed (a path or a time shown as a user would see it stays)."""
    old_lines, new_lines = old.splitlines(), new.splitlines()
    matcher = difflib.SequenceMatcher(a=masked(old), b=masked(new), autojunk=False)
    out = []
    for op, a0, a1, b0, b1 in matcher.get_opcodes():
        kept_layout = op == "delete" and not "".join(old_lines[a0:a1]).strip()
        out += old_lines[a0:a1] if op == "equal" or kept_layout else new_lines[b0:b1]
    return "\n".join(out) + "\n"


def check_doc(doc_path, runner, refresh):
    with open(doc_path, encoding="utf-8") as f:
        doc = f.read()
    failures, names = [], []

    def replace(match):
        name, body = match.group("name"), match.group("body")
        names.append(name)
        cmds = commands(body)
        if not cmds:
            failures.append("transcript %s has no `$ ` command line" % name)
            return match.group(0)
        actual = ""
        for cmd in cmds:
            out, problem = runner.run(cmd)
            if problem:
                failures.append("transcript %s: `%s` %s" % (name, cmd.splitlines()[0], problem))
                return match.group(0)
            actual += "$ " + cmd + "\n" + out
        want, got = normalised(body), normalised(actual)
        if want == got:
            return match.group(0)
        if refresh:
            print("refreshed transcript %s" % name)
            return match.group(1) + merged(body, actual) + match.group(4)
        diff = difflib.unified_diff(want, got, "%s (%s)" % (doc_path, name),
                                    "the program's output now", lineterm="")
        failures.append("transcript %s differs from the program's output:\n%s"
                        % (name, "\n".join(diff)))
        return match.group(0)

    new_doc = BLOCK.sub(replace, doc)
    if not names:
        failures.append("%s has no <!-- transcript: NAME --> block" % doc_path)
    if len(set(names)) != len(names):
        failures.append("%s names two transcripts alike" % doc_path)
    if refresh and new_doc != doc:
        with open(doc_path, "w", encoding="utf-8") as f:
            f.write(new_doc)
    return names, failures


def fences(text):
    """(line number, first content line, opened right after a transcript marker) per block."""
    lines, found, i = text.splitlines(), [], 0
    while i < len(lines):
        if lines[i].startswith("```"):
            marked = i > 0 and lines[i - 1].startswith("<!-- transcript: ")
            end = i + 1
            while end < len(lines) and not lines[end].startswith("```"):
                end += 1
            first = next((l for l in lines[i + 1:end] if l.strip()), "")
            found.append((i + 1, first, marked))
            i = end + 1
        else:
            i += 1
    return found


def lint(paths, held, front, max_front_lines):
    problems = []
    for path in paths:
        with open(path, encoding="utf-8") as f:
            text = f.read()
        for line, first, marked in fences(text):
            if first.startswith("$ ") and not marked:
                problems.append("%s:%d: a `$ COMMAND` block outside <!-- transcript: NAME --> "
                                "markers: mark it so a test holds it, or show the command alone"
                                % (path, line))
        if "<!-- transcript: " in text and path not in held:
            problems.append("%s has transcripts but no test holds them: add it to "
                            "DOC_TRANSCRIPTS in docs/transcripts.bzl" % path)
    if front:
        with open(front, encoding="utf-8") as f:
            text = f.read()
        count = len(text.splitlines())
        if count > max_front_lines:
            problems.append("%s has %d lines; the front door keeps to %d (move the rest to docs/)"
                            % (front, count, max_front_lines))
        for path in paths:
            if path.startswith("docs/") and "(%s)" % path not in text \
                    and "(%s#" % path not in text:
                problems.append("%s is not linked from %s" % (path, front))
    return problems


def main():
    if sys.argv[1:2] == ["--replay-shim"]:
        return replay_shim(sys.argv[2:])
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--doc")
    parser.add_argument("--bin", action="append", default=[])
    parser.add_argument("--replay", action="append", default=[])
    parser.add_argument("--refresh", action="store_true")
    parser.add_argument("--azmcp-version")
    parser.add_argument("--azmcp-pins")
    parser.add_argument("--lint", action="store_true")
    parser.add_argument("--held", default="")
    parser.add_argument("--front")
    parser.add_argument("--max-front-lines", type=int, default=200)
    parser.add_argument("paths", nargs="*")
    args = parser.parse_args()
    if args.lint:
        problems = lint(args.paths, set(filter(None, args.held.split(","))), args.front,
                        args.max_front_lines)
        for problem in problems:
            print("FAIL: " + problem)
        if not problems:
            print("PASS: %d documents: every `$` block is a held transcript%s"
                  % (len(args.paths), ", the front door links every page" if args.front else ""))
        return 1 if problems else 0
    if not args.doc or args.paths:
        parser.error("give --doc DOC (or --lint with documents)")
    if bool(args.azmcp_version) != bool(args.azmcp_pins):
        parser.error("give --azmcp-version and --azmcp-pins together")
    if args.azmcp_version:
        azmcp_masks(args.azmcp_version, args.azmcp_pins)
    doc_path = args.doc
    if args.refresh:
        workspace = os.environ.get("BUILD_WORKSPACE_DIRECTORY")
        if not workspace:
            sys.exit("--refresh rewrites the source: run it with "
                     "`tools/bazel run //docs:TEST -- --refresh`")
        doc_path = os.path.join(workspace, doc_path)
    # Under `bazel run` (--refresh) TEST_TMPDIR lies in Bazel's output tree, which another Bazel
    # command may clean while this runs; the system's temporary directory is ours alone.
    tmp = tempfile.mkdtemp(prefix="transcripts.",
                           dir=None if args.refresh else os.environ.get("TEST_TMPDIR"))
    try:
        runner = Runner(parse_bins(args.bin), tmp, parse_replays(args.replay))
        names, failures = check_doc(doc_path, runner, args.refresh)
    finally:
        if args.refresh:
            shutil.rmtree(tmp, ignore_errors=True)
    for failure in failures:
        print("FAIL: " + failure + "\n")
    if failures and not args.refresh:
        print("A program's output changed, or the doc was edited by hand. If the new output is "
              "right, refresh the transcripts and reread the prose around them:\n"
              "  tools/docs/refresh_transcripts %s" % args.doc)
    if not failures and args.refresh:
        print("%d transcripts of %s checked and refreshed" % (len(names), args.doc))
    elif not failures:
        print("PASS: %d transcripts of %s match the programs' output" % (len(names), args.doc))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
