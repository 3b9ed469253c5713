#!/usr/bin/env bash
# The command line as users and CI drive it: exit statuses, --json shape, --print-argv, replay,
# usage errors, and the host side (labels, middleware, backend declarations).
# CITES("INTRO-001", "HOST-003", "HOST-010", "HOST-011", "POLICY-004", "POLICY-005", "ARG-004")
# CITES("ARG-007", "UPSTREAM-002", "REGION-001", "SELECT-009", "SELECT-012", "BOUND-014")
# CITES("BOUND-015", "INTEG-003", "INTEG-004")
set -uo pipefail
tool="$1"
fixtures="fixtures/azmcp-3.0.0-beta.46/cli-stdout"
failures=0
source tools/testing/check.sh

check "completed table" 0 "returned_rows=4 received_rows=4 truncated=false" -- \
  --args-json '{"sku":"Standard_BASIC","region":"eastus"}' --replay-stdout "${fixtures}/success-basic.json"
check "completed json" 0 '"outcome":"completed","reason":null' -- \
  --args-json '{"sku":"x"}' --replay-stdout "${fixtures}/success-empty.json" --json
check "empty is completed" 0 '"report":{"prices":[],"returned_rows":0,"received_rows":0' -- \
  --args-json '{"sku":"x"}' --replay-stdout "${fixtures}/success-empty.json" --json
check "max rows" 0 '"returned_rows":1,"received_rows":4,"truncated":true' -- \
  --args-json '{"sku":"x"}' --replay-stdout "${fixtures}/success-basic.json" --json --max-rows 1
check "refused" 2 '"outcome":"refused","reason":"missing_filter"' -- \
  --args-json '{}' --replay-stdout "${fixtures}/success-basic.json" --json
check "failed upstream 400" 3 '"reason":"upstream_filter_rejected"' -- \
  --args-json '{"filter":"osType eq '"'"'Windows'"'"'"}' --replay-stdout "${fixtures}/upstream-400.json" --replay-exit 1 --json
check "stderr" 3 '"reason":"stderr_not_empty"' -- \
  --args-json '{"sku":"x"}' --replay-stdout "${fixtures}/parse-error-unknown-option.stdout" \
  --replay-stderr "${fixtures}/parse-error-unknown-option.stderr" --replay-exit 1 --json
check "output budget" 3 '"reason":"output_limit"' -- \
  --args-json '{"sku":"x"}' --replay-stdout "${fixtures}/success-basic.json" --max-output-bytes 1024 --json
check "expanded replay" 0 "requested_region=eastus selected_rows=4" -- \
  --args-json '{"sku":"Standard_BASIC","region":"eastus"}' --replay-stdout "${fixtures}/success-basic.json"
check "expanded replay json" 0 '"matched_by":"region"}' -- \
  --args-json '{"sku":"Standard_BASIC","region":"eastus"}' --replay-stdout "${fixtures}/success-basic.json" --json
check "expanded argv" 0 "\"(armRegionName eq 'eastus' or armRegionName eq 'Global' or armRegionName eq 'Zone 1'" -- \
  --args-json '{"sku":"x","region":"EastUS"}' --print-argv
check "print argv" 0 '"(a or b)"' -- --args-json '{"filter":"a or b"}' --print-argv
check "print argv json" 0 '"argv":["/usr/local/bin/azmcp","pricing","get","--currency","USD","--filter","(a or b)"]' -- \
  --args-json '{"filter":"a or b"}' --print-argv --json
check "print argv refused" 2 "refused (service_without_sku)" -- \
  --args-json '{"service":"Virtual Machines"}' --print-argv
check "bad host bound" 2 "invalid_host_bounds" -- --args-json '{"sku":"x"}' --print-argv --max-rows 0
basic=(--args-json '{"sku":"Standard_BASIC"}' --replay-stdout "${fixtures}/success-basic.json")
check "host: one sandbox, disposed" 0 '"sandbox_acquisitions":1,"sandbox_disposals":1}' -- "${basic[@]}" --json
check "host: report untrusted by default" 0 '"result_label":{"integrity":"untrusted","confidentiality":"public"}' -- \
  "${basic[@]}" --json --middleware tracker,policy
check "host: promoted with host trust and trusted labels" 0 '"result_label":{"integrity":"trusted"' -- \
  "${basic[@]}" --json --middleware tracker,policy --host-json '{"egress_integrity":"trusted"}'
check "host: not promoted with an untrusted argument" 0 '"result_label":{"integrity":"untrusted"' -- \
  "${basic[@]}" --json --middleware tracker --host-json '{"egress_integrity":"trusted"}' \
  --labels-json '{"arguments":[{"integrity":"untrusted"}]}'
