#!/usr/bin/env python3
"""Holds the two test tiers to their one list, tools/tiers/tiers.bzl.

Every test tagged `exhaustive` (left out of `tools/bazel test //...` by .bazelrc) must be listed
in EXHAUSTIVE_TESTS with a fast-tier companion: a test that exists, is not exhaustive itself, and
keeps the behaviour covered on every change. Every listed test must carry the tag.

Two ways to find the tagged tests:
  tiers_check.py                       read every BUILD and .bzl file of the source tree (the
                                       Bazel test //tools/tiers:tiers_test does this)
  tiers_check.py --query-labels FILE   take them from `bazel query` output, one label a line
                                       (tools/lint/check does this: Bazel's own answer)
Exit 0 when the pairing holds, 1 with one line per problem otherwise, 64 on a bad command line.
"""

import ast
import os
import sys

TAG = "exhaustive"
REGISTRY = "tools/tiers/tiers.bzl"


class Problem(Exception):
    pass


def workspace_root():
    """The source tree, found through this file's runfiles link (or its own place)."""
    here = os.path.realpath(__file__)
    root = os.path.dirname(os.path.dirname(os.path.dirname(here)))
    if not os.path.isfile(os.path.join(root, "WORKSPACE")):
        raise Problem(f"cannot find the source tree from {here}")
    return root


def starlark_files(root):
    for directory, dirs, files in os.walk(root):
        dirs[:] = sorted(d for d in dirs if not d.startswith((".", "bazel-")))
        for f in sorted(files):
            if f in ("BUILD", "BUILD.bazel") or f.endswith(".bzl"):
                yield os.path.join(directory, f)


def literal_strings(node):
    return [n.value for n in ast.walk(node) if isinstance(n, ast.Constant)
            and isinstance(n.value, str)]


def keyword(call, name):
    return next((k.value for k in call.keywords if k.arg == name), None)


def text(node):
    """A string literal, or literals joined with +, as Starlark reads them; None otherwise."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
        left, right = text(node.left), text(node.right)
        return None if left is None or right is None else left + right
    return None


def tagged_in_file(path, package, tree):
    """(labels tagged exhaustive, problems) of one parsed BUILD or .bzl file."""
    labels, problems, accounted = [], [], set()
    dict_keys = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.Dict):
            for k, v in zip(node.keys, node.values):
                if isinstance(k, ast.Constant) and isinstance(k.value, str):
                    dict_keys[id(v)] = k.value
    for node in ast.walk(tree):
        if not isinstance(node, ast.Call):
            continue
        tags = keyword(node, "tags")
        if tags is None or TAG not in literal_strings(tags):
            continue
        accounted.update(id(n) for n in ast.walk(tags))
        name = keyword(node, "name")
        if isinstance(name, ast.Constant) and isinstance(name.value, str):
            labels.append(f"//{package}:{name.value}")
        elif id(node) in dict_keys:  # a registry entry such as docs/transcripts.bzl's
            labels.append(f"//{package}:{dict_keys[id(node)]}")
        else:
            problems.append(f"{path}:{node.lineno}: a test tagged {TAG} needs a literal name")
    for node in ast.walk(tree):
        if isinstance(node, ast.Constant) and node.value == TAG and id(node) not in accounted:
            problems.append(f"{path}:{node.lineno}: '{TAG}' outside a literal tags list: "
                            "tag a test where it is declared, so this check can see it")
    return labels, problems


def tagged_in_tree(root):
    labels, problems = [], []
    for path in starlark_files(root):
        relative = os.path.relpath(path, root)
        if relative == REGISTRY:
            continue
        with open(path, encoding="utf-8") as f:
            tree = ast.parse(f.read(), filename=relative)
        found, bad = tagged_in_file(relative, os.path.dirname(relative), tree)
        labels += found
        problems += bad
    return labels, problems


def defined_names(root, package):
    """The literal target names of a package's BUILD file, and its registry dicts' keys."""
    names = set()
    for f in ("BUILD", "BUILD.bazel"):
        path = os.path.join(root, package, f)
        if not os.path.isfile(path):
            continue
        with open(path, encoding="utf-8") as handle:
            tree = ast.parse(handle.read())
        for node in ast.walk(tree):
            if isinstance(node, ast.Call):
                name = keyword(node, "name")
                if isinstance(name, ast.Constant) and isinstance(name.value, str):
                    names.add(name.value)
    return names


def read_registry(root):
    """{exhaustive label: (companion label, why)} from tiers.bzl's EXHAUSTIVE_TESTS."""
    with open(os.path.join(root, REGISTRY), encoding="utf-8") as f:
        tree = ast.parse(f.read(), filename=REGISTRY)
    for node in tree.body:
        if (isinstance(node, ast.Assign) and len(node.targets) == 1
                and getattr(node.targets[0], "id", "") == "EXHAUSTIVE_TESTS"):
            if not isinstance(node.value, ast.Dict):
                raise Problem(f"{REGISTRY}: EXHAUSTIVE_TESTS must be a dict literal")
            registry = {}
            for k, v in zip(node.value.keys, node.value.values):
                is_struct = isinstance(v, ast.Call)
                label = text(k)
                companion = text(keyword(v, "companion")) if is_struct else None
                why = text(keyword(v, "why")) if is_struct else None
                if label is None or companion is None or not (why or "").strip():
                    raise Problem(f"{REGISTRY}:{v.lineno}: each entry is "
                                  "\"//pkg:test\": struct(companion = \"//pkg:test\", why = \"...\")")
                registry[label] = (companion, why)
            return registry
    raise Problem(f"{REGISTRY}: no EXHAUSTIVE_TESTS")


def split(label):
    package, _, name = label[2:].partition(":")
    return package, name


def check(root, tagged):
    problems = []
    registry = read_registry(root)
    for label in sorted(set(tagged) - set(registry)):
        problems.append(f"{label} is tagged {TAG} but has no fast-tier companion in {REGISTRY}")
    for label, (companion, _) in sorted(registry.items()):
        if label not in tagged:
            problems.append(f"{REGISTRY} lists {label}, which is not a test tagged {TAG}")
        if companion in tagged or companion in registry:
            problems.append(f"{label}'s companion {companion} is itself exhaustive")
        package, name = split(companion)
        if not companion.startswith("//") or name not in defined_names(root, package):
            problems.append(f"{label}'s companion {companion} is not a target of {package}/BUILD")
    return problems


def main(argv):
    if argv and not (len(argv) == 2 and argv[0] == "--query-labels"):
        sys.stderr.write("usage: tiers_check.py [--query-labels FILE]\n")
        return 64
    try:
        root = workspace_root()
        if argv:
            with open(argv[1], encoding="utf-8") as f:
                tagged = [line.strip() for line in f if line.startswith("//")]
            problems = []
        else:
            tagged, problems = tagged_in_tree(root)
        problems += check(root, tagged)
    except (Problem, OSError, SyntaxError) as e:
        problems = [str(e)]
    for p in problems:
        print(f"tiers: {p}")
    if not problems:
        print(f"tiers: {len(tagged)} exhaustive tests, each with its fast-tier companion")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
