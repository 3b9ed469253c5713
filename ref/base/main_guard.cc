#include "ref/base/main_guard.h"

#include <cstdio>
#include <exception>
#include <string>

namespace azure_pricing::base {

int GuardedMain(std::string_view program, const std::function<int()>& body) {
  const std::string name(program);
  try {
    return body();
  } catch (const std::exception& e) {
    std::fprintf(stderr, "%s: internal error, please report it: %s\n", name.c_str(), e.what());
  } catch (...) {
    std::fprintf(stderr, "%s: internal error, please report it: an unknown exception\n",
                 name.c_str());
  }
  return kExitInternalError;
}

}  // namespace azure_pricing::base
