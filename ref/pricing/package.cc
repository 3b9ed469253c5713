#include "ref/pricing/package.h"

#include <atomic>
#include <iostream>

namespace azure_pricing {
namespace {

std::atomic<bool> experimental_warned{false};

}  // namespace

void WarnExperimentalOnce(Logger* logger) {
  if (experimental_warned.exchange(true)) return;
  if (logger != nullptr) {
    logger->Warning(kExperimentalWarningCategory, kExperimentalWarning);
  } else {
    std::cerr << kExperimentalWarningCategory << ": " << kExperimentalWarning << "\n";
  }
}

void ResetExperimentalWarning() { experimental_warned = false; }

}  // namespace azure_pricing