check "host: private blocked before acquisition" 4 '"violations":["max_allowed_confidentiality"],"tools":1,"sandbox_acquisitions":0' -- \
  "${basic[@]}" --json --middleware tracker,policy \
  --host-json '{"outbound_max_confidentiality":"public","egress_integrity":"trusted"}' \
  --labels-json '{"conversation":{"confidentiality":"private"}}'
check "host: blocked table" 4 "outcome: blocked (policy_violation)" -- \
  "${basic[@]}" --middleware tracker,policy --host-json '{"outbound_max_confidentiality":"public"}' \
  --labels-json '{"arguments":[{"confidentiality":"private"}]}'
check "host: policy before tracker fails open" 0 '"outcome":"completed"' -- \
  "${basic[@]}" --json --middleware policy,tracker --host-json '{"outbound_max_confidentiality":"public"}' \
  --labels-json '{"conversation":{"confidentiality":"private"}}'
check "host: backend without GET refused" 2 '"reason":"sandbox_egress_method_not_covered"' -- \
  "${basic[@]}" --json --backend-json '{"egress_method_tokens":["POST"]}'
check "host: backend without BoundedExec refused" 2 '"reason":"sandbox_bounded_exec_missing"' -- \
  "${basic[@]}" --json --backend-json '{"bounded_exec":false}'
check "host: disabled router, no tool" 2 '"reason":"no_tool"' -- \
  "${basic[@]}" --json --host-json '{"router":{"enabled":false}}'
check "host: experimental warning" 0 "warning: MafSandboxAzurePricingExperimentalWarning" -- "${basic[@]}"
check "plan: the same experimental warning" 0 "warning: MafSandboxAzurePricingExperimentalWarning: maf-sandbox-azure-pricing is experimental" -- --args-json '{"sku":"a"}' --print-argv
# The README's label sentence, each case of it.
replay=(--args-json '{"sku":"Standard_BASIC"}' --replay-stdout "${fixtures}/success-basic.json" --json)
check "labels: trusted egress and the tracker promote" 0 '"result_label":{"integrity":"trusted","confidentiality":"public"}' -- \
  "${replay[@]}" --middleware tracker,policy --host-json '{"egress_integrity":"trusted"}'
check "labels: without egress_integrity, untrusted" 0 '"result_label":{"integrity":"untrusted","confidentiality":"public"}' -- \
  "${replay[@]}" --middleware tracker,policy
check "labels: without the tracker, untrusted" 0 '"result_label":{"integrity":"untrusted","confidentiality":"public"}' -- \
  "${replay[@]}" --middleware policy --host-json '{"egress_integrity":"trusted"}'
check "labels: untrusted argument with the policy is blocked" 4 '"violations":["untrusted_arguments"]' -- \
  "${replay[@]}" --middleware tracker,policy --host-json '{"egress_integrity":"trusted"}' \
  --labels-json '{"arguments":[{"integrity":"untrusted"}]}'
check "labels: untrusted argument with the tracker alone, untrusted" 0 '"result_label":{"integrity":"untrusted","confidentiality":"public"}' -- \
  "${replay[@]}" --middleware tracker --host-json '{"egress_integrity":"trusted"}' \
  --labels-json '{"arguments":[{"integrity":"untrusted"}]}'
check "usage: bad host json" 64 "the host configuration has an unknown key: imag" -- \
  "${basic[@]}" --host-json '{"imag":"x"}'
check "usage: host flags without replay" 64 "the host flags need --replay-stdout" -- \
  --args-json '{"sku":"x"}' --print-argv --middleware tracker
check "usage: bad integrity lists the values" 64 "the host configuration's egress_integrity must be one of: trusted, untrusted" -- \
  "${basic[@]}" --host-json '{"egress_integrity":"bogus"}'
check "usage: bad label lists the values" 64 "the labels.conversation configuration's confidentiality must be one of: public, private, user_identity" -- \
  "${basic[@]}" --labels-json '{"conversation":{"confidentiality":"secret"}}'
check "usage: bad isolation lists the values" 64 "the backend configuration's isolation must be one of: none, runtime, os_process," -- \
  "${basic[@]}" --backend-json '{"isolation":"vmm"}'
check "usage: bad capability lists the values" 64 "each of the backend configuration's capabilities must be one of: EXEC, RUN_CODE," -- \
  "${basic[@]}" --backend-json '{"capabilities":["EXEC","exec"]}'
