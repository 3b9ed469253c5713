// Runs a fuzz target over files given on the command line (or the corpus in its runfiles), so
// the targets build and run with any compiler as ordinary tests; libFuzzer replaces this main.
#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

#include "ref/base/files.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size);

int main(int argc, char** argv) {
  int ran = 0;
  for (int i = 1; i < argc; ++i) {
    const azure_pricing::StatusOr<std::string> file = azure_pricing::base::ReadFile(argv[i]);
    if (!file.ok()) {
      std::fprintf(stderr, "cannot read %s: %s\n", argv[i], file.status().message().c_str());
      return 1;
    }
    const std::string& bytes = *file;
    LLVMFuzzerTestOneInput(reinterpret_cast<const uint8_t*>(bytes.data()), bytes.size());
    // Every prefix too: truncated output is the commonest corruption.
    for (size_t cut = 0; cut < bytes.size() && cut < 4096; cut += 7) {
      LLVMFuzzerTestOneInput(reinterpret_cast<const uint8_t*>(bytes.data()), cut);
    }
    ++ran;
  }
  std::printf("%d corpus files passed, 0 failed\n", ran);
  return ran > 0 ? 0 : 1;
}
