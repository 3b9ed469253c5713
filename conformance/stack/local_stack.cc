#include "conformance/stack/local_stack.h"

#include <sys/stat.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <mutex>
#include <utility>
#include <vector>

#include "conformance/stack/catalog_summary.h"
#include "ref/base/address.h"
#include "ref/base/files.h"
#include "ref/base/runfiles.h"
#include "ref/base/scoped_temp_dir.h"
#include "ref/sandbox/bwrap/bwrap_backend.h"
#include "ref/sandbox/bwrap/image.h"
#include "ref/status/status_macros.h"

namespace azure_pricing::conformance::stack {
namespace {

namespace fs = std::filesystem;
using base::Runfile;

// The stack's own errors: no call of the tool ended.
Status Failed(Reason reason, std::string message) {
  return ProgramError(reason, std::move(message));
}

// What one call's sandboxes ran, in order.
struct ExecLog {
  std::mutex mu;
  std::vector<StackExec> execs;
  void Add(const sandbox::ExecRequest& request, const StatusOr<sandbox::ExecResult>& result) {
    std::lock_guard<std::mutex> lock(mu);
    execs.push_back({.argv = request.argv, .result = result});
  }
  std::vector<StackExec> Take() {
    std::lock_guard<std::mutex> lock(mu);
    return std::exchange(execs, {});
  }
};

// A sandbox of the stack, passing everything through and noting each execution's result: the
// live check judges the CLI's own output, which the tool's report no longer holds.
class RecordingSandbox : public sandbox::Sandbox, public sandbox::BoundedExec {
 public:
  RecordingSandbox(std::unique_ptr<sandbox::Sandbox> inner, ExecLog* log)
      : inner_(std::move(inner)), log_(log) {}
  StatusOr<sandbox::ExecResult> Exec(const sandbox::ExecRequest& request) override {
    StatusOr<sandbox::ExecResult> result = inner_->Exec(request);
    log_->Add(request, result);
    return result;
  }
  sandbox::BoundedExec* bounded_exec() override {
    return inner_->bounded_exec() != nullptr ? this : nullptr;
  }
  StatusOr<sandbox::ExecResult> ExecBounded(const sandbox::ExecRequest& request) override {
    StatusOr<sandbox::ExecResult> result = inner_->bounded_exec()->ExecBounded(request);
    log_->Add(request, result);
    return result;
  }
  Status WriteFile(const std::string& path, const std::string& bytes) override {
    return inner_->WriteFile(path, bytes);
  }
  StatusOr<std::string> ReadFile(const std::string& path) override {
    return inner_->ReadFile(path);
  }
  std::unique_ptr<sandbox::Sandbox> Release() { return std::move(inner_); }

 private:
  std::unique_ptr<sandbox::Sandbox> inner_;
  ExecLog* log_;
};

// The bubblewrap backend as one call's router sees it, counting what that call acquired and
// disposed (the scripted host's report has those counts only for its own fake backend) and
// recording what each of its executions returned. One per call, so calls made at the same time
// from several threads never see each other's sandboxes or executions.
class CountingBackend : public sandbox::Backend {
 public:
  explicit CountingBackend(sandbox::Backend* inner) : inner_(inner) {}
  const sandbox::BackendDeclaration& declaration() const override { return inner_->declaration(); }
  StatusOr<std::unique_ptr<sandbox::Sandbox>> Acquire(const sandbox::Spec& spec,
                                                      const sandbox::SandboxKey& key) override {
    ++acquired;
    StatusOr<std::unique_ptr<sandbox::Sandbox>> got = inner_->Acquire(spec, key);
    if (!got.ok()) return got;
    ++live;
    return std::unique_ptr<sandbox::Sandbox>(new RecordingSandbox(std::move(*got), &log));
  }
  Status Dispose(std::unique_ptr<sandbox::Sandbox> sandbox) override {
    ++disposed;
    auto* ours = dynamic_cast<RecordingSandbox*>(sandbox.get());
    Status done = inner_->Dispose(ours != nullptr ? ours->Release() : std::move(sandbox));
    if (done.ok() && ours != nullptr) --live;
    return done;
  }
  Status RedirectEgress(const sandbox::EgressUpstream& upstream) override {
    return inner_->RedirectEgress(upstream);
  }
  // Sandboxes this call acquired that the backend has not accepted back.
  std::atomic<int> acquired{0}, disposed{0}, live{0};
  ExecLog log;

