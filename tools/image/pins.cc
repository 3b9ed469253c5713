#include "tools/image/pins.h"

#include <cctype>

namespace azure_pricing::tools::image {
namespace {

Status Refused(Reason reason, const char* message) { return ProgramError(reason, message); }

bool IsDate(std::string_view text) {
  if (text.size() != 10 || text[4] != '-' || text[7] != '-') return false;
  for (size_t i : {0, 1, 2, 3, 5, 6, 8, 9}) {
    if (!std::isdigit(static_cast<unsigned char>(text[i]))) return false;
  }
  return true;
}

// The four tab-separated fields of one line; the last takes the rest of the line.
std::optional<AzmcpPin> ParseLine(std::string_view line) {
  std::vector<std::string> fields;
  for (int i = 0; i < 3; ++i) {
    const size_t tab = line.find('\t');
    if (tab == std::string_view::npos) return std::nullopt;
    fields.emplace_back(line.substr(0, tab));
    line.remove_prefix(tab + 1);
  }
  AzmcpPin pin{fields[0], fields[1], fields[2], std::string(line)};
  if (pin.version.empty() || pin.how.empty() || !IsSha256Hex(pin.sha256) ||
      !IsDate(pin.recorded)) {
    return std::nullopt;
  }
  return pin;
}

}  // namespace

bool IsSha256Hex(std::string_view text) {
  if (text.size() != 64) return false;
  for (char c : text) {
    if (!std::isdigit(static_cast<unsigned char>(c)) && (c < 'a' || c > 'f')) return false;
  }
  return true;
}

StatusOr<std::vector<AzmcpPin>> ParsePins(std::string_view text) {
  std::vector<AzmcpPin> pins;
  while (!text.empty()) {
    const size_t end = text.find('\n');
    std::string_view line = text.substr(0, end);
    text.remove_prefix(end == std::string_view::npos ? text.size() : end + 1);
    if (line.empty() || line.front() == '#') continue;
    std::optional<AzmcpPin> pin = ParseLine(line);
    if (!pin.has_value()) {
      return Refused(kPinsMalformed,
                     "a pins line is not: version, 64-hex sha256, YYYY-MM-DD, how (tab-separated)");
    }
    if (FindPin(pins, pin->version) != nullptr) {
      return Refused(kPinsMalformed, "the pins file records a version twice");
    }
    pins.push_back(std::move(*pin));
  }
  return pins;
}

const AzmcpPin* FindPin(const std::vector<AzmcpPin>& pins, std::string_view version) {
  for (const AzmcpPin& pin : pins) {
    if (pin.version == version) return &pin;
  }
  return nullptr;
}

Status CheckTarball(const std::vector<AzmcpPin>& pins, std::string_view version,
                    std::string_view actual_sha256, const std::optional<std::string>& given) {
  if (given.has_value() && !IsSha256Hex(*given)) {
    return Refused(kSha256Malformed, "--sha256 must be 64 lowercase hex digits");
  }
  if (const AzmcpPin* pin = FindPin(pins, version)) {
    if (pin->sha256 != actual_sha256 || (given.has_value() && *given != actual_sha256)) {
      return Refused(kTarballSha256Mismatch,
                     "the tarball's sha256 is not the one recorded for its version");
    }
    return OkStatus();
  }
  if (!given.has_value()) {
    return Refused(kVersionUnpinned,
                   "the tarball's version has no recorded sha256: record it with "
                   "tools/image/pin VERSION, or pass --sha256 HEX that you checked yourself");
  }
  if (*given != actual_sha256) {
    return Refused(kTarballSha256Mismatch, "the tarball's sha256 is not the one given by --sha256");
  }
  return OkStatus();
}

}  // namespace azure_pricing::tools::image
