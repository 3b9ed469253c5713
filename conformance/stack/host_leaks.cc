#include "conformance/stack/host_leaks.h"

#include <dirent.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <thread>

namespace azure_pricing::conformance::stack {
namespace {

namespace fs = std::filesystem;

std::string ReadWhole(const std::string& path) {
  std::ifstream in(path);
  std::ostringstream out;
  out << in.rdbuf();
  return out.str();
}

struct ProcessInfo {
  pid_t parent = 0;
  std::string name;
};

// Every process now: its parent (from /proc/PID/stat, after the name's closing parenthesis,
// since a name may hold spaces and parentheses) and its name.
std::map<pid_t, ProcessInfo> Processes() {
  std::map<pid_t, ProcessInfo> all;
  DIR* proc = opendir("/proc");
  if (proc == nullptr) return all;
  while (dirent* e = readdir(proc)) {
    if (e->d_name[0] < '1' || e->d_name[0] > '9') continue;
    const std::string stat = ReadWhole(std::string("/proc/") + e->d_name + "/stat");
    const size_t open = stat.find('('), close = stat.rfind(')');
    if (open == std::string::npos || close == std::string::npos || close + 4 >= stat.size()) {
      continue;  // gone meanwhile
    }
    ProcessInfo info;
    info.name = stat.substr(open + 1, close - open - 1);
    std::istringstream rest(stat.substr(close + 2));
    std::string state;
    rest >> state >> info.parent;
    all[static_cast<pid_t>(std::atoi(e->d_name))] = info;
  }
  closedir(proc);
  return all;
}

std::set<pid_t> DescendantsOf(pid_t root, const std::map<pid_t, ProcessInfo>& all,
                              const std::set<pid_t>& ignore) {
  std::multimap<pid_t, pid_t> children;
  for (const auto& [pid, info] : all) children.emplace(info.parent, pid);
  std::set<pid_t> found;
  std::vector<pid_t> todo = {root};
  while (!todo.empty()) {
    const pid_t at = todo.back();
    todo.pop_back();
    auto [begin, end] = children.equal_range(at);
    for (auto it = begin; it != end; ++it) {
      if (ignore.count(it->second) > 0 || !found.insert(it->second).second) continue;
      todo.push_back(it->second);
    }
  }
  return found;
}

int OpenFds() {
  int n = 0;
  std::error_code ec;
  for (fs::directory_iterator it("/proc/self/fd", ec), end; !ec && it != end; it.increment(ec)) {
    ++n;
  }
  return n;
}

std::set<std::string> FilesUnder(const SnapshotScope& scope) {
  std::set<std::string> files;
  std::error_code ec;
  if (!scope.shared_dir.empty()) {
    for (fs::directory_iterator it(scope.shared_dir, ec), end; !ec && it != end; it.increment(ec)) {
      if (it->path().filename().string().rfind(scope.prefix, 0) == 0) {
        files.insert(it->path().string());
      }
    }
  }
  for (const std::string& dir : scope.dirs) {
    std::error_code ec;
    for (fs::recursive_directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec)) {
      files.insert(it->path().string());
    }
  }
  return files;
}

std::string Describe(pid_t pid, const std::map<pid_t, ProcessInfo>& all) {
  const auto it = all.find(pid);
  return std::to_string(pid) + " (" + (it != all.end() ? it->second.name : "?") + ")";
}

}  // namespace

PrivateTmpDir::PrivateTmpDir() {
  char pattern[] = "/tmp/apc-XXXXXX";
  if (mkdtemp(pattern) != nullptr) path_ = pattern;
  if (const char* tmp = std::getenv("TMPDIR"); tmp != nullptr) {
    had_previous_ = true;
    previous_ = tmp;
  }
  if (!path_.empty()) setenv("TMPDIR", path_.c_str(), 1);
}

PrivateTmpDir::~PrivateTmpDir() {
  if (had_previous_) {
    setenv("TMPDIR", previous_.c_str(), 1);
  } else {
    unsetenv("TMPDIR");
  }
  std::error_code ignored;
  if (!path_.empty()) fs::remove_all(path_, ignored);
}

HostSnapshot TakeSnapshot(SnapshotScope scope) {
  HostSnapshot s;
  const std::map<pid_t, ProcessInfo> all = Processes();
  s.descendants = DescendantsOf(getpid(), all, scope.ignore);
  for (const auto& [pid, info] : all) {
    if (info.name == kOrphanName) s.marked.insert(pid);
  }
  s.open_fds = OpenFds();
  s.mountinfo = ReadWhole("/proc/self/mountinfo");
  s.files = FilesUnder(scope);
  s.scope = std::move(scope);
  return s;
}

std::vector<std::string> Differences(const HostSnapshot& before, const HostSnapshot& now) {
  std::vector<std::string> out;
  const std::map<pid_t, ProcessInfo> all = Processes();
  for (pid_t pid : now.descendants) {
    if (before.descendants.count(pid) == 0) out.push_back("process left: " + Describe(pid, all));
  }
  for (pid_t pid : now.marked) {
    if (before.marked.count(pid) == 0) out.push_back("orphan left: " + Describe(pid, all));
  }
  if (now.open_fds != before.open_fds) {
    out.push_back("open descriptors: " + std::to_string(before.open_fds) + " before, " +
                  std::to_string(now.open_fds) + " now");
  }
  if (now.mountinfo != before.mountinfo) out.push_back("the mount table changed");
  for (const std::string& f : now.files) {
    if (before.files.count(f) == 0) out.push_back("file left: " + f);
  }
  for (const std::string& f : before.files) {
    if (now.files.count(f) == 0) out.push_back("file gone: " + f);
  }
  return out;
}

std::vector<std::string> WaitUntilClean(const HostSnapshot& before,
                                        std::chrono::milliseconds within) {
  const auto deadline = std::chrono::steady_clock::now() + within;
  for (;;) {
    std::vector<std::string> left = Differences(before, TakeSnapshot(before.scope));
    if (left.empty() || std::chrono::steady_clock::now() >= deadline) return left;
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
}

}  // namespace azure_pricing::conformance::stack
