#include "fakes/testing/server_process.h"

#include <httplib.h>

#include <cstdlib>
#include <fstream>
#include <optional>
#include <string>
#include <utility>

#include "ref/base/runfiles.h"
#include "ref/base/test_tmpdir.h"

namespace azure_pricing::fakes::test_support {

PricesServerProcess::PricesServerProcess(const std::string& catalog_jsonl) {
  Start("--catalog", "catalog.jsonl", catalog_jsonl);
}

PricesServerProcess::PricesServerProcess(const Replay& replay) {
  Start("--replay", "replay.jsonl", replay.exchanges_jsonl);
}

void PricesServerProcess::Start(const std::string& flag, const std::string& file,
                                const std::string& contents) {
  const std::string& dir = base::TestTmpDir();
  const std::string binary = base::Runfile("fakes/prices_server/prices_server");
  std::ofstream(dir + "/" + file) << contents;
  base::ReadyChildSpec spec;
  spec.argv = {binary, flag, dir + "/" + file, "--tls-listen", "127.0.0.1:0", "--ca-dir", dir};
  std::string output;
  StatusOr<std::unique_ptr<base::ReadyChild>> child = base::ReadyChild::Start(spec, &output);
  if (!child.ok()) {
    start_error_ = "did not start (" + std::string(child.status().reason()) + "): " + output;
    return;
  }
  child_ = std::move(*child);
  // "https https://127.0.0.1:PORT DIR/ca.pem"
  const std::optional<std::string> https = child_->BannerLine("https https://127.0.0.1:");
  const size_t space = https ? https->find(' ') : std::string::npos;
  if (space == std::string::npos) {
    start_error_ = "did not say its port: " + child_->banner();
    child_.reset();
    return;
  }
  port_ = std::atoi(https->c_str());
  ca_ = https->substr(space + 1);
}

std::string PricesServerProcess::Ended() const {
  return child_ != nullptr ? child_->Ended() : start_error_;
}

PricesServerProcess::~PricesServerProcess() = default;

std::unique_ptr<httplib::SSLClient> PricesServerProcess::Client() const {
  auto client = std::make_unique<httplib::SSLClient>("127.0.0.1", port_);
  client->set_ca_cert_path(ca_.c_str());
  client->enable_server_certificate_verification(true);
  return client;
}

std::string PricesServerProcess::RequestLog() const {
  auto res = Client()->Get("/_admin/requests");
  return res ? res->body : "";
}

bool PricesServerProcess::AddFaults(const std::string& json) const {
  auto res = Client()->Post("/_admin/faults", json, "application/json");
  return res && res->status == 200;
}

bool PricesServerProcess::Reset() const {
  auto res = Client()->Post("/_admin/reset", "", "application/json");
  return res && res->status == 200;
}

}  // namespace azure_pricing::fakes::test_support
