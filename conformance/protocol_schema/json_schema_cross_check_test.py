#!/usr/bin/python3
"""conformance/json_schema held to a reference: Debian's python3-jsonschema (Draft202012Validator).

usage: json_schema_cross_check_test.py SCHEMA_VERDICTS FILE...

VERDICTS is the driver (verdicts_main.cc) that prints this repository's validator's verdicts.
Each FILE is a schema (*.schema.json) or a document, which is checked against the one schema
in its own directory (conformance/cases/*.json against case.schema.json). Both validators judge:

  - every schema itself: python-jsonschema's check_schema (the 2020-12 metaschema) and our
    CheckSchema (the subset it implements) must both accept it;
  - every document given, and every line of the two PROTOCOL.md transcripts against the schema
    the gate's protocol validator chooses for it (verdicts transcripts);
  - mutants of those documents (a member dropped, a value of the wrong type, an unknown member,
    a string outside its enum or pattern, numbers at the edges of the integer rule...), one per
    place in a schema and kind of mutation;
  - keyword probes: small schemas for every keyword of the subset, with edge documents.

and must agree, valid or invalid, on every one. Where our validator means to differ from the
draft, the reference is told our rule (DIVERGENCES, each with its reason); each divergence's
example proves that stock python-jsonschema does differ there and that the adjusted one agrees.
Nothing is skipped: a transcript line no schema applies to (not JSON, an unknown op) is listed.
"""
import base64
import binascii
import json
import os
import re
import subprocess
import sys
import tempfile
from urllib.parse import urljoin

# Debian's package, whatever else is installed: its version is what tools/bazel fingerprints.
DEBIAN_DIST_PACKAGES = "/usr/lib/python3/dist-packages"
RAW = "@@raw-json-%d@@"
BASE_URI = "https://azure-pricing-conformance.invalid/"
INT64_MIN, UINT64_MAX = -(2 ** 63), 2 ** 64 - 1


def import_jsonschema():
    """The jsonschema module, or None after saying why it cannot be used."""
    sys.path.insert(0, DEBIAN_DIST_PACKAGES)
    try:
        import jsonschema
    except ImportError as e:
        print(f"FAIL cannot import jsonschema ({e}): install Debian's python3-jsonschema "
              "(tools/bazel installs it on a fresh machine: apt-get install python3-jsonschema)")
        return None
    if not jsonschema.__file__.startswith(DEBIAN_DIST_PACKAGES + "/"):
        print(f"FAIL jsonschema came from {jsonschema.__file__}, not Debian's python3-jsonschema")
        return None
    if not hasattr(jsonschema, "Draft202012Validator"):
        print("FAIL this jsonschema has no Draft202012Validator (Debian 12's 4.10.3 has it)")
        return None
    return jsonschema


# ---- Our rules, told to the reference ------------------------------------------------------

def is_our_integer(checker, instance):
    # json_schema.h: a JSON number written without fraction or exponent, and within 64 bits
    # (nlohmann reads a longer one as a double).
    return (isinstance(instance, int) and not isinstance(instance, bool)
            and INT64_MIN <= instance <= UINT64_MAX)


def ecma_pattern(pattern):
    """A Python pattern that means what the ECMA-262 one does: `$` (outside a class, unescaped)
    is the end of the string, never before a final newline as in Python, and `.` is no line
    terminator (\n, \r, U+2028, U+2029), where Python's excludes \n alone."""
    out, i, in_class = [], 0, False
    while i < len(pattern):
        c = pattern[i]
        if c == "\\":
            out.append(pattern[i:i + 2])
            i += 2
            continue
        if c == "[":
            in_class = True
        elif c == "]":
            in_class = False
        if c == "$" and not in_class:
            c = r"\Z"
        elif c == "." and not in_class:
            c = "[^\n\r\u2028\u2029]"
        out.append(c)
        i += 1
    return "".join(out)