 private:
  sandbox::Backend* inner_;
};

int CountLines(const std::string& text) {
  int lines = 0;
  for (char c : text) lines += c == '\n' ? 1 : 0;
  return lines;
}

bool ExecutableFile(const std::string& path) {
  struct stat st {};
  return !path.empty() && stat(path.c_str(), &st) == 0 && S_ISREG(st.st_mode) &&
         access(path.c_str(), X_OK) == 0;
}

}  // namespace

CliChoice FakeCli() {
  return {.path = Runfile("fakes/azmcp/azmcp"),
          .dotnet_bundle = false,
          .real = false,
          .description = "the fake azmcp (//fakes/azmcp; AZURE_PRICING_AZMCP is not set)"};
}

CliChoice DefaultCli() {
  const char* real = std::getenv(kAzmcpVariable);
  if (real == nullptr || !ExecutableFile(real)) return FakeCli();
  return {.path = real,
          .dotnet_bundle = true,
          .real = true,
          .description = std::string("the real azmcp (") + kAzmcpVariable + "=" + real + ")"};
}

StatusOr<std::string> BundledCatalog() {
  StatusOr<std::string> text = base::ReadFile(Runfile("fixtures/local-stack/catalog.jsonl"));
  if (!text.ok()) {
    return Failed(kBundledCatalogMissing, "the bundled catalog is not in the runfiles");
  }
  return text;
}

StatusOr<std::string> OfflineCatalog() {
  std::string catalog;
  for (const char* part :
       {"fixtures/live-check/catalog.jsonl", "fixtures/offline-catalog/vm-regions.jsonl"}) {
    StatusOr<std::string> text = base::ReadFile(Runfile(part));
    if (!text.ok()) {
      return Failed(kBundledCatalogMissing, "the offline catalog is not in the runfiles");
    }
    catalog += *text;
  }
  return catalog;
}

StatusOr<StackUpstream> ParseUpstream(const std::string& url, const std::string& ca_pem) {
  const Status bad(Outcome::kRefused, kBadUpstream,
                   "the upstream must be https://HOST[:PORT] and its CA a PEM certificate");
  constexpr std::string_view kScheme = "https://";
  if (url.rfind(kScheme, 0) != 0 || ca_pem.find("-----BEGIN CERTIFICATE-----") == std::string::npos) {
    return bad;
  }
  std::string authority = url.substr(kScheme.size());
  if (!authority.empty() && authority.back() == '/') authority.pop_back();
  if (authority.empty() || authority.find_first_of("/?#@") != std::string::npos) return bad;
  StackUpstream out{.host = authority, .port = 443, .ca_pem = ca_pem, .url = url};
  const size_t colon = authority.rfind(':');
  if (colon != std::string::npos && authority.find(']') == std::string::npos) {
    StatusOr<base::HostPort> hp = base::ParseHostPort(authority);
    if (!hp.ok() || hp->port <= 0 || hp->host.empty()) return bad;
    out.host = hp->host;
    out.port = hp->port;
  }
  return out;
}

struct LocalStack::Parts {
  // The image, the fake API's catalog and CA: removed however the run ends, after everything
  // that uses it (declared first, so destroyed last).
  base::ScopedTempDir work;
  LocalStackOptions options;
  std::unique_ptr<backend::PriceApiProcess> api;
  std::unique_ptr<sandbox::bwrap::BwrapBackend> backend;

