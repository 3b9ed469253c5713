#!/usr/bin/env python3
"""A skeleton adapter for the azure-pricing backend protocol (PROTOCOL.md, same directory).

It speaks the protocol as the conformance suite expects but sandboxes nothing: exec_bounded
answers with the argv it was given, as stdout. Replace Backend with calls to a real sandbox
backend; keep the Adapter loop as it is. client_test runs this file against the suite's client.
"""
import base64
import json
import sys

PROTOCOL = "azure-pricing-backend/1"
MAX_LINE = 16 * 1024 * 1024
# Every member each request may have: any other is malformed_message, so a misspelt optional
# member is an error rather than silently absent.
MEMBERS = {
    "hello": {"seq", "op", "protocol"},
    "acquire": {"seq", "op", "spec", "key", "egress_upstream"},
    "exec_bounded": {"seq", "op", "sandbox", "argv", "env", "timeout_seconds", "max_output_bytes"},
    "dispose": {"seq", "op", "sandbox"},
    "stop": {"seq", "op"},
}


class Malformed(Exception):
    pass


def refused(seq, reason, message):
    return {"seq": seq, "ok": False,
            "error": {"outcome": "refused", "reason": reason, "message": message}}


INT64 = range(-2**63, 2**63)


def no_repeats(pairs):
    keys = [k for k, _ in pairs]
    if len(keys) != len(set(keys)):
        raise Malformed()
    return dict(pairs)


def values(doc):
    """Every key and value at any depth, `doc` included."""
    yield doc
    items = doc.items() if isinstance(doc, dict) else enumerate(doc) if isinstance(doc, list) else ()
    for key, value in items:
        yield key
        yield from values(value)


def lone_surrogate(doc):
    # json.loads joins a valid pair into one character, so any surrogate left was alone.
    return any(isinstance(v, str) and any("\ud800" <= c <= "\udfff" for c in v) for v in values(doc))


def out_of_range(doc):
    return any(type(v) is int and v not in INT64 for v in values(doc))


# The members of acquire's objects, each with its type, and the values a name may take.
SPEC = {"os_family": str, "min_isolation": str, "requires": list, "egress": str,
        "egress_allow": list, "isolation_scope": str, "cleanup": str, "image": str}
KEY = {"agent_id": str, "session_id": str, "call_id": str}
UPSTREAM = {"host": str, "port": int, "ca_pem": str}
NAMES = {
    "os_family": {"posix", "windows"},
    "min_isolation": {"none", "runtime", "os_process", "container", "hardened_container",
                      "microvm", "vm"},
    "egress": {"closed", "allowlist", "unrestricted"},
    "isolation_scope": {"conversation", "call"},
    "cleanup": {"reclaim", "reset", "dispose"},
}
CAPABILITIES = {"EXEC", "RUN_CODE", "HOST_TOOLS", "FILES_IN", "FILES_OUT", "FILES_LIST",
                "FILES_DELETE", "SNAPSHOT", "ATTACHED_IDENTITY", "RECLAIM", "EGRESS_METHODS"}


def shaped(value, members):
    """`value` when it is an object with exactly `members`, each of its type."""
    if type(value) is not dict or set(value) != set(members):
        raise Malformed()
    if any(type(value[name]) is not kind for name, kind in members.items()):
        raise Malformed()
    return value


def checked_spec(spec):
    shaped(spec, SPEC)
    if any(spec[name] not in values for name, values in NAMES.items()):
        raise Malformed()
    if not all(type(c) is str and c in CAPABILITIES for c in spec["requires"]):
        raise Malformed()
    for rule in spec["egress_allow"]:  # {"host": string, "methods": optional array of string}
        if type(rule) is not dict or type(rule.get("host")) is not str:
            raise Malformed()
        methods = rule.get("methods")
        if not set(rule) <= {"host", "methods"} or not (
                methods is None or type(methods) is list and all(type(m) is str for m in methods)):
            raise Malformed()
    return spec


def member(msg, name, kind):
    value = msg.get(name)
    if type(value) is not kind:  # `type is`, so that True is not an int
        raise Malformed()
    return value


class Backend:
    """Stand-in for a real backend: replace these four methods."""

    declaration = {"os_families": ["posix"], "isolation": "container",
                   "capabilities": ["EXEC", "EGRESS_METHODS"], "egress_modes": ["allowlist"],
                   "egress_method_tokens": ["GET"], "bounded_exec": True}

    def acquire(self, spec, key, egress_upstream):
        return object()

    def exec_bounded(self, sandbox, argv, env, timeout_seconds, max_output_bytes):
        out = " ".join(argv).encode()
        if len(out) > max_output_bytes:
            return None, ("output_limit", "The output passed the limit.")
        return (0, out, b""), None

    def dispose(self, sandbox):
        pass


