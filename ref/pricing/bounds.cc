#include "ref/pricing/bounds.h"

#include <string>

#include "ref/pricing/reasons.h"

namespace azure_pricing {

Status ValidateHostBounds(const HostBounds& bounds) {
  auto refuse = [](std::string message) {
    return Status(Outcome::kRefused, reasons::kInvalidHostBounds, std::move(message));
  };
  if (bounds.exec_timeout_seconds < kMinExecTimeoutSeconds ||
      bounds.exec_timeout_seconds > kMaxExecTimeoutSeconds) {
    return refuse("Host bound exec_timeout_seconds must be between 1 and 600.");
  }
  if (bounds.max_output_bytes < kMinOutputBytes || bounds.max_output_bytes > kMaxOutputBytes) {
    return refuse("Host bound max_output_bytes must be between 1024 and 67108864.");
  }
  if (bounds.max_rows < kMinRows || bounds.max_rows > kMaxRows) {
    return refuse("Host bound max_rows must be between 1 and 5000.");
  }
  return OkStatus();
}

}  // namespace azure_pricing
