// egress_proxy: the GET-only, TLS-intercepting egress proxy as a program.
#include <signal.h>

#include <iostream>
#include <optional>
#include <string>
#include <thread>

#include "ref/base/address.h"
#include "ref/base/files.h"
#include "ref/base/flags.h"
#include "ref/base/main_guard.h"
#include "ref/base/paths.h"
#include "ref/egress/proxy.h"

namespace {

namespace base = azure_pricing::base;
using azure_pricing::Status;
using azure_pricing::StatusOr;

constexpr char kUsage[] =
    "usage: egress_proxy --ca-out FILE [--listen HOST:PORT] [--allowed-host NAME]\n"
    "                    [--upstream HOST:PORT] [--upstream-ca FILE] [--max-tunnels N]\n"
    "                    [--idle-timeout-ms N]\n"
    "GET-only egress to one host: CONNECT only to NAME:443 (default prices.azure.com), TLS\n"
    "terminated with a leaf signed by a CA made at start and written to --ca-out (give it to\n"
    "the sandbox as SSL_CERT_FILE), one GET without a body per tunnel, forwarded with\n"
    "certificate verification to NAME:443 or --upstream (verified for NAME against\n"
    "--upstream-ca, or the system store). Redirects are passed back, never followed.\n"
    "Prints `proxy http://HOST:PORT` and `ready`; every decision is one line on stderr:\n"
    "`decision=<reason> stage=<accept|connect|tls|request|upstream> status=<code|none>`.\n"
    "  --max-tunnels N      tunnels open at once, 1 to 4096 (default 16); more get 503\n"
    "  --idle-timeout-ms N  how long a quiet tunnel or upstream is waited for, 1 to 3600000\n"
    "                       (default 10000)\n"
    "A path, address or value that cannot work is one line on stderr and a non-zero exit\n"
    "(64 for the command line) before `ready`.\n";

struct Options {
  azure_pricing::egress::ProxyOptions proxy;
  std::string ca_out;       // as given, for the lines that name it
  std::string ca_out_path;  // where it is written (the caller's directory under `bazel run`)
  std::string upstream_ca;  // as given
  bool help = false;
};

int Usage(const std::string& problem) {
  std::cerr << "egress_proxy: " << problem << "\n" << kUsage;
  return 64;
}

// Reason codes of flag values that cannot work (beyond base::Flags' and ParseHostPort's).
constexpr char kBadCount[] = "bad_count";
constexpr char kBadAddress[] = "bad_address";
constexpr char kBadHost[] = "bad_allowed_host";

// The most tunnels and the longest idle wait a run may ask for: far above any use here, low
// enough that a typo (a timeout in seconds given as milliseconds times 1000) is caught.
constexpr int kMaxTunnels = 4096;
constexpr int kMaxIdleTimeoutMs = 3'600'000;

// `required_port`: the address is dialled, so port 0 (pick one) cannot work.
Status ReadAddress(const base::Flags& flags, const char* flag, bool required_port,
                   std::string& host, int& port, std::string* problem) {
  const std::optional<std::string> text = flags.Value(flag);
  if (!text) return azure_pricing::OkStatus();
  StatusOr<base::HostPort> address = base::ParseHostPort(*text);
  if (address.ok() && required_port && address->port == 0) {
    address = Status(azure_pricing::Outcome::kRefused, kBadAddress,
                     "the port must be from 1 to 65535");
  }
  if (!address.ok()) {
    *problem = std::string("bad value for ") + flag + ": " + address.status().message();
    return address.status();
  }
  host = address->host;
  port = address->port;
  return azure_pricing::OkStatus();
}

Status ReadCount(const base::Flags& flags, const char* flag, int max, int& out,
                 std::string* problem) {
  const std::optional<std::string> text = flags.Value(flag);
  if (!text) return azure_pricing::OkStatus();
  const bool digits = !text->empty() && text->size() <= 9 &&
                      text->find_first_not_of("0123456789") == std::string::npos;
  if (!digits || std::stoi(*text) < 1 || std::stoi(*text) > max) {
    *problem = std::string(flag) + " must be a whole number from 1 to " + std::to_string(max);
    return Status(azure_pricing::Outcome::kRefused, kBadCount, "the count is out of range");
  }
  out = std::stoi(*text);
  return azure_pricing::OkStatus();
}

// The allowed host: a DNS name, as the CONNECT check compares it (an IP literal never matches).
Status ReadAllowedHost(const base::Flags& flags, std::string& out, std::string* problem) {
  const std::optional<std::string> text = flags.Value("--allowed-host");
  if (!text) return azure_pricing::OkStatus();
  if (!azure_pricing::egress::NormalizeHost(*text) ||
      azure_pricing::egress::LooksLikeIpLiteral(*text)) {
    *problem = "--allowed-host must be a DNS host name such as prices.azure.com (got '" + *text +
               "')";
    return Status(azure_pricing::Outcome::kRefused, kBadHost, "not a DNS host name");
  }
  out = *text;
  return azure_pricing::OkStatus();
}

// The command line as Options; on failure `problem` is the line to show.
StatusOr<Options> ParseFlags(int argc, char** argv, std::string* problem) {
  const StatusOr<base::Flags> flags =
      base::Flags::ParseOrExplain(argc, argv,
                                  {{"--help", base::FlagKind::kSwitch},
                                   {"-h", base::FlagKind::kSwitch},
                                   {"--listen", base::FlagKind::kValue},
                                   {"--allowed-host", base::FlagKind::kValue},
                                   {"--upstream", base::FlagKind::kValue},
                                   {"--upstream-ca", base::FlagKind::kValue},
                                   {"--ca-out", base::FlagKind::kValue},
                                   {"--max-tunnels", base::FlagKind::kValue},
                                   {"--idle-timeout-ms", base::FlagKind::kValue}},
                                  problem);
  if (!flags.ok()) return flags.status();
  Options o;
  o.help = flags->Has("--help") || flags->Has("-h");
  o.ca_out = flags->Value("--ca-out").value_or("");
  o.ca_out_path = base::CallerPath(o.ca_out);
  o.upstream_ca = flags->Value("--upstream-ca").value_or("");
  o.proxy.upstream_ca_file = base::CallerPath(o.upstream_ca);
  auto& p = o.proxy;
  for (const Status& s :
       {ReadAddress(*flags, "--listen", false, p.listen_host, p.listen_port, problem),
        ReadAllowedHost(*flags, p.allowed_host, problem),
        ReadAddress(*flags, "--upstream", true, p.upstream_host, p.upstream_port, problem),
        ReadCount(*flags, "--max-tunnels", kMaxTunnels, p.max_tunnels, problem),
        ReadCount(*flags, "--idle-timeout-ms", kMaxIdleTimeoutMs, p.idle_timeout_ms, problem)}) {
    if (!s.ok()) return s;
  }
  return o;
}

// One line naming what could not start: the flag and its path or address, and why.
std::string StartProblem(const Options& options, const Status& status) {
  const auto& p = options.proxy;
  if (status.reason() == azure_pricing::egress::kStartListen) {
    return "cannot listen on --listen " + p.listen_host + ":" + std::to_string(p.listen_port) +
           ": " + status.message();
  }
  if (status.reason() == azure_pricing::egress::kStartUpstreamCa) {
    return p.upstream_ca_file.empty()
               ? "cannot verify upstreams: " + status.message()
               : "bad --upstream-ca " + options.upstream_ca + ": " + status.message();
  }
  return "cannot start: " + status.message();
}

// What the proxy will read and write, checked before it binds, so that the reason names the
// file's problem.
bool CheckInputs(const Options& options) {
  if (const Status s = base::CheckWritableFile(options.ca_out_path); !s.ok()) {
    std::cerr << "egress_proxy: cannot write --ca-out " << options.ca_out << ": " << s.message()
              << "\n";
    return false;
  }
  const std::string& ca = options.proxy.upstream_ca_file;
  if (ca.empty()) return true;
  // Only that it can be read: the proxy itself loads it.
  if (const Status readable = base::CheckReadableFile(ca); !readable.ok()) {
    std::cerr << "egress_proxy: cannot read --upstream-ca " << options.upstream_ca << ": "
              << readable.message() << "\n";
    return false;
  }
  return true;
}

int Run(int argc, char** argv) {
  std::string problem;
  const StatusOr<Options> options = ParseFlags(argc, argv, &problem);
  if (!options.ok()) return Usage(problem);
  if (options->help) {
    std::cout << kUsage;
    return 0;
  }
  if (options->ca_out.empty()) return Usage("--ca-out FILE is required");
  if (options->proxy.listen_host != "127.0.0.1") {
    return Usage("--listen must be 127.0.0.1:PORT (the proxy listens on loopback only)");
  }
  if (!CheckInputs(*options)) return 1;
  signal(SIGPIPE, SIG_IGN);
  azure_pricing::egress::EgressProxy proxy(options->proxy);
  if (const Status started = proxy.Start(); !started.ok()) {
    std::cerr << "egress_proxy: " << StartProblem(*options, started) << "\n";
    return 1;
  }
  if (const Status written =
          base::WriteFileAtomically(options->ca_out_path, proxy.egress_ca_pem());
      !written.ok()) {
    std::cerr << "egress_proxy: cannot write --ca-out " << options->ca_out << ": "
              << written.message() << "\n";
    return 1;
  }
  std::cout << "proxy http://" << options->proxy.listen_host << ":" << proxy.port() << std::endl;
  std::cout << "ready" << std::endl;
  for (;;) std::this_thread::sleep_for(std::chrono::hours(24));
}

}  // namespace

int main(int argc, char** argv) {
  return azure_pricing::base::GuardedMain("egress_proxy", [&] { return Run(argc, argv); });
}