class Adapter:
    def __init__(self, backend):
        self.backend = backend
        self.started = False
        self.last_seq = 0
        self.live = {}
        self.next_id = 1
        self.stopped = False

    def answer(self, raw):
        """The answer to one line (bytes without its newline)."""
        if len(raw) > MAX_LINE:
            return refused(None, "message_too_long", "The line is too long.")
        try:
            msg = json.loads(raw.decode("utf-8"), object_pairs_hook=no_repeats)
            if lone_surrogate(msg):  # not Unicode text: judged as invalid UTF-8 is
                raise Malformed()
        except (ValueError, RecursionError, Malformed):
            return refused(None, "malformed_message", "The line is not a protocol message.")
        seq = msg.get("seq") if isinstance(msg, dict) else None
        if type(seq) is not int or seq not in INT64:
            return refused(None, "malformed_message", "The line is not a protocol message.")
        if seq <= self.last_seq:
            return refused(seq, "out_of_order", "seq must increase.")
        self.last_seq = seq
        op = msg.get("op")
        if not isinstance(op, str) or out_of_range(msg):
            return refused(seq, "malformed_message", "The line is not a protocol message.")
        handler = getattr(self, "op_" + op, None) if op in MEMBERS else None
        if handler is None:
            return refused(seq, "unknown_op", "Unknown op.")
        if not set(msg) <= MEMBERS[op]:
            return refused(seq, "malformed_message", "The line is not a protocol message.")
        if not self.started and op != "hello":
            return refused(seq, "not_started", "The first request must be hello.")
        try:
            return dict({"seq": seq, "ok": True}, **handler(msg))
        except Malformed:
            return refused(seq, "malformed_message", "The line is not a protocol message.")
        except LookupError:
            return refused(seq, "unknown_sandbox", "No live sandbox has this id.")
        except Failure as f:
            return {"seq": seq, "ok": False, "error": f.error}

    def op_hello(self, msg):
        if self.started:
            raise Failure("refused", "already_started", "hello was already answered.")
        if member(msg, "protocol", str) != PROTOCOL:
            raise Failure("refused", "protocol_mismatch", "This adapter speaks " + PROTOCOL)
        self.started = True
        return {"protocol": PROTOCOL, "backend": {"name": "example", "version": "0.1"},
                "declaration": self.backend.declaration}

    def op_acquire(self, msg):
        # Every member is checked before anything is acquired, nested objects included.
        spec, key = checked_spec(member(msg, "spec", dict)), shaped(msg.get("key"), KEY)
        upstream = msg.get("egress_upstream")
        if upstream is not None and not 1 <= shaped(upstream, UPSTREAM)["port"] <= 65535:
            raise Malformed()
        sandbox = self.backend.acquire(spec, key, upstream)
        sandbox_id = "sb-%d" % self.next_id
        self.next_id += 1
        self.live[sandbox_id] = sandbox
        return {"sandbox": sandbox_id}

    def op_exec_bounded(self, msg):
        # Every member is read before the sandbox is looked up: a line is judged whole.
        name, argv, env = member(msg, "sandbox", str), member(msg, "argv", list), member(msg, "env", list)
        timeout, limit = member(msg, "timeout_seconds", int), member(msg, "max_output_bytes", int)
        if not argv or timeout < 0 or limit < 0 or not all(type(a) is str for a in argv + env):
            raise Malformed()
        result, error = self.backend.exec_bounded(self.live[name], argv, env, timeout, limit)
        if error:
            raise Failure("failed", error[0], error[1])
        code, out, err = result
        return {"exit_code": code, "stdout_base64": base64.b64encode(out).decode(),
                "stderr_base64": base64.b64encode(err).decode()}

    def op_dispose(self, msg):
        self.backend.dispose(self.live.pop(member(msg, "sandbox", str)))
        return {}

    def op_stop(self, msg):
        self.dispose_all()
        self.stopped = True
        return {}

    def dispose_all(self):
        while self.live:
            self.backend.dispose(self.live.popitem()[1])


class Failure(Exception):
    def __init__(self, outcome, reason, message):
        super().__init__(reason)
        self.error = {"outcome": outcome, "reason": reason, "message": message}


def lines(stream):
    """Each line without its newline; a line past MAX_LINE as MAX_LINE + 1 bytes, the rest of it
    read and dropped, so that no line is held in memory whole."""
    while True:
        raw = stream.readline(MAX_LINE + 2)
        if not raw:
            return
        if not raw.endswith(b"\n") and len(raw) > MAX_LINE:
            while raw and not raw.endswith(b"\n"):
                raw = stream.readline(1 << 20)
            yield b"x" * (MAX_LINE + 1)
        else:
            yield raw.rstrip(b"\n")


def main():
    adapter = Adapter(Backend())
    for raw in lines(sys.stdin.buffer):  # stdout carries answers only; log to stderr
        reply = adapter.answer(raw)
        sys.stdout.write(json.dumps(reply, separators=(",", ":")) + "\n")
        sys.stdout.flush()  # a pipe is block-buffered: without this the suite waits in vain
        if adapter.stopped:
            return 0
    adapter.dispose_all()  # EOF without stop: nothing may outlive the client
    return 1


if __name__ == "__main__":
    sys.exit(main())
