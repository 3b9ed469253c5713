#!/usr/bin/env python3
"""The variant testee's rewrites, on fixed inputs and through the real reference testee.

usage: variant_testee_unit_test.py VARIANT_PY [REFERENCE_TESTEE]

Each rewrite must change the form and keep the meaning: a reordered argv binds the same options
to the same values, a swapped filter has the same operands, a reworded message keeps its digits
and words, a re-laid-out JSON text is the same value. With REFERENCE_TESTEE, a short
conversation (hello, a lookup with region expansion and a raw filter, a refusal, stop) goes to
the reference and to the variant in front of it, and the two are compared the same way.
"""
import base64
import importlib.util
import json
import os
import re
import subprocess
import sys
import unittest

v = None  # the module under test, loaded from argv[1]
REFERENCE = None
DEADLINE_SECONDS = 30

AZMCP = ["/usr/local/bin/azmcp", "pricing", "get"]
EXPANSION = ("(armRegionName eq 'eastus' or armRegionName eq 'Global' or armRegionName eq "
             "'Zone 1' or armRegionName eq 'US Gov Zone 2')")
RAW = "serviceName eq 'O''Brien (x)' and (meterName eq 'a' or contains(meterName, 'Spot'))"


def bound(argv):
    """argv as the CLI binds it: {option: [values]}, and the flag's presence."""
    out, i = {}, 3
    while i < len(argv):
        token = argv[i]
        if token == "--include-savings-plan":
            out.setdefault(token, []).append(True)
            i += 1
        elif "=" in token:
            name, value = token.split("=", 1)
            out.setdefault(name, []).append(value)
            i += 1
        else:
            out.setdefault(token, []).append(argv[i + 1])
            i += 2
    return out


def facts(message):
    """The digits (thousands separators dropped) and the words of a message."""
    plain = re.sub(r"(?<=\d),(?=\d{3})", "", message)
    return sorted(re.findall(r"\d+", plain)), set(re.findall(r"[A-Za-z_]+", plain))



def optional_enums_as_any_of(schema):
    """What the variant does to a parameter schema, on plain JSON: an enum holding null becomes
    anyOf of the enum without null and {"type": "null"}."""
    schema = json.loads(json.dumps(schema))
    for prop in schema.get("properties", {}).values():
        if isinstance(prop, dict) and None in prop.get("enum", []):
            prop["anyOf"] = [{"enum": [x for x in prop.pop("enum") if x is not None]},
                             {"type": "null"}]
    return schema


class ArgvTest(unittest.TestCase):
    ARGV = AZMCP + ["--sku", "Standard_D4s_v5", "--service", "Virtual Machines",
                    "--price-type", "Consumption", "--currency", "USD",
                    "--include-savings-plan", "--filter", EXPANSION + " and (" + RAW + ")"]

    def test_same_options_and_values_in_another_order(self):
        out = v.rewrite_argv(self.ARGV, RAW)
        self.assertEqual(out[:3], AZMCP)
        self.assertNotEqual(out, self.ARGV)
        before, after = bound(self.ARGV), bound(out)
        self.assertEqual(sorted(before), sorted(after))
        for name in before:
            if name != "--filter":
                self.assertEqual(before[name], after[name], name)
        self.assertIn("--currency=USD", out)
        self.assertNotEqual([t for t in out if t.startswith("--")][0], "--sku")

    def test_an_argv_it_cannot_group_is_kept(self):
        for argv in [AZMCP + ["--sku"], AZMCP + ["stray"], AZMCP[:2]]:
            self.assertEqual(v.rewrite_argv(argv), argv)

    def test_deterministic(self):
        self.assertEqual(v.rewrite_argv(self.ARGV, RAW), v.rewrite_argv(list(self.ARGV), RAW))


