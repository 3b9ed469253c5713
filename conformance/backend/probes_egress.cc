// Egress: GET to prices.azure.com through the backend's proxy, verified against the injected
// SSL_CERT_FILE; everything else refused; and one real lookup through the whole path.
#include <openssl/evp.h>

#include <memory>
#include <string>
#include <utility>

#include "conformance/backend/exact_upstream.h"
#include "conformance/backend/response_compare.h"
#include "conformance/backend/suite_internal.h"
#include "conformance/backend/wrong_name_upstream.h"
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

// What the probe's request got to, as facts. A handshake that failed says so first, with the
// probe's own TLS error (a certificate that did not verify names why), so a FAIL line caused by
// TLS or a certificate reads as one.
std::string Summary(const Json& out) {
  const std::string error = out.value("error", "");
  if (out.value("stage", "") == "tls") {
    return "TLS handshake failed" + (error.empty() ? "" : ": " + error);
  }
  return "stage " + out.value("stage", "?") + ", status " + std::to_string(out.value("status", 0)) +
         (error.empty() ? "" : ", " + error);
}

// A refusal is a final status of class 4xx or 5xx (PROTOCOL.md, "Decisions"): whoever wrote
// it, it says "not done", and the upstream's log, where the suite keeps one, says the rest.
// 1xx is not final, 2xx says done and 3xx sends the program elsewhere: none refuses.
bool IsRefusal(int status) { return status >= 400 && status <= 599; }

// A handshake that failed after the proxy answered CONNECT with 200 may be the proxy refusing
// inside TLS with a certificate that cannot name the target (squid's ssl-bump mints one for an
// IP literal without an IP entry). Asked again with the name unchecked: a chain that verifies
// against the sandbox's SSL_CERT_FILE was issued by the proxy's CA, so the answer inside is
// the proxy's own, and it counts when it is a refusal. Anything else stays the first result.
Json RefusalInsideTls(Context& ctx, const std::vector<std::string>& args, const Json& first) {
  if (first.value("stage", "") != "tls") return first;
  std::vector<std::string> again = args;
  again.push_back("--name-unchecked");
  std::string why;
  const std::optional<Json> inside = ProbeJson(ctx, again, &why);
  if (!inside || inside->value("stage", "") != "http") return first;
  Json out = *inside;
  out["inside_tls"] = true;
  return out;
}

// What a refused request's summary adds when the refusal came inside TLS.
std::string InsideTls(const Json& out) {
  if (!out.value("inside_tls", false)) return "";
  return out.value("name_matches", true)
             ? "; inside TLS"
             : "; inside TLS, from the proxy's CA with a certificate that does not name the target";
}

