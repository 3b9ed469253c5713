#include "ref/base/flags.h"

#include <algorithm>

namespace azure_pricing::base {

StatusOr<Flags> Flags::Parse(int argc, const char* const* argv,
                             std::initializer_list<FlagSpec> specs, std::string* offending) {
  return ParseSpan(argc, argv, specs.begin(), specs.end(), offending);
}

StatusOr<Flags> Flags::ParseSpan(int argc, const char* const* argv, const FlagSpec* first,
                                 const FlagSpec* last, std::string* offending) {
  Flags flags;
  for (int i = 1; i < argc; ++i) {
    const std::string_view arg = argv[i];
    const FlagSpec* spec = nullptr;
    for (const FlagSpec* s = first; s != last; ++s) {
      if (s->name == arg) spec = s;
    }
    if (offending != nullptr) *offending = std::string(arg);
    if (spec == nullptr) return ProgramError(kFlagUnknown, "unknown option");
    std::vector<std::string>& values = flags.values_[std::string(arg)];
    if (spec->kind == FlagKind::kSwitch) continue;
    if (spec->kind == FlagKind::kValue && !values.empty()) {
      return ProgramError(kFlagRepeated, "the option is given more than once");
    }
    // The next word naming one of the program's own flags is a forgotten value
    // (`--catalog --listen ...`), not a value that happens to look like a flag.
    const bool next_is_flag = i + 1 < argc && std::any_of(first, last, [&](const FlagSpec& s) {
                                return s.name == argv[i + 1];
                              });
    if (i + 1 >= argc || next_is_flag) {
      return ProgramError(kFlagMissingValue, "the option needs a value");
    }
    values.emplace_back(argv[++i]);
  }
  if (offending != nullptr) offending->clear();
  return flags;
}

std::optional<std::string> Flags::Value(std::string_view name) const {
  const auto it = values_.find(name);
  if (it == values_.end() || it->second.empty()) return std::nullopt;
  return it->second.back();
}

std::vector<std::string> Flags::Values(std::string_view name) const {
  const auto it = values_.find(name);
  return it == values_.end() ? std::vector<std::string>() : it->second;
}

StatusOr<Flags> Flags::ParseOrExplain(int argc, const char* const* argv,
                                      std::initializer_list<FlagSpec> specs, std::string* problem) {
  std::string offending;
  StatusOr<Flags> flags = Parse(argc, argv, specs, &offending);
  if (!flags.ok()) *problem = FlagProblem(flags.status(), offending);
  return flags;
}

StatusOr<Flags> Flags::ParseOrExplain(int argc, const char* const* argv,
                                      const std::vector<FlagSpec>& specs, std::string* problem) {
  std::string offending;
  StatusOr<Flags> flags =
      ParseSpan(argc, argv, specs.data(), specs.data() + specs.size(), &offending);
  if (!flags.ok()) *problem = FlagProblem(flags.status(), offending);
  return flags;
}

std::string FlagProblem(const Status& status, std::string_view flag) {
  const std::string name(flag);
  if (status.reason() == kFlagUnknown) {
    return (name.empty() || name[0] != '-' ? "unexpected argument " : "unknown option ") + name;
  }
  if (status.reason() == kFlagMissingValue) return name + " needs a value";
  if (status.reason() == kFlagRepeated) return name + " is given more than once";
  return name + ": " + status.message();
}

}  // namespace azure_pricing::base
