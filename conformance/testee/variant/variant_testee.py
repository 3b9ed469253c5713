#!/usr/bin/env python3
"""The variant testee: reference_testee behind a rewriter that changes only what the profile
leaves free (specificity, tested like sensitivity: the gate must pass it on every REQUIRED
check).

usage: variant_testee.py PATH/reference_testee [ARGS...]

It starts the reference testee as a child and relays the testee protocol
(azure-pricing-testee/4, /3 or /2, ../PROTOCOL.md) both ways: the gate's lines go to the child unchanged;
every line the child writes is rewritten before the gate sees it:

1. JSON layout: members in reverse order at every depth, extra whitespace; inside
   report.output and report.tool.parameters_schema (JSON text) too, pretty-printed over several
   lines. Arrays keep their order, numbers keep their exact text. In the parameter schema, an
   argument's enum that holds null becomes pydantic's Optional[Literal[...]] layout: anyOf of
   the enum without null and {"type": "null"}.
2. exec_bounded argv: argv[0..2] kept, the options (each with its value) in reverse order,
   and --currency written as --currency=VALUE.
3. The --filter value: top-level ` and ` operands in reverse order, and the region expansion's
   `armRegionName eq '...' or ...` terms in reverse order. The raw filter's parentheses and
   text are kept.
4. exec_bounded env in reverse order.
5. report.trusted_messages, report.warnings (the text after the warning's category) and
   report.tool.description reworded, keeping their facts: quote style swapped, thousands
   separators dropped, "case-sensitive" style hyphens turned into spaces, sentences in reverse
   order, and a sentence of our own in front.

Nothing else changes. The rewrites are pure and deterministic; a line the rewriter cannot read
is passed on unchanged (and logged), so the relay itself never alters seq handling.
Standard library only. Logs go to stderr.
"""
import json
import os
import re
import subprocess
import sys
import threading

PREFIX = "Azure pricing tool says:"
CHILD_EXIT_SECONDS = 5
# Hyphenated identifiers the reference's messages name, kept as they are.
KEEP_HYPHENATED = frozenset({"policy-log"})


def log(text):
    sys.stderr.write("variant_testee: " + text + "\n")
    sys.stderr.flush()


# ---------------------------------------------------------------------------------------------
# JSON with its values kept exactly: objects as ordered pairs, numbers as their text.

class Obj:
    """A JSON object as its members in order (duplicates, if any, kept)."""

    def __init__(self, pairs):
        self.pairs = list(pairs)

    def get(self, key, default=None):
        for k, v in self.pairs:
            if k == key:
                return v
        return default

    def set(self, key, value):
        self.pairs = [(k, value if k == key else v) for k, v in self.pairs]


class Num:
    """A JSON number as its text, so that no value is rounded or reformatted."""

    def __init__(self, text):
        self.text = text


def _no_constant(name):
    raise ValueError("not JSON: " + name)


def parse(text):
    return json.loads(text, object_pairs_hook=Obj, parse_float=Num, parse_int=Num,
                      parse_constant=_no_constant)


def _string(s):
    # ensure_ascii=False keeps the text; a lone surrogate (only from a \u escape) stays escaped.
    out = json.dumps(s, ensure_ascii=False)
    if any(0xD800 <= ord(c) <= 0xDFFF for c in out):
        out = "".join("\\u%04x" % ord(c) if 0xD800 <= ord(c) <= 0xDFFF else c for c in out)
    return out


def reverse_members(v):
    """Every object's members in reverse order, at every depth; arrays keep their order."""
    if isinstance(v, Obj):
        return Obj((k, reverse_members(x)) for k, x in reversed(v.pairs))
    if isinstance(v, list):
        return [reverse_members(x) for x in v]
    return v


def dump_line(v):
    """One line: `{ "b" : 1 ,  "a" : 2 }`, never a newline."""
    if isinstance(v, Obj):
        if not v.pairs:
            return "{ }"
        return "{ " + " ,  ".join(_string(k) + " :  " + dump_line(x) for k, x in v.pairs) + " }"
    if isinstance(v, list):
        if not v:
            return "[ ]"
        return "[ " + " ,  ".join(dump_line(x) for x in v) + " ]"
    return _scalar(v)


def dump_pretty(v, indent=""):
    """Several lines, three spaces per level, ' : ' between name and value."""
    inner = indent + "   "
    if isinstance(v, Obj):
        if not v.pairs:
            return "{}"
        items = [inner + _string(k) + " : " + dump_pretty(x, inner) for k, x in v.pairs]
        return "{\n" + ",\n".join(items) + "\n" + indent + "}"
    if isinstance(v, list):
        if not v:
            return "[]"
        return "[\n" + ",\n".join(inner + dump_pretty(x, inner) for x in v) + "\n" + indent + "]"
    return _scalar(v)