def make_pattern_keyword(jsonschema):
    def pattern(validator, patrn, instance, schema):
        if validator.is_type(instance, "string") and not re.search(ecma_pattern(patrn), instance):
            yield jsonschema.ValidationError(f"{instance!r} does not match {patrn!r} (ECMA-262)")
    return pattern


def make_enum_keyword(jsonschema):
    equal = jsonschema._utils.equal  # 4.10.3's own deep equality, which const uses

    def enum(validator, enums, instance, schema):
        if not any(equal(instance, each) for each in enums):
            yield jsonschema.ValidationError(f"{instance!r} is not one of {enums!r}")
    return enum


def make_content_encoding_keyword(jsonschema):
    def content_encoding(validator, encoding, instance, schema):
        if encoding != "base64" or not validator.is_type(instance, "string"):
            return
        try:
            base64.b64decode(instance, validate=True)
        except (binascii.Error, ValueError) as e:  # ValueError: not ASCII
            yield jsonschema.ValidationError(f"is not base64: {e}")
    return content_encoding


# name, reason, adjustment, example (schema, document text): stock python-jsonschema must
# disagree with us on the example, the adjusted one must agree.
DIVERGENCES = [
    ("integer-is-written-without-fraction",
     "json_schema.h: \"integer\" is a JSON number written without fraction or exponent, so a "
     "protocol's integers are what every JSON reader reads as integers; the draft counts 1.0",
     "integer", ({"type": "integer"}, "1.0")),
    ("integer-is-within-64-bits",
     "json_schema.h: nlohmann reads an integer beyond 64 bits as a double, which is no integer "
     "here; the draft has no bound",
     "integer", ({"type": "integer"}, "18446744073709551616")),
    ("content-encoding-base64-asserted",
     "json_schema.h: contentEncoding \"base64\" is asserted (the standard alphabet, with "
     "padding: exec output must decode); the draft makes it an annotation",
     "contentEncoding", ({"type": "string", "contentEncoding": "base64"}, '"abc"')),
    ("pattern-is-ecma-262",
     "the draft says patterns are ECMA-262, which std::regex (ECMAScript) follows: `$` is the "
     "end of the string; python-jsonschema uses Python's re, where `$` also matches before a "
     "final newline",
     "pattern", ({"type": "string", "pattern": "^[a-z]+$"}, '"abc\\n"')),
    ("pattern-dot-is-no-line-terminator",
     "ECMA-262's `.` matches no line terminator, \\r and U+2028 included; Python's only "
     "excludes \\n",
     "pattern", ({"type": "string", "pattern": "^a.b$"}, '"a\\rb"')),
    ("reference-enum-nested-booleans",
     "a defect of python-jsonschema 4.10.3, not ours: its enum compares with Python's ==, so "
     "{\"a\": true} equals {\"a\": 1}; the draft (and its own const) says they differ",
     "enum", ({"enum": [{"a": 1}]}, '{"a":true}')),
]
ADJUSTMENTS = ["integer", "contentEncoding", "pattern", "enum"]


def validator_class(jsonschema, adjustments):
    """Draft202012Validator told our rules for `adjustments` (a subset of ADJUSTMENTS)."""
    base = jsonschema.Draft202012Validator
    keywords = {}
    if "pattern" in adjustments:
        keywords["pattern"] = make_pattern_keyword(jsonschema)
    if "enum" in adjustments:
        keywords["enum"] = make_enum_keyword(jsonschema)
    if "contentEncoding" in adjustments:
        keywords["contentEncoding"] = make_content_encoding_keyword(jsonschema)
    checker = base.TYPE_CHECKER
    if "integer" in adjustments:
        checker = checker.redefine("integer", is_our_integer)
    return jsonschema.validators.extend(base, keywords, type_checker=checker)


