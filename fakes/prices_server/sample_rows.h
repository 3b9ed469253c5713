// One catalog row the fake price API serves in end-to-end runs: Standard_D4s_v5 in westeurope,
// as JSON Lines (the shape prices_server's --catalog reads). Tests, the backend suite and the
// benchmarks look it up with `--sku Standard_D4s_v5 --region westeurope`.
#ifndef FAKES_PRICES_SERVER_SAMPLE_ROWS_H_
#define FAKES_PRICES_SERVER_SAMPLE_ROWS_H_

namespace azure_pricing::fakes::prices {

inline constexpr char kD4sV5WestEuropeRow[] =
    R"({"currencyCode":"USD","tierMinimumUnits":0.0,"retailPrice":0.192,"unitPrice":0.192,)"
    R"("armRegionName":"westeurope","location":"EU West","effectiveStartDate":"2024-01-01T00:00:00Z",)"
    R"("meterId":"m-1","meterName":"D4s v5","productId":"P","skuId":"P/1","productName":)"
    R"("Virtual Machines Dsv5 Series","skuName":"D4s v5","serviceName":"Virtual Machines",)"
    R"("serviceId":"S","serviceFamily":"Compute","unitOfMeasure":"1 Hour","type":"Consumption",)"
    R"("isPrimaryMeterRegion":true,"armSkuName":"Standard_D4s_v5"})"
    "\n";

}  // namespace azure_pricing::fakes::prices

#endif  // FAKES_PRICES_SERVER_SAMPLE_ROWS_H_
