#!/usr/bin/env bash
# The zones command: table, JSON, per-region explanations and exit statuses.
# CITES("ZONE-001", "ZONE-003", "ZONE-012")
set -uo pipefail
tool="$1"
source tools/testing/check.sh
check "table" 0 "sources checked 2026-11-03 (73 regions)" --
check "table row" 0 "qatarcentral         public   Zone 3         nearest_region   uaecentral" --
check "json" 0 '{"region":"eastus","display_name":"East US","geography_group":"US","cloud":"public","network":{"zone":"Zone 1","basis":"published_region","reference_region":"eastus"}' -- --json
check "explain published" 0 "network Zone 1         Microsoft's published table lists this region" -- --region eastus
check "explain case-insensitive" 0 "estimate: the nearest region in the published table is uaecentral" -- --region QatarCentral
check "explain edge" 0 "real billing follows the serving edge location" -- --region japaneast
check "explain sovereign" 0 '{"region":"chinaeast","network":null,"edge":null,"dns":null}' -- --region chinaeast --json
check "unknown region" 1 "omit region and name the locations in filter" -- --region marsnorth
check "unknown region is named" 1 "unknown region 'marsnorth': not in the bundled mapping" -- --region marsnorth
check "unknown region is named in JSON" 1 '{"region":"marsnorth","selection":"unknown_region"' -- --json --region marsnorth
check "a control character is shown, not sent, and refused as the tool refuses it" 1 "'mars\\x1b[2Jnorth' is refused before any sandbox: Argument 'region' contains a control" -- --region "$(printf 'mars\033[2Jnorth')"
check "unknown region as JSON" 1 '"selection":"unknown_region"' -- --region marsnorth --json
check "Global keeps the CLI's behaviour" 0 "'Global' is a price-list location value, not an ARM region: the CLI gets it as --region exactly as given" -- --region Global
check "Global does not talk of expansion" 0 '"explanation":"'"'"'Global'"'"' is a price-list location value' -- --region Global --json
check "DE Zone 1 keeps the CLI's behaviour" 0 '"selection":"exact_cli_behaviour"' -- --region "DE Zone 1" --json
check "a case variant is refused" 1 "write 'Global'" -- --region global
check "an empty region is refused as the tool refuses it" 1 "'' is refused before any sandbox: Argument 'region' must not be empty" -- --region ""
check "a space at an end is refused as the tool refuses it" 1 "' eastus' is refused before any sandbox: Argument 'region' must not start or end with a space" -- --region " eastus"
check "usage: a stray word" 64 "zones: unexpected argument westeurope" -- westeurope
check "a spacing variant is refused" 1 "write 'Zone 1'" -- --region "Zone  1"
check "usage" 64 "usage: zones" -- --bogus
check "usage: unknown option" 64 "zones: unknown option --bogus" -- --bogus
check "usage: missing value" 64 "zones: --region needs a value" -- --region
check "usage: a flag where the value belongs" 64 "zones: --region needs a value" -- --region --json
check "usage: repeated flag" 64 "zones: --region is given more than once" -- --region eastus --region westus
finish
