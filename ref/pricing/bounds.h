// Host-selected bounds on one lookup, with their defaults and the ranges a host may choose.
#ifndef REF_PRICING_BOUNDS_H_
#define REF_PRICING_BOUNDS_H_

#include <cstddef>
#include <cstdint>

#include "ref/status/status.h"

namespace azure_pricing {

// The CLI stops after this many rows, silently.
inline constexpr int64_t kCliRowCeiling = 5000;

struct HostBounds {
  int64_t exec_timeout_seconds = 60;
  int64_t max_output_bytes = 8 * 1024 * 1024;  // stdout and stderr together
  int64_t max_rows = 100;
};

// Accepted ranges: exec_timeout_seconds 1..600 (the CLI needs ~1.5 s to start, retries can take
// longer); max_output_bytes 1 KiB..64 MiB (a 5,000-row envelope is ~3 MB);
// max_rows 1..5,000 (the CLI never returns more).
inline constexpr int64_t kMinExecTimeoutSeconds = 1;
inline constexpr int64_t kMaxExecTimeoutSeconds = 600;
inline constexpr int64_t kMinOutputBytes = 1024;
inline constexpr int64_t kMaxOutputBytes = 64 * 1024 * 1024;
inline constexpr int64_t kMinRows = 1;
inline constexpr int64_t kMaxRows = kCliRowCeiling;

Status ValidateHostBounds(const HostBounds& bounds);

}  // namespace azure_pricing

#endif  // REF_PRICING_BOUNDS_H_
