// What the whole stack adds to one lookup: the tool through the router, a bubblewrap sandbox, the
// egress proxy and the host, with the fake CLI and the fake price API, against the same fake CLI
// run directly (no sandbox, no host, a blind CONNECT tunnel instead of the intercepting proxy)
// against the same fake API; alternating, in one run.
//   tools/bazel run -c opt //tools/bench:stack_overhead [-- --calls 200] [--rows]
#include <arpa/inet.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <functional>
#include <iostream>
#include <string>
#include <thread>
#include <vector>

#include "conformance/stack/local_stack.h"
#include "ref/base/files.h"
#include "ref/base/flags.h"
#include "ref/base/main_guard.h"
#include "ref/sandbox/bwrap/bounded_process.h"
#include "tools/bench/rows.h"

namespace {

namespace ap = azure_pricing;
namespace stack = azure_pricing::conformance::stack;
namespace bench = azure_pricing::tools::bench;
using Clock = std::chrono::steady_clock;

constexpr char kArguments[] = R"({"sku":"B1MS","region":"westeurope"})";

int Listen(int& port) {
  const int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  sockaddr_in a{};
  a.sin_family = AF_INET;
  a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  socklen_t len = sizeof a;
  if (fd < 0 || bind(fd, reinterpret_cast<sockaddr*>(&a), sizeof a) != 0 || listen(fd, 16) != 0 ||
      getsockname(fd, reinterpret_cast<sockaddr*>(&a), &len) != 0) {
    return -1;
  }
  port = ntohs(a.sin_port);
  return fd;
}

// Copies both ways until either side closes or nothing moves for 5 s.
void Relay(int a, int b) {
  pollfd fds[2] = {{a, POLLIN, 0}, {b, POLLIN, 0}};
  char buf[16384];
  while (poll(fds, 2, 5000) > 0) {
    for (int i = 0; i < 2; ++i) {
      if ((fds[i].revents & (POLLIN | POLLHUP | POLLERR)) == 0) continue;
      const ssize_t n = read(fds[i].fd, buf, sizeof buf);
      if (n <= 0 || write(fds[1 - i].fd, buf, static_cast<size_t>(n)) != n) return;
    }
  }
}

// A blind CONNECT tunnel to the fake API: what "directly" means for a CLI that only speaks
// HTTPS through a proxy. It reads the CONNECT head, answers 200 and relays bytes.
class BlindTunnel {
 public:
  explicit BlindTunnel(int upstream_port) : upstream_port_(upstream_port) {
    listen_fd_ = Listen(port_);
    thread_ = std::thread([this] { Accept(); });
  }
  ~BlindTunnel() {
    stop_ = true;
    shutdown(listen_fd_, SHUT_RDWR);
    close(listen_fd_);
    thread_.join();
  }
  int port() const { return port_; }

 private:
  void Accept() {
    while (!stop_) {
      const int client = accept4(listen_fd_, nullptr, nullptr, SOCK_CLOEXEC);
      if (client < 0) return;
      std::string head;
      char c;
      while (head.find("\r\n\r\n") == std::string::npos && read(client, &c, 1) == 1) head += c;
      const int up = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
      sockaddr_in a{};
      a.sin_family = AF_INET;
      a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
      a.sin_port = htons(static_cast<uint16_t>(upstream_port_));
      if (connect(up, reinterpret_cast<sockaddr*>(&a), sizeof a) == 0) {
        const std::string ok = "HTTP/1.1 200 Connection established\r\n\r\n";
        if (write(client, ok.data(), ok.size()) == static_cast<ssize_t>(ok.size())) Relay(client, up);
      }
      close(up);
      close(client);
    }
  }
  int upstream_port_;
  int listen_fd_ = -1;
  int port_ = 0;
  std::atomic<bool> stop_{false};
  std::thread thread_;
};

bool Timed(std::vector<double>& into, const std::function<bool()>& call) {
  const auto start = Clock::now();
  const bool ok = call();
  into.push_back(std::chrono::duration<double, std::milli>(Clock::now() - start).count());
  return ok;
}

}  // namespace

