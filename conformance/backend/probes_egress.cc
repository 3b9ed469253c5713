// Egress: GET to prices.azure.com through the backend's proxy, verified against the injected
// SSL_CERT_FILE; everything else refused; and one real lookup through the whole path.
#include <string>

#include "conformance/backend/suite_internal.h"
#include "ref/labels/middleware.h"
#include "ref/pricing/host.h"
#include "ref/sandbox/router.h"
#include "ref/tls/runtime_ca.h"

namespace azure_pricing::conformance::backend::internal {
namespace {

using Json = nlohmann::json;

constexpr char kPricesUrl[] =
    "https://prices.azure.com/api/retail/prices?$filter=armSkuName%20eq%20%27Standard_D4s_v5%27";

bool Succeeded(const Json& out) {
  return out.value("ok", false) && out.value("status", 0) >= 200 && out.value("status", 0) < 300;
}

std::string Summary(const Json& out) {
  return "stage " + out.value("stage", "?") + ", status " + std::to_string(out.value("status", 0)) +
         (out.value("error", "").empty() ? "" : ", " + out.value("error", ""));
}

// A request that must not get through; passes when the proxy answered it with a refusal (an
// error status), not when egress is merely broken (no proxy, no answer).
Observation MustBeRefused(Context& ctx, const std::vector<std::string>& args,
                          const std::string& what) {
  std::string why;
  const std::optional<Json> out = ProbeJson(ctx, args, &why);
  if (!out) return Fail(why);
  if (Succeeded(*out)) return Fail(what + " got through (" + Summary(*out) + ")");
  if (out->value("status", 0) < 400) {
    return Fail(what + " got no refusal from the proxy, only (" + Summary(*out) +
                "): is egress working at all?");
  }
  return Pass(what + " refused (" + Summary(*out) + ")");
}

Observation GetAllowed(Context& ctx) {
  std::string why;
  const std::optional<Json> out = ProbeJson(ctx, {"https-get", kPricesUrl}, &why);
  if (!out) return Fail(why);
  if (!Succeeded(*out)) return Fail("GET through the proxy failed (" + Summary(*out) + ")");
  return Pass("GET prices.azure.com via HTTPS_PROXY, verified with SSL_CERT_FILE: " +
              std::to_string(out->value("status", 0)));
}

// What the client is told can come from the upstream; what the upstream received cannot lie.
Observation PostRefused(Context& ctx) {
  if (Status reset = ResetRequestLog(ctx.options.price_api); !reset.ok()) {
    return Fail(reset.message());
  }
  // An empty body with its Content-Length, so an upstream that got the POST would accept it.
  Observation seen =
      MustBeRefused(ctx, {"https-get", kPricesUrl, "--method", "POST", "--body", ""}, "POST");
  const StatusOr<std::vector<std::string>> methods = ReceivedMethods(ctx.options.price_api);
  if (!methods.ok()) return Fail(methods.status().message());
  for (const std::string& method : *methods) {
    if (method != "GET") return Fail("the proxy forwarded a " + method + " to the price API");
  }
  return seen;
}

Observation OtherHostRefused(Context& ctx) {
  return MustBeRefused(ctx, {"https-get", "https://management.azure.com/subscriptions"},
                       "another host");
}

Observation IpLiteralRefused(Context& ctx) {
  return MustBeRefused(ctx, {"https-get", "https://127.0.0.1/api/retail/prices"}, "an IP literal");
}

// By address, so that a sandbox without name resolution cannot pass without being tried: the
// fake price API listens on the host's loopback, reachable only where the network is shared.
Observation DirectRefused(Context& ctx) {
  const std::string url =
      "https://127.0.0.1:" + std::to_string(ctx.options.price_api.port) + "/api/retail/prices";
  std::string why;
  const std::optional<Json> out =
      ProbeJson(ctx, {"https-get", url, "--no-proxy", "--timeout-ms", "3000"}, &why);
  if (!out) return Fail(why);
  if (out->value("stage", "") != "connect") {
    return Fail("a direct connection to the host's price API was made (" + Summary(*out) + ")");
  }
  return Pass("a direct connection bypassing the proxy failed (" + Summary(*out) + ")");
}

Observation EmptyTrustStoreFails(Context& ctx) {
  std::string why;
  const std::optional<Json> out =
      ProbeJson(ctx, {"https-get", kPricesUrl, "--ca-file", "/dev/null"}, &why);
  if (!out) return Fail(why);
  if (Succeeded(*out) || out->value("stage", "") != "tls") {
    return Fail("with an empty trust store the handshake did not fail (" + Summary(*out) + ")");
  }
  return Pass("an empty trust store fails the handshake: verification is on");
}

Observation UpstreamVerified(Context& ctx) {
  const std::optional<tls::KeyAndCert> stranger = tls::MakeCa("backend-suite unrelated CA");
  const sandbox::EgressUpstream real{"127.0.0.1", ctx.options.price_api.port,
                                     ctx.options.price_api.ca_pem};
  if (!stranger) return Fail("the suite could not make a CA");
  if (Status s = ctx.backend.RedirectEgress({real.host, real.port, stranger->cert_pem}); !s.ok()) {
    return Fail("the backend cannot point its egress at the suite's fake API: " + Describe(s));
  }
  std::string why;
  const std::optional<Json> refused = ProbeJson(ctx, {"https-get", kPricesUrl}, &why);
  if (Status s = ctx.backend.RedirectEgress(real); !s.ok()) {
    return Fail("the backend did not take the suite's upstream back: " + Describe(s));
  }
  if (!refused) return Fail(why);
  // The proxy's answer when the upstream's certificate does not verify is a 502.
  if (Succeeded(*refused) || refused->value("status", 0) != 502) {
    return Fail("an unverifiable upstream was not answered 502 (" + Summary(*refused) + ")");
  }
  const std::optional<Json> restored = ProbeJson(ctx, {"https-get", kPricesUrl}, &why);
  if (!restored) return Fail(why);
  if (!Succeeded(*restored)) {
    return Fail("with the right CA back, GET failed (" + Summary(*restored) + ")");
  }
  return Pass("an unverifiable upstream got 502; the verifiable one, 200");
}

// The experimental warning belongs to hosts; the suite's report is the probe lines.
class QuietLogger : public Logger {
 public:
  void Warning(std::string_view, std::string_view) override {}
};

Observation CliLookup(Context& ctx) {
  sandbox::Router router({&ctx.backend}, {.min_isolation = sandbox::Isolation::kContainer});
  QuietLogger logger;
  StatusOr<std::vector<labels::Tool>> tools = MakeAzurePricingTools(
      &router, "backend-suite", {ctx.run_id}, {.image = "backend-suite"}, &logger);
  if (!tools.ok()) return Fail("the tool refused the backend: " + Describe(tools.status()));
  if (tools->empty()) return Fail("the tool was not made");
  labels::InvocationContext call;
  call.arguments = R"({"sku":"Standard_D4s_v5","region":"westeurope"})";
  labels::InvokeFunction(tools->front(), call, {});
  if (!call.result.has_value()) return Fail("the tool returned nothing");
  if (call.result->outcome != "completed") {
    return Fail("the lookup ended " + call.result->outcome + " (" + call.result->reason + ")");
  }
  return Pass("azure_pricing_get completed through the backend with " + ctx.options.cli_kind);
}

}  // namespace

std::vector<ProbeDef> EgressProbes() {
  return {
      {{"egress.get_allowed", {"HOST-008", "HOST-012", "HOST-013"},
        "GET to prices.azure.com through the backend's proxy does not work"},
       GetAllowed},
      {{"egress.post_refused", {"HOST-008"}, "the proxy lets a method other than GET through"},
       PostRefused},
      {{"egress.other_host_refused", {"HOST-008"}, "the proxy reaches hosts beyond prices.azure.com"},
       OtherHostRefused},
      {{"egress.ip_literal_refused", {"HOST-008"}, "the proxy connects to IP literals"},
       IpLiteralRefused},
      {{"egress.direct_refused", {"HOST-008", "HOST-012"}, "connections bypassing the proxy work"},
       DirectRefused},
      {{"egress.verification_on", {"HOST-014"},
        "TLS inside the sandbox succeeds without a trust anchor: verification is off"},
       EmptyTrustStoreFails},
      {{"egress.upstream_verified", {"HOST-014"},
        "the proxy does not verify the upstream's certificate"},
       UpstreamVerified},
      {{"cli.lookup", {"HOST-012", "HOST-013", "HOST-006"},
        "the tool cannot complete a lookup through this backend"},
       CliLookup},
  };
}

}  // namespace azure_pricing::conformance::backend::internal
