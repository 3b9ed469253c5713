#!/usr/bin/env python3
"""Writes the zone-drift report's test recordings (README.md says what each holds).

Run from the workspace root: python3 conformance/live/testdata/generate.py
The rows are synthetic: the regions come from ref/zones/billing_zones.csv and the prices are
the ones chosen below, not the live price list's.
"""
import csv
import json
import os
import zlib

HERE = os.path.dirname(os.path.abspath(__file__))
MAPPING = os.path.join(HERE, "..", "..", "..", "ref", "zones", "billing_zones.csv")

# Chosen per network zone; any distinct values would do.
ZONE_PRICE = {"Zone 1": 0.035, "Zone 2": 0.09, "Zone 3": 0.16, "US Gov Zone 1": 0.044}
EDGE_ZONES = ["Zone 1", "Zone 2", "Zone 3", "Zone 4", "Zone 5", "US Gov Zone 1"]


def row(service, product, meter, region, price):
    return {
        "armSkuName": "", "skuName": "Inter-Region" if "Inter" in meter else "Standard",
        "productName": product, "serviceName": service, "serviceFamily": "Networking",
        "region": region, "location": region, "retailPrice": price, "unitPrice": price,
        "currencyCode": "USD", "unitOfMeasure": "1 GB", "priceType": "Consumption",
        "effectiveStartDate": "2024-01-01T00:00:00Z", "meterName": meter,
        "meterId": "00000000-0000-0000-0000-%012d" % zlib.crc32((region + meter).encode()),
        "isPrimaryMeterRegion": True,
    }


def peering(region, price):
    return [row("Virtual Network", "Global Virtual Network Peering", m, region, price)
            for m in ("Inter-Region Ingress", "Inter-Region Egress")]


def success(rows):
    return {"status": 200, "message": "Success", "results": {"prices": rows}, "duration": 1}


def write(recording, name, doc):
    path = os.path.join(HERE, recording, "cli", name)
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w") as f:
        json.dump(doc, f, indent=2)
        f.write("\n")


def listing(regions, price_of):
    rows = [row("Virtual Network", "Virtual Network Peering", m, "Global", 0.01)
            for m in ("Intra-Region Ingress", "Intra-Region Egress")]
    for r in regions:
        rows += peering(r, price_of(r))
    return success(rows)


def edge(zones):
    # Classic Front Door: Standard/Premium (product "Azure Front Door") is no edge family.
    return success([row("Azure Front Door Service", "Azure Front Door Service",
                        "Standard Data Transfer Out", z, 0.1) for z in zones])


FAILED = {"status": 500, "message": "Service request failed.\nStatus: 500 (Internal Server Error)\n",
          "results": {"message": "Service request failed.", "type": "RequestFailedException"},
          "duration": 3}


def main():
    with open(MAPPING, newline="") as f:
        mapping = [r for r in csv.DictReader(f) if r["network_zone"]]
    zone = {r["region"]: r["network_zone"] for r in mapping}
    regions = sorted(zone)
    write("up-to-date", "network-listing.json", listing(regions, lambda r: ZONE_PRICE[zone[r]]))
    write("up-to-date", "front-door.json", edge(EDGE_ZONES))
    drift_price = {"qatarcentral": ZONE_PRICE["Zone 1"], "israelcentral": ZONE_PRICE["Zone 3"],
                   "marsnorth": ZONE_PRICE["Zone 1"]}
    drifted = [r for r in regions if r != "westus3"] + ["marsnorth"]
    write("drift", "network-listing.json",
          listing(drifted, lambda r: drift_price.get(r) or ZONE_PRICE[zone[r]]))
    write("drift", "front-door.json", edge(EDGE_ZONES[:3]))
    write("drift", "failed.json", FAILED)
    write("no-rows", "empty.json", success([]))
    write("no-rows", "failed.json", FAILED)


if __name__ == "__main__":
    main()
