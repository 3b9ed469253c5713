// The whole stack on one machine: the fake price API on loopback (HTTPS with its own run-time
// CA), the bubblewrap backend with its in-process egress proxy pointed at that API, an image
// assembled for the run in a private directory, the CLI inside the sandbox (the real azmcp when
// given, else //fakes/azmcp), and the reference tool built through the scripted host's one
// host-building path (conformance/host: RunHostedCall). `azure_pricing` with no mode flag and the
// stack suite both run on it.
//
//   LocalStackOptions options{.cli = DefaultCli(), .catalog_jsonl = *OfflineCatalog()};
//   options.progress = [](const std::string& line) { std::cerr << line << "\n"; };
//   StatusOr<std::unique_ptr<LocalStack>> stack = LocalStack::Start(std::move(options));
//   StatusOr<host::CallReport> report = (*stack)->Call({.arguments = R"({"sku":"B1MS"})"});
//
// The router's floor is container, not the default microVM: bubblewrap is container isolation,
// and this stack lowers the floor on purpose (ref/sandbox/bwrap/README.md). The destructor stops
// the backend, its proxy and the fake API and removes the work directory; each child also stops
// by itself if this process dies.
#ifndef CONFORMANCE_STACK_LOCAL_STACK_H_
#define CONFORMANCE_STACK_LOCAL_STACK_H_

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "conformance/backend/price_api_process.h"
#include "conformance/host/scripted_host.h"
#include "ref/sandbox/backend.h"
#include "ref/status/status.h"

namespace azure_pricing::egress {
struct ForwardedExchange;
}
namespace azure_pricing::sandbox::bwrap {
class BwrapBackend;
}

namespace azure_pricing::conformance::stack {

// Program errors (ProgramError()): the stack does not start.
inline constexpr Reason kStackWorkDirFailed = "stack_work_dir_failed";
inline constexpr Reason kStackImageFailed = "stack_image_failed";
inline constexpr Reason kStackBackendFailed = "stack_backend_failed";
// A program error (ProgramError()): an --upstream URL the stack cannot use.
inline constexpr Reason kBadUpstream = "bad_upstream";

// The environment variable tools/bazel exports: where it unpacked the real azmcp.
inline constexpr char kAzmcpVariable[] = "AZURE_PRICING_AZMCP";

// The CLI placed at /usr/local/bin/azmcp in the image.
struct CliChoice {
  std::string path;
  bool dotnet_bundle = false;  // a real azmcp: unpacked into the image once
  bool real = false;
  std::string description;  // says which CLI, for output and results
};

// The real azmcp when AZURE_PRICING_AZMCP names an executable file, else the fake.
CliChoice DefaultCli();
CliChoice FakeCli();

// Where the egress proxy sends prices.azure.com's traffic instead of the local fake API. The
// upstream's certificate must verify for prices.azure.com against `ca_pem`.
struct StackUpstream {
  std::string host;
  int port = 443;
  std::string ca_pem;
  std::string url;  // as given, for output
};

// "https://HOST[:PORT][/]" with the CA's PEM text; kBadUpstream otherwise.
StatusOr<StackUpstream> ParseUpstream(const std::string& url, const std::string& ca_pem);

// The stack suite's catalog (fixtures/local-stack/catalog.jsonl, 12 items from recorded price
// pages; see its PROVENANCE.md), read from the runfiles: the suite and the fault tests count on
// its few rows.
StatusOr<std::string> BundledCatalog();
inline constexpr Reason kBundledCatalogMissing = "bundled_catalog_missing";

// What `azure_pricing` serves by default: the offline catalog of real and real-derived rows, the
// live check's dry-run catalog followed by the VM rows of more regions (fixtures/live-check and
// fixtures/offline-catalog; kOfflineCatalogProvenance says which rows come from where).
StatusOr<std::string> OfflineCatalog();
inline constexpr char kOfflineCatalogProvenance[] = "fixtures/offline-catalog/PROVENANCE.md";

struct LocalStackOptions {
  CliChoice cli;
  std::string catalog_jsonl;               // what the fake API serves (ignored with upstream)
  // When set, the stack's first progress line says what catalog_jsonl holds (DescribeCatalog),
  // naming this as where it comes from: a person whose query finds nothing sees why.
  std::string catalog_source;
  // When set, the fake API answers only these recorded exchanges (prices_server --replay),
  // instead of serving a catalog: replaying a recording.
  std::string replay_jsonl;
  std::optional<StackUpstream> upstream;   // instead of the fake API
  // The real prices.azure.com on 443, verified against the system's CA bundle: the live
  // check's opt-in. Excludes `upstream`; no fake API is started.
  bool real_upstream = false;
  std::string bwrap;                       // empty: `bwrap` on PATH
  // The sandbox's address-space limit instead of the backend's default (BwrapOptions::limits):
  // paging_stderr_probe's knob for finding where the real azmcp runs out of address space.
  std::optional<uint64_t> address_space_bytes;
  std::function<void(const std::string&)> progress;    // one line per step; none when unset
  std::function<void(const std::string&)> egress_log;  // the proxy's decisions; dropped if unset
  // Each request the egress proxy forwarded, with its response; unset: nothing is copied.
  std::function<void(const egress::ForwardedExchange&)> egress_observe;
};

// What one execution in a sandbox of the stack returned, as the backend gave it to the tool.
struct StackExec {
  std::vector<std::string> argv;
  StatusOr<sandbox::ExecResult> result = sandbox::ExecResult{};
};

class LocalStack {
 public:
  static StatusOr<std::unique_ptr<LocalStack>> Start(LocalStackOptions options);
  ~LocalStack();
  LocalStack(const LocalStack&) = delete;
  LocalStack& operator=(const LocalStack&) = delete;

  // One call of the tool through RunHostedCall on this stack's backend; the report's sandbox
  // acquisitions, disposals and live sandboxes are this call's. The call's backend JSON is not
  // used: the bubblewrap backend declares itself. Safe to call from several threads at once:
  // each call has its own host, router and record of the backend.
  StatusOr<host::CallReport> Call(const host::ScriptedCall& call);
  // The same, also giving every execution of the call with what it returned (the CLI's own
  // output, before the tool judged it); only this call's, whatever runs beside it.
  StatusOr<host::CallReport> Call(const host::ScriptedCall& call, std::vector<StackExec>* execs);

  // The bubblewrap backend itself, for a host that builds its own router over it (one router
  // shared by concurrent calls) and for tests that look at its state directory.
  sandbox::bwrap::BwrapBackend& backend() const;

  // The local fake API; nullptr when an upstream was given.
  const backend::PriceApi* price_api() const;
  const CliChoice& cli() const;
  // "the fake price API at https://127.0.0.1:PORT" or "the upstream URL".
  std::string upstream_description() const;

 private:
  struct Parts;
  explicit LocalStack(std::unique_ptr<Parts> parts);
  std::unique_ptr<Parts> parts_;
};

}  // namespace azure_pricing::conformance::stack

#endif  // CONFORMANCE_STACK_LOCAL_STACK_H_
