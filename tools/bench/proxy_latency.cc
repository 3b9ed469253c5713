// The egress proxy's added latency and its memory with many tunnels open.
// Latency: the same HTTPS GET to an in-process fake upstream, made directly and through the proxy
// (CONNECT, interception, verified upstream TLS), alternating in one run; p50 and p99 of each and
// their ratio. A new connection per request on both paths, as the CLI's one-request tunnels make
// it. Memory: the `egress_proxy` program alone in its process, 64 tunnels held open by this
// driver (each CONNECTed, TLS up on both sides, its GET forwarded and the upstream holding the
// answer), its peak resident set (VmHWM) against the same process idle.
//   tools/bazel run -c opt //tools/bench:proxy_latency -- [REQUESTS] [--rows]
// --rows prints one JSON object per measure (tools/bench/ROWS.md) and the rest on stderr.
#include <httplib.h>
#include <openssl/ssl.h>
#include <fcntl.h>
#include <signal.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <condition_variable>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <memory>
#include <mutex>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "fakes/testing/loopback_socket.h"
#include "ref/base/files.h"
#include "ref/base/main_guard.h"
#include "ref/base/openssl.h"
#include "ref/base/ready_child.h"
#include "ref/egress/proxy.h"
#include "ref/tls/runtime_ca.h"
#include "tools/bench/rows.h"

namespace {

using azure_pricing::fakes::test_support::DialLoopback;
using azure_pricing::fakes::test_support::ReadHead;
namespace base = azure_pricing::base;
using Clock = std::chrono::steady_clock;
using Json = nlohmann::ordered_json;

constexpr int kTunnels = 64;
constexpr int kIoTimeoutSeconds = 60;
constexpr size_t kHeldBodyBytes = 256 << 10;

FILE* g_out = stdout;  // stderr when stdout carries rows

// A client TLS connection, through the proxy when proxy_port > 0, with its GET sent.
struct Exchange {
  int fd = -1;
  base::SslCtxPtr ctx;
  base::SslPtr ssl;
  ~Exchange() {
    ssl.reset();
    if (fd >= 0) close(fd);
  }
};

std::unique_ptr<Exchange> Send(int port, int proxy_port, const std::string& ca_pem,
                               const std::string& target) {
  auto x = std::make_unique<Exchange>();
  x->fd = DialLoopback(proxy_port > 0 ? proxy_port : port, kIoTimeoutSeconds);
  if (x->fd < 0) return nullptr;
  if (proxy_port > 0) {
    const std::string req = "CONNECT prices.azure.com:443 HTTP/1.1\r\n\r\n";
    send(x->fd, req.data(), req.size(), MSG_NOSIGNAL);
    if (ReadHead(x->fd).rfind("HTTP/1.1 200", 0) != 0) return nullptr;
  }
  x->ctx.reset(SSL_CTX_new(TLS_client_method()));
  const base::X509Ptr ca = base::ReadPemCert(ca_pem);
  X509_STORE_add_cert(SSL_CTX_get_cert_store(x->ctx.get()), ca.get());
  SSL_CTX_set_verify(x->ctx.get(), SSL_VERIFY_PEER, nullptr);
  x->ssl.reset(SSL_new(x->ctx.get()));
  SSL_set_fd(x->ssl.get(), x->fd);
  SSL_set_tlsext_host_name(x->ssl.get(), "prices.azure.com");
  SSL_set1_host(x->ssl.get(), "prices.azure.com");
  if (SSL_connect(x->ssl.get()) != 1) return nullptr;
  const std::string get = "GET " + target +
                          " HTTP/1.1\r\nHost: prices.azure.com\r\nConnection: close\r\n\r\n";
  if (SSL_write(x->ssl.get(), get.data(), static_cast<int>(get.size())) <= 0) return nullptr;
  return x;
}

// Reads the answer to its end; the bytes read.
size_t Drain(Exchange& x) {
  size_t total = 0;
  char buf[16384];
  int n;
  while ((n = SSL_read(x.ssl.get(), buf, sizeof buf)) > 0) total += static_cast<size_t>(n);
  return total;
}

// One GET over a fresh connection; through the proxy when proxy_port > 0. Returns bytes read.
size_t Get(int port, int proxy_port, const std::string& ca_pem) {
  std::unique_ptr<Exchange> x = Send(port, proxy_port, ca_pem, "/api/retail/prices");
  return x ? Drain(*x) : 0;
}

struct Options {
  int requests = 1000;
  bool rows = false;
};

// [REQUESTS] (digits only, 1 to 1,000,000) and --rows, each at most once; nullopt with the
// line for a person in `problem`.
std::optional<Options> ParseArgs(int argc, char** argv, std::string& problem) {
  Options o;
  bool have_requests = false;
  for (int i = 1; i < argc; ++i) {
    const std::string text = argv[i];
    if (text == "--rows") {
      if (o.rows) problem = "--rows is given more than once";
      o.rows = true;
      if (!problem.empty()) return std::nullopt;
      continue;
    }
    if (!text.empty() && text[0] == '-') problem = "unknown option " + text;
    if (problem.empty() && have_requests) problem = "REQUESTS is given more than once";
    if (problem.empty() && (text.empty() || text.size() > 7 ||
                            text.find_first_not_of("0123456789") != std::string::npos)) {
      problem = "REQUESTS is a whole number from 1 to 1000000";
    }
    if (!problem.empty()) return std::nullopt;
    o.requests = std::stoi(text);
    have_requests = true;
    if (o.requests < 1 || o.requests > 1'000'000) {
      problem = "REQUESTS is a whole number from 1 to 1000000";
      return std::nullopt;
    }
  }
  return o;
}

double Percentile(std::vector<double> v, double p) {
  std::sort(v.begin(), v.end());
  return v[std::min(v.size() - 1, static_cast<size_t>(p * static_cast<double>(v.size())))];
}

// The upstream's held answers: each /hold request waits until Release (or its deadline).
struct Hold {
  std::mutex mu;
  std::condition_variable cv;
  int waiting = 0;
  bool released = false;

