#include "ref/sandbox/bwrap/command_line.h"

#include <array>
#include <optional>
#include <string_view>

#include "ref/status/status_macros.h"

namespace azure_pricing::sandbox::bwrap {
namespace {

// Names the backend owns: a request that sets one could redirect or widen its egress.
constexpr std::array<std::string_view, 4> kEgressVariables = {"HTTPS_PROXY", "https_proxy",
                                                              "SSL_CERT_FILE", "SSL_CERT_DIR"};
// Paths a HOME may not lie in: the image, its links into /usr, kernel file systems and the
// backend's own files.
constexpr std::array<std::string_view, 10> kSystemRoots = {
    "/usr", "/etc", "/proc", "/dev", "/run", "/bin", "/sbin", "/lib", "/lib64", "/lib32"};

bool StartsWithDir(std::string_view path, std::string_view dir) {
  return path == dir || (path.size() > dir.size() && path.substr(0, dir.size()) == dir &&
                         path[dir.size()] == '/');
}

// Absolute, no empty, "." or ".." components, not a system root: the only HOMEs we mount.
bool UsableHome(std::string_view home) {
  if (home.size() < 2 || home.front() != '/' || home.back() == '/') return false;
  size_t start = 1;
  while (start <= home.size()) {
    const size_t end = std::min(home.find('/', start), home.size());
    const std::string_view part = home.substr(start, end - start);
    if (part.empty() || part == "." || part == "..") return false;
    start = end + 1;
  }
  for (std::string_view root : kSystemRoots) {
    if (StartsWithDir(home, root)) return false;
  }
  return home != "/tmp";
}

void Add(std::vector<std::string>& out, std::initializer_list<std::string_view> words) {
  for (std::string_view w : words) out.emplace_back(w);
}

// The read-only root: the host's /usr (the base layer), the image's /usr/local and /etc.
void AddRoot(std::vector<std::string>& out, const CommandLineInputs& in) {
  Add(out, {"--ro-bind", "/usr", "/usr"});
  for (std::string_view dir : {"bin", "sbin", "lib", "lib64", "lib32"}) {
    Add(out, {"--symlink", "usr/" + std::string(dir), "/" + std::string(dir)});
  }
  Add(out, {"--ro-bind", in.image_dir + "/usr/local", "/usr/local"});
  Add(out, {"--ro-bind", in.image_dir + "/etc", "/etc"});
  Add(out, {"--proc", "/proc", "--dev", "/dev"});
}

// `dir` bound read-write at `inside`, or a fresh tmpfs there when the sandbox has no directory.
void AddWritableDir(std::vector<std::string>& out, const CommandLineInputs& in,
                    const std::string& dir, const std::string& inside) {
  if (!dir.empty()) {
    Add(out, {"--bind", dir, inside});
    return;
  }
  if (in.tmpfs_bytes != 0) Add(out, {"--size", std::to_string(in.tmpfs_bytes)});
  Add(out, {"--tmpfs", inside});
}

void AddWritable(std::vector<std::string>& out, const CommandLineInputs& in,
                 const std::string& home) {
  if (!in.weakenings.shared_tmp.empty()) {
    Add(out, {"--bind", in.weakenings.shared_tmp, "/tmp"});
  } else {
    AddWritableDir(out, in, in.tmp_dir, "/tmp");
  }
  if (home.empty()) return;
  if (StartsWithDir(home, "/tmp")) {
    Add(out, {"--dir", home});
  } else {
    AddWritableDir(out, in, in.home_dir, home);
  }
}

void AddEgress(std::vector<std::string>& out, const CommandLineInputs& in) {
  if (!in.egress) return;
  Add(out, {"--dir", kRunDir});
  Add(out, {"--bind", in.egress_socket, kEgressSocketInside});
  Add(out, {"--ro-bind", in.egress_ca_file, kEgressCaInside});
}

// The environment exactly as requested plus the two egress variables; HOME validated.
StatusOr<std::vector<std::string>> Environment(const CommandLineInputs& in,
                                               const ExecRequest& request,
                                               std::optional<std::string>& home,
                                               std::optional<std::string>& pwd) {
  std::vector<std::string> out;
  if (!in.weakenings.no_clearenv) out.emplace_back("--clearenv");
  for (const std::string& entry : request.env) {
    const size_t eq = entry.find('=');
    // execve would cut the entry at a NUL: what bubblewrap set would not be what was checked.
    if (entry.find('\0') != std::string::npos) {
      return Status(Outcome::kRefused, kMalformedEnv, "an environment entry contains a NUL byte");
    }
    if (eq == 0 || eq == std::string::npos) {
      return Status(Outcome::kRefused, kMalformedEnv, "an environment entry is not NAME=value");
    }
    const std::string_view name = std::string_view(entry).substr(0, eq);
    for (std::string_view owned : kEgressVariables) {
      if (name == owned) {
        return Status(Outcome::kRefused, kEgressVariableInEnv,
                      "the backend sets the egress variables; the request may not");
      }
    }
    if (name == "HOME") home = entry.substr(eq + 1);
    if (name == "PWD") pwd = entry.substr(eq + 1);
    Add(out, {"--setenv", name, std::string_view(entry).substr(eq + 1)});
  }
  if (home.has_value() && !UsableHome(*home)) {
    return Status(Outcome::kRefused, kUnusableHome,
                  "HOME must be an absolute, normalized path outside the image and /run");
  }
  if (in.egress) {
    Add(out, {"--setenv", "HTTPS_PROXY", "http://127.0.0.1:" + std::to_string(kForwarderPort)});
    Add(out, {"--setenv", "SSL_CERT_FILE", kEgressCaInside});
  }
  for (const std::string& entry : in.weakenings.extra_env) {
    const size_t eq = entry.find('=');
    Add(out, {"--setenv", entry.substr(0, eq), entry.substr(eq + 1)});
  }
  return out;
}

}  // namespace

StatusOr<std::vector<std::string>> BwrapCommandLine(const CommandLineInputs& in,
                                                    const ExecRequest& request) {
  if (request.argv.empty()) {
    return Status(Outcome::kRefused, kInvalidSpec, "an exec needs a program");
  }
  for (const std::string& arg : request.argv) {
    if (arg.find('\0') != std::string::npos) {
      return Status(Outcome::kRefused, kArgvContainsNul, "an argument contains a NUL byte");
    }
  }
  std::optional<std::string> home, pwd;
  ASSIGN_OR_RETURN(std::vector<std::string> env, Environment(in, request, home, pwd));
  std::vector<std::string> out = {in.bwrap_path};
  Add(out, {"--unshare-user", "--unshare-uts", "--unshare-cgroup-try"});
  if (!in.weakenings.shared_ipc) Add(out, {"--unshare-ipc"});
  // Run by root, bubblewrap would keep every capability (and uid 0) inside; the program gets
  // neither, so it cannot remount the read-only root or reach anything a capability opens.
  if (!in.weakenings.keep_privileges) {
    Add(out, {"--uid", kSandboxUid, "--gid", kSandboxUid, "--cap-drop", "ALL"});
  }
  if (!in.weakenings.no_pid_namespace) Add(out, {"--unshare-pid", "--die-with-parent"});
  if (!in.weakenings.share_network) Add(out, {"--unshare-net"});
  Add(out, {"--new-session", "--hostname", "sandbox"});
  AddRoot(out, in);
  AddWritable(out, in, home.value_or(""));
  AddEgress(out, in);
  // After /tmp is mounted, or /tmp's mount would hide it.
  if (in.weakenings.host_root_visible) Add(out, {"--ro-bind", "/", kHostRootInside});
  Add(out, {"--remount-ro", "/", "--chdir", home.value_or(kDefaultWorkdir)});
  out.insert(out.end(), env.begin(), env.end());
  Add(out, {"--", kInitPath});
  if (in.egress) {
    Add(out, {"--forward", std::to_string(kForwarderPort), "--to", kEgressSocketInside});
  }
  if (in.weakenings.signal_exit_raw) Add(out, {kSignalExitRawFlag});
  if (pwd.has_value()) {
    Add(out, {"--pwd", *pwd, "--"});
  } else {
    Add(out, {"--unset-pwd", "--"});
  }
  out.insert(out.end(), request.argv.begin(), request.argv.end());
  return out;
}

}  // namespace azure_pricing::sandbox::bwrap
