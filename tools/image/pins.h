// The recorded sha256 of each azmcp npm tarball the project accepts (azmcp-pins.tsv here), and
// the rule every consumer applies to a tarball: a pinned version must match its pin, an
// unpinned one only an explicit sha256 the person gave. One file is the only record:
// tools/bazel, the Containerfile's install_azmcp and //tools:sandbox_image all read it.
#ifndef TOOLS_IMAGE_PINS_H_
#define TOOLS_IMAGE_PINS_H_

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "ref/status/status.h"

namespace azure_pricing::tools::image {

// Reason codes of program errors (ProgramError).
inline constexpr Reason kPinsMalformed = "pins_malformed";
inline constexpr Reason kTarballSha256Mismatch = "tarball_sha256_mismatch";
inline constexpr Reason kVersionUnpinned = "azmcp_version_unpinned";
inline constexpr Reason kSha256Malformed = "sha256_malformed";

// Workspace-relative path of the pins file, for Runfile().
inline constexpr char kPinsRunfile[] = "tools/image/azmcp-pins.tsv";

struct AzmcpPin {
  std::string version;
  std::string sha256;    // 64 lowercase hex digits
  std::string recorded;  // YYYY-MM-DD
  std::string how;       // provenance, free text
};

bool IsSha256Hex(std::string_view text);

// Lines of `version TAB sha256 TAB date TAB how`; '#' lines and blank lines are comments. A
// line with fewer fields, a malformed sha256 or date, or a version given twice is refused.
StatusOr<std::vector<AzmcpPin>> ParsePins(std::string_view text);

const AzmcpPin* FindPin(const std::vector<AzmcpPin>& pins, std::string_view version);

// Whether a tarball of `version` whose bytes hash to `actual_sha256` may be used. `given` is
// the sha256 a person passed on the command line, if any; it never overrides a pin.
Status CheckTarball(const std::vector<AzmcpPin>& pins, std::string_view version,
                    std::string_view actual_sha256, const std::optional<std::string>& given);

}  // namespace azure_pricing::tools::image

#endif  // TOOLS_IMAGE_PINS_H_
