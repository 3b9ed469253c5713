// The file and /proc subcommands: what the sandbox lets the probe write and read, which paths
// exist in it, which processes and network devices it can see.
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <string>
#include <utility>
#include <vector>

#include "conformance/backend/probe/probe.h"

namespace azure_pricing::probe {
namespace {

// Creates every missing directory above `path`; 0 or the errno of the first one that failed
// (an existing directory is no failure: the sandbox may already have it read-only).
int MakeParents(const std::string& path) {
  for (size_t slash = path.find('/', 1); slash != std::string::npos;
       slash = path.find('/', slash + 1)) {
    if (mkdir(path.substr(0, slash).c_str(), 0755) != 0 && errno != EEXIST) return errno;
  }
  return 0;
}

// 0 and the whole file, or the errno that stopped the read.
std::pair<int, std::string> ReadAll(const std::string& path) {
  const int fd = open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return {errno, ""};
  std::string content;
  char buffer[65536];
  for (;;) {
    const ssize_t n = read(fd, buffer, sizeof buffer);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) {
      const int error = errno;
      close(fd);
      return {error, ""};
    }
    if (n == 0) break;
    content.append(buffer, static_cast<size_t>(n));
  }
  close(fd);
  return {0, std::move(content)};
}

int WriteAll(const std::string& path, const std::string& content) {
  const int fd = open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (fd < 0) return errno;
  for (size_t done = 0; done < content.size();) {
    const ssize_t n = write(fd, content.data() + done, content.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) {
      const int error = errno;
      close(fd);
      return error;
    }
    done += static_cast<size_t>(n);
  }
  // A full tmpfs or a network file system may only report the failure at close.
  return close(fd) == 0 ? 0 : errno;
}

bool AllDigits(const char* name) {
  if (*name == '\0') return false;
  for (; *name != '\0'; ++name) {
    if (*name < '0' || *name > '9') return false;
  }
  return true;
}

// /proc/PID/cmdline as one line: NUL-separated arguments joined by spaces. Empty for kernel
// threads and zombies (a zombie has no command line, so a marker search does not find it).
std::string CommandLine(const std::string& pid) {
  std::string text = ReadAll("/proc/" + pid + "/cmdline").second;
  while (!text.empty() && text.back() == '\0') text.pop_back();
  std::replace(text.begin(), text.end(), '\0', ' ');
  return text;
}

}  // namespace

std::optional<int> WriteFileCommand(const Args& args) {
  int error = MakeParents(args[0]);
  if (error == 0) error = WriteAll(args[0], args[1]);
  if (error == 0) {
    PrintJson({{"written", true}});
  } else {
    PrintJson({{"written", false}, {"errno", error}});
  }
  return 0;
}

// `exists` is false only when the path is not there (ENOENT, ENOTDIR); a file the probe may
// not read still exists, and then `errno` says why the content is empty.
std::optional<int> ReadFileCommand(const Args& args) {
  const auto [error, content] = ReadAll(args[0]);
  Json out = {{"exists", error != ENOENT && error != ENOTDIR}, {"content", content}};
  if (error != 0 && out["exists"].get<bool>()) out["errno"] = error;
  PrintJson(out);
  return 0;
}

// lstat: a dangling symlink exists (it is what the sandbox shows), its target need not.
std::optional<int> StatCommand(const Args& args) {
  Json paths = Json::object();
  for (const std::string& path : args) {
    struct stat info;
    paths[path] = lstat(path.c_str(), &info) == 0;
  }
  PrintJson({{"paths", paths}});
  return 0;
}

std::optional<int> ProcsCommand(const Args&) {
  std::vector<long long> pids;
  if (DIR* proc = opendir("/proc"); proc != nullptr) {
    while (const dirent* entry = readdir(proc)) {
      if (AllDigits(entry->d_name)) pids.push_back(std::stoll(entry->d_name));
    }
    closedir(proc);
  }
  std::sort(pids.begin(), pids.end());
  Json list = Json::array();
  for (const long long pid : pids) {
    list.push_back({{"pid", pid}, {"cmdline", CommandLine(std::to_string(pid))}});
  }
  PrintJson({{"procs", list}});
  return 0;
}

// /proc/net/dev: two header lines, then `  NAME: counters...` per device in this network
// namespace.
std::optional<int> NetdevsCommand(const Args&) {
  const std::string text = ReadAll("/proc/net/dev").second;
  Json devices = Json::array();
  size_t line_start = 0;
  for (int line = 0; line_start < text.size(); ++line) {
    size_t line_end = text.find('\n', line_start);
    if (line_end == std::string::npos) line_end = text.size();
    const std::string row = text.substr(line_start, line_end - line_start);
    line_start = line_end + 1;
    const size_t colon = row.find(':');
    if (line < 2 || colon == std::string::npos) continue;
    const size_t first = row.find_first_not_of(' ');
    if (first < colon) devices.push_back(row.substr(first, colon - first));
  }
  PrintJson({{"netdevs", devices}});
  return 0;
}

}  // namespace azure_pricing::probe