check "usage: bad router floor lists the values" 64 "the host.router configuration's min_isolation must be one of: none," -- \
  "${basic[@]}" --host-json '{"router":{"min_isolation":"strong"}}'
check "help lists the configuration values" 0 "egress_modes: closed, allowlist, unrestricted" -- --help
check "help lists the configuration keys" 0 "  host.router: present, enabled, min_isolation" -- --help
check "help lists every --json key" 0 "tools (how many tools the host made)" -- --help
check "usage: bad middleware" 64 "unknown middleware" -- "${basic[@]}" --middleware tracker,polcy
check "schema" 0 '"additionalProperties":false' -- --schema
check "version names the package" 0 "maf-sandbox-azure-pricing 0.0.0.dev0 (experimental)" -- --version
current="$(awk -F'\t' '$1 == "current" { print $2 }' tools/image/azmcp-version)"
check "version names the pinned and the modelled CLI" 0 "modelled on azmcp ${current} (spec pins 4.0.0-beta.4, unpublished)" -- --version
check "region case variant refused" 2 "region_case_mismatch" -- --args-json '{"region":"global"}' --print-argv --json
check "blank region refused" 2 "empty_value" -- --args-json '{"sku":"a","region":"  "}' --print-argv --json
check "location value keeps the CLI's region" 0 '"--region"' -- --args-json '{"sku":"a","region":"DE Zone 1"}' --print-argv
check "usage: two modes" 64 "--print-argv and --replay-stdout do not go together" -- \
  --args-json '{"sku":"x"}' --print-argv --replay-stdout "${fixtures}/success-basic.json"
check "usage: replay exit without replay" 64 "--replay-stderr and --replay-exit need --replay-stdout" -- \
  --args-json '{"sku":"x"}' --replay-exit 1
check "usage: backend json is for replays" 64 "--backend-json declares the scripted backend; it needs --replay-stdout" -- \
  --args-json '{"sku":"x"}' --backend-json '{}'
check "usage: upstream without its CA" 64 "--upstream and --upstream-ca go together" -- \
  --args-json '{"sku":"x"}' --upstream https://127.0.0.1:1
check "usage: upstream with a replay" 64 "--upstream is for the local stack" -- \
  "${basic[@]}" --upstream https://127.0.0.1:1 --upstream-ca /proc/nonexistent
check "usage: only the CA with a replay names the CA" 64 "--upstream-ca is for the local stack, not --print-argv or a replay" -- \
  --args-json '{"sku":"x"}' --upstream-ca /tmp/x.pem --replay-stdout "${fixtures}/success-basic.json"
check "usage: upstream CA unreadable" 64 "cannot read --upstream-ca file /proc/nonexistent" -- \
  --args-json '{"sku":"x"}' --upstream https://127.0.0.1:1 --upstream-ca /proc/nonexistent
check "usage: upstream not https" 64 "--upstream: the upstream must be https://HOST[:PORT]" -- \
  --args-json '{"sku":"x"}' --upstream http://127.0.0.1:1 --upstream-ca "${fixtures}/success-basic.json"
check "usage: unknown option" 64 "unknown option --bogus" -- --bogus
check "usage: missing file" 64 "cannot read --replay-stdout file" -- --args-json '{"sku":"x"}' --replay-stdout /proc/nonexistent
check "usage: directory, not a file" 64 "cannot read --replay-stdout file ${fixtures}: it is a directory, not a file" -- \
  --args-json '{"sku":"x"}' --replay-stdout "${fixtures}"
check "usage: missing stderr file" 64 "cannot read --replay-stderr file /proc/nonexistent: no such file" -- \
  --args-json '{"sku":"x"}' --replay-stdout "${fixtures}/success-empty.json" --replay-stderr /proc/nonexistent
check "usage: missing value" 64 "--args-json needs a value" -- --print-argv --args-json
check "usage: repeated flag" 64 "--args-json is given more than once" -- \
  --args-json '{"sku":"x"}' --args-json '{"sku":"y"}' --print-argv
check "usage: exit status out of range" 64 "--replay-exit is an exit status from 0 to 255" -- \
  --args-json '{"sku":"x"}' --replay-stdout "${fixtures}/success-basic.json" --replay-exit 300
check "usage: bad number" 64 "--max-rows needs an integer" -- --args-json '{"sku":"x"}' --print-argv --max-rows ten

# A refusal never echoes the value it refused.
out="$("${tool}" --args-json '{"sku":"customer-secret-4711\u0007"}' --print-argv --json)"
if [[ "${out}" == *"customer-secret"* ]]; then
  echo "FAIL echo: ${out}"
  failures=$((failures + 1))
else
  passes=$((passes + 1))
fi

finish
