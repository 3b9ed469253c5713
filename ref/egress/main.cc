// egress_proxy: the GET-only, TLS-intercepting egress proxy as a program.
#include <signal.h>

#include <fstream>
#include <iostream>
#include <string>
#include <thread>

#include "ref/egress/proxy.h"

namespace {

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
    "`decision=<reason> stage=<connect|tls|request|upstream> status=<code>`.\n";

bool SplitHostPort(const std::string& text, std::string& host, int& port) {
  const size_t colon = text.rfind(':');
  if (colon == std::string::npos) return false;
  host = text.substr(0, colon);
  try {
    port = std::stoi(text.substr(colon + 1));
  } catch (...) {
    return false;
  }
  return !host.empty() && port >= 0 && port < 65536;
}

}  // namespace

int main(int argc, char** argv) {
  azure_pricing::egress::ProxyOptions options;
  std::string ca_out;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (a == "--help" || a == "-h") {
      std::cout << kUsage;
      return 0;
    }
    if (i + 1 >= argc) {
      std::cerr << "egress_proxy: " << a << " needs a value\n" << kUsage;
      return 64;
    }
    const std::string v = argv[++i];
    try {
      if (a == "--listen") {
        if (!SplitHostPort(v, options.listen_host, options.listen_port)) throw 1;
      } else if (a == "--allowed-host") {
        options.allowed_host = v;
      } else if (a == "--upstream") {
        if (!SplitHostPort(v, options.upstream_host, options.upstream_port)) throw 1;
      } else if (a == "--upstream-ca") {
        options.upstream_ca_file = v;
      } else if (a == "--ca-out") {
        ca_out = v;
      } else if (a == "--max-tunnels") {
        options.max_tunnels = std::stoi(v);
      } else if (a == "--idle-timeout-ms") {
        options.idle_timeout_ms = std::stoi(v);
      } else {
        std::cerr << "egress_proxy: unknown option " << a << "\n" << kUsage;
        return 64;
      }
    } catch (...) {
      std::cerr << "egress_proxy: bad value for " << a << "\n";
      return 64;
    }
  }
  if (ca_out.empty()) {
    std::cerr << "egress_proxy: --ca-out FILE is required\n" << kUsage;
    return 64;
  }
  if (options.listen_host != "127.0.0.1") {
    std::cerr << "egress_proxy: listens on 127.0.0.1 only\n";
    return 64;
  }
  signal(SIGPIPE, SIG_IGN);
  azure_pricing::egress::EgressProxy proxy(options);
  if (!proxy.Start()) {
    std::cerr << "egress_proxy: cannot start (bind, certificates or --upstream-ca)\n";
    return 1;
  }
  std::ofstream(ca_out) << proxy.egress_ca_pem();
  std::cout << "proxy http://" << options.listen_host << ":" << proxy.port() << std::endl;
  std::cout << "ready" << std::endl;
  for (;;) std::this_thread::sleep_for(std::chrono::hours(24));
}