def _scalar(v):
    if isinstance(v, Num):
        return v.text
    if v is True:
        return "true"
    if v is False:
        return "false"
    if v is None:
        return "null"
    if isinstance(v, str):
        return _string(v)
    raise TypeError("not a JSON value: %r" % (v,))


def rewrite_json_text(text):
    """JSON text (a report, a schema) with its members reversed and pretty-printed; text that
    is not JSON is returned unchanged."""
    try:
        value = parse(text)
    except ValueError:
        return text
    return dump_pretty(reverse_members(value))


def optional_enums_as_any_of(schema):
    """Each top-level property whose enum holds null gets pydantic's layout for an
    Optional[Literal[...]]: `anyOf` of the enum without null and `{"type": "null"}`, in place of
    its enum. The values allowed stay the same."""
    properties = schema.get("properties") if isinstance(schema, Obj) else None
    if not isinstance(properties, Obj):
        return schema
    for _, prop in properties.pairs:
        values = prop.get("enum") if isinstance(prop, Obj) else None
        if not isinstance(values, list) or None not in values:
            continue
        strings = Obj([("enum", [v for v in values if v is not None])])
        prop.pairs = [("anyOf", [strings, Obj([("type", "null")])]) if k == "enum" else (k, v)
                      for k, v in prop.pairs]
    return schema


def rewrite_schema_text(text):
    """The parameter schema as rewrite_json_text writes it, its optional enums as anyOf."""
    try:
        value = parse(text)
    except ValueError:
        return text
    return dump_pretty(reverse_members(optional_enums_as_any_of(value)))


# ---------------------------------------------------------------------------------------------
# argv and the OData filter.

FLAG_OPTIONS = frozenset({"--include-savings-plan"})
EQUALS_OPTION = "--currency"


def rewrite_argv(argv, raw_filter=None):
    """argv[0..2] kept; the options in reverse order, each with its value; --currency as
    --currency=VALUE; the --filter value rewritten by rewrite_filter. An argv this cannot group
    (a stray word, an option without its value) is returned unchanged."""
    if len(argv) < 3 or not all(isinstance(a, str) for a in argv):
        return argv
    groups = []
    i = 3
    while i < len(argv):
        option = argv[i]
        if not option.startswith("--"):
            return argv
        if option in FLAG_OPTIONS:
            groups.append([option])
            i += 1
            continue
        if i + 1 >= len(argv):
            return argv
        value = argv[i + 1]
        if option == "--filter":
            value = rewrite_filter(value, raw_filter)
        groups.append([option, value])
        i += 2
    out = list(argv[:3])
    for group in reversed(groups):
        if group[0] == EQUALS_OPTION and len(group) == 2:
            out.append(group[0] + "=" + group[1])
        else:
            out.extend(group)
    return out


def split_top(text, word):
    """`text` split at ` word ` where the parenthesis depth is 0 and outside '...' literals
    ('' inside a literal is a quote: toggling twice leaves the state as it was). None when the
    parentheses do not balance or a literal does not close."""
    sep = " " + word + " "
    parts, depth, quoted, start, i = [], 0, False, 0, 0
    while i < len(text):
        c = text[i]
        if c == "'":
            quoted = not quoted
        elif not quoted and c == "(":
            depth += 1
        elif not quoted and c == ")":
            depth -= 1
            if depth < 0:
                return None
        elif not quoted and depth == 0 and text.startswith(sep, i):
            parts.append(text[start:i])
            i += len(sep)
            start = i
            continue
        i += 1
    if depth != 0 or quoted:
        return None
    parts.append(text[start:])
    return parts


def _enclosed(operand):
    """The text inside `(...)` when the operand's first parenthesis closes at its end."""
    if not (operand.startswith("(") and operand.endswith(")")):
        return None
    inner = operand[1:-1]
    # split_top refuses an inside whose depth goes below 0, which is "(a) and (b)": the first
    # parenthesis closes early; and one that does not balance.
    if split_top(inner, "and") is None:
        return None
    return inner


REGION_TERM = re.compile(r"armRegionName eq '(?:[^']|'')*'\Z")


def _reverse_region_group(operand):
    inner = _enclosed(operand)
    if inner is None:
        return operand
    terms = split_top(inner, "or")
    if terms is None or len(terms) < 2 or not all(REGION_TERM.match(t) for t in terms):
        return operand
    return "(" + " or ".join(reversed(terms)) + ")"