// A request that must not get through; passes when the proxy answered it with a refusal (an
// error status, before the tunnel or inside it), not when egress is merely broken (no proxy, no
// answer) or the handshake failed with a peer the sandbox's CA did not vouch for.
Observation MustBeRefused(Context& ctx, const std::vector<std::string>& args,
                          const std::string& what) {
  std::string why;
  std::optional<Json> out = ProbeJson(ctx, args, &why);
  if (!out) return Fail(why);
  out = RefusalInsideTls(ctx, args, *out);
  if (Succeeded(*out)) return Fail(what + " got through (" + Summary(*out) + InsideTls(*out) + ")");
  if (!IsRefusal(out->value("status", 0))) {
    return Fail(what + " got no refusal from the proxy, only (" + Summary(*out) + InsideTls(*out) +
                "): is egress working at all?");
  }
  return Pass(what + " refused (" + Summary(*out) + InsideTls(*out) + ")");
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

// Refused by the proxy (an error status, before the tunnel or inside it, or a handshake it
// would not complete), and the upstream received nothing at all: what the client is told can
// lie, the upstream's log cannot.
Observation RefusedUnseen(Context& ctx, const std::vector<std::string>& args,
                          const std::string& what, bool tls_refusal_counts = false) {
  if (Status reset = ResetRequestLog(ctx.options.price_api); !reset.ok()) {
    return Fail(reset.message());
  }
  std::string why;
  std::optional<Json> out = ProbeJson(ctx, args, &why);
  if (!out) return Fail(why);
  const bool tls = tls_refusal_counts && out->value("stage", "") == "tls";
  if (!tls) out = RefusalInsideTls(ctx, args, *out);
  const StatusOr<std::vector<std::string>> seen = ReceivedMethods(ctx.options.price_api);
  if (!seen.ok()) return Fail(seen.status().message());
  if (!seen->empty()) {
    return Fail(what + " reached the upstream (as " + seen->front() + ", " +
                std::to_string(seen->size()) + " request(s))");
  }
  const std::string summary = Summary(*out) + InsideTls(*out);
  if (Succeeded(*out)) return Fail(what + " got through (" + summary + ")");
  if (!IsRefusal(out->value("status", 0)) && !tls) {
    return Fail(what + " got no refusal from the proxy, only (" + summary +
                "): is egress working at all?");
  }
  return Pass(what + " refused (" + summary + "), nothing reached the upstream");
}

// Squid's `http_access allow ... method GET HEAD` and nginx's `limit_except GET` (which lets HEAD
// through as well) refuse a POST; every method but GET must be refused, not only POST.
Observation OtherMethodsRefused(Context& ctx) {
  for (const char* method : {"HEAD", "OPTIONS", "TRACE", "PUT", "PATCH", "DELETE"}) {
    Observation seen = RefusedUnseen(ctx, {"https-get", kPricesUrl, "--method", method},
                                     std::string("a ") + method);
    if (!seen.passed) return seen;
  }
  return Pass("HEAD, OPTIONS, TRACE, PUT, PATCH and DELETE refused; none reached the upstream");
}

// `Upgrade` would turn the tunnel into another protocol the proxy cannot judge; a request that
// carries it is refused whole, with or without the Connection header that names it.
Observation UpgradeRefused(Context& ctx) {
  const std::vector<std::vector<std::string>> runs = {
      {"https-get", kPricesUrl, "--header", "Upgrade: websocket"},
      {"https-get", kPricesUrl, "--header", "Connection: Upgrade", "--header", "Upgrade: h2c"}};
  for (const std::vector<std::string>& args : runs) {
    Observation seen = RefusedUnseen(ctx, args, "a GET carrying an Upgrade header (" + args[3] +
                                                    (args.size() > 5 ? ", " + args[5] : "") + ")");
    if (!seen.passed) return seen;
  }
  return Pass("a GET carrying Upgrade, alone or named by Connection, was refused; none reached "
              "the upstream");
}

Observation BodyRefused(Context& ctx) {
  return RefusedUnseen(ctx, {"https-get", kPricesUrl, "--body", "x"}, "a GET with a body");
}

Observation PortRefused(Context& ctx) {
  return RefusedUnseen(ctx, {"https-get", "https://prices.azure.com:8443/api/retail/prices"},
                       "a CONNECT to prices.azure.com:8443");
}

Observation MethodCase(Context& ctx) {
  return RefusedUnseen(ctx, {"https-get", kPricesUrl, "--method", "get"}, "a lower-case get");
}

Observation HostSuffix(Context& ctx) {
  return RefusedUnseen(ctx, {"https-get", "https://evilprices.azure.com/api/retail/prices"},
                       "a CONNECT to evilprices.azure.com");
}

Observation HostHeaderMismatch(Context& ctx) {
  return RefusedUnseen(ctx, {"https-get", kPricesUrl, "--host-header", "management.azure.com"},
                       "a Host header other than the CONNECT host");
}

Observation SniMismatch(Context& ctx) {
  return RefusedUnseen(ctx, {"https-get", kPricesUrl, "--sni", "management.azure.com"},
                       "an SNI other than the CONNECT host", /*tls_refusal_counts=*/true);
}

// The methods the upstream received for one probe run; `why` set when either failed.
std::optional<std::vector<std::string>> UpstreamMethods(Context& ctx,
                                                        const std::vector<std::string>& args,
                                                        std::optional<Json>& out, std::string* why) {
  if (Status reset = ResetRequestLog(ctx.options.price_api); !reset.ok()) {
    *why = reset.message();
    return std::nullopt;
  }
  out = ProbeJson(ctx, args, why);
  if (!out) return std::nullopt;
  StatusOr<std::vector<std::string>> seen = ReceivedMethods(ctx.options.price_api);
  if (!seen.ok()) {
    *why = seen.status().message();
    return std::nullopt;
  }
  return *seen;
}

// A run of several requests that reported none: the tunnel never carried HTTP (the proxy
// refused CONNECT, or the handshake failed, which the summary names), or the probe is not ours.
Observation NoTunnel(const Json& out) {
  if (out.value("stage", "") != "http") {
    return Fail("the first request on the tunnel did not get through (" + Summary(out) + ")");
  }
  return Fail("the probe did not report its requests on one tunnel: is it this suite's probe?");
}

// Every request on a tunnel is judged, not only the first: a POST after a GET on one kept-alive
// connection, then pipelined behind it, must not reach the upstream.
Observation SameTunnelRequests(Context& ctx) {
  const std::vector<std::vector<std::string>> runs = {
      {"https-get", kPricesUrl, "--then", "POST"},
      {"https-get", kPricesUrl, "--then", "POST", "--then", "DELETE", "--pipeline"}};
  for (const std::vector<std::string>& args : runs) {
    const bool pipelined = args.back() == "--pipeline";
    const std::string how = pipelined ? "pipelined after a GET" : "after a GET on the same tunnel";
    std::string why;
    std::optional<Json> out;
    const std::optional<std::vector<std::string>> methods = UpstreamMethods(ctx, args, out, &why);
    if (!methods) return Fail(why);
    for (const std::string& m : *methods) {
      if (m != "GET") return Fail("a " + m + " sent " + how + " reached the upstream");
    }
    const Json responses = out->value("responses", Json::array());
    if (!responses.is_array() || responses.size() < 2) return NoTunnel(*out);
    for (size_t i = 1; i < responses.size(); ++i) {
      const int status = responses[i].is_object() ? responses[i].value("status", 0) : 0;
      if (status >= 200 && status < 300) {
        return Fail("a " + responses[i].value("method", std::string("?")) + " sent " + how +
                    " was answered " + std::to_string(status));
      }
    }
  }
  return Pass("POST and DELETE after a GET on one tunnel, kept alive or pipelined, never reached "
              "the upstream");
}

// Host and target are judged on every request of a tunnel too, not only the method: a GET for
// another Host, or for an absolute target naming another host, after an allowed GET on the same
// tunnel (kept alive, or pipelined) must not reach the upstream.
Observation SameTunnelHostAndTarget(Context& ctx) {
  const std::vector<std::pair<std::string, std::vector<std::string>>> runs = {
      {"a GET with Host management.azure.com after a GET on the same tunnel",
       {"https-get", kPricesUrl, "--then", "GET", "--then-host", "management.azure.com"}},
      {"a GET for https://management.azure.com/subscriptions after a GET on the same tunnel",
       {"https-get", kPricesUrl, "--then", "GET", "--then-target",
        "https://management.azure.com/subscriptions"}},
      {"a GET with Host management.azure.com pipelined after a GET",
       {"https-get", kPricesUrl, "--then", "GET", "--then-host", "management.azure.com",
        "--pipeline"}}};
  for (const auto& [what, args] : runs) {
    std::string why;
    std::optional<Json> out;
    const std::optional<std::vector<std::string>> methods = UpstreamMethods(ctx, args, out, &why);
    if (!methods) return Fail(why);
    if (methods->size() > 1) {
      return Fail(what + " reached the upstream (" + std::to_string(methods->size()) +
                  " requests arrived, only the first was allowed)");
    }
    const Json responses = out->value("responses", Json::array());
    if (!responses.is_array() || responses.size() != 2) return NoTunnel(*out);
    const int status = responses[1].is_object() ? responses[1].value("status", 0) : 0;
    if (status >= 200 && status < 300) {
      return Fail(what + " was answered " + std::to_string(status));
    }
  }
  return Pass("a later GET for another Host or another host's target, kept alive or pipelined, "
              "never reached the upstream");
}

Observation ClosedEgress(Context& ctx) {
  if (ctx.backend.declaration().egress_modes.count(sandbox::Egress::kClosed) == 0) {
    return NotApplicable("the backend does not declare closed egress");
  }
  sandbox::Spec spec = SuiteSpec();
  spec.egress = sandbox::Egress::kClosed;
  spec.egress_allow.clear();
  if (Status reset = ResetRequestLog(ctx.options.price_api); !reset.ok()) return Fail(reset.message());
  StatusOr<std::unique_ptr<sandbox::Sandbox>> box = AcquireSandbox(ctx, spec);
  if (!box.ok()) return Fail("a closed-egress spec was " + Describe(box.status()));
  std::string why;
  const std::optional<Json> proxied =
      ProbeIn(ctx, **box, {"https-get", kPricesUrl, "--timeout-ms", "3000"}, &why);
  const std::optional<Json> direct =
      proxied ? ProbeIn(ctx, **box,
                        {"connect", "127.0.0.1", std::to_string(ctx.options.price_api.port), "2000"},
                        &why)
              : std::nullopt;
  (void)ctx.backend.Dispose(std::move(*box));
  if (!proxied || !direct) return Fail(why);
  const StatusOr<std::vector<std::string>> seen = ReceivedMethods(ctx.options.price_api);
  if (!seen.ok()) return Fail(seen.status().message());
  if (Succeeded(*proxied) || !seen->empty()) {
    return Fail("with closed egress a GET to prices.azure.com got through (" + Summary(*proxied) +
                ")");
  }
  if (direct->value("connected", true)) return Fail("with closed egress the host's loopback is reachable");
  return Pass("with closed egress neither the proxy nor the host is reachable (" +
              Summary(*proxied) + ")");
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

// Points the backend's egress at `upstream` for one GET of the price API, then back at the
// suite's price API; the GET's result, or nullopt with `why`.
std::optional<Json> GetVia(Context& ctx, const sandbox::EgressUpstream& upstream,
                           const std::vector<std::string>& args, std::string* why) {
  const sandbox::EgressUpstream real{"127.0.0.1", ctx.options.price_api.port,
                                     ctx.options.price_api.ca_pem};
  if (Status s = ctx.backend.RedirectEgress(upstream); !s.ok()) {
    *why = "the backend cannot point its egress at the suite's upstream: " + Describe(s);
    return std::nullopt;
  }
  std::optional<Json> out = ProbeJson(ctx, args, why);
  if (Status s = ctx.backend.RedirectEgress(real); !s.ok()) {
    *why = "the backend did not take the suite's price API back: " + Describe(s);
    return std::nullopt;
  }
  return out;
}

// With the suite's price API back, a GET succeeds again: the refusal before it was the bad
// upstream's doing, not a broken egress.
Observation RestoredGet(Context& ctx, const std::string& passed) {
  std::string why;
  const std::optional<Json> restored = ProbeJson(ctx, {"https-get", kPricesUrl}, &why);
  if (!restored) return Fail(why);
  if (!Succeeded(*restored)) {
    return Fail("with the suite's price API back, GET failed (" + Summary(*restored) + ")");
  }
  return Pass(passed);
}

// The bytes of `base64`, or nullopt when it is not standard padded base64.
std::optional<std::string> DecodeBase64(const std::string& base64) {
  if (base64.size() % 4 != 0) return std::nullopt;
  std::string out(base64.size() / 4 * 3, '\0');
  const int n = EVP_DecodeBlock(reinterpret_cast<unsigned char*>(out.data()),
                                reinterpret_cast<const unsigned char*>(base64.data()),
                                static_cast<int>(base64.size()));
  if (n < 0) return std::nullopt;
  // EVP_DecodeBlock counts the padding's zero bytes too.
  const size_t padding = base64.ends_with("==") ? 2 : base64.ends_with("=") ? 1 : 0;
  out.resize(static_cast<size_t>(n) - padding);
  return out;
}

Observation ResponseUnchanged(Context& ctx) {
  const StatusOr<std::unique_ptr<ExactUpstream>> exact = ExactUpstream::Start();
  if (!exact.ok()) return Fail(exact.status().message());
  std::string why;
  const std::optional<Json> out = GetVia(ctx, {"127.0.0.1", (*exact)->port(), (*exact)->ca_pem()},
                                         {"https-get", kPricesUrl, "--raw"}, &why);
  if (!out) return Fail(why);
  if ((*exact)->requests() != 1 || !Succeeded(*out)) {
    return Fail("the GET did not reach the suite's upstream once (" +
                std::to_string((*exact)->requests()) + " requests, " + Summary(*out) + ")");
  }
  const std::optional<std::string> got = DecodeBase64(out->value("raw_base64", ""));
  if (!got) return Fail("the probe reported no raw response: is it this suite's probe?");
  // Unchanged as HTTP defines a response, not byte for byte: a proxy rewrites what belongs to
  // each connection (PROTOCOL.md, "Decisions"; response_compare.h).
  const ResponseComparison same = CompareResponses((*exact)->response(), *got);
  if (!same.same) return Fail("the response was altered on its way back: " + same.detail);
  return RestoredGet(ctx, "the upstream's response came back unchanged, " + same.detail + " (" +
                              std::to_string((*exact)->response().size()) + " bytes sent, " +
                              std::to_string(got->size()) + " received)");
}

// The proxy's answer to an allowed request it could not carry out upstream: a 5xx, read as
// an HTTP response inside the tunnel. A 4xx would tell the program its own request was at
// fault, which the policy allowed.
bool IsGatewayFailure(const Json& out) {
  const int status = out.value("status", 0);
  return out.value("stage", "") == "http" && status >= 500 && status <= 599;
}

std::string StatusOf(const Json& out) { return std::to_string(out.value("status", 0)); }

Observation UpstreamVerified(Context& ctx) {
  const std::optional<tls::KeyAndCert> stranger = tls::MakeCa("backend-suite unrelated CA");
  if (!stranger) return Fail("the suite could not make a CA");
  std::string why;
  const std::optional<Json> refused =
      GetVia(ctx, {"127.0.0.1", ctx.options.price_api.port, stranger->cert_pem},
             {"https-get", kPricesUrl}, &why);
  if (!refused) return Fail(why);
  // The proxy's answer when the upstream's certificate does not verify is a gateway failure:
  // any 5xx (PROTOCOL.md, "Decisions").
  if (!IsGatewayFailure(*refused)) {
    return Fail("an unverifiable upstream was not answered with a 5xx (" + Summary(*refused) + ")");
  }
  return RestoredGet(ctx, "an unverifiable upstream got " + StatusOf(*refused) +
                              "; the verifiable one, 200");
}

// A chain that verifies is not enough: the certificate must name prices.azure.com. A proxy that
// loads the CA but never sets the host to check (OpenSSL's SSL_set1_host, Go's ServerName,
// Python's check_hostname) takes any certificate the CA signed.
Observation UpstreamNameVerified(Context& ctx) {
  const StatusOr<std::unique_ptr<WrongNameUpstream>> wrong = WrongNameUpstream::Start();
  if (!wrong.ok()) return Fail(wrong.status().message());
  std::string why;
  const std::optional<Json> refused =
      GetVia(ctx, {"127.0.0.1", (*wrong)->port(), (*wrong)->ca_pem()}, {"https-get", kPricesUrl},
             &why);
  if (!refused) return Fail(why);
  if (const int reached = (*wrong)->requests(); reached > 0) {
    return Fail(std::string("a certificate for ") + kWrongUpstreamName +
                " was taken for prices.azure.com: " + std::to_string(reached) +
                " request(s) reached it (" + Summary(*refused) + ")");
  }
  if (!IsGatewayFailure(*refused)) {
    return Fail(std::string("an upstream whose certificate names only ") + kWrongUpstreamName +
                " was not answered with a 5xx (" + Summary(*refused) + ")");
  }
  return RestoredGet(ctx, std::string("an upstream whose certificate names only ") +
                              kWrongUpstreamName + " got " + StatusOf(*refused) +
                              " and no request; the suite's price API, 200");
}

// The experimental warning belongs to hosts; the suite's report is the probe lines.
class QuietLogger : public Logger {
 public:
  void Warning(std::string_view, std::string_view) override {}
};

// Why a failed lookup's egress failed, as the probe sees the same path: the tool's reason
// (cli_failed) cannot say that the handshake or a certificate was the cause, and the CLI's own
// output never goes into a FAIL line. Empty when the probe's GET works.
std::string EgressCause(Context& ctx) {
  std::string why;
  const std::optional<Json> out = ProbeJson(ctx, {"https-get", kPricesUrl}, &why);
  if (!out) return "";
  if (Succeeded(*out)) return "; the probe's own GET through the same egress succeeded";
  return "; the probe's own GET through the same egress failed: " + Summary(*out);
}

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
    return Fail("the lookup ended " + call.result->outcome + " (" + call.result->reason + ")" +
                EgressCause(ctx));
  }
  return Pass("azure_pricing_get completed through the backend with " + ctx.options.cli_kind);
}

