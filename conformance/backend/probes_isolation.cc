// Isolation and disposal: nothing crosses from the host or from one call to the next, and
// nothing of a sandbox outlives it.
#include <dirent.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <fstream>
#include <map>
#include <set>
#include <sstream>

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

// The probe's answer for each path asked; nullopt (with `why`) when one is missing, since a
// probe that answered nothing must not read as "nothing is visible".
std::optional<std::map<std::string, bool>> Visible(Context& ctx,
                                                   const std::vector<std::string>& paths,
                                                   std::string* why) {
  std::vector<std::string> args = {"stat"};
  args.insert(args.end(), paths.begin(), paths.end());
  const std::optional<Json> seen = ProbeJson(ctx, args, why);
  if (!seen) return std::nullopt;
  const Json answered = seen->value("paths", Json::object());
  std::map<std::string, bool> out;
  for (const std::string& path : paths) {
    if (!answered.contains(path) || !answered[path].is_boolean()) {
      *why = "the probe gave no answer for " + path;
      return std::nullopt;
    }
    out[path] = answered[path].get<bool>();
  }
  return out;
}

// The first path seen, or empty.
std::string FirstVisible(const std::map<std::string, bool>& seen) {
  for (const auto& [path, exists] : seen) {
    if (exists) return path;
  }
  return "";
}

Observation NothingCrossesCalls(Context& ctx) {
  const std::string file = "/tmp/" + ctx.Marker();
  const std::string home_file = "/tmp/probe-home/" + ctx.Marker();
  std::string why;
  for (const std::string& path : {file, home_file}) {
    const std::optional<Json> wrote = ProbeJson(ctx, {"write-file", path, "left"}, &why);
    if (!wrote) return Fail(why);
    if (!wrote->value("written", false)) return Fail("cannot write " + path + " in a sandbox");
  }
  const auto seen = Visible(ctx, {file, home_file}, &why);
  if (!seen) return Fail(why);
  if (const std::string path = FirstVisible(*seen); !path.empty()) {
    return Fail(path + ", written by the previous call, is visible");
  }
  return Pass("files in /tmp and HOME from one call are gone in the next");
}

// A process on the host whose command line carries `marker`, killed and reaped on destruction.
class HostMarkerProcess {
 public:
  explicit HostMarkerProcess(const std::string& marker) {
    pid_ = fork();
    if (pid_ == 0) {
      execl("/bin/sleep", marker.c_str(), "60", static_cast<char*>(nullptr));
      _exit(127);
    }
  }
  ~HostMarkerProcess() {
    if (pid_ <= 0) return;
    kill(pid_, SIGKILL);
    waitpid(pid_, nullptr, 0);
  }
  pid_t pid() const { return pid_; }

 private:
  pid_t pid_ = -1;
};

Observation NoProcessesCrossCalls(Context& ctx) {
  const std::string marker = ctx.Marker();
  const std::string host_marker = ctx.Marker() + "-host";
  std::string why;
  const std::optional<Json> daemon = ProbeJson(ctx, {"daemon", marker, "30"}, &why);
  if (!daemon) return Fail(why);
  if (!daemon->value("daemon", false)) return Fail("the first call's process did not start");
  HostMarkerProcess host(host_marker);
  ctx.baseline.insert(host.pid());
  const std::optional<Json> procs = ProbeJson(ctx, {"procs"}, &why);
  if (!procs) return Fail(why);
  bool saw_itself = false;
  for (const Json& p : procs->value("procs", Json::array())) {
    const std::string cmd = p.is_object() ? p.value("cmdline", "") : "";
    if (cmd.find(marker) != std::string::npos) return Fail("a process of the previous call is visible");
    if (cmd.find(host_marker) != std::string::npos) return Fail("a process of the host is visible");
    saw_itself = saw_itself || cmd.find("procs") != std::string::npos;
  }
  if (!saw_itself) return Fail("the probe could not see even itself: is /proc mounted?");
  return Pass("the previous call's process and a host process are invisible");
}

// Canary files planted on the host, named with a token unique to the run, removed on
// destruction: in /tmp, HOME, the working directory, /etc and a credential directory. A
// location this user cannot write is left out (and named in the pass line).
class HostCanaries {
 public:
  explicit HostCanaries(const std::string& token) {
    std::vector<std::string> dirs = {"/tmp", "/etc", "/var/tmp", "/opt", "/home", "/srv"};
    if (char cwd[4096]; getcwd(cwd, sizeof cwd) != nullptr) dirs.emplace_back(cwd);
    if (const char* home = std::getenv("HOME"); home != nullptr && home[0] == '/') {
      dirs.emplace_back(home);
      const std::string azure = std::string(home) + "/.azure";
      if (mkdir(azure.c_str(), 0700) == 0) made_dir_ = azure;
      dirs.push_back(azure);
    }
    for (const std::string& dir : dirs) {
      const std::string file = dir + "/" + token + "-canary";
      std::ofstream out(file);
      out << "host canary";
      (out.good() ? files_ : skipped_).push_back(out.good() ? file : dir);
    }
  }
  ~HostCanaries() {
    for (const std::string& file : files_) unlink(file.c_str());
    if (!made_dir_.empty()) rmdir(made_dir_.c_str());
  }
  const std::vector<std::string>& files() const { return files_; }
  const std::vector<std::string>& skipped() const { return skipped_; }

