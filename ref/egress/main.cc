// egress_proxy: the GET-only, TLS-intercepting egress proxy as a program.
#include <signal.h>

#include <iostream>
#include <optional>
#include <string>
#include <thread>

#include "ref/base/address.h"
#include "ref/base/files.h"
#include "ref/base/flags.h"
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
    "`decision=<reason> stage=<accept|connect|tls|request|upstream> status=<code|none>`.\n";

struct Options {
  azure_pricing::egress::ProxyOptions proxy;
  std::string ca_out;
  bool help = false;
};

int Usage(const std::string& problem) {
  std::cerr << "egress_proxy: " << problem << "\n" << kUsage;
  return 64;
}

// Reason code of a flag value that does not read (beyond base::Flags' and ParseHostPort's).
constexpr char kNotACount[] = "not_a_count";

Status ReadAddress(const base::Flags& flags, const char* flag, std::string& host, int& port,
                   std::string* problem) {
  const std::optional<std::string> text = flags.Value(flag);
  if (!text) return azure_pricing::OkStatus();
  StatusOr<base::HostPort> address = base::ParseHostPort(*text);
  if (!address.ok()) {
    *problem = std::string("bad value for ") + flag + ": " + address.status().message();
    return address.status();
  }
  host = address->host;
  port = address->port;
  return azure_pricing::OkStatus();
}

Status ReadCount(const base::Flags& flags, const char* flag, int& out, std::string* problem) {
  const std::optional<std::string> text = flags.Value(flag);
  if (!text) return azure_pricing::OkStatus();
  if (text->empty() || text->size() > 9 ||
      text->find_first_not_of("0123456789") != std::string::npos) {
    *problem = std::string("bad value for ") + flag + ": not a whole number";
    return Status(azure_pricing::Outcome::kRefused, kNotACount, "not a whole number");
  }
  out = std::stoi(*text);
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
  o.proxy.allowed_host = flags->Value("--allowed-host").value_or(o.proxy.allowed_host);
  o.proxy.upstream_ca_file = flags->Value("--upstream-ca").value_or("");
  for (const Status& s :
       {ReadAddress(*flags, "--listen", o.proxy.listen_host, o.proxy.listen_port, problem),
        ReadAddress(*flags, "--upstream", o.proxy.upstream_host, o.proxy.upstream_port, problem),
        ReadCount(*flags, "--max-tunnels", o.proxy.max_tunnels, problem),
        ReadCount(*flags, "--idle-timeout-ms", o.proxy.idle_timeout_ms, problem)}) {
    if (!s.ok()) return s;
  }
  return o;
}

}  // namespace

int main(int argc, char** argv) {
  std::string problem;
  const StatusOr<Options> options = ParseFlags(argc, argv, &problem);
  if (!options.ok()) return Usage(problem);
  if (options->help) {
    std::cout << kUsage;
    return 0;
  }
  if (options->ca_out.empty()) return Usage("--ca-out FILE is required");
  if (options->proxy.listen_host != "127.0.0.1") {
    std::cerr << "egress_proxy: listens on 127.0.0.1 only\n";
    return 64;
  }
  signal(SIGPIPE, SIG_IGN);
  azure_pricing::egress::EgressProxy proxy(options->proxy);
  if (!proxy.Start()) {
    std::cerr << "egress_proxy: cannot start (bind, certificates or --upstream-ca)\n";
    return 1;
  }
  if (const Status written = base::WriteFileAtomically(options->ca_out, proxy.egress_ca_pem());
      !written.ok()) {
    std::cerr << "egress_proxy: cannot write --ca-out " << options->ca_out << ": "
              << written.message() << "\n";
    return 1;
  }
  std::cout << "proxy http://" << options->proxy.listen_host << ":" << proxy.port() << std::endl;
  std::cout << "ready" << std::endl;
  for (;;) std::this_thread::sleep_for(std::chrono::hours(24));
}
