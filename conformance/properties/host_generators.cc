#include "conformance/properties/host_generators.h"

#include <algorithm>

namespace azure_pricing::conformance::properties {

rc::Gen<labels::Integrity> GenIntegrity() {
  return rc::gen::element(labels::Integrity::kTrusted, labels::Integrity::kUntrusted);
}

rc::Gen<labels::Confidentiality> GenConfidentiality() {
  return rc::gen::element(labels::Confidentiality::kPublic, labels::Confidentiality::kPrivate,
                          labels::Confidentiality::kUserIdentity);
}

rc::Gen<labels::ContentLabel> GenLabel() {
  return rc::gen::apply(
      [](labels::Integrity i, labels::Confidentiality c) {
        return labels::ContentLabel{i, c};
      },
      GenIntegrity(), GenConfidentiality());
}

rc::Gen<std::vector<Middleware>> GenChain() {
  return rc::gen::exec([] {
    std::vector<Middleware> all = {Middleware::kTracker, Middleware::kPolicy,
                                   Middleware::kPolicyLogOnly};
    std::vector<Middleware> chain;
    for (Middleware m : all) {
      if (*rc::gen::arbitrary<bool>()) chain.push_back(m);
    }
    // A random order of the chosen ones.
    const auto order =
        *rc::gen::container<std::vector<int>>(chain.size(), rc::gen::arbitrary<int>());
    std::vector<std::pair<int, Middleware>> keyed;
    for (size_t i = 0; i < chain.size(); ++i) keyed.emplace_back(order[i], chain[i]);
    std::stable_sort(keyed.begin(), keyed.end(),
                     [](const auto& a, const auto& b) { return a.first < b.first; });
    chain.clear();
    for (const auto& [key, m] : keyed) chain.push_back(m);
    return chain;
  });
}

std::string SuccessEnvelope() {
  std::string row =
      R"({"armSkuName":"Standard_D2s_v5","skuName":"D2s v5","productName":"Virtual Machines )"
      R"(Dsv5 Series","serviceName":"Virtual Machines","serviceFamily":"Compute",)"
      R"("region":"westeurope","location":"EU West","retailPrice":0.096,"unitPrice":0.096,)"
      R"("currencyCode":"USD","unitOfMeasure":"1 Hour","priceType":"Consumption",)"
      R"("effectiveStartDate":"2023-07-01T00:00:00+00:00","meterName":"D2s v5","meterId":"m-)";
  std::string out = R"({"status":200,"message":"Success","results":{"prices":[)";
  for (int i = 0; i < 3; ++i) {
    if (i > 0) out += ",";
    out += row + std::to_string(i) + R"(","isPrimaryMeterRegion":true})";
  }
  return out + R"(]},"duration":1.25})";
}

rc::Gen<fakes::sandbox::CallScript> GenCallScript() {
  return rc::gen::exec([] {
    fakes::sandbox::CallScript s;
    s.exec.stdout_bytes = SuccessEnvelope();
    switch (*rc::gen::inRange(0, 9)) {
      case 0:
        s.exec.delay_ms = *rc::gen::inRange<int64_t>(5'000, 100'000);  // timeout is 5 s
        break;
      case 1:
        s.exec.stderr_bytes = std::string(*rc::gen::inRange(4'097, 9'000), 'e');
        break;
      case 2:
        s.exec.exec_error = true;
        break;
      case 3:
        s.fail_acquire = true;
        break;
      case 4:
        s.exec.exit_code = *rc::gen::inRange(1, 255);
        break;
      case 5:
        s.exec.stderr_bytes = "Unhandled exception.";
        break;
      case 6:
        s.exec.stdout_bytes = "not json";
        break;
      default:
        s.exec.delay_ms = *rc::gen::inRange<int64_t>(0, 4'999);
        break;
    }
    s.fail_dispose = *rc::gen::weightedElement<bool>({{1, true}, {4, false}});
    return s;
  });
}

bool ScriptSucceeds(const fakes::sandbox::CallScript& s) {
  return !s.fail_acquire && !s.fail_dispose && !s.exec.exec_error && s.exec.delay_ms < 5'000 &&
         s.exec.stdout_bytes.size() + s.exec.stderr_bytes.size() <= 4096 &&
         s.exec.stderr_bytes.empty() && s.exec.exit_code == 0 &&
         s.exec.stdout_bytes == SuccessEnvelope();
}

ToolOptions PropertyToolOptions() {
  ToolOptions o;
  o.image = "example.invalid/azmcp";
  o.bounds.exec_timeout_seconds = 5;
  o.bounds.max_output_bytes = 4096;
  return o;
}

namespace {

class NullLogger : public Logger {
 public:
  void Warning(std::string_view, std::string_view) override {}
};

sandbox::RouterOptions ContainerFloor() {
  sandbox::RouterOptions o;
  o.min_isolation = sandbox::Isolation::kContainer;
  return o;
}

}  // namespace

PricingHost::PricingHost(const ToolOptions& options)
    : backend(fakes::sandbox::PricingCapableDeclaration()), router({&backend}, ContainerFloor()) {
  NullLogger logger;
  auto made = MakeAzurePricingTools(&router, "agent", {"session"}, options, &logger);
  RC_ASSERT(made.ok());
  RC_ASSERT(made->size() == 1u);
  tool = made->front();
}

}  // namespace azure_pricing::conformance::properties

namespace azure_pricing::labels {
void showValue(const ContentLabel& label, std::ostream& os) {
  os << Name(label.integrity) << "/" << Name(label.confidentiality);
}
void showValue(Integrity value, std::ostream& os) { os << Name(value); }
void showValue(Confidentiality value, std::ostream& os) { os << Name(value); }
}  // namespace azure_pricing::labels

namespace azure_pricing::fakes::sandbox {
void showValue(const CallScript& s, std::ostream& os) {
  os << "{fail_acquire=" << s.fail_acquire << " fail_dispose=" << s.fail_dispose
     << " exit=" << s.exec.exit_code << " delay_ms=" << s.exec.delay_ms
     << " stdout_bytes=" << s.exec.stdout_bytes.size()
     << " stderr_bytes=" << s.exec.stderr_bytes.size() << " exec_error=" << s.exec.exec_error
     << "}";
}
}  // namespace azure_pricing::fakes::sandbox