 private:
  std::vector<std::string> files_, skipped_;
  std::string made_dir_;
};

// The device and root of this machine's "/" mount, as /proc/self/mountinfo has them.
std::pair<std::string, std::string> HostRootMount() {
  std::ifstream in("/proc/self/mountinfo");
  std::string line;
  while (std::getline(in, line)) {
    std::istringstream fields(line);
    std::string id, parent, device, root, mount_point;
    fields >> id >> parent >> device >> root >> mount_point;
    if (mount_point == "/") return {device, root};
  }
  return {"", ""};
}

// A mount inside the sandbox of the host's whole root file system, wherever it is mounted: at
// "/" too, where a sandbox tool that only hides parts of the host (firejail without --chroot)
// leaves every file no option names visible, canary or not.
std::string HostRootBound(const Json& mounts) {
  const auto [device, root] = HostRootMount();
  if (device.empty()) return "";
  for (const Json& m : mounts.value("mounts", Json::array())) {
    if (!m.is_object()) continue;
    if (m.value("device", "") == device && m.value("root", "") == root) {
      return m.value("mount_point", "?");
    }
  }
  return "";
}

Observation HostFilesInvisible(Context& ctx) {
  const std::string token = ctx.Marker() + "-host";
  const HostCanaries canaries(token);
  if (canaries.files().empty()) return Fail("the suite could not plant a canary file on the host");
  std::string why;
  const auto seen = Visible(ctx, canaries.files(), &why);
  if (!seen) return Fail(why);
  if (const std::string path = FirstVisible(*seen); !path.empty()) {
    return Fail("the host's " + path + " is visible in the sandbox");
  }
  const std::optional<Json> walk = ProbeJson(ctx, {"find-names", token, "2000000"}, &why);
  if (!walk) return Fail(why);
  const Json found = walk->value("found", Json::array());
  if (!found.empty()) {
    return Fail("a host canary is visible at " + found.front().get<std::string>());
  }
  const std::optional<Json> mounts = ProbeJson(ctx, {"mounts"}, &why);
  if (!mounts) return Fail(why);
  if (const std::string at = HostRootBound(*mounts); !at.empty()) {
    return Fail("the host's root file system is mounted at " + at);
  }
  std::string note = std::to_string(canaries.files().size()) + " host canaries found nowhere (" +
                     std::to_string(walk->value("visited", 0)) + " entries walked" +
                     (walk->value("complete", false) ? "" : ", walk bounded") +
                     "), no host root mount";
  for (const std::string& dir : canaries.skipped()) note += "; " + dir + " not writable here";
  return Pass(note);
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

// A program with a capability could remount the read-only root or the image (root runs the
// backend here): its effective set must be empty.
Observation NoPrivileges(Context& ctx) {
  std::string why;
  const std::optional<Json> status = ProbeJson(ctx, {"read-file", "/proc/self/status"}, &why);
  if (!status) return Fail(why);
  const std::string text = status->value("content", "");
  const size_t at = text.find("\nCapEff:");
  if (at == std::string::npos) return Fail("the probe could not read its own capabilities");
  const std::string effective = text.substr(at + 9, text.find('\n', at + 1) - at - 9);
  if (effective.find_first_not_of("0\t ") != std::string::npos) {
    return Fail("the program runs with capabilities (CapEff " + effective + ")");
  }
  return Pass("the program runs with no capabilities");
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
  const auto files = Visible(ctx,
                             {"/tmp/probe-home/.azure", "/root/.azure", "/root/.aws",
                              "/etc/azure", "/var/run/secrets"},
                             &why);
  if (!files) return Fail(why);
  if (const std::string path = FirstVisible(*files); !path.empty()) {
    return Fail("credential location " + path + " exists in the sandbox");
  }
  return Pass("no credential variable or credential file is visible");
}

// Host paths under `dir` (at most `depth` levels and `budget` entries, never following links)
// whose name contains `token`.
void FindOnHost(const std::string& dir, const std::string& token, int depth, int& budget,
                std::vector<std::string>& found) {
  DIR* d = opendir(dir.c_str());
  if (d == nullptr) return;
  while (dirent* e = readdir(d)) {
    const std::string name = e->d_name;
    if (name == "." || name == ".." || --budget < 0) continue;
    const std::string path = (dir == "/" ? "" : dir) + "/" + name;
    if (name.find(token) != std::string::npos) found.push_back(path);
    struct stat st;
    if (depth > 0 && lstat(path.c_str(), &st) == 0 && S_ISDIR(st.st_mode)) {
      FindOnHost(path, token, depth - 1, budget, found);
    }
  }
  closedir(d);
}

}  // namespace

