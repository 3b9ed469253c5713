#include "ref/base/test_tmpdir.h"

#include <stdlib.h>

#include <cstdio>
#include <cstdlib>

namespace azure_pricing::base {
namespace {

std::string Find() {
  if (const char* dir = std::getenv("TEST_TMPDIR"); dir != nullptr && *dir != '\0') return dir;
  char made[] = "/tmp/azure-pricing-test.XXXXXX";
  if (mkdtemp(made) == nullptr) {
    std::fprintf(stderr, "TEST_TMPDIR is not set and no directory can be made under /tmp\n");
    std::abort();
  }
  return made;
}

}  // namespace

const std::string& TestTmpDir() {
  static const std::string* const dir = new std::string(Find());
  return *dir;
}

}  // namespace azure_pricing::base
