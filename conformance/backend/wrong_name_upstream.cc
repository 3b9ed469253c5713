#include "conformance/backend/wrong_name_upstream.h"

#include <httplib.h>

#include <atomic>
#include <chrono>
#include <optional>
#include <thread>
#include <utility>

#include "ref/base/openssl.h"
#include "ref/tls/runtime_ca.h"

namespace azure_pricing::conformance::backend {

struct WrongNameUpstream::Server {
  std::unique_ptr<httplib::SSLServer> https;
  std::thread thread;
  std::atomic<int> requests{0};
};

namespace {

constexpr auto kListenDeadline = std::chrono::seconds(10);

Status Failed() {
  return ProgramError(kWrongNameUpstreamFailed,
                      "The backend suite's wrong-name upstream could not be started.");
}

}  // namespace

StatusOr<std::unique_ptr<WrongNameUpstream>> WrongNameUpstream::Start() {
  const std::optional<tls::KeyAndCert> ca = tls::MakeCa("backend-suite wrong-name upstream CA");
  // A name only, no IP address: the proxy dials 127.0.0.1 but must verify prices.azure.com.
  const std::optional<tls::KeyAndCert> leaf =
      ca ? tls::IssueLeaf(*ca, {kWrongUpstreamName}, {}) : std::nullopt;
  if (!leaf) return Failed();
  auto server = std::make_unique<Server>();
  {
    const base::EvpPkeyPtr key = base::ReadPemKey(leaf->key_pem);
    const base::X509Ptr cert = base::ReadPemCert(leaf->cert_pem);
    if (key == nullptr || cert == nullptr) return Failed();
    server->https = std::make_unique<httplib::SSLServer>(cert.get(), key.get());
  }
  if (!server->https->is_valid()) return Failed();
  Server* s = server.get();
  // Answered as a price page would be, so a proxy that forwards shows a success, not an error.
  s->https->Get(".*", [](const httplib::Request&, httplib::Response& res) {
    res.set_content(R"({"Items":[],"NextPageLink":null,"Count":0})", "application/json");
  });
  // Counted before any answer is written, so a client that has its answer sees the count.
  s->https->set_pre_routing_handler([s](const httplib::Request&, httplib::Response&) {
    ++s->requests;
    return httplib::Server::HandlerResponse::Unhandled;
  });
  const int port = s->https->bind_to_any_port("127.0.0.1");
  if (port <= 0) return Failed();
  s->thread = std::thread([s] { s->https->listen_after_bind(); });
  const auto deadline = std::chrono::steady_clock::now() + kListenDeadline;
  while (!s->https->is_running() && std::chrono::steady_clock::now() < deadline) {
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  if (!s->https->is_running()) {
    // httplib's stop() does nothing before the loop runs, so the thread could never be joined:
    // it and its server are left to the process's end rather than hang this call.
    s->thread.detach();
    (void)server.release();
    return Failed();
  }
  std::unique_ptr<WrongNameUpstream> out(new WrongNameUpstream());
  out->server_ = std::move(server);
  out->port_ = port;
  out->ca_pem_ = ca->cert_pem;
  return out;
}

WrongNameUpstream::~WrongNameUpstream() {
  server_->https->stop();
  if (server_->thread.joinable()) server_->thread.join();
}

int WrongNameUpstream::requests() const { return server_->requests.load(); }

}  // namespace azure_pricing::conformance::backend