  void Wait() {
    std::unique_lock<std::mutex> lock(mu);
    ++waiting;
    cv.notify_all();
    cv.wait_for(lock, std::chrono::seconds(kIoTimeoutSeconds), [this] { return released; });
  }
  bool WaitForHeld(int n) {
    std::unique_lock<std::mutex> lock(mu);
    return cv.wait_for(lock, std::chrono::seconds(kIoTimeoutSeconds),
                       [this, n] { return waiting >= n; });
  }
  void Release() {
    std::lock_guard<std::mutex> lock(mu);
    released = true;
    cv.notify_all();
  }
};

using azure_pricing::tools::bench::PeakRssMiB;

struct Child {
  std::unique_ptr<azure_pricing::base::ReadyChild> child;  // stopped and reaped when it goes
  int port = 0;
  pid_t pid() const { return child->pid(); }
};

void Stop(Child& child) { child = Child(); }

// The egress_proxy program to the upstream, allowed `kTunnels` tunnels; its decision lines go to
// `log`. Port 0 when it did not say "proxy http://127.0.0.1:PORT" and then "ready" in time.
Child StartProxy(int up_port, const std::string& upstream_ca, const std::string& ca_out,
                 const std::string& log) {
  azure_pricing::base::ReadyChildSpec spec;
  spec.argv = {"ref/egress/egress_proxy",
               "--ca-out",
               ca_out,
               "--upstream",
               "127.0.0.1:" + std::to_string(up_port),
               "--upstream-ca",
               upstream_ca,
               "--max-tunnels",
               std::to_string(kTunnels)};
  spec.timeout = std::chrono::seconds(kIoTimeoutSeconds);
  spec.stderr_path = log;
  auto child = azure_pricing::base::ReadyChild::Start(spec);
  const auto port = child.ok() ? (*child)->BannerLine("proxy http://127.0.0.1:") : std::nullopt;
  if (!port.has_value()) return {};
  return {std::move(*child), std::atoi(port->c_str())};
}

struct Memory {
  double idle_mib = 0, held_mib = 0, peak_mib = 0;
  int held = 0;
  size_t answered = 0;
};

// 64 tunnels through the egress_proxy program, all held open at once, then answered.
std::optional<Memory> MeasureTunnels(int up_port, const std::string& upstream_ca,
                                     const std::string& dir, Hold& hold) {
  const std::string ca_out = dir + "/egress-ca.pem", log = dir + "/egress_proxy.log";
  Child proxy = StartProxy(up_port, upstream_ca, ca_out, log);
  if (proxy.port == 0) {
    Stop(proxy);
    const auto text = base::ReadFile(log);
    std::fprintf(stderr, "egress_proxy did not start: %s\n", text.ok() ? text->c_str() : "");
    return std::nullopt;
  }
  Memory m;
  m.idle_mib = PeakRssMiB(proxy.pid());
  const auto egress_ca = base::ReadFile(ca_out);
  std::vector<std::unique_ptr<Exchange>> tunnels;
  for (int i = 0; i < kTunnels && egress_ca.ok(); ++i) {
    if (auto x = Send(up_port, proxy.port, *egress_ca, "/hold")) tunnels.push_back(std::move(x));
  }
  m.held = static_cast<int>(tunnels.size());
  if (m.held == kTunnels && hold.WaitForHeld(kTunnels)) m.held_mib = PeakRssMiB(proxy.pid());
  hold.Release();
  for (auto& x : tunnels) m.answered += Drain(*x) >= kHeldBodyBytes;
  m.peak_mib = PeakRssMiB(proxy.pid());
  Stop(proxy);
  return m;
}

// Rounded to `unit` (0.1, 0.01, ...) and printed as such: dividing by 1/unit, not multiplying by
// unit, keeps 8.7 from printing as 8.700000000000001.
double Round(double v, double unit) {
  const double scale = std::round(1 / unit);
  return std::round(v * scale) / scale;
}

std::string Fixed(double v, int digits) {
  char text[64];
  std::snprintf(text, sizeof text, "%.*f", digits, v);
  return text;
}

struct Latency {
  std::vector<double> direct, proxied;
  int resumed = 0;  // upstream connections that resumed a TLS session
};

void PrintRows(const Latency& l, const std::optional<Memory>& m) {
  const char* baseline = "the same GET made directly with TLS to the same upstream, alternating";
  // Where the remaining time goes: the proxy's path is a CONNECT exchange, a full handshake
  // with the client (one tunnel per request, nothing to resume) and a resumed one upstream,
  // against one full handshake direct. perf puts over half of this run's CPU in libcrypto; the
  // tail is scheduling, a thread per tunnel with client, proxy and upstream on the same cores.
  const std::string cost =
      "a new connection per request on both paths: through the proxy a CONNECT exchange, a full "
      "TLS handshake with the client and a resumed one upstream (" +
      std::to_string(l.resumed) + " of " + std::to_string(l.proxied.size()) +
      " resumed) against one full handshake; the p99 tail is scheduling (a thread per tunnel, "
      "client, proxy and upstream on the same cores)";
  for (double p : {0.5, 0.99}) {
    const double fig = Percentile(l.proxied, p), base = Percentile(l.direct, p);
    const Json row = {{"measure", std::string("egress proxy: GET of a 20 KB page through the "
                                              "proxy against direct TLS, ") +
                                      (p == 0.5 ? "p50" : "p99")},
                      {"figure", Round(fig, 0.001)}, {"unit", "ms"}, {"baseline", baseline},
                      {"baseline_figure", Round(base, 0.001)}, {"ratio", Round(fig / base, 0.01)},
                      {"ratio_meaning", "figure / baseline (proxied / direct; lower is better)"},
                      {"floor", "none stated (1.9x before this change)"}, {"verdict", "info"},
                      {"note", "added " + Fixed(fig - base, 2) + " ms; " + cost}};
    std::printf("%s\n", row.dump().c_str());
  }
  if (!m) return;
  const bool met = m->held == kTunnels && m->held_mib > 0 && m->peak_mib < 64;
  const Json row = {
      {"measure", "egress proxy: peak resident set with 64 tunnels open (VmHWM of the "
                  "egress_proxy process; each tunnel's TLS up on both sides, its GET upstream)"},
      {"figure", Round(m->peak_mib, 0.1)}, {"unit", "MiB"},
      {"baseline", "the same process started and idle"}, {"baseline_figure", Round(m->idle_mib, 0.1)},
      {"ratio", Round(m->peak_mib / m->idle_mib, 0.01)}, {"ratio_meaning", "figure / baseline"},
      {"floor", "< 64 MiB"}, {"verdict", met ? "met" : "missed"},
      {"note", std::to_string(m->held) + " tunnels held (" + Fixed(m->held_mib, 1) +
                   " MiB while held), " + std::to_string(m->answered) + " answered with 256 KB"}};
  std::printf("%s\n", row.dump().c_str());
}

// Direct and proxied GETs, alternating, through an in-process proxy; nullopt (after a line on
// stderr) when one fails.
std::optional<Latency> MeasureLatency(int up_port, const std::string& ca_file,
                                      const std::string& ca_pem, int requests, size_t body) {
  azure_pricing::egress::ProxyOptions proxy_options;
  proxy_options.upstream_host = "127.0.0.1";
  proxy_options.upstream_port = up_port;
  proxy_options.upstream_ca_file = ca_file;
  proxy_options.log = [](const std::string&) {};
  std::atomic<int> resumed = 0;
  proxy_options.observe = [&resumed](const azure_pricing::egress::ForwardedExchange& e) {
    resumed += e.upstream_resumed;
  };
  azure_pricing::egress::EgressProxy proxy(proxy_options);
  if (!proxy.Start().ok()) return std::nullopt;
  Latency l;
  for (int i = 0; i < requests; ++i) {
    auto t0 = Clock::now();
    const size_t a = Get(up_port, 0, ca_pem);
    auto t1 = Clock::now();
    const size_t b = Get(up_port, proxy.port(), proxy.egress_ca_pem());
    auto t2 = Clock::now();
    if (a < body || b < body) {
      std::fprintf(stderr, "request %d failed (%zu, %zu bytes)\n", i, a, b);
      return std::nullopt;
    }
    l.direct.push_back(std::chrono::duration<double, std::milli>(t1 - t0).count());
    l.proxied.push_back(std::chrono::duration<double, std::milli>(t2 - t1).count());
  }
  proxy.Stop();
  l.resumed = resumed.load();
  return l;
}

void PrintHuman(const Latency& l, const std::optional<Memory>& m) {
  const double d = Percentile(l.direct, 0.5), p = Percentile(l.proxied, 0.5);
  std::fprintf(g_out,
               "%zu requests each, new connection per request, 20 KB body; %d of the proxy's "
               "upstream connections resumed a TLS session\n",
               l.direct.size(), l.resumed);
  std::fprintf(g_out, "direct TLS:        p50 %.2f ms, p99 %.2f ms\n", d,
               Percentile(l.direct, 0.99));
  std::fprintf(g_out,
               "through the proxy: p50 %.2f ms (+%.2f ms, %.2fx the direct request), p99 %.2f ms "
               "(%.2fx)\n",
               p, p - d, p / d, Percentile(l.proxied, 0.99),
               Percentile(l.proxied, 0.99) / Percentile(l.direct, 0.99));
  if (!m) {
    std::fprintf(stderr, "proxy_latency: the egress_proxy program did not start\n");
    return;
  }
  std::fprintf(g_out,
               "egress_proxy process with %d tunnels open: VmHWM %.1f MiB while held, %.1f MiB "
               "after %zu answers of 256 KB (idle: %.1f MiB)\n",
               m->held, m->held_mib, m->peak_mib, m->answered, m->idle_mib);
}

// The upstream's CA, and its leaf for prices.azure.com, written to `dir`; false on failure.
bool WriteCertificates(const std::string& dir, std::string& ca_pem) {
  auto ca = azure_pricing::tls::MakeCa("bench upstream CA");
  auto leaf = ca ? azure_pricing::tls::IssueLeaf(*ca, {"prices.azure.com"}, {"127.0.0.1"})
                 : std::nullopt;
  if (!leaf) return false;
  ca_pem = ca->cert_pem;
  return base::WriteFileAtomically(dir + "/cert.pem", leaf->cert_pem).ok() &&
         base::WriteFileAtomically(dir + "/key.pem", leaf->key_pem).ok() &&
         base::WriteFileAtomically(dir + "/ca.pem", ca->cert_pem).ok();
}

}  // namespace