// Where a backend may keep a sandbox's files on this machine: the temporary directories, then
// where container engines and services keep state (/var/lib/docker, /var/lib/containers,
// ~/.local/share/containers, /run, ...). Each group has its own budget, so a large engine store
// cannot crowd out the temporary directories. A backend keeping them elsewhere is not seen.
std::vector<std::string> LeftOnHost(const std::string& token) {
  std::set<std::string> temporary = {"/tmp", "/var/tmp", "/dev/shm"};
  if (const char* tmp = std::getenv("TMPDIR"); tmp != nullptr && tmp[0] == '/') {
    temporary.insert(tmp);
  }
  std::set<std::string> state = {"/var/lib", "/var/cache", "/var/spool", "/run",
                                 "/srv",     "/opt",       "/home"};
  if (const char* home = std::getenv("HOME"); home != nullptr && home[0] == '/') {
    state.insert(std::string(home) + "/.local/share");
  }
  std::vector<std::string> found;
  for (const std::set<std::string>* roots : {&temporary, &state}) {
    int budget = 500'000;
    for (const std::string& root : *roots) FindOnHost(root, token, 8, budget, found);
  }
  return found;
}

namespace {

Observation FilesRemovedAtDispose(Context& ctx) {
  const std::string token = ctx.Marker() + "-left";
  StatusOr<std::unique_ptr<sandbox::Sandbox>> box = AcquireSandbox(ctx, SuiteSpec());
  if (!box.ok()) return Fail("acquire: " + Describe(box.status()));
  std::string why;
  std::optional<Json> wrote = ProbeIn(ctx, **box, {"write-file", "/tmp/" + token, "x"}, &why);
  if (wrote) {
    wrote = ProbeIn(ctx, **box, {"write-file", "/tmp/probe-home/" + token + "-home", "x"}, &why);
  }
  const Status disposed = ctx.backend.Dispose(std::move(*box));
  if (!wrote) return Fail(why);
  if (!disposed.ok()) return Fail("dispose: " + Describe(disposed));
  const std::vector<std::string> left = LeftOnHost(token);
  if (!left.empty()) return Fail("after dispose the sandbox's file is on the host at " + left.front());
  return Pass(
      "after dispose no file the sandbox wrote is in the host's temporary, service or container "
      "engine directories");
}

Observation DisposeLeavesNothing(Context& ctx) {
  const std::string marker = ctx.Marker();
  std::string why;
  const std::optional<Json> daemon = ProbeJson(ctx, {"daemon", marker, "60"}, &why);
  if (!daemon) return Fail(why);
  if (!daemon->value("daemon", false)) return Fail("the probe did not start its detached process");
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
      {{"isolation.files_between_calls", {"HOST-006"}, "files in /tmp and HOME do not cross from one sandbox to the next"},
       NothingCrossesCalls},
      {{"isolation.processes", {"HOST-006"}, "processes of other sandboxes and of the host are invisible"},
       NoProcessesCrossCalls},
      {{"isolation.host_files", {"HOST-006", "INTRO-009"}, "no file of the host is visible anywhere in the sandbox"},
       HostFilesInvisible},
      {{"isolation.network", {"HOST-008", "HOST-006"},
        "the sandbox has only loopback, not the host's network"},
       NoNetworkButLoopback},
      {{"isolation.no_privileges", {"HOST-006"},
        "the program runs with no capabilities"},
       NoPrivileges},
      {{"isolation.credentials", {"INTRO-009", "INTRO-010"},
        "no credential variable or credential file of the host reaches the sandbox"},
       NoCredentials},
      {{"disposal.files_removed", {"INTRO-007", "HOST-006"},
        "after dispose nothing the sandbox wrote remains on the host"},
       FilesRemovedAtDispose},
      {{"disposal.nothing_left", {"INTRO-007", "HOST-006"},
        "after dispose nothing of the sandbox runs"},
       DisposeLeavesNothing},
  };
}

}  // namespace internal

void PlantCredentialCanaries() {
  // Overwritten, not only set where unset: a real secret of this host must not reach a backend
  // under test, nor a failure line.
  for (const char* name : internal::kCredentialCanaries) setenv(name, "backend-suite-canary", 1);
}

}  // namespace azure_pricing::conformance::backend