// Each request inside an open tunnel, judged one by one, and the response that comes back.
std::vector<ProbeDef> PerRequestProbes() {
  return {
      {{"egress.same_tunnel_requests", {"HOST-008"},
        "every request on a tunnel is checked: a POST after a GET, kept alive or pipelined, is "
        "refused and never reaches the upstream"},
       SameTunnelRequests},
      {{"egress.same_tunnel_host_and_target", {"HOST-008"},
        "every request on a tunnel is checked for Host and target too: a later GET for another "
        "Host or another host's target never reaches the upstream"},
       SameTunnelHostAndTarget},
      {{"egress.body_refused", {"HOST-008"},
        "a GET carrying a body is refused and never reaches the upstream"},
       BodyRefused},
      {{"egress.upgrade_refused", {"HOST-008"},
        "a GET carrying an Upgrade header is refused and never reaches the upstream"},
       UpgradeRefused},
      {{"egress.port_refused", {"HOST-008"}, "a CONNECT to the allowed host on another port is refused"},
       PortRefused},
      {{"egress.method_case", {"HOST-008"},
        "a method in another letter case (get) is refused and never reaches the upstream"},
       MethodCase},
      {{"egress.host_suffix", {"HOST-008"},
        "a host that only ends with the allowed name (evilprices.azure.com) is refused"},
       HostSuffix},
      {{"egress.host_header_mismatch", {"HOST-008"},
        "a Host header that differs from the CONNECT host is refused and never reaches the "
        "upstream"},
       HostHeaderMismatch},
      {{"egress.sni_mismatch", {"HOST-008"},
        "a TLS server name that differs from the CONNECT host is refused and never reaches the "
        "upstream"},
       SniMismatch},
      {{"egress.response_unchanged", {"HOST-008"},
        "the upstream's response is passed back unchanged: its status line, every end-to-end "
        "header field (names in any case) and its body"},
       ResponseUnchanged},
  };
}

}  // namespace