  void Say(const std::string& line) const {
    if (options.progress) options.progress(line);
  }
  Status StartApi();
  Status AssembleImage();
  Status StartBackend();
};

Status LocalStack::Parts::StartApi() {
  if (options.upstream.has_value()) {
    Say("upstream: " + options.upstream->url + " (instead of the local fake price API)");
    return OkStatus();
  }
  if (options.real_upstream) {
    Say("upstream: the real https://prices.azure.com, verified against the system's CA bundle");
    return OkStatus();
  }
  const bool replay = !options.replay_jsonl.empty();
  if (!replay && !options.catalog_source.empty()) {
    Say(DescribeCatalog(options.catalog_jsonl, options.catalog_source));
  }
  Say("starting the fake price API (" +
      (replay ? std::to_string(CountLines(options.replay_jsonl)) + " recorded exchanges"
              : std::to_string(CountLines(options.catalog_jsonl)) + " catalog items") +
      ", HTTPS with its own run-time CA) ...");
  const std::string dir = work.path() + "/price-api";
  std::error_code made;
  fs::create_directories(dir, made);
  const std::string binary = Runfile("fakes/prices_server/prices_server");
  ASSIGN_OR_RETURN(api, replay
                            ? backend::PriceApiProcess::StartReplay(binary, options.replay_jsonl, dir)
                            : backend::PriceApiProcess::Start(binary, options.catalog_jsonl, dir));
  Say("starting the fake price API ... ready at https://127.0.0.1:" +
      std::to_string(api->api().port));
  return OkStatus();
}

Status LocalStack::Parts::AssembleImage() {
  Say("assembling the sandbox image with " + options.cli.description + " ...");
  const auto began = std::chrono::steady_clock::now();
  const Status made = sandbox::bwrap::AssembleImage(
      {.azmcp = options.cli.path,
       .dotnet_bundle = options.cli.dotnet_bundle,
       .sandbox_init = Runfile("ref/sandbox/bwrap/sandbox_init"),
       .probe = "",
       .provenance = options.cli.description},
      work.path() + "/image");
  if (!made.ok()) return Failed(kStackImageFailed, "cannot assemble the image: " + made.message());
  const auto ms = std::chrono::duration_cast<std::chrono::milliseconds>(
                      std::chrono::steady_clock::now() - began)
                      .count();
  Say("assembling the sandbox image ... ready (" + std::to_string(ms) + " ms)");
  return OkStatus();
}

Status LocalStack::Parts::StartBackend() {
  Say("starting the bubblewrap backend and its egress proxy (GET-only to prices.azure.com) ...");
  sandbox::bwrap::BwrapOptions bwrap;
  bwrap.image_dir = work.path() + "/image";
  bwrap.bwrap_path = options.bwrap;
  if (options.address_space_bytes.has_value()) {
    bwrap.limits.address_space_bytes = *options.address_space_bytes;
  }
  bwrap.egress_log = options.egress_log ? options.egress_log : [](const std::string&) {};
  bwrap.egress_observe = options.egress_observe;
  if (options.real_upstream) {
    bwrap.upstream = std::nullopt;  // the proxy's own default: the allowed host itself
  } else if (options.upstream.has_value()) {
    bwrap.upstream = sandbox::EgressUpstream{options.upstream->host, options.upstream->port,
                                             options.upstream->ca_pem};
  } else {
    bwrap.upstream = sandbox::EgressUpstream{"127.0.0.1", api->api().port, api->api().ca_pem};
  }
  StatusOr<std::unique_ptr<sandbox::bwrap::BwrapBackend>> created =
      sandbox::bwrap::BwrapBackend::Create(bwrap);
  if (!created.ok()) {
    return Failed(kStackBackendFailed,
                  "the bubblewrap backend did not start: " + created.status().message());
  }
  backend = std::move(*created);
  Say("starting the bubblewrap backend ... ready");
  Say("router floor: container, lowered on purpose from the default microVM (bubblewrap is "
      "container isolation; ref/sandbox/bwrap/README.md)");
  return OkStatus();
}

LocalStack::LocalStack(std::unique_ptr<Parts> parts) : parts_(std::move(parts)) {}

LocalStack::~LocalStack() {
  if (parts_ == nullptr) return;
  // The backend (and the proxy it runs) goes before the API it forwards to; the work directory
  // goes last, when nothing uses the image any more.
  parts_->backend.reset();
  parts_->api.reset();
}

StatusOr<std::unique_ptr<LocalStack>> LocalStack::Start(LocalStackOptions options) {
  if (options.real_upstream && options.upstream.has_value()) {
    return ProgramError(kBadUpstream, "the real prices.azure.com and another upstream cannot both be the upstream");
  }
  auto parts = std::make_unique<Parts>();
  parts->options = std::move(options);
  StatusOr<base::ScopedTempDir> work = base::ScopedTempDir::Make("azure-pricing-stack");
  if (!work.ok()) return Failed(kStackWorkDirFailed, "cannot make a work directory under TMPDIR");
  parts->work = std::move(*work);
  std::unique_ptr<LocalStack> stack(new LocalStack(std::move(parts)));
  Parts& p = *stack->parts_;
  RETURN_IF_ERROR(p.StartApi());
  RETURN_IF_ERROR(p.AssembleImage());
  RETURN_IF_ERROR(p.StartBackend());
  return stack;
}

StatusOr<host::CallReport> LocalStack::Call(const host::ScriptedCall& call) {
  return Call(call, nullptr);
}

StatusOr<host::CallReport> LocalStack::Call(const host::ScriptedCall& call,
                                            std::vector<StackExec>* execs) {
  // This call's own view of the backend: calls on other threads count and log into theirs.
  CountingBackend counting(parts_->backend.get());
  StatusOr<host::CallReport> report = host::RunHostedCall(
      call, [&counting](const host::BackendSetup&) -> sandbox::Backend* { return &counting; });
  if (!report.ok()) return report;
  report->sandbox_acquisitions = counting.acquired.load();
  report->sandbox_disposals = counting.disposed.load();
  report->sandbox_live = counting.live.load();
  if (execs != nullptr) *execs = counting.log.Take();
  return report;
}

sandbox::bwrap::BwrapBackend& LocalStack::backend() const { return *parts_->backend; }

const backend::PriceApi* LocalStack::price_api() const {
  return parts_->api != nullptr ? &parts_->api->api() : nullptr;
}

const CliChoice& LocalStack::cli() const { return parts_->options.cli; }

std::string LocalStack::upstream_description() const {
  if (parts_->options.upstream.has_value()) return "the upstream " + parts_->options.upstream->url;
  if (parts_->options.real_upstream) return "the real https://prices.azure.com";
  return "the fake price API at https://127.0.0.1:" + std::to_string(parts_->api->api().port);
}

}  // namespace azure_pricing::conformance::stack
