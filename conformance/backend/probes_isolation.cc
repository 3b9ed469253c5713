// Isolation and disposal: nothing crosses from the host or from one call to the next, and
// nothing of a sandbox outlives it.
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <fstream>

#include "conformance/backend/suite_internal.h"

namespace azure_pricing::conformance::backend {
namespace internal {
namespace {

using std::chrono::milliseconds;
using Json = nlohmann::json;

// Credential variables a host commonly has; the suite plants these in its own environment (and
// an adapter's), so a backend that passes the host's environment through is caught.
constexpr const char* kCredentialCanaries[] = {
    "AZURE_CLIENT_SECRET", "AZURE_CLIENT_ID",       "AZURE_TENANT_ID", "AZURE_ACCESS_TOKEN",
    "ARM_CLIENT_SECRET",   "AWS_SECRET_ACCESS_KEY", "GOOGLE_APPLICATION_CREDENTIALS",
    "IDENTITY_ENDPOINT",   "MSI_SECRET"};

Observation NothingCrossesCalls(Context& ctx) {
  const std::string file = "/tmp/" + ctx.Marker();
  const std::string home_file = "/tmp/probe-home/" + ctx.Marker();
  std::string why;
  for (const std::string& path : {file, home_file}) {
    const std::optional<Json> wrote = ProbeJson(ctx, {"write-file", path, "left"}, &why);
    if (!wrote) return Fail(why);
    if (!wrote->value("written", false)) return Fail("cannot write " + path + " in a sandbox");
  }
  const std::optional<Json> seen = ProbeJson(ctx, {"stat", file, home_file}, &why);
  if (!seen) return Fail(why);
  const Json paths = seen->value("paths", Json::object());
  for (const auto& [path, exists] : paths.items()) {
    if (exists == true) return Fail(path + ", written by the previous call, is visible");
  }
  return Pass("files in /tmp and HOME from one call are gone in the next");
}

Observation NoProcessesCrossCalls(Context& ctx) {
  const std::string marker = ctx.Marker();
  std::string why;
  if (!ProbeJson(ctx, {"daemon", marker, "30"}, &why)) return Fail(why);
  const std::optional<Json> procs = ProbeJson(ctx, {"procs"}, &why);
  if (!procs) return Fail(why);
  const std::string self = std::to_string(getpid());
  for (const Json& p : procs->value("procs", Json::array())) {
    const std::string cmd = p.value("cmdline", "");
    if (cmd.find(marker) != std::string::npos) return Fail("a process of the previous call is visible");
  }
  if (procs->value("procs", Json::array()).size() > 8) {
    return Fail(std::to_string(procs->value("procs", Json::array()).size()) +
                " processes visible: the host's process table is not hidden");
  }
  return Pass("the previous call's process and the host's processes are invisible");
}

Observation HostFilesInvisible(Context& ctx) {
  const std::string host_file = "/tmp/" + ctx.Marker() + "-host";
  std::ofstream(host_file) << "host";
  std::string why;
  const std::optional<Json> seen =
      ProbeJson(ctx, {"stat", host_file, "/root", "/home", "/etc/shadow", "/var/lib", "/srv"}, &why);
  unlink(host_file.c_str());
  if (!seen) return Fail(why);
  const Json paths = seen->value("paths", Json::object());
  for (const auto& [path, exists] : paths.items()) {
    if (exists == true) return Fail("the host's " + path + " is visible in the sandbox");
  }
  return Pass("a host file in /tmp, /root, /home, /etc/shadow, /var/lib, /srv are invisible");
}

Observation NoNetworkButLoopback(Context& ctx) {
  std::string why;
  const std::optional<Json> devs = ProbeJson(ctx, {"netdevs"}, &why);
  if (!devs) return Fail(why);
  if (devs->value("netdevs", Json::array()) != Json::array({"lo"})) {
    return Fail("network devices " + devs->value("netdevs", Json::array()).dump() +
                ": the host's network is visible");
  }
  const std::string port = std::to_string(ctx.options.price_api.port);
  const std::optional<Json> direct = ProbeJson(ctx, {"connect", "127.0.0.1", port, "2000"}, &why);
  if (!direct) return Fail(why);
  if (direct->value("connected", true)) return Fail("the host's loopback is reachable directly");
  return Pass("only lo, and the host's loopback services are unreachable");
}

Observation NoCredentials(Context& ctx) {
  std::string why;
  const std::optional<Json> env = ProbeJson(ctx, {"env"}, &why);
  if (!env) return Fail(why);
  for (const Json& e : env->value("env", Json::array())) {
    const std::string entry = e.is_string() ? e.get<std::string>() : "";
    for (const char* name : kCredentialCanaries) {
      if (entry.rfind(std::string(name) + "=", 0) == 0) {
        return Fail(std::string("the host's ") + name + " reached the sandbox");
      }
    }
  }
  const std::optional<Json> files =
      ProbeJson(ctx, {"stat", "/tmp/probe-home/.azure", "/root/.azure", "/root/.aws",
                      "/etc/azure", "/var/run/secrets"},
                &why);
  if (!files) return Fail(why);
  const Json paths = files->value("paths", Json::object());
  for (const auto& [path, exists] : paths.items()) {
    if (exists == true) return Fail("credential location " + path + " exists in the sandbox");
  }
  return Pass("no credential variable or credential file is visible");
}

Observation DisposeLeavesNothing(Context& ctx) {
  const std::string marker = ctx.Marker();
  std::string why;
  if (!ProbeJson(ctx, {"daemon", marker, "60"}, &why)) return Fail(why);
  const int marked = MarkedProcessesAfter(marker, milliseconds(2000));
  const std::vector<pid_t> left = LeftoverDescendants(ctx, milliseconds(2000));
  if (marked != 0) return Fail("a process started in the sandbox runs after dispose");
  if (!left.empty()) {
    return Fail(std::to_string(left.size()) + " process(es) of the backend run after dispose (pid " +
                std::to_string(left.front()) + ")");
  }
  return Pass("after dispose no process of the sandbox or the backend is left");
}

}  // namespace

std::vector<ProbeDef> IsolationProbes() {
  return {
      {{"isolation.files_between_calls", {"HOST-006"}, "/tmp or HOME is shared between calls"},
       NothingCrossesCalls},
      {{"isolation.processes", {"HOST-006"}, "processes of other calls or of the host are visible"},
       NoProcessesCrossCalls},
      {{"isolation.host_files", {"HOST-006", "INTRO-009"}, "the host's files are visible"},
       HostFilesInvisible},
      {{"isolation.network", {"HOST-008", "HOST-006"},
        "the sandbox shares the host's network instead of having only loopback"},
       NoNetworkButLoopback},
      {{"isolation.credentials", {"INTRO-009", "INTRO-010"},
        "credentials of the host reach the sandbox"},
       NoCredentials},
      {{"disposal.nothing_left", {"INTRO-007", "HOST-006"},
        "something of the sandbox keeps running after dispose"},
       DisposeLeavesNothing},
  };
}

}  // namespace internal

void PlantCredentialCanaries() {
  for (const char* name : internal::kCredentialCanaries) setenv(name, "backend-suite-canary", 0);
}

}  // namespace azure_pricing::conformance::backend