def rewrite_filter(value, raw_filter=None):
    """The top-level ` and ` operands in reverse order; in the region expansion group (every
    term `armRegionName eq '...'`), the ` or ` terms in reverse order. The raw filter's operand,
    `(` + raw_filter + `)`, is never rewritten inside."""
    operands = split_top(value, "and")
    if operands is None:
        return value
    raw_operand = None if raw_filter is None else "(" + raw_filter + ")"
    out = []
    for operand in reversed(operands):
        out.append(operand if operand == raw_operand else _reverse_region_group(operand))
    return " and ".join(out)


# ---------------------------------------------------------------------------------------------
# Messages: the same facts in other words.

# A quoted span: single quotes that are not apostrophes (no word character or quote on the
# outside), or double quotes.
_SINGLE_SPAN = r"(?<![\w'\"])'[^'\"\n]*'(?![\w'\"])"
_DOUBLE_SPAN = r"\"[^\"\n]*\""
_SPAN = re.compile(_SINGLE_SPAN + "|" + _DOUBLE_SPAN)
# Text just before a quote that makes the quoted span code (an OData literal such as
# `eq 'x'` or `contains(meterName, 'Spot')`), whose quotes are facts.
_CODE_BEFORE = re.compile(r"(?:\b(?:eq|ne|gt|ge|lt|le)\s*|\w\([^()'\"]*)\Z")
_THOUSANDS = re.compile(r"(?<=\d),(?=\d{3}(?!\d))")
_HYPHENATED = re.compile(r"(?<![\w\-./@=])((?:[a-z]+|\d+)-[a-z]+)(?![\w\-/@=])")
_ABBREVIATIONS = ("e.g.", "i.e.", "etc.", "vs.", "cf.")


def _segments(text):
    """[(is_quoted, text)]: quoted spans apart from the prose around them."""
    out, pos = [], 0
    for m in _SPAN.finditer(text):
        if m.start() > pos:
            out.append((False, text[pos:m.start()]))
        out.append((True, m.group(0)))
        pos = m.end()
    if pos < len(text):
        out.append((False, text[pos:]))
    return out


def swap_quotes(text):
    """'x' -> "x" and "x" -> 'x' where the span holds no quote and is not code."""
    out = []
    for quoted, seg in _segments(text):
        before = "".join(out)
        if quoted and not _CODE_BEFORE.search(before) and "'" not in seg[1:-1] \
                and '"' not in seg[1:-1]:
            seg = ('"' if seg[0] == "'" else "'") + seg[1:-1] + ('"' if seg[0] == "'" else "'")
        out.append(seg)
    return "".join(out)


def _prose(text, change):
    """`change` applied to the text outside quoted spans."""
    return "".join(seg if quoted else change(seg) for quoted, seg in _segments(text))


def drop_thousands(text):
    return _prose(text, lambda s: _THOUSANDS.sub("", s))


def unhyphenate(text):
    def one(m):
        return m.group(0) if m.group(1) in KEEP_HYPHENATED else m.group(1).replace("-", " ")
    return _prose(text, lambda s: _HYPHENATED.sub(one, s))


def split_sentences(text):
    """Sentences at '. ' (outside quoted spans, not after an abbreviation such as e.g.); each
    keeps its own text and its full stop."""
    sentences, current = [], ""
    for quoted, seg in _segments(text):
        if quoted:
            current += seg
            continue
        i = 0
        while i < len(seg):
            current += seg[i]
            if seg[i] == "." and seg[i + 1:i + 2] == " " and \
                    not current.endswith(_ABBREVIATIONS) and i + 2 < len(seg):
                sentences.append(current)
                current = ""
                i += 2
                continue
            i += 1
    if current:
        sentences.append(current)
    return sentences


def reverse_sentences(text):
    sentences = split_sentences(text)
    if len(sentences) < 2:
        return text
    if not sentences[-1].endswith("."):
        sentences[-1] += "."
    return " ".join(reversed(sentences))


def reword(text):
    """The same facts in other words (see the module's docstring, item 5)."""
    text = drop_thousands(text)
    text = unhyphenate(text)
    text = reverse_sentences(text)
    text = swap_quotes(text)
    return PREFIX + " " + text


_WARNING_CATEGORY = re.compile(r"\A([A-Za-z_][A-Za-z0-9_]*Warning): ")