class Reference:
    """python-jsonschema over a store of schemas by key, with and without our rules."""

    def __init__(self, jsonschema, schemas):
        """`schemas`: key ($id, or the file's path) -> schema."""
        self.jsonschema = jsonschema
        self.classes = {"ours": validator_class(jsonschema, ADJUSTMENTS),
                        "stock": validator_class(jsonschema, [])}
        for a in ADJUSTMENTS:
            self.classes["without " + a] = validator_class(
                jsonschema, [x for x in ADJUSTMENTS if x != a])
        self.validators = {}
        # Without "$schema": 4.10.3 picks a subschema's validator class by its $schema, so a
        # $ref to another whole document would leave our rules for stock Draft202012Validator.
        # check_schema sees the files as they are.
        self.store = {}
        for key, schema in schemas.items():
            bare = {k: v for k, v in schema.items() if k != "$schema"} \
                if isinstance(schema, dict) else schema
            self.store[key] = self.store[urljoin(BASE_URI, key)] = bare

    def valid(self, rules, key, document):
        if (rules, key) not in self.validators:
            schema = self.store[key]
            # An absolute base: 4.10.3's RefResolver joins an already resolved reference onto
            # the scope again, which doubles a relative $id such as case.schema.json's
            # ("a/case.schema.json" becomes "a/a/case.schema.json") and then finds nothing there.
            resolver = self.jsonschema.RefResolver(BASE_URI, schema, store=self.store)
            self.validators[(rules, key)] = self.classes[rules](schema, resolver=resolver)
        errors = list(self.validators[(rules, key)].iter_errors(document))
        return not errors, [f"/{'/'.join(str(p) for p in e.absolute_path)}: {e.message[:200]}"
                            for e in errors[:3]]


# ---- What is judged --------------------------------------------------------------------------

class Item:
    def __init__(self, kind, label, schema, text, mutation=""):
        self.kind, self.label, self.schema, self.text = kind, label, schema, text
        self.mutation = mutation  # a mutant's kind of mutation
        self.protocol_valid = None  # a transcript line's verdict from the protocol validator


def raw(text, raws):
    raws.append(text)
    return RAW % (len(raws) - 1)


def dumps(doc, raws):
    text = json.dumps(doc, ensure_ascii=False, separators=(",", ":"))
    for i, r in enumerate(raws):
        text = text.replace(json.dumps(RAW % i), r)
    return text


def replacements(value, raws):
    """(mutation kind, replacement) for one value of a document."""
    wrong_type = {str: 7, int: "7", float: "7", bool: 0, type(None): False, dict: [], list: {}}
    out = [("wrong-type", wrong_type[type(value)])]
    if value is not None:
        out.append(("null", None))
    if isinstance(value, bool):
        out.append(("flipped", not value))
    elif isinstance(value, str):
        out += [("empty-string", ""), ("out-of-enum", value + "~"),
                ("final-newline", value + "\n"), ("non-ascii", value + "\u00e9")]
    elif isinstance(value, int):
        out += [("negative", -1), ("zero", 0), ("written-as-1.0", raw(f"{value}.0", raws)),
                ("exponent", raw("1e3", raws)), ("minus-zero", raw("-0", raws)),
                ("int64-max", 2 ** 63 - 1), ("past-int64", 2 ** 63), ("past-uint64", 2 ** 64)]
    elif isinstance(value, float):
        out += [("integral", int(value)), ("negative", -0.5)]
    elif isinstance(value, list):
        out += [("empty-array", [])]
        if value:
            out += [("repeated-item", value + [value[0]]), ("wrong-type-item", value + [7]),
                    ("first-item-dropped", value[1:])]
    elif isinstance(value, dict):
        out += [("unknown-member", dict(value, zz_unknown=1)), ("empty-object", {})]
    return out


def places(doc, path=()):
    """(path, value) of every value in `doc`, the root first."""
    yield path, doc
    if isinstance(doc, dict):
        for k, v in doc.items():
            yield from places(v, path + (k,))
    elif isinstance(doc, list):
        for i, v in enumerate(doc):
            yield from places(v, path + (i,))


