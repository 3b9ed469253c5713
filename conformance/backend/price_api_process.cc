#include "conformance/backend/price_api_process.h"

#include <poll.h>
#include <signal.h>
#include <fcntl.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <thread>

#include "fakes/prices_server/sample_rows.h"
#include "ref/base/files.h"

#include <httplib.h>
#include <nlohmann/json.hpp>

extern char** environ;

namespace azure_pricing::conformance::backend {
namespace {

Status Failed(const char* what) { return Status(Outcome::kFailed, kPriceApiFailed, what); }

// Lines of the child's stdout until "ready", with one deadline for all of them.
bool ReadUntilReady(int fd, std::string& text, std::chrono::seconds limit) {
  const auto deadline = std::chrono::steady_clock::now() + limit;
  char buf[1024];
  while (text.find("ready\n") == std::string::npos) {
    const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
                          deadline - std::chrono::steady_clock::now())
                          .count();
    pollfd p{fd, POLLIN, 0};
    if (left <= 0 || poll(&p, 1, static_cast<int>(left)) <= 0) return false;
    const ssize_t n = read(fd, buf, sizeof buf);
    if (n <= 0) return false;
    text.append(buf, static_cast<size_t>(n));
  }
  return true;
}

std::unique_ptr<httplib::SSLClient> AdminClient(const PriceApi& api) {
  auto client = std::make_unique<httplib::SSLClient>("127.0.0.1", api.port);
  X509_STORE* store = X509_STORE_new();
  BIO* bio = BIO_new_mem_buf(api.ca_pem.data(), static_cast<int>(api.ca_pem.size()));
  while (X509* cert = PEM_read_bio_X509(bio, nullptr, nullptr, nullptr)) {
    X509_STORE_add_cert(store, cert);
    X509_free(cert);
  }
  BIO_free(bio);
  client->set_ca_cert_store(store);
  client->enable_server_certificate_verification(true);
  client->set_connection_timeout(5);
  client->set_read_timeout(5);
  return client;
}

}  // namespace

const char* const kSuiteCatalog = fakes::prices::kD4sV5WestEuropeRow;

StatusOr<std::vector<std::string>> ReceivedMethods(const PriceApi& api) {
  const httplib::Result res = AdminClient(api)->Get("/_admin/requests");
  if (!res || res->status != 200) return Failed("the fake price API's request log is unreadable");
  const nlohmann::json log = nlohmann::json::parse(res->body, nullptr, false);
  if (!log.is_array()) return Failed("the fake price API's request log is not a list");
  std::vector<std::string> methods;
  for (const nlohmann::json& entry : log) {
    methods.push_back(entry.is_object() ? entry.value("method", "?") : "?");
  }
  return methods;
}

Status ResetRequestLog(const PriceApi& api) {
  const httplib::Result res = AdminClient(api)->Post("/_admin/reset", "", "application/json");
  return res && res->status == 200 ? OkStatus() : Failed("the fake price API did not reset");
}

Status AddFaults(const PriceApi& api, const std::string& faults_json) {
  const httplib::Result res = AdminClient(api)->Post("/_admin/faults", faults_json, "application/json");
  return res && res->status == 200 ? OkStatus() : Failed("the fake price API refused the faults");
}

StatusOr<std::unique_ptr<PriceApiProcess>> PriceApiProcess::Start(const std::string& binary,
                                                                  const std::string& catalog_jsonl,
                                                                  const std::string& work_dir) {
  const std::string catalog = work_dir + "/catalog.jsonl";
  if (!base::WriteFileAtomically(catalog, catalog_jsonl).ok()) return Failed("cannot write the catalog");
  return Launch({binary, "--catalog", catalog}, work_dir);
}

StatusOr<std::unique_ptr<PriceApiProcess>> PriceApiProcess::StartReplay(
    const std::string& binary, const std::string& replay_jsonl, const std::string& work_dir) {
  const std::string replay = work_dir + "/replay.jsonl";
  if (!base::WriteFileAtomically(replay, replay_jsonl).ok()) return Failed("cannot write the replay");
  return Launch({binary, "--replay", replay}, work_dir);
}

StatusOr<std::unique_ptr<PriceApiProcess>> PriceApiProcess::Launch(std::vector<std::string> args,
                                                                   const std::string& work_dir) {
  int fds[2];
  if (pipe2(fds, O_CLOEXEC) != 0) return Failed("cannot make a pipe");
  for (const char* a : {"--tls-listen", "127.0.0.1:0", "--ca-dir"}) args.emplace_back(a);
  args.push_back(work_dir);
  std::vector<char*> argv;
  for (std::string& a : args) argv.push_back(a.data());
  argv.push_back(nullptr);
  std::unique_ptr<PriceApiProcess> api(new PriceApiProcess());
  const pid_t parent = getpid();
  api->api_.pid = fork();
  if (api->api_.pid == 0) {
    // The server stops by itself when whoever started it dies, however that happens.
    prctl(PR_SET_PDEATHSIG, SIGTERM);
    if (getppid() != parent || dup2(fds[1], 1) < 0) _exit(127);
    execve(argv[0], argv.data(), environ);
    _exit(127);
  }
  const int spawned = api->api_.pid > 0 ? 0 : -1;
  close(fds[1]);
  std::string text;
  const bool ready = spawned == 0 && ReadUntilReady(fds[0], text, std::chrono::seconds(20));
  close(fds[0]);
  if (spawned != 0) api->api_.pid = -1;
  if (!ready) return Failed("the fake price API did not start");
  // "https https://127.0.0.1:PORT DIR/ca.pem"
  constexpr char kAnnounce[] = "https https://127.0.0.1:";
  const size_t line = text.find(kAnnounce);
  if (line == std::string::npos) return Failed("the fake price API did not say its port");
  api->api_.port = std::atoi(text.c_str() + line + sizeof kAnnounce - 1);
  StatusOr<std::string> ca = base::ReadFile(work_dir + "/ca.pem");
  if (!ca.ok()) return Failed("the fake price API wrote no CA");
  api->api_.ca_pem = *ca;
  return api;
}

PriceApiProcess::~PriceApiProcess() {
  if (api_.pid <= 0) return;
  kill(api_.pid, SIGTERM);
  for (int i = 0; i < 100; ++i) {
    if (waitpid(api_.pid, nullptr, WNOHANG) == api_.pid) return;
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  kill(api_.pid, SIGKILL);
  waitpid(api_.pid, nullptr, 0);
}

}  // namespace azure_pricing::conformance::backend
