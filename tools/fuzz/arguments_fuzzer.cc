// libFuzzer target: any bytes as tool arguments. Invariants: nothing crashes; accepted
// arguments give an argv whose every element passes the character rules, with the fixed
// program first; refusals carry a reason and a message.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>

#include "ref/pricing/arguments.h"
#include "ref/pricing/command.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  const auto args = azure_pricing::ParseToolArguments(text);
  if (!args.ok()) {
    if (args.status().reason().empty() || args.status().message().empty()) std::abort();
    return 0;
  }
  const std::vector<std::string> argv = azure_pricing::BuildArgv(*args);
  if (argv.size() < 3 || argv[0] != azure_pricing::kAzmcpPath || argv[1] != "pricing" ||
      argv[2] != "get") {
    std::abort();
  }
  for (const std::string& a : argv) {
    if (!azure_pricing::ForbiddenCharacterReason(a).empty()) std::abort();
  }
  return 0;
}
