// The file and /proc subcommands: what the sandbox lets the probe write and read, which paths
// exist in it, which processes and network devices it can see, what is mounted in it, and
// whether a name can be found anywhere in its file system.
//   find-names TOKEN MAX_ENTRIES  a breadth-first walk from / (shallow places first), never
//       following symlinks, crossing mount points, skipping /proc, /sys and /dev, reading at
//       most MAX_ENTRIES directory entries within 60 s: {"found": [up to 50 paths whose last
//       component contains TOKEN], "visited": entries read, "complete": false when the entry
//       bound or the deadline stopped the walk, "unreadable": directories that did not open}
//   mounts  /proc/self/mountinfo as {"mounts": [{"mount_point", "root", "device" (MAJOR:MINOR),
//       "fstype", "source", "options" (the mount's own options, e.g. ro,nosuid)}]}, octal
//       escapes decoded; {"mounts": [], "error": "..."} when it cannot be read
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cstring>
#include <deque>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "conformance/backend/probe/probe.h"

namespace azure_pricing::conformance::backend::probe {
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

constexpr size_t kMaxFound = 50;
constexpr int kWalkMs = 60'000;

struct Walk {
  std::string token;
  long long max_entries = 0;
  Json found = Json::array();
  long long visited = 0;
  long long unreadable = 0;
  std::deque<std::string> queue;  // directories still to read, shallowest first
};

// Pseudo file systems: huge or endless (/proc/PID/task/...), and no place a file is planted.
bool Skipped(const std::string& path) {
  return path == "/proc" || path == "/sys" || path == "/dev";
}

// A real directory, never a symlink to one; lstat only when the file system gives no d_type.
bool IsDirectory(const dirent& entry, const std::string& path) {
  if (entry.d_type != DT_UNKNOWN) return entry.d_type == DT_DIR;
  struct stat info;
  return lstat(path.c_str(), &info) == 0 && S_ISDIR(info.st_mode);
}

// Reads one directory, queueing its subdirectories; false when a bound stopped the walk.
bool ReadDirectory(const std::string& dir, Walk& walk, const Deadline& deadline) {
  // O_NOFOLLOW: the path was a directory when listed; if a symlink replaced it since, no entry.
  const int fd = open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
  DIR* stream = fd >= 0 ? fdopendir(fd) : nullptr;
  if (stream == nullptr) {
    if (fd >= 0) close(fd);
    ++walk.unreadable;
    return true;
  }
  bool within_bounds = true;
  while (const dirent* entry = readdir(stream)) {
    const std::string_view name = entry->d_name;
    if (name == "." || name == "..") continue;
    if (walk.visited >= walk.max_entries || deadline.Passed()) {
      within_bounds = false;
      break;
    }
    ++walk.visited;
    const std::string path = (dir == "/" ? "" : dir) + "/" + std::string(name);
    if (name.find(walk.token) != std::string_view::npos && walk.found.size() < kMaxFound) {
      walk.found.push_back(path);
    }
    if (IsDirectory(*entry, path) && !Skipped(path)) walk.queue.push_back(path);
  }
  closedir(stream);
  return within_bounds;
}

// mountinfo writes space, tab, newline and backslash as a backslash and three octal digits.
std::string Unescape(std::string_view field) {
  std::string out;
  for (size_t i = 0; i < field.size(); ++i) {
    const std::string_view rest = field.substr(i + 1, 3);
    if (field[i] == '\\' && rest.size() == 3 &&
        rest.find_first_not_of("01234567") == std::string_view::npos) {
      out += static_cast<char>((rest[0] - '0') * 64 + (rest[1] - '0') * 8 + (rest[2] - '0'));
      i += 3;
    } else {
      out += field[i];
    }
  }
  return out;
}

// One line: ID PARENT MAJOR:MINOR ROOT MOUNT_POINT OPTIONS [OPTIONAL...] - FSTYPE SOURCE SUPER
// (proc(5)); nullopt when the line does not have that shape.
std::optional<Json> ParseMountLine(std::string_view line) {
  std::vector<std::string_view> fields;
  for (size_t start = 0; start <= line.size();) {
    size_t end = line.find(' ', start);
    if (end == std::string_view::npos) end = line.size();
    fields.push_back(line.substr(start, end - start));
    start = end + 1;
  }
  const auto dash = std::find(fields.begin() + std::min<size_t>(fields.size(), 6), fields.end(),
                              std::string_view("-"));
  if (fields.size() < 6 || fields.end() - dash < 3) return std::nullopt;
  return Json{{"mount_point", Unescape(fields[4])}, {"root", Unescape(fields[3])},
              {"device", std::string(fields[2])},   {"fstype", Unescape(dash[1])},
              {"source", Unescape(dash[2])},        {"options", Unescape(fields[5])}};
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

std::optional<int> FindNamesCommand(const Args& args) {
  const std::optional<long long> max_entries = ParseInteger(args[1], 1, 10'000'000);
  if (!max_entries || args[0].empty() || args[0].find('/') != std::string::npos) {
    return std::nullopt;
  }
  Walk walk{args[0], *max_entries};
  const Deadline deadline(kWalkMs);
  bool complete = true;
  walk.queue.push_back("/");
  while (complete && !walk.queue.empty()) {
    const std::string dir = std::move(walk.queue.front());
    walk.queue.pop_front();
    complete = ReadDirectory(dir, walk, deadline);
  }
  PrintJson({{"found", walk.found},
             {"visited", walk.visited},
             {"complete", complete},
             {"unreadable", walk.unreadable}});
  return 0;
}

std::optional<int> MountsCommand(const Args&) {
  const auto [error, text] = ReadAll("/proc/self/mountinfo");
  Json mounts = Json::array();
  std::string failure;
  if (error != 0) failure = std::string("/proc/self/mountinfo: ") + std::strerror(error);
  for (size_t start = 0; failure.empty() && start < text.size();) {
    size_t end = text.find('\n', start);
    if (end == std::string::npos) end = text.size();
    const std::string_view line = std::string_view(text).substr(start, end - start);
    start = end + 1;
    if (std::optional<Json> mount = ParseMountLine(line)) {
      mounts.push_back(std::move(*mount));
    } else {
      failure = "malformed mountinfo line: " + std::string(line);
    }
  }
  if (failure.empty() && mounts.empty()) failure = "/proc/self/mountinfo lists no mount";
  if (failure.empty()) {
    PrintJson({{"mounts", mounts}});
  } else {
    PrintJson({{"mounts", Json::array()}, {"error", failure}});
  }
  return 0;
}

}  // namespace azure_pricing::conformance::backend::probe
