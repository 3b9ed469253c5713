#include "conformance/backend/price_api_process.h"

#include <chrono>
#include <cstdlib>
#include <optional>
#include <string_view>
#include <utility>

#include "fakes/prices_server/sample_rows.h"
#include "ref/base/files.h"

#include <httplib.h>
#include <nlohmann/json.hpp>

namespace azure_pricing::conformance::backend {
namespace {

Status Failed(const char* what) { return ProgramError(kPriceApiFailed, what); }

const char* NotStarted(std::string_view why) {
  if (why == base::kChildSilent) return "the fake price API did not start: not ready within 60 s";
  if (why == base::kChildExitedEarly) return "the fake price API did not start: it exited";
  return "the fake price API did not start: it could not be run";
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
  for (const char* a : {"--tls-listen", "127.0.0.1:0", "--ca-dir"}) args.emplace_back(a);
  args.push_back(work_dir);
  base::ReadyChildSpec spec;
  spec.argv = std::move(args);
  // Ready in about a second on an idle machine; 60 s leaves room for one busy with other builds.
  spec.timeout = std::chrono::seconds(60);
  // The server stops by itself when whoever started it dies, however that happens.
  spec.die_with_parent = true;
  StatusOr<std::unique_ptr<base::ReadyChild>> child = base::ReadyChild::Start(spec);
  if (!child.ok()) return Failed(NotStarted(child.status().reason()));
  std::unique_ptr<PriceApiProcess> api(new PriceApiProcess());
  api->child_ = std::move(*child);
  api->api_.pid = api->child_->pid();
  // "https https://127.0.0.1:PORT DIR/ca.pem"
  const std::optional<std::string> https = api->child_->BannerLine("https https://127.0.0.1:");
  if (!https.has_value()) return Failed("the fake price API did not say its port");
  api->api_.port = std::atoi(https->c_str());
  StatusOr<std::string> ca = base::ReadFile(work_dir + "/ca.pem");
  if (!ca.ok()) return Failed("the fake price API wrote no CA");
  api->api_.ca_pem = *ca;
  return api;
}

// The child stops and is reaped with its owner.
PriceApiProcess::~PriceApiProcess() = default;

}  // namespace azure_pricing::conformance::backend