namespace {

struct Bare {
  std::vector<std::string> argv;
  std::vector<std::string> env;
};

// The fake CLI with the argv the tool gave it in the sandbox, through the blind tunnel.
Bare BareLookup(const std::vector<std::string>& sandbox_argv, int tunnel_port,
                const std::string& ca_file, const std::string& home) {
  Bare b{.argv = sandbox_argv,
         .env = {"HOME=" + home, "PATH=/usr/bin:/bin", "LANG=C.UTF-8",
                 "HTTPS_PROXY=http://127.0.0.1:" + std::to_string(tunnel_port),
                 "SSL_CERT_FILE=" + ca_file}};
  b.argv[0] = stack::FakeCli().path;
  return b;
}

bool RunBare(const Bare& b) {
  const ap::StatusOr<ap::sandbox::ExecResult> r = ap::sandbox::bwrap::RunBounded(
      {.argv = b.argv, .env = b.env, .timeout_ms = 60'000});
  return r.ok() && r->exit_code == 0 && r->stdout_bytes.find("\"Success\"") != std::string::npos;
}

bool RunStack(stack::LocalStack& s) {
  const ap::StatusOr<ap::conformance::host::CallReport> r = s.Call({.arguments = kArguments});
  return r.ok() && r->outcome == ap::Outcome::kCompleted;
}

void Report(const std::vector<double>& boxed, const std::vector<double>& bare, bool rows) {
  const double s50 = bench::Percentile(boxed, 0.5), s99 = bench::Percentile(boxed, 0.99);
  const double b50 = bench::Percentile(bare, 0.5), b99 = bench::Percentile(bare, 0.99);
  const int n = static_cast<int>(boxed.size());
  if (rows) {
    bench::PrintRow({.measure = "whole stack: added per lookup at p50, fake CLI (" +
                                std::to_string(n) + " calls)",
                     .figure = s50 - b50, .unit = "ms",
                     .baseline = "the fake CLI run directly against the fake API, p50",
                     .baseline_figure = b50, .ratio = s50 / b50,
                     .ratio_meaning = "stack p50 / direct p50", .floor = "< 25 ms at p50",
                     .verdict = bench::Verdict(s50 - b50 < 25),
                     .note = "added at p99: " + std::to_string(s99 - b99).substr(0, 5) + " ms"});
    return;
  }
  std::printf("one lookup (%s), %d calls each, alternating:\n", kArguments, n);
  std::printf("  whole stack   p50 %7.2f ms  p99 %7.2f ms\n", s50, s99);
  std::printf("  direct        p50 %7.2f ms  p99 %7.2f ms\n", b50, b99);
  std::printf("  added         p50 %7.2f ms  p99 %7.2f ms  (floor: under 25 ms at p50)\n",
              s50 - b50, s99 - b99);
}

}  // namespace

static int UnguardedMain(int argc, char** argv) {
  std::string problem;
  const ap::StatusOr<ap::base::Flags> flags = ap::base::Flags::ParseOrExplain(
      argc, argv, {{"--calls", ap::base::FlagKind::kValue}, {"--rows", ap::base::FlagKind::kSwitch}},
      &problem);
  if (!flags.ok()) {
    std::cerr << "stack_overhead: " << problem << "\nusage: stack_overhead [--calls N] [--rows]\n";
    return 64;
  }
  const int calls = std::max(1, std::atoi(flags->Value("--calls").value_or("200").c_str()));
  ap::StatusOr<std::string> catalog = stack::BundledCatalog();
  if (!catalog.ok()) return 1;
  ap::StatusOr<std::unique_ptr<stack::LocalStack>> s = stack::LocalStack::Start(
      {.cli = stack::FakeCli(), .catalog_jsonl = *catalog,
       .progress = [](const std::string& line) { std::cerr << "stack_overhead: " << line << "\n"; }});
  if (!s.ok()) {
    std::cerr << "stack_overhead: " << s.status().message() << "\n";
    return 1;
  }
  std::vector<ap::conformance::stack::StackExec> execs;
  if (!(*s)->Call({.arguments = kArguments}, &execs).ok() || execs.size() != 1) return 1;
  const std::string dir = std::filesystem::temp_directory_path() / "stack-overhead";
  std::filesystem::create_directories(dir + "/home");
  if (!ap::base::WriteFileAtomically(dir + "/ca.pem", (*s)->price_api()->ca_pem).ok()) return 1;
  BlindTunnel tunnel((*s)->price_api()->port);
  const Bare bare = BareLookup(execs[0].argv, tunnel.port(), dir + "/ca.pem", dir + "/home");
  std::vector<double> boxed, direct;
  for (int i = 0; i < calls; ++i) {
    if (!Timed(boxed, [&] { return RunStack(**s); }) || !Timed(direct, [&] { return RunBare(bare); })) {
      std::cerr << "stack_overhead: a measured lookup failed\n";
      return 1;
    }
  }
  std::filesystem::remove_all(dir);
  Report(boxed, direct, flags->Has("--rows"));
  return 0;
}

int main(int argc, char** argv) {
  return azure_pricing::base::GuardedMain("stack_overhead", [&] { return UnguardedMain(argc, argv); });
}
