#!/usr/bin/env python3
"""A minimal testee for the azure-pricing testee protocol (../PROTOCOL.md), standard library only.

It is the example for implementers in other languages, not an implementation of the tool: it
speaks the whole protocol (hello, case, the acquire / exec_bounded / dispose callbacks, stop,
error answers) correctly, so it passes the gate's smoke check, and it implements only a few of
the tool's rules:

- the arguments are a JSON object of the eight known names (else refused, unknown_argument);
- at least one filter argument (else refused, missing_filter); service needs sku;
- the fixed argv, without region expansion; the raw filter in parentheses;
- one sandbox per call, always disposed; a completed lookup needs exit code 0, no stderr and
  status 200; the report carries the rows and the row counts.

It keeps no host between calls (a case's `same_host` calls are served like any other) and keys
every sandbox by the framework's call id alone, so two calls that reuse an id share a key.

Every other rule (value checks, region expansion, billing-zone selection, strict envelope
checks, labels, host options) is missing on purpose; the cases it fails are listed in
known_failures.json beside it, which the gate holds to (a listed case that starts passing, or
fails differently, fails the gate):

  tools/bazel run //conformance:gate -- --suite kind \\
      --testee "python3 conformance/testee/python/minimal_testee.py" \\
      --known-failures conformance/testee/python/known_failures.json
"""
import base64
import json
import sys

PROTOCOL = "azure-pricing-testee/4"
NAME, VERSION = "minimal-python-testee", "0.1"
ARGUMENTS = ["sku", "service", "region", "service_family", "price_type", "currency",
             "include_savings_plan", "filter"]
FILTERS = ["sku", "service", "region", "service_family", "price_type", "filter"]
OPTIONS = [("sku", "--sku"), ("service", "--service"), ("region", "--region"),
           ("service_family", "--service-family"), ("price_type", "--price-type"),
           ("currency", "--currency"), ("filter", "--filter")]
ENV = ["PATH=/usr/local/bin:/usr/bin:/bin", "HOME=/tmp/azmcp-home", "LANG=C.UTF-8"]
# The tool as the model sees it: a bare parameter schema, without the guidance the spec asks for.
TOOL = {"name": "azure_pricing_get",
        "description": "Look up Azure public retail prices.",
        "parameters_schema": json.dumps({"type": "object", "properties": {
            name: {"type": "boolean" if name == "include_savings_plan" else "string"}
            for name in ARGUMENTS}})}
COMPLETED = "The Azure retail price lookup completed."
REFUSED = "The price lookup was refused: the arguments are not valid."
FAILED = "The price lookup failed: the CLI's result was not accepted."


class Gate:
    """The gate's end of the pipe: one JSON object per line each way."""

    def __init__(self):
        self.callback_seq = 0

    def send(self, message):
        sys.stdout.write(json.dumps(message, separators=(",", ":")) + "\n")
        sys.stdout.flush()  # the gate waits for each line; a pipe is block-buffered

    def receive(self):
        line = sys.stdin.readline()
        if not line:
            sys.exit(0)  # EOF: the gate is gone
        return json.loads(line)

    def call(self, op, **members):
        """A callback: the testee's own seq, strictly increasing over the session."""
        self.callback_seq += 1
        self.send(dict({"seq": self.callback_seq, "op": op}, **members))
        answer = self.receive()
        if answer.get("seq") != self.callback_seq:
            raise RuntimeError("the gate answered another callback")
        return answer


def refusal(reason, message=REFUSED):
    return {"outcome": "refused", "reason": reason, "trusted_messages": [message]}


def plan(arguments_text):
    """The argv, or a refusal."""
    try:
        args = json.loads(arguments_text)
    except ValueError:
        return None, refusal("malformed_arguments")
    if not isinstance(args, dict):
        return None, refusal("malformed_arguments")
    if any(name not in ARGUMENTS for name in args):
        return None, refusal("unknown_argument")
    if not any(name in args for name in FILTERS):
        return None, refusal("missing_filter")
    if "service" in args and "sku" not in args:
        return None, refusal("service_without_sku")
    argv = ["/usr/local/bin/azmcp", "pricing", "get"]
    for name, option in OPTIONS:
        value = args.get(name, "USD" if name == "currency" else None)
        if value is not None:
            argv += [option, "(%s)" % value if name == "filter" else str(value)]
    if args.get("include_savings_plan") is True:
        argv.append("--include-savings-plan")
    return argv, None


