#!/usr/bin/env bash
# usage: implementers_test.sh GATE DOC [--refresh]
#
# Holds the transcripts of a doc (docs/implementers.md, docs/certify-sandbox.md) to the program's
# output. Every block between
# `<!-- transcript: NAME -->` and `<!-- /transcript -->` is a fenced block of `$ COMMAND` lines,
# each followed by its output. The test runs every command again, in order, from the runfiles
# (where the workspace's relative paths, such as conformance/testee/python/minimal_testee.py,
# resolve), and compares the output with the block after normalising what legitimately varies:
#   - `tools/bazel run //conformance:gate --` runs the gate binary of this build;
#   - `/tmp/` in a command is the test's own temporary directory (and is printed back as /tmp/);
#   - a time such as `0.3s` or `17.8s`, with the spaces that pad it, is compared as ` N.Ns`;
#   - trailing whitespace at the end of a line is ignored (Markdown tools strip it).
# Everything else must match exactly: a changed line of the gate's output fails the test with a
# unified diff. Refresh the doc's transcripts from this build with
#   tools/bazel run //docs:implementers_test -- --refresh
# then read the diff (git diff docs/implementers.md): the prose around a transcript may need to
# follow it.
# CITES nothing: this is a documentation test.
set -euo pipefail
if ! command -v python3 >/dev/null; then
  echo "python3 is not on PATH: the transcripts' testee cannot run" >&2
  exit 1
fi
gate="$(cd "$(dirname "$1")" && pwd)/$(basename "$1")"
doc="$2"
mode="${3:-}"
exec python3 - "${gate}" "${doc}" "${mode}" <<'PY'
import difflib
import os
import re
import subprocess
import sys
import tempfile

gate, doc_path, mode = sys.argv[1], sys.argv[2], sys.argv[3]
refresh = mode == "--refresh"
if mode not in ("", "--refresh"):
    sys.exit("usage: implementers_test.sh GATE DOC [--refresh]")
if refresh:
    workspace = os.environ.get("BUILD_WORKSPACE_DIRECTORY")
    if not workspace:
        sys.exit("--refresh rewrites the source: run it with "
                 "`tools/bazel run //docs:implementers_test -- --refresh`")
    # The doc's runfiles path is its path in the workspace.
    doc_path = os.path.join(workspace, doc_path)

with open(doc_path, encoding="utf-8") as f:
    doc = f.read()

BLOCK = re.compile(
    r"(<!-- transcript: (?P<name>[\w.-]+) -->\n```[a-z]*\n)(?P<body>.*?)(```\n<!-- /transcript -->)",
    re.S)
GATE_RUN = "tools/bazel run //conformance:gate --"
# The spaces before a time pad it to a column, so they vary with its width too.
TIME = re.compile(r"(?: +|(?<![\w.]))\d+\.\d+s\b")

tmp = tempfile.mkdtemp(prefix="implementers.", dir=os.environ.get("TEST_TMPDIR"))
env = dict(os.environ)
# Under `bazel run` the gate would start the testee in the caller's directory; the commands
# mean the workspace, which the runfiles directory stands for.
for var in ("BUILD_WORKING_DIRECTORY", "BUILD_WORKSPACE_DIRECTORY"):
    env.pop(var, None)


def commands(body):
    """The block's commands: (command text, as written, without `$ `)."""
    found, current = [], None
    for line in body.splitlines():
        if current is not None and current.endswith("\\"):
            current += "\n" + line
            found[-1] = current
        elif line.startswith("$ "):
            current = line[2:]
            found.append(current)
        else:
            current = None
    return found


def run(command):
    shell = command.replace(GATE_RUN, gate).replace("/tmp/", tmp + "/")
    done = subprocess.run(["bash", "-c", shell], env=env, stdout=subprocess.PIPE,
                          stderr=subprocess.STDOUT)
    return done.stdout.decode("utf-8", "replace").replace(tmp + "/", "/tmp/")


def normalised(text):
    return [TIME.sub(" N.Ns", line.rstrip()) for line in text.splitlines()]


failures, blocks = [], 0


def replace(match):
    global blocks
    blocks += 1
    name, body = match.group("name"), match.group("body")
    cmds = commands(body)
    if not cmds:
        failures.append("transcript %s has no `$ ` command line" % name)
        return match.group(0)
    actual = "".join("$ " + cmd + "\n" + run(cmd) for cmd in cmds)
    want, got = normalised(body), normalised(actual)
    if want != got:
        if refresh:
            print("refreshed transcript %s" % name)
        else:
            diff = difflib.unified_diff(want, got, "%s (%s)" % (doc_path, name),
                                        "the program's output now", lineterm="")
            failures.append("transcript %s differs from the program's output:\n%s"
                            % (name, "\n".join(diff)))
    return match.group(1) + actual + match.group(4)


new_doc = BLOCK.sub(replace, doc)
if blocks == 0:
    failures.append("%s has no <!-- transcript: NAME --> block" % doc_path)
if refresh:
    with open(doc_path, "w", encoding="utf-8") as f:
        f.write(new_doc)
    print("%d transcripts checked; %s written" % (blocks, doc_path))
    sys.exit(1 if failures else 0)
for failure in failures:
    print("FAIL: " + failure + "\n")
if failures:
    print("The gate's output changed, or the doc was edited by hand. If the new output is right,"
          "\nrefresh the transcripts and reread the prose around them:\n"
          "  tools/bazel run %s -- --refresh" % os.environ.get("TEST_TARGET", "//docs:TEST"))
    sys.exit(1)
print("PASS: %d transcripts match the program's output" % blocks)
PY