def replaced(doc, path, value, drop=False):
    if not path:
        return value
    copy = dict(doc) if isinstance(doc, dict) else list(doc)
    if len(path) == 1 and drop:
        del copy[path[0]]
    else:
        copy[path[0]] = replaced(doc[path[0]], path[1:], value, drop)
    return copy


def mutants(schema, label, doc, seen):
    """One mutant per place of the schema (array indices generalized), type of value (or a
    word-like string's value) and kind of mutation."""
    out = []
    for path, value in places(doc):
        generic = "/".join("*" if isinstance(p, int) else p for p in path)
        # A word-like string may be an enum's value that chooses a branch (if/then, oneOf).
        word = isinstance(value, str) and re.fullmatch("[a-z_]{1,20}", value)
        short = value if word else type(value).__name__
        cases = [("member-dropped", None, True)] if path else []
        raws = []
        cases += [(kind, v, False) for kind, v in replacements(value, raws)]
        for kind, v, drop in cases:
            key = (schema, generic, short, kind)
            if key in seen:
                continue
            seen.add(key)
            text = dumps(replaced(doc, path, v, drop), raws)
            out.append(Item("mutant", f"{label} {kind} at /{'/'.join(map(str, path))}",
                            schema, text, mutation=kind))
    return out


def one_case_per_document(doc):
    """A case file as one document per case: its mutants stay small."""
    return [dict(doc, cases=[case]) for case in doc.get("cases", [])] or [doc]


# Keyword probes: every keyword of the subset, with documents at its edges.
PROBES = [
    ({"type": ["string", "null"]}, ['"a"', "null", "1", "[]"]),
    ({"type": "number", "minimum": 0, "maximum": 1.5}, ["0", "1.5", "1.6", "-0.0", "-1", "1e0"]),
    ({"type": "number", "maximum": 9223372036854775807},
     ["9223372036854775807", "9223372036854775808", "9223372036854775808.0",
      "9223372036854775807.0"]),
    ({"type": "integer", "minimum": -9223372036854775808},
     ["-9223372036854775808", "-9223372036854775809", "0"]),
    ({"type": "integer", "maximum": 18446744073709551615},
     ["18446744073709551615", "18446744073709551614", "-1"]),
    ({"enum": [1, "1", None, [1], {"a": 1}]},
     ["1", "1.0", '"1"', "null", "[1]", "[1.0]", '{"a":1}', '{"a":true}', "true", "false"]),
    ({"const": False}, ["false", "0", "null", "true"]),
    ({"const": {"a": [1, 2]}}, ['{"a":[1,2]}', '{"a":[2,1]}', '{"a":[1,2.0]}']),
    ({"type": "string", "minLength": 2, "maxLength": 3},
     ['"a"', '"ab"', '"abc"', '"abcd"', '"\\u00e9\\u00e9"', '"\\ud83d\\ude00"',
      '"\\ud83d\\ude00\\ud83d\\ude00"', '"\\u00e9\\u00e9\\u00e9\\u00e9"']),
    ({"type": "string", "pattern": "^[a-z0-9][a-z0-9-]*$"},
     ['"a-b"', '"-a"', '"A"', '"a\\n"', '"\\na"', '""', '"a b"']),
    ({"type": "string", "pattern": "[0-9]{3}"}, ['"ab123cd"', '"12"', '"x1234"']),
    ({"type": "string", "pattern": "^.$"},
     ['"a"', '"ab"', '"\\u00e9"', '"\\ud83d\\ude00"', '"\\n"', '"\\r"', '"\\u2028"', '"\\t"']),
    ({"type": "string", "contentEncoding": "base64"},
     ['""', '"YQ=="', '"YWI="', '"YWJj"', '"YQ"', '"YQ="', '"Y==="', '"===="', '"YQ==YQ=="',
      '"Y Q=="', '"YQ==\\n"', '"-_-_"', '"+/+/"']),
    ({"type": "array", "minItems": 1, "maxItems": 2, "items": {"type": "integer"}},
     ["[]", "[1]", "[1,2]", "[1,2,3]", "[1.5]", '["1"]']),
    ({"type": "array", "uniqueItems": True},
     ["[]", "[1,2]", "[1,1]", "[1,1.0]", "[1,true]", "[0,false]", '[{"a":1,"b":2},{"b":2,"a":1}]',
      "[[1],[true]]", "[null,null]", '["a","A"]']),
    ({"type": "object", "required": ["a"], "properties": {"a": {"type": "string"}},
      "additionalProperties": False},
     ['{"a":"x"}', "{}", '{"a":1}', '{"a":"x","b":1}', "[]"]),
    ({"type": "object", "properties": {"a": False, "b": True}},
     ["{}", '{"a":1}', '{"b":1}', '{"c":1}']),
    ({"oneOf": [{"type": "integer"}, {"minimum": 2}]}, ["1", "3", "2.5", '"x"']),
    ({"anyOf": [{"type": "string"}, {"type": "integer", "minimum": 5}]},
     ['"x"', "5", "4", "null"]),
    ({"if": {"properties": {"kind": {"const": "a"}}, "required": ["kind"]},
      "then": {"required": ["x"]}, "else": {"required": ["y"]}},
     ['{"kind":"a","x":1}', '{"kind":"a","y":1}', '{"kind":"b","y":1}', '{"y":1}', "{}", "3"]),
    ({"if": {"type": "string"}, "then": {"minLength": 2}}, ['"a"', '"ab"', "1"]),
    ({"$defs": {"pos": {"type": "integer", "minimum": 1}},
      "type": "object", "properties": {"n": {"$ref": "#/$defs/pos"}}},
     ['{"n":1}', '{"n":0}', '{"n":"1"}', "{}"]),
    ({"$defs": {"s": {"type": "string"}}, "$ref": "#/$defs/s", "maxLength": 1},
     ['"a"', '"ab"', "1"]),
    (False, ["1", "null", "{}"]),
    (True, ["1", "null", "{}"]),
]


