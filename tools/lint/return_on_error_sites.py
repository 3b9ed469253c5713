#!/usr/bin/env python3
"""Counts (and with -v lists) the hand-written return-on-error sites that RETURN_IF_ERROR and
ASSIGN_OR_RETURN (ref/status/status_macros.h) could say instead, single- and multi-line.

    tools/lint/return_on_error_sites.py [-v] [DIR ...]     (default: ref conformance fakes tools)

It reports, it does not judge (exit 0): a few sites stay written out on purpose, for example
where conformance/source_mutants/mutants.json rewrites those exact lines.
"""
import pathlib
import re
import sys

ID = r"[A-Za-z_][\w.\->]*"
PATTERNS = {
    "StatusOr": re.compile(r"if\s*\(\s*!\s*(" + ID + r")\.ok\(\)\s*\)\s*\{?\s*return\s+"
                           r"(?:std::move\()?\1\)?\.status\(\)\s*;\s*\}?"),
    "init-statement": re.compile(r"if\s*\(\s*(?:const\s+)?(?:Status|auto)\s+(\w+)\s*=[^;]*;\s*!"
                                 r"\s*\1\.ok\(\)\s*\)\s*\{?\s*return\s+\1\s*;\s*\}?", re.S),
    "Status": re.compile(r"if\s*\(\s*!\s*(\w+)\.ok\(\)\s*\)\s*\{?\s*return\s+"
                         r"(?:std::move\()?\1\)?\s*;\s*\}?"),
}


def main(argv):
    verbose = "-v" in argv
    roots = [a for a in argv if a != "-v"] or ["ref", "conformance", "fakes", "tools"]
    counts = {k: 0 for k in PATTERNS}
    for root in roots:
        for path in sorted(pathlib.Path(root).rglob("*")):
            if path.suffix not in (".cc", ".h") or not path.is_file():
                continue
            text = re.sub(r"//[^\n]*", "", path.read_text(errors="replace"))
            for kind, pattern in PATTERNS.items():
                for match in pattern.finditer(text):
                    counts[kind] += 1
                    if verbose:
                        print("%s:%d: %s" % (path, text.count("\n", 0, match.start()) + 1, kind))
    print("%d hand-written return-on-error sites (%s)"
          % (sum(counts.values()), ", ".join("%s %d" % kv for kv in counts.items())))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
