#!/usr/bin/env bash
# The zone_drift command on the synthetic recordings of conformance/live/testdata (README.md
# there says what each holds): table, JSON, exit statuses, --dry-run and usage errors.
# CITES("ZONE-003", "ZONE-007", "ZONE-009")
set -uo pipefail
tool="$1"
source tools/testing/check.sh
data=conformance/live/testdata

check "up to date" 0 "the mapping is up to date for what was seen" -- --recording "${data}/up-to-date"
check "nearest agrees" 0 "qatarcentral         Zone 3         uaecentral           agrees" -- --recording "${data}/up-to-date"
check "missing region" 1 "regions missing from the mapping: marsnorth" -- --recording "${data}/drift"
check "absent upstream" 1 "mapped public regions absent upstream: westus3" -- --recording "${data}/drift"
check "nearest says another zone" 1 "qatarcentral         Zone 3         uaecentral           says Zone 1 (drift)" -- --recording "${data}/drift"
check "published says another zone" 1 "israelcentral        Zone 1         israelcentral        says Zone 3 (drift)" -- --recording "${data}/drift"
check "edge zones never seen" 1 "edge     judged      US Gov Zone 1, Zone 4, Zone 5" -- --recording "${data}/drift"
check "failure skipped and named" 1 "skipped cli/failed.json: not_success (status 500)" -- --recording "${data}/drift"
check "every cause" 1 "needs an update: missing_from_mapping, absent_upstream, nearest_region_says_zone, published_region_says_zone" -- --recording "${data}/drift"
check "json" 1 '{"needs_update":true,"judged":true,"update_causes":["missing_from_mapping","absent_upstream","nearest_region_says_zone","published_region_says_zone"],"inputs":{"outputs_read":2,"rows_read":135,"zone_family_rows":135,"skipped":[{"file":"cli/failed.json","reason":"not_success","status":500}]}' -- --recording "${data}/drift" --json
check "json: absent" 1 '"absent_upstream":{"judged":true,"network_regions_seen":65,"min_regions":20,"regions":["westus3"]}' -- --recording "${data}/drift" --json
check "cli outputs" 1 "skipped ${data}/drift/cli/failed.json: not_success" -- --cli-output "${data}/drift/cli/network-listing.json" --cli-output "${data}/drift/cli/failed.json"
check "one region-scoped output: absence not judged" 0 "not judged (network rows under 0 ARM regions" -- --cli-output "${data}/up-to-date/cli/front-door.json"
check "no usable rows" 2 "nothing could be judged" -- --recording "${data}/no-rows"
check "no usable rows as JSON" 2 '{"needs_update":false,"judged":false' -- --recording "${data}/no-rows" --json

# --dry-run reads the live check's recorded dry run (fixtures/live-check-dry-run) from the runfiles.
check "dry run" 0 "the mapping is up to date for what was seen" -- --dry-run
check "dry run: the recorded network listing" 0 "ARM regions in zone-family rows: 62" -- --dry-run
TEST_SRCDIR="${TEST_TMPDIR:-/tmp}/no-such-runfiles" check "dry run without its data" 64 "zone_drift: --dry-run's recording ${TEST_TMPDIR:-/tmp}/no-such-runfiles/" -- --dry-run

check "missing file" 64 "zone_drift: --cli-output no/such.json: no such file" -- --cli-output no/such.json
check "missing recording" 64 "zone_drift: --recording no/such: The recording is not a directory." -- --recording no/such
check "recording without cli outputs" 64 "zone_drift: --recording ${data}: The recording has no cli/*.json files." -- --recording "${data}"
check "a directory as a CLI output" 64 "zone_drift: --cli-output ${data}: it is a directory, not a file" -- --cli-output "${data}"
check "usage: no input" 64 "give exactly one of --cli-output, --recording and --dry-run" --
check "usage: two inputs" 64 "give exactly one of" -- --dry-run --recording "${data}/drift"
check "usage: unknown option" 64 "zone_drift: unknown option --bogus" -- --bogus
check "usage: missing value" 64 "zone_drift: --recording needs a value" -- --recording
check "usage: repeated flag" 64 "zone_drift: --recording is given more than once" -- --recording a --recording b
check "help" 0 "usage: zone_drift" -- --help
finish