def write_schema(directory, name, schema):
    path = os.path.join(directory, name + ".schema.json")
    with open(path, "w", encoding="utf-8") as f:
        json.dump(schema, f)
    return path


# ---- The run ---------------------------------------------------------------------------------

def run_driver(verdicts, args, stdin=""):
    """The driver's JSON lines, or raises with its stderr."""
    run = subprocess.run([verdicts] + args, input=stdin, capture_output=True, text=True,
                         timeout=120)
    if run.returncode != 0:
        raise RuntimeError(f"verdicts {args[0]} exited {run.returncode}: {run.stderr[-2000:]}")
    return [json.loads(line) for line in run.stdout.splitlines()]


def schema_key(schema, path):
    return schema["$id"] if isinstance(schema, dict) and "$id" in schema else path


def documents_with_schemas(files, schemas_by_path):
    """(document path, schema path): the one *.schema.json of the document's directory."""
    out = []
    for f in files:
        if f in schemas_by_path:
            continue
        beside = [s for s in schemas_by_path if os.path.dirname(s) == os.path.dirname(f)]
        if len(beside) != 1:
            raise RuntimeError(f"{f}: {len(beside)} schemas beside it, not one")
        out.append((f, beside[0]))
    return out


class Tally:
    def __init__(self):
        self.items, self.invalid = 0, 0
        self.by_kind = {}  # a mutation's kind: [judged, invalid]