def accept(answer, max_rows):
    """The report for the sandbox's answer to exec_bounded, or a failure."""
    if not answer.get("ok"):
        return {"outcome": "failed", "reason": answer["error"]["reason"],
                "trusted_messages": [FAILED]}
    stdout = base64.b64decode(answer["stdout_base64"])
    if answer["exit_code"] != 0 or answer["stderr_base64"]:
        return {"outcome": "failed", "reason": "cli_failed", "trusted_messages": [FAILED]}
    try:
        envelope = json.loads(stdout)
        rows = envelope["results"]["prices"]
    except (ValueError, KeyError, TypeError):
        return {"outcome": "failed", "reason": "malformed_envelope", "trusted_messages": [FAILED]}
    if envelope.get("status") != 200:
        return {"outcome": "failed", "reason": "cli_failed", "trusted_messages": [FAILED]}
    returned = rows[:max_rows]
    report = {"prices": returned, "returned_rows": len(returned), "received_rows": len(rows),
              "truncated": len(rows) > max_rows or len(rows) >= 5000,
              "upstream_limit_reached": len(rows) >= 5000}
    return {"outcome": "completed", "reason": None, "trusted_messages": [COMPLETED],
            "output": json.dumps(report, separators=(",", ":")),
            "result_label": {"integrity": "untrusted", "confidentiality": "public"}}


def lookup(gate, call):
    """One call of the tool: plan, then one sandbox, always disposed."""
    argv, refused = plan(call["arguments"])
    if refused:
        return refused
    host = call["host"]
    spec = {"os_family": "posix", "min_isolation": "container", "requires": ["EXEC"],
            "egress": "allowlist",
            "egress_allow": [{"host": "prices.azure.com", "methods": ["GET"]}],
            "isolation_scope": "call", "cleanup": "dispose",
            "image": host.get("image", "azure-pricing-conformance/fake-image")}
    key = {"agent_id": "minimal-agent", "session_id": "minimal-session",
           "call_id": call.get("call_id") or "call"}
    acquired = gate.call("acquire", spec=spec, key=key)
    if not acquired.get("ok"):
        return {"outcome": "failed", "reason": acquired["error"]["reason"],
                "trusted_messages": [FAILED]}
    try:
        answer = gate.call("exec_bounded", sandbox=acquired["sandbox"], argv=argv, env=ENV,
                           timeout_seconds=call.get("exec_timeout_seconds") or 60,
                           max_output_bytes=call.get("max_output_bytes") or 8 * 1024 * 1024)
        return accept(answer, call.get("max_rows") or 100)
    finally:
        gate.call("dispose", sandbox=acquired["sandbox"])


def report(result, call):
    # No label tracking: the output is never hidden, the conversation keeps the label the
    # framework gave it, and no policy logs anything.
    labels = call.get("labels")
    given = labels.get("conversation") if isinstance(labels, dict) else None
    conversation = {"integrity": "trusted", "confidentiality": "public"}
    names = {"integrity": ("trusted", "untrusted"),
             "confidentiality": ("public", "private", "user_identity")}
    for name, value in (given.items() if isinstance(given, dict) else []):
        if value in names.get(name, ()):  # an unknown name is not checked here: kept as default
            conversation[name] = value
    out = {"outcome": result["outcome"], "reason": result.get("reason"),
           "trusted_messages": result["trusted_messages"], "output": result.get("output"),
           "result_label": result.get("result_label"), "violations": [], "warnings": [],
           "tools": 1, "tool": TOOL,
           "output_variable": None, "conversation_label": conversation, "audit_log": []}
    return out


def main():
    gate = Gate()
    while True:
        message = gate.receive()
        seq, op = message.get("seq"), message.get("op")
        if op == "hello" and message.get("protocol") != PROTOCOL:
            # The gate then offers the previous version, which this testee does not speak either.
            gate.send({"seq": seq, "ok": False,
                       "error": {"outcome": "refused", "reason": "protocol_mismatch",
                                 "message": "This testee speaks azure-pricing-testee/4 only."}})
        elif op == "hello":
            gate.send({"seq": seq, "ok": True, "protocol": PROTOCOL,
                       "implementation": {"name": NAME, "version": VERSION}})
        elif op == "case":
            call = message["call"]
            gate.send({"seq": seq, "ok": True, "report": report(lookup(gate, call), call)})
        elif op == "stop":
            gate.send({"seq": seq, "ok": True})
            return
        else:
            gate.send({"seq": seq, "ok": False,
                       "error": {"outcome": "refused", "reason": "unknown_op",
                                 "message": "This testee does not know that op."}})


if __name__ == "__main__":
    main()
