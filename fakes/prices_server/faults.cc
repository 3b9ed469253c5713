#include "fakes/prices_server/faults.h"

#include <httplib.h>
#include <arpa/inet.h>
#include <netinet/in.h>
#include <openssl/ssl.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <cctype>
#include <chrono>
#include <cstring>
#include <thread>
#include <utility>

namespace azure_pricing::fakes::prices {
namespace {

// What a fault key's value must be: an integer in [min, max], true/false, or a string.
struct FaultKey {
  const char* name;
  enum { kInteger, kBoolean, kString } kind;
  int64_t min = 0, max = 0;
};

constexpr FaultKey kFaultKeys[] = {
    {"status", FaultKey::kInteger, 100, 599},
    {"retry_after", FaultKey::kInteger, 0, 86'400},
    {"latency_ms", FaultKey::kInteger, 0, 600'000},
    {"reset", FaultKey::kBoolean},
    {"drop", FaultKey::kBoolean},
    {"truncate", FaultKey::kInteger, 0, int64_t{1} << 40},
    {"body", FaultKey::kString},
    {"body_hex", FaultKey::kString},
    {"next_page_link", FaultKey::kString},
    {"endless_empty_pages", FaultKey::kBoolean},
    {"page_size", FaultKey::kInteger, 1, 1'000'000},
    {"times", FaultKey::kInteger, 1, 1'000'000'000},
};

std::string FromHex(const std::string& hex) {
  std::string out;
  std::string digits;
  for (char c : hex) {
    if (std::isxdigit(static_cast<unsigned char>(c))) digits.push_back(c);
    if (digits.size() == 2) {
      out.push_back(static_cast<char>(std::stoi(digits, nullptr, 16)));
      digits.clear();
    }
  }
  return out;
}

// An empty page whose NextPageLink is the same query again.
HttpResponse EndlessEmptyPage(const std::string& target) {
  const size_t question = target.find('?');
  Json page = {
      {"BillingCurrency", "USD"},
      {"CustomerEntityId", "Default"},
      {"CustomerEntityType", "Retail"},
      {"Items", Json::array()},
      {"NextPageLink", std::string(kPublicBase) +
                           target.substr(question == std::string::npos ? target.size() : question)},
      {"Count", 0}};
  return {200, "application/json; charset=utf-8", page.dump()};
}

// Rewrites `answer` as the fault says (latency, status, body, links, endless pages).
void ApplyFault(FaultQueue& queue, const Json& fault, const std::string& target,
                HttpResponse& answer, httplib::Response& res) {
  if (fault.contains("latency_ms")) {
    std::this_thread::sleep_for(std::chrono::milliseconds(fault["latency_ms"].get<int>()));
  }
  if (fault.contains("status")) {
    answer.status = fault["status"].get<int>();
    answer.body = Json({{"Error", {{"Code", "Fault"}, {"Message", "Injected fault"}}}}).dump();
    if (fault.contains("retry_after")) {
      res.set_header("Retry-After", std::to_string(fault["retry_after"].get<int>()));
    }
  }
  if (fault.contains("body")) answer.body = fault["body"].get<std::string>();
  if (fault.contains("body_hex")) answer.body = FromHex(fault["body_hex"].get<std::string>());
  if (fault.contains("next_page_link") && answer.status == 200) {
    Json page = Json::parse(answer.body, nullptr, false);
    if (!page.is_discarded()) {
      page["NextPageLink"] = fault["next_page_link"];
      answer.body = page.dump();
    }
  }
  if (fault.value("endless_empty_pages", false)) {
    answer = EndlessEmptyPage(target);
    // Without `times` it never ends (until a reset); with it, that many pages.
    if (!fault.contains("times")) queue.PushFront(fault);
  }
}

// The drop fault: the connection ends with a TCP reset before any byte of the answer. Connecting
// a TCP socket to AF_UNSPEC disconnects it (a reset to the peer) while httplib keeps the
// descriptor, so its own write fails and its own close stays the only one.
void DropConnection(const httplib::Request& req) {
  const int fd = ConnectionSocket(req);
  if (fd < 0) return;
  const linger abort_on_close{1, 0};
  setsockopt(fd, SOL_SOCKET, SO_LINGER, &abort_on_close, sizeof abort_on_close);
  sockaddr unspecified{};
  unspecified.sa_family = AF_UNSPEC;
  connect(fd, &unspecified, sizeof unspecified);
}

// The reset and truncate faults: the status line and the head (with the whole body's
// Content-Length) go out, then the body stops after `keep` bytes (none for reset) and the
// connection closes. Recorded azmcp runs depend on reset being exactly this.
void SendCut(const Json& fault, const HttpResponse& answer, httplib::Response& res) {
  const size_t keep = fault.value("reset", false)
                          ? 0
                          : std::min(answer.body.size(), fault["truncate"].get<size_t>());
  const std::string body = answer.body;
  res.status = answer.status;
  res.set_content_provider(body.size(), answer.content_type,
                           [body, keep](size_t offset, size_t, httplib::DataSink& sink) {
                             if (offset < keep) sink.write(body.data() + offset, keep - offset);
                             return false;  // abort: the connection closes mid-body
                           });
}

// The socket of the plain connection this thread serves, while PlainServer serves it.
thread_local int t_plain_socket = -1;

bool WaitFor(int fd, short events, time_t sec, time_t usec) {
  pollfd p{fd, events, 0};
  const int ms = static_cast<int>(sec * 1000 + usec / 1000);
  int n;
  while ((n = poll(&p, 1, ms)) < 0 && errno == EINTR) {
  }
  return n > 0;
}

void Address(int fd, bool local, std::string& ip, int& port) {
  sockaddr_storage a{};
  socklen_t len = sizeof a;
  const int got = local ? getsockname(fd, reinterpret_cast<sockaddr*>(&a), &len)
                        : getpeername(fd, reinterpret_cast<sockaddr*>(&a), &len);
  char text[INET6_ADDRSTRLEN] = "";
  port = -1;
  if (got == 0 && a.ss_family == AF_INET) {
    const auto& v4 = reinterpret_cast<const sockaddr_in&>(a);
    inet_ntop(AF_INET, &v4.sin_addr, text, sizeof text);
    port = ntohs(v4.sin_port);
  } else if (got == 0 && a.ss_family == AF_INET6) {
    const auto& v6 = reinterpret_cast<const sockaddr_in6&>(a);
    inet_ntop(AF_INET6, &v6.sin6_addr, text, sizeof text);
    port = ntohs(v6.sin6_port);
  }
  ip = text;
}

// One plain connection as httplib reads and writes it: buffered reads (httplib reads a request
// head a byte at a time), each wait bounded by the server's timeouts.
class PlainStream final : public httplib::Stream {
 public:
  PlainStream(int sock, time_t read_sec, time_t read_usec, time_t write_sec, time_t write_usec)
      : sock_(sock),
        read_sec_(read_sec),
        read_usec_(read_usec),
        write_sec_(write_sec),
        write_usec_(write_usec) {}

  bool is_readable() const override { return WaitFor(sock_, POLLIN, read_sec_, read_usec_); }
  bool is_writable() const override { return WaitFor(sock_, POLLOUT, write_sec_, write_usec_); }
  ssize_t read(char* ptr, size_t size) override {
    if (start_ == end_) {
      if (!is_readable()) return -1;
      const ssize_t n = recv(sock_, buffer_.data(), buffer_.size(), 0);
      if (n <= 0) return n;
      start_ = 0;
      end_ = static_cast<size_t>(n);
    }
    const size_t n = std::min(size, end_ - start_);
    std::memcpy(ptr, buffer_.data() + start_, n);
    start_ += n;
    return static_cast<ssize_t>(n);
  }
  ssize_t write(const char* ptr, size_t size) override {
    if (!is_writable()) return -1;
    return send(sock_, ptr, size, MSG_NOSIGNAL);
  }
  void get_remote_ip_and_port(std::string& ip, int& port) const override {
    Address(sock_, false, ip, port);
  }
  void get_local_ip_and_port(std::string& ip, int& port) const override {
    Address(sock_, true, ip, port);
  }
  socket_t socket() const override { return sock_; }

 private:
  int sock_;
  time_t read_sec_, read_usec_, write_sec_, write_usec_;
  std::array<char, 4096> buffer_;
  size_t start_ = 0, end_ = 0;
};

// httplib::Server with its per-connection loop replaced by the same loop here (keep-alive up to
// its count and timeout, then close), so that the socket is known while its requests are served.
class PlainServer final : public httplib::Server {
 private:
  bool process_and_close_socket(socket_t sock) override {
    t_plain_socket = sock;
    PlainStream stream(sock, read_timeout_sec_, read_timeout_usec_, write_timeout_sec_,
                       write_timeout_usec_);
    bool served = false;
    for (size_t left = keep_alive_max_count_; left > 0 && KeepAlive(sock); --left) {
      bool closed = false;
      served = process_request(stream, left == 1, closed, nullptr);
      if (!served || closed) break;
    }
    t_plain_socket = -1;
    shutdown(sock, SHUT_RDWR);
    close(sock);
    return served;
  }

  // Whether the next request's first byte arrives within the keep-alive timeout; false as soon
  // as the server stops.
  bool KeepAlive(int sock) const {
    const auto deadline =
        std::chrono::steady_clock::now() + std::chrono::seconds(keep_alive_timeout_sec_);
    while (svr_sock_ != INVALID_SOCKET) {
      if (WaitFor(sock, POLLIN, 0, 10'000)) return true;
      if (std::chrono::steady_clock::now() > deadline) return false;
    }
    return false;
  }
};

}  // namespace

std::string FaultProblem(const Json& f) {
  if (!f.is_object()) return "each fault must be an object";
  for (const auto& [key, value] : f.items()) {
    const FaultKey* spec = nullptr;
    for (const FaultKey& k : kFaultKeys) {
      if (key == k.name) spec = &k;
    }
    if (spec == nullptr) return "unknown fault key: " + key;
    if (spec->kind == FaultKey::kBoolean && !value.is_boolean()) {
      return key + " must be true or false";
    }
    if (spec->kind == FaultKey::kString && !value.is_string()) return key + " must be a string";
    if (spec->kind == FaultKey::kInteger &&
        (!value.is_number_integer() || value.get<int64_t>() < spec->min ||
         value.get<int64_t>() > spec->max)) {
      return key + " must be an integer from " + std::to_string(spec->min) + " to " +
             std::to_string(spec->max);
    }
  }
  return "";
}

bool FaultQueue::Add(const Json& list, std::string& error) {
  if (!list.is_array()) {
    error = "faults must be a JSON array";
    return false;
  }
  for (const Json& f : list) {
    error = FaultProblem(f);
    if (!error.empty()) return false;
  }
  std::lock_guard<std::mutex> lock(mu_);
  for (const Json& f : list) entries_.push_back({f, f.value("times", 1)});
  return true;
}

void FaultQueue::Clear() {
  std::lock_guard<std::mutex> lock(mu_);
  entries_.clear();
}

std::optional<Json> FaultQueue::Next() {
  std::lock_guard<std::mutex> lock(mu_);
  if (entries_.empty()) return std::nullopt;
  Entry& f = entries_.front();
  Json spec = f.spec;
  if (--f.remaining <= 0) entries_.pop_front();
  return spec;
}

void FaultQueue::PushFront(const Json& fault) {
  std::lock_guard<std::mutex> lock(mu_);
  entries_.push_front({fault, 1});
}

void ServeFaulted(FaultQueue& queue, const Json& fault, HttpResponse answer,
                  const httplib::Request& req, httplib::Response& res) {
  ApplyFault(queue, fault, req.target, answer, res);
  if (fault.value("drop", false)) {
    DropConnection(req);
    return;
  }
  if (fault.value("reset", false) || fault.contains("truncate")) {
    SendCut(fault, answer, res);
    return;
  }
  res.status = answer.status;
  res.set_content(answer.body, answer.content_type);
}

std::unique_ptr<httplib::Server> MakePlainServer() { return std::make_unique<PlainServer>(); }

int ConnectionSocket(const httplib::Request& req) {
  return req.ssl != nullptr ? SSL_get_fd(req.ssl) : t_plain_socket;
}

}  // namespace azure_pricing::fakes::prices
