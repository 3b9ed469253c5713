// Command-line flags for the project's programs: `--name value` pairs and `--switch`es, checked
// against the program's list so that an unknown flag is reported as unknown, a flag without its
// value as missing one (also when the word after it is another of the program's flags), and a
// single-value flag given twice as a usage error. Non-semantic: it knows flag names, never what
// their values mean; each program turns values into its Options.
//
//   std::string problem;
//   StatusOr<base::Flags> flags =
//       base::Flags::ParseOrExplain(argc, argv, {{"--out", FlagKind::kValue}}, &problem);
//   if (!flags.ok()) { std::cerr << problem << "\n"; ... }
#ifndef REF_BASE_FLAGS_H_
#define REF_BASE_FLAGS_H_

#include <functional>
#include <initializer_list>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "ref/status/status.h"

namespace azure_pricing::base {

// Reason codes of program errors (ProgramError).
inline constexpr Reason kFlagUnknown = "flag_unknown";
inline constexpr Reason kFlagMissingValue = "flag_missing_value";
inline constexpr Reason kFlagRepeated = "flag_repeated";

enum class FlagKind {
  kSwitch,      // present or not
  kValue,       // one value, at most once
  kRepeatable,  // one value each time, any number of times
};

struct FlagSpec {
  std::string_view name;  // with its dashes: "--out"
  FlagKind kind;
};

class Flags {
 public:
  // argv[1..argc). On failure `offending` (when given) receives the flag that failed; it is kept
  // out of the Status, whose message is fixed text.
  static StatusOr<Flags> Parse(int argc, const char* const* argv,
                               std::initializer_list<FlagSpec> specs,
                               std::string* offending = nullptr);

  // Parse, and on failure set `problem` to the line for a person (FlagProblem below).
  static StatusOr<Flags> ParseOrExplain(int argc, const char* const* argv,
                                        std::initializer_list<FlagSpec> specs,
                                        std::string* problem);
  // For programs that assemble their flags (a shared main with per-program additions).
  static StatusOr<Flags> ParseOrExplain(int argc, const char* const* argv,
                                        const std::vector<FlagSpec>& specs, std::string* problem);

  bool Has(std::string_view name) const { return values_.count(name) > 0; }
  // The value of a kValue flag; nullopt when it was not given.
  std::optional<std::string> Value(std::string_view name) const;
  // Every value of a kRepeatable flag, in order.
  std::vector<std::string> Values(std::string_view name) const;

 private:
  static StatusOr<Flags> ParseSpan(int argc, const char* const* argv, const FlagSpec* first,
                                   const FlagSpec* last, std::string* offending);
  std::map<std::string, std::vector<std::string>, std::less<>> values_;
};

// One line for a person: "unknown option --x" (or "unexpected argument x" for a word that is no
// option at all), "--x needs a value", "--x is given more than once".
std::string FlagProblem(const Status& status, std::string_view flag);

}  // namespace azure_pricing::base

#endif  // REF_BASE_FLAGS_H_