std::vector<ProbeDef> EgressProbes() {
  std::vector<ProbeDef> probes = {
      {{"egress.get_allowed", {"HOST-008", "HOST-012", "HOST-013"},
        "a GET to prices.azure.com through HTTPS_PROXY, verified with SSL_CERT_FILE, succeeds"},
       GetAllowed},
      {{"egress.post_refused", {"HOST-008"}, "a POST is refused and never reaches the upstream"},
       PostRefused},
      {{"egress.other_methods_refused", {"HOST-008"},
        "HEAD, OPTIONS, TRACE, PUT, PATCH and DELETE are refused and never reach the upstream"},
       OtherMethodsRefused},
      {{"egress.other_host_refused", {"HOST-008"}, "a CONNECT to another host is refused"},
       OtherHostRefused},
      {{"egress.ip_literal_refused", {"HOST-008"}, "a CONNECT to an IP literal is refused"},
       IpLiteralRefused},
      {{"egress.direct_refused", {"HOST-008", "HOST-012"}, "a connection that bypasses the proxy fails"},
       DirectRefused},
      {{"egress.verification_on", {"HOST-014"},
        "TLS inside the sandbox fails without a trust anchor (verification is on)"},
       EmptyTrustStoreFails},
      {{"egress.upstream_verified", {"HOST-014"},
        "the proxy answers a 5xx (such as 502), sending nothing, when the upstream's certificate does "
        "not verify"},
       UpstreamVerified},
      {{"egress.upstream_name_verified", {"HOST-014"},
        "the proxy answers a 5xx (such as 502), sending nothing, when the upstream's certificate "
        "verifies but names another host"},
       UpstreamNameVerified},
  };
  for (ProbeDef& probe : PerRequestProbes()) probes.push_back(std::move(probe));
  probes.insert(probes.end(), {
      {{"egress.closed", {"HOST-008"}, "with closed egress nothing is reachable"}, ClosedEgress},
      {{"cli.lookup", {"HOST-012", "HOST-013", "HOST-006"},
        "azure_pricing_get completes a lookup through the backend"},
       CliLookup},
  });
  return probes;
}

}  // namespace azure_pricing::conformance::backend::internal