def reword_warning(text):
    """A warning keeps its category (`SomethingWarning: `) verbatim; the rest is reworded."""
    m = _WARNING_CATEGORY.match(text)
    if not m:
        return reword(text)
    return m.group(0) + reword(text[m.end():])


# ---------------------------------------------------------------------------------------------
# One line from the reference testee.

def _strings(v):
    return isinstance(v, list) and all(isinstance(x, str) for x in v)


def rewrite_report(report):
    messages = report.get("trusted_messages")
    if _strings(messages):
        report.set("trusted_messages", [reword(m) for m in messages])
    warnings = report.get("warnings")
    if _strings(warnings):
        report.set("warnings", [reword_warning(w) for w in warnings])
    output = report.get("output")
    if isinstance(output, str):
        report.set("output", rewrite_json_text(output))
    tool = report.get("tool")
    if isinstance(tool, Obj):
        description = tool.get("description")
        if isinstance(description, str):
            tool.set("description", reword(description))
        schema = tool.get("parameters_schema")
        if isinstance(schema, str):
            tool.set("parameters_schema", rewrite_schema_text(schema))


def rewrite_line(line, raw_filter=None):
    """One line the reference wrote (without its newline), as the gate gets it."""
    message = parse(line)
    if not isinstance(message, Obj):
        return line
    if message.get("op") == "exec_bounded":
        argv, env = message.get("argv"), message.get("env")
        if _strings(argv):
            message.set("argv", rewrite_argv(argv, raw_filter))
        if _strings(env):
            message.set("env", list(reversed(env)))
    report = message.get("report")
    if isinstance(report, Obj):
        rewrite_report(report)
    return dump_line(reverse_members(message))


def raw_filter_of(gate_line):
    """The raw `filter` argument of a case message, or None."""
    try:
        message = parse(gate_line)
        if not isinstance(message, Obj) or message.get("op") != "case":
            return None
        call = message.get("call")
        arguments = parse(call.get("arguments"))
        value = arguments.get("filter") if isinstance(arguments, Obj) else None
        return value if isinstance(value, str) else None
    except (ValueError, TypeError, AttributeError):
        return None


# ---------------------------------------------------------------------------------------------
# The relay.

class Relay:
    def __init__(self, child):
        self.child = child
        self.raw_filter = None  # of the case in flight; set before the case reaches the child

    def gate_to_child(self):
        """The gate's lines, unchanged, until EOF (then the child gets EOF too)."""
        stdin = sys.stdin.buffer
        try:
            for line in iter(stdin.readline, b""):
                text = line.decode("utf-8", errors="replace")
                if '"case"' in text:
                    self.raw_filter = raw_filter_of(text.rstrip("\n"))
                self.child.stdin.write(line)
                self.child.stdin.flush()
        except (BrokenPipeError, OSError) as e:
            log("the reference testee stopped reading: %s" % e)
        finally:
            try:
                self.child.stdin.close()
            except OSError:
                pass

    def child_to_gate(self):
        """The child's lines, rewritten, until it closes its stdout (EOF or exit)."""
        stdout = sys.stdout.buffer
        for line in iter(self.child.stdout.readline, b""):
            body = line[:-1] if line.endswith(b"\n") else line
            try:
                out = rewrite_line(body.decode("utf-8"), self.raw_filter).encode("utf-8")
            except (ValueError, TypeError, UnicodeError) as e:
                log("line passed on unchanged, not rewritten: %s" % type(e).__name__)
                out = body
            try:
                stdout.write(out + b"\n")
                stdout.flush()
            except (BrokenPipeError, OSError):
                return


def main(argv):
    if len(argv) < 2:
        sys.stderr.write("usage: variant_testee.py PATH/reference_testee [ARGS...]\n")
        return 2
    try:
        child = subprocess.Popen(argv[1:], stdin=subprocess.PIPE, stdout=subprocess.PIPE)
    except OSError as e:
        log("cannot start %s: %s" % (argv[1], e))
        return 1
    relay = Relay(child)
    threading.Thread(target=relay.gate_to_child, daemon=True).start()
    relay.child_to_gate()
    try:
        code = child.wait(timeout=CHILD_EXIT_SECONDS)
    except subprocess.TimeoutExpired:
        child.kill()
        code = child.wait()
    return code if code >= 0 else 1


if __name__ == "__main__":
    status = main(sys.argv)
    sys.stdout.flush()
    sys.stderr.flush()
    # Not sys.exit: the relay thread may still be blocked reading stdin, and interpreter
    # shutdown with a daemon thread inside a buffered read aborts the process.
    os._exit(status)
