#include "ref/base/paths.h"

#include <unistd.h>

#include <algorithm>
#include <cstdlib>

namespace azure_pricing::base {

std::string FindOnPath(const std::string& name) {
  const char* path = std::getenv("PATH");
  const std::string dirs = path != nullptr ? path : "/usr/bin:/bin";
  for (size_t start = 0; start <= dirs.size();) {
    const size_t end = std::min(dirs.find(':', start), dirs.size());
    const std::string candidate = dirs.substr(start, end - start) + "/" + name;
    if (end > start && access(candidate.c_str(), X_OK) == 0) return candidate;
    start = end + 1;
  }
  return "";
}

std::string ResolveProgram(const std::string& program) {
  if (program.find('/') != std::string::npos) return program;
  const std::string found = FindOnPath(program);
  return found.empty() ? program : found;
}

std::string CallerDirectory() {
  const char* cwd = std::getenv("BUILD_WORKING_DIRECTORY");
  return cwd != nullptr ? cwd : "";
}

std::string CallerPath(const std::string& path) {
  const std::string cwd = CallerDirectory();
  if (path.empty() || path[0] == '/' || cwd.empty()) return path;
  return cwd + "/" + path;
}

}  // namespace azure_pricing::base
