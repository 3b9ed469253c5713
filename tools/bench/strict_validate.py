#!/usr/bin/env python3
"""Baseline for the envelope benchmark: the same strict acceptance in plain Python.

Reads a CLI stdout file, then validates and projects it the way the reference does (clean
UTF-8, one JSON object, no duplicate key at any depth, no NaN/Infinity or out-of-range number,
the envelope shape, every row's keys and types, priceType, finite non-negative prices,
well-formed savings plans, Reservation rows with a term) and serializes the first max_rows rows.
Prints one JSON line: {"mb_per_s": ..., "iterations": N, "bytes": B, "rows": R}.

    python3 tools/bench/strict_validate.py FILE [--iterations N] [--max-rows N]
"""
import argparse
import json
import math
import sys
import time

STRING_KEYS = ("armSkuName", "skuName", "productName", "serviceName", "serviceFamily", "region",
               "location", "currencyCode", "unitOfMeasure", "priceType", "effectiveStartDate",
               "meterName", "meterId")
PRICE_KEYS = ("retailPrice", "unitPrice")
FORWARDED = ("armSkuName", "skuName", "productName", "serviceName", "serviceFamily", "region",
             "location", "retailPrice", "unitPrice", "currencyCode", "unitOfMeasure", "priceType",
             "reservationTerm", "effectiveStartDate", "meterName", "meterId",
             "isPrimaryMeterRegion", "savingsPlan")
PRICE_TYPES = {"Consumption", "Reservation", "DevTestConsumption"}


class Rejected(Exception):
    pass


def no_duplicates(pairs):
    obj = {}
    for key, value in pairs:
        if key in obj:
            raise Rejected("duplicate_key")
        obj[key] = value
    return obj


def reject_constant(_name):
    raise Rejected("non_finite_number")


def parse_float(text):
    value = float(text)
    if math.isinf(value):
        raise Rejected("non_finite_number")
    return value


def is_price(value):
    return (isinstance(value, (int, float)) and not isinstance(value, bool)
            and math.isfinite(value) and value >= 0)


def validate_row(row):
    if not isinstance(row, dict):
        raise Rejected("malformed_row")
    for key in STRING_KEYS:
        if not isinstance(row.get(key), str):
            raise Rejected("malformed_row")
    for key in PRICE_KEYS:
        if not is_price(row.get(key)):
            raise Rejected("malformed_row")
    if row["priceType"] not in PRICE_TYPES or not isinstance(row.get("isPrimaryMeterRegion"), bool):
        raise Rejected("malformed_row")
    term = row.get("reservationTerm")
    if term is not None and (not isinstance(term, str) or not term):
        raise Rejected("malformed_row")
    if row["priceType"] == "Reservation" and term is None:
        raise Rejected("malformed_row")
    plans = row.get("savingsPlan")
    if plans is not None:
        if not isinstance(plans, list) or not plans:
            raise Rejected("malformed_row")
        for plan in plans:
            if (not isinstance(plan, dict) or not isinstance(plan.get("term"), str)
                    or not plan["term"] or not is_price(plan.get("unitPrice"))
                    or not is_price(plan.get("retailPrice"))):
                raise Rejected("malformed_row")
    return {key: row[key] for key in FORWARDED if key in row}


def validate_and_project(data, max_rows):
    text = data.decode("utf-8", errors="strict")
    envelope = json.loads(text, object_pairs_hook=no_duplicates, parse_constant=reject_constant,
                          parse_float=parse_float)
    if not isinstance(envelope, dict) or envelope.get("status") != 200:
        raise Rejected("malformed_envelope")
    if set(envelope) - {"status", "message", "results", "duration"}:
        raise Rejected("malformed_envelope")
    results = envelope.get("results")
    if not isinstance(results, dict) or list(results) != ["prices"] \
            or not isinstance(results["prices"], list):
        raise Rejected("malformed_envelope")
    rows = [validate_row(row) for row in results["prices"]]
    received = len(rows)
    report = {"prices": rows[:max_rows], "returned_rows": min(received, max_rows),
              "received_rows": received, "truncated": received > max_rows or received >= 5000,
              "upstream_limit_reached": received >= 5000}
    return json.dumps(report, separators=(",", ":"), ensure_ascii=False), received


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("file")
    parser.add_argument("--iterations", type=int, default=10)
    parser.add_argument("--max-rows", type=int, default=100)
    args = parser.parse_args()
    data = open(args.file, "rb").read()
    _, rows = validate_and_project(data, args.max_rows)  # warm-up, and fail early if rejected
    start = time.perf_counter()
    for _ in range(args.iterations):
        validate_and_project(data, args.max_rows)
    elapsed = time.perf_counter() - start
    print(json.dumps({"mb_per_s": len(data) * args.iterations / elapsed / 1e6,
                      "iterations": args.iterations, "bytes": len(data), "rows": rows}))


if __name__ == "__main__":
    try:
        main()
    except Rejected as error:
        print(json.dumps({"rejected": str(error)}))
        sys.exit(1)
