#!/usr/bin/env python3
"""Writes one source file with one mutant of conformance/source_mutants/mutants.json applied.

usage: apply_mutant.py MUTANTS_JSON MUTANT_ID SOURCE_IN SOURCE_OUT

The mutant's `find` must occur exactly once in SOURCE_IN; anything else is an error, so a
mutant that no longer applies fails the build instead of silently testing the original.
"""
import json
import sys


def main(argv):
    if len(argv) != 5:
        sys.stderr.write(__doc__)
        return 2
    mutants_json, mutant_id, source_in, source_out = argv[1:]
    with open(mutants_json, encoding="utf-8") as f:
        mutants = {m["id"]: m for m in json.load(f)["mutants"]}
    mutant = mutants.get(mutant_id)
    if mutant is None:
        sys.stderr.write(f"apply_mutant: no mutant {mutant_id!r} in {mutants_json}\n")
        return 1
    with open(source_in, encoding="utf-8") as f:
        text = f.read()
    count = text.count(mutant["find"])
    if count != 1:
        sys.stderr.write(f"apply_mutant: {mutant_id}: find occurs {count} times in {source_in}\n")
        return 1
    with open(source_out, "w", encoding="utf-8") as f:
        f.write(text.replace(mutant["find"], mutant["replace"]))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
