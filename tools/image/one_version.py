#!/usr/bin/env python3
"""Fails when code names the current azmcp version anywhere but tools/image/azmcp-version.

  one_version.py [--root DIR]     check the tree at DIR (default: this file's repository)

"Code" is the text of the repository's programs, scripts and build files (.cc .h .py .sh .bzl,
BUILD, WORKSPACE, and tools' extensionless scripts) outside fixtures/ and docs/ and the fuzzing
corpus (recorded data and documents legitimately name the version they were recorded with),
with comments left out: a comment saying where a fact was observed stays true when the pin
moves. One spelling is allowed: a path into `azmcp-VERSION/`, the recordings imported from
outside (fixtures/azmcp-VERSION/), which no command re-records for another version; the current
version's own folders (azmcp-VERSION-differential, -local, -dry-run) are found through the
version, never named. Exit 0 clean, 1 with one line per copy (FILE:LINE: TEXT), 64 usage.
"""
import os
import re
import subprocess
import sys

CODE_SUFFIXES = (".cc", ".h", ".c", ".cpp", ".py", ".sh", ".bzl", ".in")
CODE_NAMES = ("BUILD", "BUILD.bazel", "WORKSPACE")
EXCLUDED = ("fixtures/", "docs/", "tools/fuzz/corpus/", "third_party/", "bazel-")
VERSION_FILE = "tools/image/azmcp-version"


def current_version(root):
    with open(os.path.join(root, VERSION_FILE), encoding="utf-8") as f:
        for line in f:
            fields = line.rstrip("\n").split("\t")
            if not line.startswith("#") and len(fields) == 2 and fields[0] == "current":
                return fields[1]
    return None


def listed_files(root):
    try:
        out = subprocess.run(["git", "-C", root, "ls-files", "-z"], stdout=subprocess.PIPE,
                             stderr=subprocess.DEVNULL, check=True, timeout=60).stdout
        return [p for p in out.decode("utf-8", "replace").split("\0") if p]
    except (OSError, subprocess.SubprocessError):
        found = []
        for top, dirs, files in os.walk(root):
            dirs[:] = [d for d in dirs if not d.startswith((".", "bazel-"))]
            found += [os.path.relpath(os.path.join(top, f), root) for f in files]
        return found


def is_code(root, path):
    if path == VERSION_FILE or path.startswith(EXCLUDED):
        return False
    name = os.path.basename(path)
    if name in CODE_NAMES or name.endswith(CODE_SUFFIXES):
        return True
    if path.startswith("tools/") and "." not in name:
        try:
            with open(os.path.join(root, path), "rb") as f:
                return f.read(2) == b"#!"
        except OSError:
            return False
    return False


def without_comments(text, c_like):
    """The text with comments blanked (line breaks kept), quotes respected."""
    out, i, n, quote = [], 0, len(text), None
    while i < n:
        ch = text[i]
        if quote:
            out.append(ch)
            if ch == "\\" and i + 1 < n:
                out.append(text[i + 1])
                i += 2
                continue
            if ch == quote or ch == "\n":
                quote = None
            i += 1
            continue
        if ch in "\"'" and not (ch == "'" and c_like and i + 2 < n and text[i + 2] == "'"):
            quote = ch
            out.append(ch)
            i += 1
            continue
        if c_like and text.startswith("/*", i):
            end = text.find("*/", i + 2)
            end = n if end < 0 else end + 2
            out.append("".join(c for c in text[i:end] if c == "\n"))
            i = end
            continue
        starts_line_comment = text.startswith("//", i) if c_like else (
            ch == "#" and (i == 0 or text[i - 1] in " \t\n"))
        if starts_line_comment:
            end = text.find("\n", i)
            i = n if end < 0 else end
            continue
        out.append(ch)
        i += 1
    return "".join(out)


def copies(root, version):
    allowed = re.compile(r"azmcp-" + re.escape(version) + r"/")
    found = []
    for path in sorted(listed_files(root)):
        if not is_code(root, path):
            continue
        try:
            with open(os.path.join(root, path), encoding="utf-8", errors="replace") as f:
                text = f.read()
        except OSError:
            continue
        if version not in text:
            continue
        code = without_comments(text, path.endswith((".cc", ".h", ".c", ".cpp")))
        for number, line in enumerate(code.splitlines(), 1):
            if version in allowed.sub("", line):
                found.append("%s:%d: %s" % (path, number, line.strip()))
    return found


def main(argv):
    root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.realpath(__file__))))
    if argv[:1] == ["--root"] and len(argv) == 2:
        root = argv[1]
    elif argv:
        print("usage: one_version.py [--root DIR]", file=sys.stderr)
        return 64
    version = current_version(root)
    if not version:
        print("one_version: %s names no current version" % VERSION_FILE, file=sys.stderr)
        return 1
    found = copies(root, version)
    for line in found:
        print(line)
    if found:
        print("one_version: %d copies of the current azmcp version %s in code; read it from %s "
              "(C++: azmcp/cli_version.h, BUILD: @azmcp_version//:version.bzl)"
              % (len(found), version, VERSION_FILE), file=sys.stderr)
        return 1
    print("one_version: %s is named once in code, in %s" % (version, VERSION_FILE))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