static int UnguardedMain(int argc, char** argv) {
  std::string problem;
  const std::optional<Options> options = ParseArgs(argc, argv, problem);
  if (!options) {
    std::fprintf(stderr,
                 "proxy_latency: %s\nusage: proxy_latency [REQUESTS] [--rows]   (1 to 1000000, "
                 "default 1000)\n",
                 problem.c_str());
    return 64;
  }
  if (options->rows) g_out = stderr;
  char dir_template[] = "/tmp/proxy-bench-XXXXXX";
  if (mkdtemp(dir_template) == nullptr) return 1;
  const std::string dir = dir_template;
  std::string ca_pem;
  if (!WriteCertificates(dir, ca_pem)) {
    std::fprintf(stderr, "proxy_latency: cannot make the test certificates in %s\n", dir.c_str());
    return 1;
  }
  httplib::SSLServer upstream((dir + "/cert.pem").c_str(), (dir + "/key.pem").c_str());
  // Every held tunnel occupies one upstream worker until released.
  upstream.new_task_queue = [] { return new httplib::ThreadPool(kTunnels + 8); };
  const std::string body(20000, 'x');  // about a 20-row page
  const std::string held_body(kHeldBodyBytes, 'y');
  Hold hold;
  upstream.Get("/api/retail/prices", [&](const httplib::Request&, httplib::Response& res) {
    res.set_content(body, "application/json");
  });
  upstream.Get("/hold", [&](const httplib::Request&, httplib::Response& res) {
    hold.Wait();
    res.set_content(held_body, "application/json");
  });
  const int up_port = upstream.bind_to_any_port("127.0.0.1");
  std::thread server([&] { upstream.listen_after_bind(); });
  const std::optional<Latency> l =
      MeasureLatency(up_port, dir + "/ca.pem", ca_pem, options->requests, body.size());
  const std::optional<Memory> m =
      l ? MeasureTunnels(up_port, dir + "/ca.pem", dir, hold) : std::nullopt;
  if (l) PrintHuman(*l, m);
  if (l && options->rows) PrintRows(*l, m);
  hold.Release();
  upstream.stop();
  server.join();
  for (const char* file : {"cert.pem", "key.pem", "ca.pem", "egress-ca.pem", "egress_proxy.log"}) {
    std::remove((dir + "/" + file).c_str());
  }
  rmdir(dir.c_str());
  return m && m->held == kTunnels ? 0 : 1;
}

int main(int argc, char** argv) {
  return azure_pricing::base::GuardedMain("proxy_latency", [&] { return UnguardedMain(argc, argv); });
}
