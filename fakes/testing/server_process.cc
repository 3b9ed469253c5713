#include "fakes/testing/server_process.h"

#include <httplib.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <string>
#include <vector>

extern char** environ;

namespace azure_pricing::fakes::test_support {

PricesServerProcess::PricesServerProcess(const std::string& catalog_jsonl) {
  Start("--catalog", "catalog.jsonl", catalog_jsonl);
}

PricesServerProcess::PricesServerProcess(const Replay& replay) {
  Start("--replay", "replay.jsonl", replay.exchanges_jsonl);
}

void PricesServerProcess::Start(const std::string& flag, const std::string& file,
                                const std::string& contents) {
  const std::string dir = std::getenv("TEST_TMPDIR");
  const std::string binary = std::string(std::getenv("TEST_SRCDIR")) + "/" +
                             std::getenv("TEST_WORKSPACE") + "/fakes/prices_server/prices_server";
  std::ofstream(dir + "/" + file) << contents;
  int fds[2];
  if (pipe(fds) != 0) return;
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_adddup2(&actions, fds[1], 1);
  posix_spawn_file_actions_addclose(&actions, fds[0]);
  std::vector<std::string> args = {
      binary, flag, dir + "/" + file, "--tls-listen", "127.0.0.1:0", "--ca-dir", dir};
  std::vector<char*> argv;
  for (std::string& a : args) argv.push_back(a.data());
  argv.push_back(nullptr);
  if (posix_spawn(&pid_, binary.c_str(), &actions, nullptr, argv.data(), environ) != 0) pid_ = 0;
  posix_spawn_file_actions_destroy(&actions);
  close(fds[1]);
  FILE* out = fdopen(fds[0], "r");
  char line[512];
  while (out != nullptr && fgets(line, sizeof line, out) != nullptr) {
    std::string l(line);
    if (l.rfind("https ", 0) == 0) {
      const size_t colon = l.find(':', 14);
      const size_t space = l.find(' ', colon);
      port_ = std::stoi(l.substr(colon + 1, space - colon - 1));
      ca_ = l.substr(space + 1, l.size() - space - 2);
    }
    if (l == "ready\n") break;
  }
  if (out != nullptr) fclose(out);
}

std::string PricesServerProcess::Ended() const {
  if (pid_ <= 0) return "never started";
  int status = 0;
  if (waitpid(pid_, &status, WNOHANG) != pid_) return "";
  return WIFSIGNALED(status) ? "killed by signal " + std::to_string(WTERMSIG(status))
                             : "exited " + std::to_string(WEXITSTATUS(status));
}

PricesServerProcess::~PricesServerProcess() {
  if (pid_ <= 0) return;
  kill(pid_, SIGTERM);
  int status = 0;
  waitpid(pid_, &status, 0);
}

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