class FilterTest(unittest.TestCase):
    def test_and_operands_swapped_raw_kept(self):
        value = EXPANSION + " and (" + RAW + ")"
        out = v.rewrite_filter(value, RAW)
        operands = v.split_top(out, "and")
        self.assertEqual(len(operands), 2)
        self.assertEqual(operands[0], "(" + RAW + ")")  # the raw filter, parentheses kept
        self.assertEqual(sorted(v.split_top(operands[1][1:-1], "or")),
                         sorted(v.split_top(EXPANSION[1:-1], "or")))

    def test_expansion_or_terms_reversed(self):
        out = v.rewrite_filter(EXPANSION)
        self.assertEqual(out, "(armRegionName eq 'US Gov Zone 2' or armRegionName eq 'Zone 1' "
                              "or armRegionName eq 'Global' or armRegionName eq 'eastus')")

    def test_quoted_region_with_doubled_quote(self):
        value = "(armRegionName eq 'mars''north' or armRegionName eq 'Global')"
        self.assertEqual(v.rewrite_filter(value),
                         "(armRegionName eq 'Global' or armRegionName eq 'mars''north')")

    def test_raw_filter_alone_is_untouched(self):
        raw = "armRegionName eq 'a' or armRegionName eq 'b'"
        self.assertEqual(v.rewrite_filter("(" + raw + ")", raw), "(" + raw + ")")

    def test_and_inside_a_literal_or_parentheses_is_not_split(self):
        self.assertEqual(v.split_top("(a and b) and c eq 'x and y'", "and"),
                         ["(a and b)", "c eq 'x and y'"])
        self.assertIsNone(v.split_top("(a", "and"))
        self.assertIsNone(v.split_top("a eq 'x", "and"))


class MessageTest(unittest.TestCase):
    MESSAGES = [
        "The CLI stopped at its 5,000-row limit, so rows may be missing from what it received. "
        "Narrow the query.",
        "The price API answered 404 (Not Found). It does so when the request URL is longer than "
        "about 2,048 characters: shorten the filter or use fewer values.",
        "Argument 'region' differs only in letter case from the price-list location value "
        "'Global'; location values are exact and case-sensitive. Give it exactly as 'Global', "
        "or give an ARM region name such as eastus.",
        "Raw OData filter; contains(meterName, 'Spot') supports substring queries, e.g. "
        "'D4s v5'. Meters with an empty region need filter \"armRegionName eq ''\" instead. "
        "The CLI's output and the sandboxes' keys.",
    ]

    def test_facts_kept_wording_changed(self):
        for message in self.MESSAGES:
            out = v.reword(message)
            self.assertNotEqual(out, message)
            self.assertTrue(out.startswith(v.PREFIX + " "), out)
            digits, words = facts(message)
            out_digits, out_words = facts(out)
            self.assertEqual(digits, out_digits, out)
            self.assertTrue(words <= out_words, (words - out_words, out))

    def test_each_rewrite(self):
        self.assertIn("5000 row limit", v.reword(self.MESSAGES[0]))
        self.assertIn("2048 characters", v.reword(self.MESSAGES[1]))
        out = v.reword(self.MESSAGES[2])
        self.assertIn('Argument "region"', out)
        self.assertIn("case sensitive", out)
        self.assertIn("price list location value \"Global\";", out)
        # sentences in reverse order, each with its own text
        self.assertLess(out.index("Give it exactly"), out.index("Argument"))

    def test_code_and_apostrophes_keep_their_quotes(self):
        out = v.reword(self.MESSAGES[3])
        self.assertIn("contains(meterName, 'Spot')", out)
        self.assertIn("\"armRegionName eq ''\"", out)
        self.assertIn("CLI's output", out)
        self.assertIn("sandboxes' keys", out)
        self.assertIn('e.g. "D4s v5"', out)  # not split after e.g.

    def test_warning_keeps_its_category(self):
        warning = ("MafSandboxAzurePricingExperimentalWarning: maf-sandbox-azure-pricing is "
                   "experimental. Its API may change or be removed without notice. This package "
                   "is not yet released.")
        out = v.reword_warning(warning)
        self.assertTrue(out.startswith("MafSandboxAzurePricingExperimentalWarning: " + v.PREFIX))
        self.assertIn("maf-sandbox-azure-pricing is experimental.", out)
        self.assertTrue(out.endswith("maf-sandbox-azure-pricing is experimental."), out)
        self.assertTrue(facts(warning)[1] <= facts(out)[1])

    def test_identifiers_keep_their_hyphens(self):
        self.assertIn("(tracker, policy, policy-log)",
                      v.reword("Middleware is one of (tracker, policy, policy-log)."))
        self.assertIn("--include-savings-plan", v.reword("Pass --include-savings-plan here."))