def gather(verdicts, files, directory, schemas, keys):
    """Every Item to judge, and the transcript lines no schema applies to."""
    items, refused, seen = [], [], set()
    for entry in run_driver(verdicts, ["transcripts"]):
        label = f"{entry['protocol']} {entry['side']} {entry['document'][:60]}"
        if entry["schema"] is None:
            refused.append(f"{label}: {entry['refused']}")
            continue
        items.append(Item("transcript", label, keys[entry["schema"]], entry["document"]))
        items[-1].protocol_valid = entry["valid"]
    for document, schema in documents_with_schemas(files, keys):
        with open(document, encoding="utf-8") as f:
            text = f.read()
        items.append(Item("document", document, keys[schema], text))
        for i, part in enumerate(one_case_per_document(json.loads(text))):
            items += mutants(keys[schema], f"{document}#{i}", part, seen)
    for item in [i for i in items if i.kind == "transcript"]:
        items += mutants(item.schema, item.label, json.loads(item.text), seen)
    for i, (schema, texts) in enumerate(PROBES):
        path = write_schema(directory, f"probe-{i}", schema)
        schemas[path] = schema
        items += [Item("probe", f"probe {i} {json.dumps(schema)[:60]} on {t}", path, t)
                  for t in texts]
    for name, _, _, (schema, text) in DIVERGENCES:
        path = write_schema(directory, "divergence-" + name, schema)
        schemas[path] = schema
        items.append(Item("divergence", name, path, text))
    return items, refused


def check_schemas(header, schemas, jsonschema):
    """Both validators accept every schema: ours within its subset, the reference against the
    draft's metaschema."""
    failures = []
    for line in header:
        if line["schema_problems"]:
            failures.append(f"{line['file']}: our CheckSchema refuses it: {line['schema_problems']}")
        try:
            jsonschema.Draft202012Validator.check_schema(schemas[line["id"]])
        except jsonschema.SchemaError as e:
            failures.append(f"{line['file']}: not a valid 2020-12 schema: {e.message}")
    return failures


def compare(items, answers, reference, tally, decided):
    """Every disagreement, described. Fills `tally` (per kind of item) and `decided` (per
    adjustment, the verdicts it changed from stock python-jsonschema's)."""
    failures = []
    for item, answer in zip(items, answers):
        if "error" in answer:
            failures.append(f"{item.label}: the driver could not judge it: {answer['error']}")
            continue
        document = json.loads(item.text)
        ours = answer["valid"]
        theirs, why = reference.valid("ours", item.schema, document)
        stock, _ = reference.valid("stock", item.schema, document)
        counts = tally.setdefault(item.kind, Tally())
        counts.items += 1
        counts.invalid += not ours
        if item.mutation:
            seen = counts.by_kind.setdefault(item.mutation, [0, 0])
            seen[0] += 1
            seen[1] += not ours
        if item.kind == "divergence":
            if stock == ours:
                failures.append(f"divergence {item.label}: stock python-jsonschema agrees with us "
                                f"on its example ({item.text}): the divergence is not there")
        elif stock != theirs:
            for a in ADJUSTMENTS:
                if reference.valid("without " + a, item.schema, document)[0] != theirs:
                    decided[a] = decided.get(a, 0) + 1
        if theirs != ours:
            failures.append(
                f"DISAGREEMENT {item.kind} {item.label}\n  schema {item.schema}\n"
                f"  document {item.text[:300]}\n  ours: {'valid' if ours else 'invalid'} "
                f"{answer['problems'][:3]}\n  python-jsonschema: "
                f"{'valid' if theirs else 'invalid'} {why}")
        if item.kind == "transcript" and item.protocol_valid != ours:
            failures.append(f"{item.label}: the protocol validator says "
                            f"{item.protocol_valid}, json_schema says {ours}")
    return failures


# Mutations meant to break a rule of the real schemas: each must break one somewhere.
DELIBERATE = ["member-dropped", "wrong-type", "unknown-member", "out-of-enum", "null",
              "written-as-1.0", "exponent", "negative", "empty-string", "final-newline",
              "empty-array", "past-int64"]


