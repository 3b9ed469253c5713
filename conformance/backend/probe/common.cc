#include <errno.h>
#include <time.h>

#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "conformance/backend/probe/probe.h"

namespace azure_pricing::conformance::backend::probe {

void PrintJson(const Json& value) {
  const std::string text = value.dump(-1, ' ', false, Json::error_handler_t::replace) + "\n";
  std::fwrite(text.data(), 1, text.size(), stdout);
  std::fflush(stdout);
}

std::optional<long long> ParseInteger(std::string_view text, long long min, long long max) {
  if (text.empty() || text.find_first_not_of("0123456789") != std::string_view::npos) {
    return std::nullopt;
  }
  long long value = 0;
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (error != std::errc() || end != text.data() + text.size()) return std::nullopt;
  if (value < min || value > max) return std::nullopt;
  return value;
}

std::optional<double> ParseSeconds(std::string_view text) {
  // Digits and at most one dot: strtod alone would also take "inf", "1e9", hex and spaces.
  if (text.empty() || text.find_first_not_of("0123456789.") != std::string_view::npos ||
      text.find('.') != text.rfind('.') || text == ".") {
    return std::nullopt;
  }
  const std::string copy(text);
  const double seconds = std::strtod(copy.c_str(), nullptr);
  if (!std::isfinite(seconds) || seconds > 86400) return std::nullopt;
  return seconds;
}

void SleepSeconds(double seconds) {
  timespec left{};
  left.tv_sec = static_cast<time_t>(seconds);
  left.tv_nsec = static_cast<long>((seconds - static_cast<double>(left.tv_sec)) * 1e9);
  while (nanosleep(&left, &left) != 0 && errno == EINTR) {
  }
}

int Deadline::RemainingMs() const {
  const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
      end_ - std::chrono::steady_clock::now());
  return left.count() > 0 ? static_cast<int>(left.count()) : 0;
}

}  // namespace azure_pricing::conformance::backend::probe