class JsonTest(unittest.TestCase):
    REPORT = ('{"prices":[{"armSkuName":"S","retailPrice":0.1920000000000000001,"n":12345678901'
              '234567890123,"e":1E-7,"nested":{"a":[3,2,1],"b":"\\u00e9\\ud83d\\ude00"}},'
              '{"armSkuName":"T"}],"returned_rows":2,"truncated":false}')

    def test_same_value_other_layout(self):
        out = v.rewrite_json_text(self.REPORT)
        self.assertNotEqual(out, self.REPORT)
        self.assertIn("\n", out)
        self.assertEqual(json.loads(out), json.loads(self.REPORT))
        # numbers keep their text; rows keep their order; members are reversed
        for number in ["0.1920000000000000001", "12345678901234567890123", "1E-7"]:
            self.assertIn(number, out)
        self.assertLess(out.index('"S"'), out.index('"T"'))
        self.assertLess(out.index('"truncated"'), out.index('"prices"'))

    def test_not_json_is_kept(self):
        self.assertEqual(v.rewrite_json_text("{not json"), "{not json")
        self.assertEqual(v.rewrite_schema_text("{not json"), "{not json")

    def test_an_optional_enum_takes_the_any_of_layout_and_allows_the_same_values(self):
        schema = {"type": "object", "properties": {
            "price_type": {"type": ["string", "null"], "enum": ["Consumption", "Reservation", None],
                           "description": "d"},
            "currency": {"type": ["string", "null"], "pattern": "^[A-Z]{3}$"},
            "closed": {"enum": ["a", "b"]}}}
        out = json.loads(v.rewrite_schema_text(json.dumps(schema)))
        self.assertEqual(out["properties"]["price_type"], {
            "type": ["string", "null"], "description": "d",
            "anyOf": [{"enum": ["Consumption", "Reservation"]}, {"type": "null"}]})
        self.assertEqual(out["properties"]["currency"], schema["properties"]["currency"])
        self.assertEqual(out["properties"]["closed"], {"enum": ["a", "b"]})
        self.assertEqual(out, optional_enums_as_any_of(schema))

    def test_line_stays_one_line_with_seq(self):
        line = ('{"seq":7,"ok":true,"report":{"outcome":"completed","reason":null,'
                '"trusted_messages":["A. B."],"output":' + json.dumps(self.REPORT) +
                ',"warnings":[],"tool":{"name":"azure_pricing_get","description":"X. Y.",'
                '"parameters_schema":"{\\"type\\":\\"object\\"}"}}}')
        out = v.rewrite_line(line)
        self.assertNotIn("\n", out)
        self.assertEqual(out, v.rewrite_line(line))
        before, after = json.loads(line), json.loads(out)
        self.assertEqual(after["seq"], 7)
        self.assertEqual(list(after), ["report", "ok", "seq"])
        self.assertEqual(json.loads(after["report"]["output"]),
                         json.loads(before["report"]["output"]))
        self.assertEqual(after["report"]["trusted_messages"], [v.PREFIX + " B. A."])
        self.assertEqual(after["report"]["tool"]["description"], v.PREFIX + " Y. X.")

    def test_exec_bounded_line(self):
        env = ["PATH=/bin", "HOME=/tmp/h", "LANG=C.UTF-8"]
        line = json.dumps({"seq": 2, "op": "exec_bounded", "sandbox": "sandbox-1",
                           "argv": AZMCP + ["--sku", "S", "--currency", "USD"], "env": env,
                           "timeout_seconds": 60, "max_output_bytes": 8388608})
        after = json.loads(v.rewrite_line(line))
        self.assertEqual(after["env"], list(reversed(env)))
        self.assertEqual(after["argv"], AZMCP + ["--currency=USD", "--sku", "S"])
        self.assertEqual((after["seq"], after["sandbox"], after["max_output_bytes"]),
                         (2, "sandbox-1", 8388608))


