#include "ref/pricing/bounds.h"

#include <string>

#include "ref/pricing/messages.h"
#include "ref/pricing/reasons.h"

namespace azure_pricing {

Status ValidateHostBounds(const HostBounds& bounds) {
  auto refuse = [](std::string message) {
    return Status(Outcome::kRefused, reasons::kInvalidHostBounds, std::move(message));
  };
  if (bounds.exec_timeout_seconds < kMinExecTimeoutSeconds ||
      bounds.exec_timeout_seconds > kMaxExecTimeoutSeconds) {
    return refuse(messages::kInvalidExecTimeout);
  }
  if (bounds.max_output_bytes < kMinOutputBytes || bounds.max_output_bytes > kMaxOutputBytes) {
    return refuse(messages::kInvalidOutputBytes);
  }
  if (bounds.max_rows < kMinRows || bounds.max_rows > kMaxRows) {
    return refuse(messages::kInvalidMaxRows);
  }
  return OkStatus();
}

}  // namespace azure_pricing
