#include "ref/base/runfiles.h"

#include <unistd.h>

#include <cstdlib>

namespace azure_pricing::base {

namespace {
constexpr char kWorkspace[] = "azure_pricing_conformance";
}  // namespace

std::string Runfile(const std::string& workspace_relative) {
  for (const char* var : {"TEST_SRCDIR", "RUNFILES_DIR"}) {
    if (const char* dir = std::getenv(var); dir != nullptr && *dir != '\0') {
      return std::string(dir) + "/" + kWorkspace + "/" + workspace_relative;
    }
  }
  char self[4096];
  const ssize_t n = readlink("/proc/self/exe", self, sizeof self - 1);
  if (n > 0) {
    const std::string candidate = std::string(self, static_cast<size_t>(n)) + ".runfiles/" +
                                  kWorkspace + "/" + workspace_relative;
    if (access(candidate.c_str(), F_OK) == 0) return candidate;
  }
  return workspace_relative;
}

}  // namespace azure_pricing::base
