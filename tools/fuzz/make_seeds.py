#!/usr/bin/env python3
"""Regenerates the derived seed files under tools/fuzz/corpus/ from the tree's own data.

    python3 tools/fuzz/make_seeds.py        # from the repository root

Derived files are named <source>-<sha1 of the content, 12 hex> and are replaced wholesale; the
hand-written seeds (no such prefix) and the regression inputs (regression-*) are left alone.
corpus/README.md says where each kind comes from.
"""
import glob
import hashlib
import json
import os
import re
import urllib.parse

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
CORPUS = os.path.join(ROOT, "tools", "fuzz", "corpus")
DERIVED = ("cases-", "requests-", "scenarios-", "protocol-")


def case_documents():
    for path in sorted(glob.glob(os.path.join(ROOT, "conformance", "cases", "*.json"))):
        if not path.endswith(".schema.json"):
            with open(path, encoding="utf-8") as f:
                yield json.load(f)


def walk_cases(node, arguments, filters):
    if isinstance(node, dict):
        for key, value in node.items():
            if key == "arguments":
                text = value if isinstance(value, str) else json.dumps(
                    value, ensure_ascii=False, separators=(",", ":"))
                arguments.add(text)
                if isinstance(value, dict) and isinstance(value.get("filter"), str):
                    filters.add(value["filter"])
            if key == "argv" and isinstance(value, list):
                for i, arg in enumerate(value[:-1]):
                    if arg == "--filter" and isinstance(value[i + 1], str):
                        filters.add(value[i + 1])
            walk_cases(value, arguments, filters)
    elif isinstance(node, list):
        for item in node:
            walk_cases(item, arguments, filters)


def request_filters():
    """The $filter of every request the real CLI was recorded making."""
    texts = []
    current = [line.split("\t")[1].strip() for line in
               open(os.path.join(ROOT, "tools", "image", "azmcp-version"), encoding="utf-8")
               if line.startswith("current\t")][0]
    for path in [os.path.join(ROOT, "fixtures", "azmcp-3.0.0-beta.46/requests-observed.txt")] + \
            sorted(glob.glob(os.path.join(ROOT, "fixtures", "azmcp-%s-differential" % current,
                                          "*.json"))):
        with open(path, encoding="utf-8") as f:
            texts.append(f.read())
    found = set()
    for text in texts:
        for match in re.finditer(r"\$filter=([^&\s\"]*)", text):
            found.add(urllib.parse.unquote(match.group(1)))
    return found


def scenario_bodies():
    """The pages fakes/azmcp/scenarios.json has the fake API serve."""
    with open(os.path.join(ROOT, "fakes", "azmcp", "scenarios.json"), encoding="utf-8") as f:
        doc = json.load(f)
    found = set()

    def walk(node):
        if isinstance(node, dict):
            for key, value in node.items():
                if key == "body" and isinstance(value, str):
                    found.add(value)
                walk(value)
        elif isinstance(node, list):
            for item in node:
                walk(item)

    walk(doc)
    return found


def protocol_lines(path):
    with open(os.path.join(ROOT, path), encoding="utf-8") as f:
        # Transcript lines, each after "> " or "< " (who sent it).
        return {m.group(1) for m in (re.match(r'[<>] (\{"seq":.*\})\s*$', line) for line in f) if m}


def write(target, prefix, texts):
    directory = os.path.join(CORPUS, target)
    os.makedirs(directory, exist_ok=True)
    for name in os.listdir(directory):
        if name.startswith(prefix):
            os.remove(os.path.join(directory, name))
    for text in sorted(texts):
        data = text.encode("utf-8")
        name = prefix + hashlib.sha1(data).hexdigest()[:12]
        with open(os.path.join(directory, name), "wb") as f:
            f.write(data)
    print(f"{target}: {len(texts)} {prefix[:-1]} seeds")


def main():
    arguments, filters = set(), set()
    for doc in case_documents():
        walk_cases(doc, arguments, filters)
    write("region_plan", "cases-", arguments | filters)
    write("odata", "cases-", filters)
    write("odata", "requests-", request_filters())
    write("stj", "scenarios-", scenario_bodies())
    write("testee_protocol", "protocol-", protocol_lines("conformance/testee/PROTOCOL.md"))
    write("backend_protocol", "protocol-",
          protocol_lines("conformance/backend/protocol/PROTOCOL.md"))


if __name__ == "__main__":
    main()