def check_strength(tally, refused):
    """The cross-check could have failed: the things it judged, and invalid verdicts among them."""
    failures = []
    minimum = {"transcript": 45, "document": 10, "mutant": 500, "probe": 80}
    for kind, least in minimum.items():
        have = tally.get(kind, Tally()).items
        if have < least:
            failures.append(f"only {have} {kind} documents were judged, expected at least {least}")
    mutant = tally.get("mutant", Tally())
    for kind in DELIBERATE:
        judged, invalid = mutant.by_kind.get(kind, [0, 0])
        if invalid == 0:
            failures.append(f"no {kind} mutant was invalid ({judged} judged): nothing was tested")
    for line in refused:
        if not (line.endswith("(framing)") or ": /op: " in line):
            failures.append(f"a transcript line has no schema, though it is framed and names a "
                            f"known op: {line}")
    return failures


def main(argv):
    if len(argv) < 3:
        print("FAIL usage: json_schema_cross_check_test.py SCHEMA_VERDICTS FILE... (the BUILD rule passes them)")
        return 1
    jsonschema = import_jsonschema()
    if jsonschema is None:
        return 1
    verdicts, files = argv[1], argv[2:]
    schemas, keys = {}, {}
    for path in files:
        if path.endswith(".schema.json"):
            with open(path, encoding="utf-8") as f:
                schema = json.load(f)
            keys[path] = schema_key(schema, path)
            schemas[keys[path]] = schema
    with tempfile.TemporaryDirectory(dir=os.environ.get("TEST_TMPDIR")) as directory:
        items, refused = gather(verdicts, files, directory, schemas, keys)
        schema_files = list(keys) + [i.schema for i in items if i.kind in ("probe", "divergence")]
        schema_files = list(dict.fromkeys(schema_files))
        requests = "".join(json.dumps({"schema": i.schema, "document": i.text}) + "\n"
                           for i in items)
        lines = run_driver(verdicts, ["judge"] + schema_files, requests)
    header, answers = lines[:len(schema_files)], lines[len(schema_files):]
    if len(answers) != len(items):
        print(f"FAIL the driver answered {len(answers)} of {len(items)} documents")
        return 1
    tally, decided = {}, {}
    failures = check_schemas(header, schemas, jsonschema)
    failures += compare(items, answers, Reference(jsonschema, schemas), tally, decided)
    failures += check_strength(tally, refused)
    report(tally, decided, refused, keys, items, jsonschema)
    for f in failures:
        print("FAIL " + f)
    print(f"{len(failures)} failures" if failures else "PASS: every verdict agrees")
    return 1 if failures else 0


def report(tally, decided, refused, keys, items, jsonschema):
    import importlib.metadata
    version = importlib.metadata.version("jsonschema")
    print(f"reference: python-jsonschema {version} ({jsonschema.__file__}), Draft202012Validator")
    print(f"schemas: {len(keys)} real ones, each accepted by both; judged against:")
    for path, key in keys.items():
        n = sum(1 for i in items if i.schema == key)
        print(f"  {path}: {n} documents" + ("" if n else " (reached only through $ref)"))
    for kind, t in tally.items():
        print(f"{kind}: {t.items} judged, {t.invalid} invalid by both")
    for kind, (judged, invalid) in sorted(tally.get("mutant", Tally()).by_kind.items()):
        print(f"  mutation {kind}: {judged} judged, {invalid} invalid")
    print("transcript lines no schema applies to (the gate refuses them before any schema):")
    for r in refused:
        print("  " + r)
    print("divergences (python-jsonschema told our rule):")
    for name, reason, adjustment, _ in DIVERGENCES:
        print(f"  {name} [{adjustment}]: {reason}")
    for a in ADJUSTMENTS:
        print(f"  {a}: decided {decided.get(a, 0)} verdicts that stock python-jsonschema "
              "gives otherwise")


if __name__ == "__main__":
    sys.exit(main(sys.argv))