class ConversationTest(unittest.TestCase):
    """The reference alone and behind the variant, the same conversation."""

    ENVELOPE = {"status": 200, "message": "Success", "results": {"prices": [{
        "armSkuName": "Standard_D2s_v5", "skuName": "D4s v5",
        "productName": "Virtual Machines Dsv5 Series", "serviceName": "Virtual Machines",
        "serviceFamily": "Compute", "region": "eastus", "location": "US East",
        "retailPrice": 0.192, "unitPrice": 0.192, "currencyCode": "USD",
        "unitOfMeasure": "1 Hour", "priceType": "Consumption",
        "effectiveStartDate": "2023-07-01T00:00:00+00:00", "meterName": "D4s v5",
        "meterId": "00000000-0000-0000-0000-000000000001", "isPrimaryMeterRegion": True}]}}
    CALLS = [
        {"sku": "Standard_D2s_v5", "region": "eastus", "include_savings_plan": True,
         "filter": "serviceName eq 'Virtual Machines' and (meterName eq 'D4s v5' or "
                   "meterName eq 'x')"},
        {"sku": "x", "region": "GLOBAL"},
    ]

    @staticmethod
    def converse(argv):
        """[(line the testee wrote, parsed)] for hello, each call, stop."""
        child = subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                 text=True)
        lines = []

        def send(message):
            child.stdin.write(json.dumps(message) + "\n")
            child.stdin.flush()

        def receive():
            line = child.stdout.readline()
            if not line:
                raise AssertionError("the testee closed its output")
            lines.append((line, json.loads(line)))
            return lines[-1][1]

        try:
            send({"seq": 1, "op": "hello", "protocol": "azure-pricing-testee/2"})
            receive()
            for seq, arguments in enumerate(ConversationTest.CALLS, start=2):
                send({"seq": seq, "op": "case", "call": {
                    "arguments": json.dumps(arguments), "call_id": None, "same_host": False,
                    "host_json": "{}", "backend_json": "{}", "labels_json": "{}",
                    "middleware": ["tracker"], "max_rows": None,
                    "exec_timeout_seconds": None, "max_output_bytes": None}})
                while True:
                    message = receive()
                    if "op" not in message:
                        break
                    answer = {"seq": message["seq"], "ok": True}
                    if message["op"] == "acquire":
                        answer["sandbox"] = "sandbox-1"
                    elif message["op"] == "exec_bounded":
                        stdout = json.dumps(ConversationTest.ENVELOPE).encode()
                        answer.update(exit_code=0, stderr_base64="",
                                      stdout_base64=base64.b64encode(stdout).decode())
                    send(answer)
            send({"seq": len(ConversationTest.CALLS) + 2, "op": "stop"})
            receive()
            child.stdin.close()
            child.wait(timeout=DEADLINE_SECONDS)
        finally:
            if child.poll() is None:
                child.kill()
                child.wait()
            child.stdout.close()
            if not child.stdin.closed:
                child.stdin.close()
        return lines

    def test_same_meaning_other_form(self):
        if REFERENCE is None:
            self.skipTest("no reference testee given")
        ref = self.converse([REFERENCE])
        var = self.converse([sys.executable, v.__file__, REFERENCE])
        self.assertEqual(len(ref), len(var))
        for (ref_line, a), (var_line, b) in zip(ref, var):
            self.assertNotEqual(ref_line, var_line)
            self.assertEqual(a.get("seq"), b.get("seq"))
            self.assertEqual(a.get("op"), b.get("op"))
            if a.get("op") == "exec_bounded":
                self.assertNotEqual(a["argv"], b["argv"])
                self.assertEqual(sorted(a["env"]), sorted(b["env"]))
                self.assertNotEqual(a["env"], b["env"])
                ra, rb = bound(a["argv"]), bound(b["argv"])
                self.assertEqual(ra.pop("--filter"), [v.rewrite_filter(rb.pop("--filter")[0])])
                self.assertEqual(ra, rb)
            if "report" in a:
                self.compare_reports(a["report"], b["report"])

    def compare_reports(self, a, b):
        for key in ["outcome", "reason", "violations", "tools", "result_label"]:
            self.assertEqual(a[key], b[key], key)
        if a["output"] is not None:
            self.assertEqual(json.loads(a["output"]), json.loads(b["output"]))
        self.assertEqual(optional_enums_as_any_of(json.loads(a["tool"]["parameters_schema"])),
                         json.loads(b["tool"]["parameters_schema"]))
        self.assertEqual(a["tool"]["name"], b["tool"]["name"])
        pairs = list(zip(a["trusted_messages"], b["trusted_messages"])) + \
            list(zip(a["warnings"], b["warnings"])) + \
            [(a["tool"]["description"], b["tool"]["description"])]
        self.assertEqual(len(a["trusted_messages"]), len(b["trusted_messages"]))
        self.assertEqual(len(a["warnings"]), len(b["warnings"]))
        for before, after in pairs:
            self.assertNotEqual(before, after)
            self.assertEqual(facts(before)[0], facts(after)[0], after)
            self.assertTrue(facts(before)[1] <= facts(after)[1], after)


def load(path):
    spec = importlib.util.spec_from_file_location("variant_testee", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


if __name__ == "__main__":
    v = load(sys.argv[1])
    if len(sys.argv) > 2:
        REFERENCE = os.path.abspath(sys.argv[2])
    unittest.main(argv=sys.argv[:1], verbosity=2)
