#include "fakes/azmcp/command_line.h"

#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <cctype>
#include <cstdint>
#include <fstream>
#include <sstream>
#include <utility>

namespace azure_pricing::fakes::azmcp {
namespace {

enum class Kind { kString, kBool, kHelp };

struct OptionSpec {
  std::string_view name;
  Kind kind;
  // Offered as a typo correction: the command's own visible options, not the root's help
  // (System.CommandLine suggests only the command's children) nor this fake's switch.
  bool suggested;
};

// In the command's order: its parse errors come in this order, and so do equally close
// suggestions.
constexpr std::array<OptionSpec, 11> kOptions = {{
    {"--currency", Kind::kString, true},
    {"--sku", Kind::kString, true},
    {"--service", Kind::kString, true},
    {"--region", Kind::kString, true},
    {"--service-family", Kind::kString, true},
    {"--price-type", Kind::kString, true},
    {"--include-savings-plan", Kind::kBool, true},
    {"--filter", Kind::kString, true},
    {"--learn", Kind::kBool, true},
    {"--help", Kind::kHelp, false},
    {"--refuse-foreign-next-page", Kind::kBool, false},
}};
constexpr int kHelpIndex = 9;

// The index of an option named or aliased exactly `word` (names are case-sensitive), or -1.
int Lookup(std::string_view word) {
  for (size_t i = 0; i < kOptions.size(); ++i) {
    if (kOptions[i].name == word) return static_cast<int>(i);
  }
  constexpr std::array<std::string_view, 4> kHelpAliases = {"-h", "/h", "-?", "/?"};
  if (std::find(kHelpAliases.begin(), kHelpAliases.end(), word) != kHelpAliases.end()) {
    return kHelpIndex;
  }
  return -1;
}

enum class TokenType { kArgument, kOption, kDoubleDash };

struct Token {
  TokenType type;
  std::string value;
  int option = -1;  // kOption
};

bool IsDotnetWhiteSpace(char c) { return c == ' ' || (c >= '\t' && c <= '\r'); }

std::string_view Trim(std::string_view s) {
  while (!s.empty() && IsDotnetWhiteSpace(s.front())) s.remove_prefix(1);
  while (!s.empty() && IsDotnetWhiteSpace(s.back())) s.remove_suffix(1);
  return s;
}

// CommandLineParser.SplitCommandLine: words split on whitespace outside quotes, quotes removed; a
// quote that starts a word ends it when it closes.
std::vector<std::string> SplitCommandLine(std::string_view line) {
  std::vector<std::string> words;
  bool in_word = false, in_quote = false;
  size_t start = 0;
  auto emit = [&](size_t end) {
    std::string word(line.substr(start, end - start));
    std::erase(word, '"');
    words.push_back(std::move(word));
  };
  for (size_t pos = 0; pos < line.size(); ++pos) {
    const char c = line[pos];
    if (IsDotnetWhiteSpace(c)) {
      if (!in_quote && in_word) emit(pos);
      if (!in_quote) {
        in_word = false;
        start = pos;
      }
    } else if (c == '"') {
      if (!in_word && in_quote) emit(pos);
      if (!in_word && !in_quote) start = pos + 1;
      if (!in_word && in_quote) start = pos;
      in_quote = !in_quote;
    } else if (!in_word && !in_quote) {
      in_word = true;
      start = pos;
    }
    if (pos + 1 == line.size() && in_word) emit(pos + 1);
  }
  return words;
}

// How reading a response file ended, as the .NET exception it would have thrown.
struct ResponseFile {
  enum class Failure { kNone, kNotFound, kIo, kAccessDenied } failure = Failure::kNone;
  std::string message;  // kIo and kAccessDenied: the exception's message
  std::vector<std::string> words;
};

std::string FullPath(const std::string& path) {
  if (!path.empty() && path[0] == '/') return path;
  char cwd[4096];
  if (getcwd(cwd, sizeof cwd) == nullptr) return path;
  return std::string(cwd) + "/" + path;
}

bool IsDirectory(const std::string& path) {
  struct stat st {};
  return stat(path.c_str(), &st) == 0 && S_ISDIR(st.st_mode);
}

// File.ReadAllLines: lines end at \n, \r\n or \r; a UTF-8 byte order mark is dropped.
std::optional<std::vector<std::string>> ReadAllLines(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return std::nullopt;
  std::ostringstream text;
  text << in.rdbuf();
  std::string all = text.str();
  if (all.rfind("\xEF\xBB\xBF", 0) == 0) all.erase(0, 3);
  std::vector<std::string> lines;
  std::string line;
  for (size_t i = 0; i < all.size(); ++i) {
    if (all[i] != '\n' && all[i] != '\r') {
      line.push_back(all[i]);
      continue;
    }
    if (all[i] == '\r' && i + 1 < all.size() && all[i + 1] == '\n') ++i;
    lines.push_back(std::move(line));
    line.clear();
  }
  if (!line.empty()) lines.push_back(std::move(line));
  return lines;
}

// ExpandResponseFile: every line trimmed, blank lines and lines starting with '#' skipped, the
// rest split into words; a word `@path` is expanded in its place.
ResponseFile ReadResponseFile(const std::string& path, int depth = 0) {
  ResponseFile r;
  const std::string full = FullPath(path);
  if (depth > 32) {  // .NET would recurse until its stack ran out
    r.failure = ResponseFile::Failure::kIo;
    r.message = "Too many levels of response files at '" + full + "'.";
    return r;
  }
  if (IsDirectory(full)) {
    r.failure = ResponseFile::Failure::kAccessDenied;
    r.message = "Access to the path '" + full + "' is denied.";
    return r;
  }
  std::optional<std::vector<std::string>> lines = ReadAllLines(full);
  if (!lines) {
    const std::string parent = full.substr(0, std::max<size_t>(full.rfind('/'), 1));
    r.failure = IsDirectory(parent) ? ResponseFile::Failure::kNotFound : ResponseFile::Failure::kIo;
    r.message = "Could not find a part of the path '" + full + "'.";
    return r;
  }
  for (const std::string& raw : *lines) {
    const std::string_view line = Trim(raw);
    if (line.empty() || line[0] == '#') continue;
    for (std::string& word : SplitCommandLine(line)) {
      if (word.size() < 2 || word[0] != '@') {
        r.words.push_back(std::move(word));
        continue;
      }
      ResponseFile inner = ReadResponseFile(word.substr(1), depth + 1);
      if (inner.failure != ResponseFile::Failure::kNone) return inner;
      r.words.insert(r.words.end(), inner.words.begin(), inner.words.end());
    }
  }
  return r;
}

struct Tokens {
  std::vector<Token> list;
  std::vector<std::string> errors;  // the tokenizer's: response files that could not be read
  std::optional<std::string> exception;
};

class Tokenizer {
 public:
  explicit Tokenizer(std::vector<std::string> args) : args_(std::move(args)) {}
  Tokens Run();

 private:
  bool PreviousTakesAValue() const {
    return !out_.list.empty() && out_.list.back().type == TokenType::kOption &&
           kOptions[static_cast<size_t>(out_.list.back().option)].kind == Kind::kString;
  }
  void Argument(std::string value) {
    out_.list.push_back({TokenType::kArgument, std::move(value)});
  }
  void Option(int index) {
    out_.list.push_back(
        {TokenType::kOption, std::string(kOptions[static_cast<size_t>(index)].name), index});
  }
  bool ExpandResponseFile(size_t i);
  bool SplitAtDelimiter(const std::string& arg);
  bool TryUnbundle(std::string_view bundle);
  void One(size_t i);

  std::vector<std::string> args_;
  Tokens out_;
  bool after_double_dash_ = false;
};

// `@path`: its words go in after it; the word itself is gone. False when it stops tokenizing.
bool Tokenizer::ExpandResponseFile(size_t i) {
  const std::string path = args_[i].substr(1);
  ResponseFile file = ReadResponseFile(path);
  switch (file.failure) {
    case ResponseFile::Failure::kNone:
      args_.insert(args_.begin() + static_cast<std::ptrdiff_t>(i) + 1, file.words.begin(),
                   file.words.end());
      return true;
    case ResponseFile::Failure::kNotFound:
      out_.errors.push_back("Response file not found '" + path + "'.");
      return true;
    case ResponseFile::Failure::kIo:
      out_.errors.push_back("Error reading response file '" + path + "': " + file.message);
      return true;
    case ResponseFile::Failure::kAccessDenied:
      out_.exception = file.message;
      return false;
  }
  return true;
}

// `--name=value` and `--name:value` (the first ':' or '=' splits); false when the part before
// it is no option.
bool Tokenizer::SplitAtDelimiter(const std::string& arg) {
  const size_t at = arg.find_first_of(":=");
  if (at == std::string::npos) return false;
  const int index = Lookup(std::string_view(arg).substr(0, at));
  if (index < 0) return false;
  Option(index);
  if (at + 1 < arg.size()) Argument(arg.substr(at + 1));
  return true;
}

// `-abc` as `-a -b -c`: an unknown letter after a known one starts a value; a value option
// takes the rest of the word.
bool Tokenizer::TryUnbundle(std::string_view bundle) {
  for (size_t i = 0; i < bundle.size(); ++i) {
    if (bundle[i] == ':' || bundle[i] == '=') {
      Argument(std::string(bundle.substr(i + 1)));
      return true;
    }
    const int index = Lookup(std::string{'-', bundle[i]});
    if (index < 0) {
      if (i == 0) return false;
      Argument(std::string(bundle.substr(i)));
      return true;
    }
    Option(index);
    if (i + 1 < bundle.size() && kOptions[static_cast<size_t>(index)].kind == Kind::kString) {
      const size_t value = bundle[i + 1] == ':' || bundle[i + 1] == '=' ? i + 2 : i + 1;
      Argument(std::string(bundle.substr(value)));
      return true;
    }
  }
  return true;
}

void Tokenizer::One(size_t i) {
  const std::string arg = args_[i];
  if (after_double_dash_) return Argument(arg);
  if (arg == "--") {
    after_double_dash_ = true;
    out_.list.push_back({TokenType::kDoubleDash, arg});
    return;
  }
  if (const int index = Lookup(arg); index >= 0) {
    // A value option takes the next word even when it names an option.
    return PreviousTakesAValue() ? Argument(arg) : Option(index);
  }
  if (SplitAtDelimiter(arg)) return;
  const bool bundle = arg.size() > 2 && arg[0] == '-' && arg[1] != '-' && arg[2] != ':' &&
                      arg[2] != '=' && !PreviousTakesAValue();
  if (!bundle || !TryUnbundle(std::string_view(arg).substr(1))) Argument(arg);
}

Tokens Tokenizer::Run() {
  for (size_t i = 0; i < args_.size(); ++i) {
    // Response files are expanded before anything else looks at the word, even a value's.
    if (!after_double_dash_ && args_[i] != "--" && args_[i].size() > 1 && args_[i][0] == '@') {
      if (!ExpandResponseFile(i)) break;
      continue;
    }
    One(i);
  }
  return std::move(out_);
}

struct OptionResult {
  bool present = false;
  std::vector<std::string> values;
};

// ParseOptionArguments: a value option takes one following argument, a boolean one only a word
// bool.TryParse accepts, help none.
size_t TakeValues(const Tokens& tokens, size_t next, const OptionSpec& spec, OptionResult& result) {
  if (next >= tokens.list.size() || tokens.list[next].type != TokenType::kArgument) return next;
  const std::string& word = tokens.list[next].value;
  if (spec.kind == Kind::kHelp || (spec.kind == Kind::kBool && !DotnetParseBool(word))) return next;
  result.values.push_back(word);
  return next + 1;
}

// ParseErrorAction's suggestions for one unmatched word: the command's options within edit
// distance 3 that are closest, longer common prefix first.
std::string Suggestions(const std::string& word) {
  std::vector<std::pair<int, int>> close;  // distance, -common prefix; in option order
  std::vector<std::string_view> names;
  for (const OptionSpec& spec : kOptions) {
    const int distance = EditDistance(word, spec.name);
    if (!spec.suggested || distance > 3) continue;
    const auto mismatch =
        std::mismatch(word.begin(), word.end(), spec.name.begin(), spec.name.end());
    close.push_back({distance, -static_cast<int>(mismatch.first - word.begin())});
    names.push_back(spec.name);
  }
  std::vector<size_t> order(close.size());
  for (size_t i = 0; i < order.size(); ++i) order[i] = i;
  std::stable_sort(order.begin(), order.end(),
                   [&](size_t a, size_t b) { return close[a] < close[b]; });
  if (order.empty()) return "";
  std::string out = "'" + word + "' was not matched. Did you mean one of the following?\n";
  for (size_t i : order) {
    if (close[i].first != close[order[0]].first) break;
    out += std::string(names[i]) + "\n";
  }
  return out;
}

// The parsed options' values, or the arity errors System.CommandLine reports for them.
void Validate(const std::array<OptionResult, kOptions.size()>& results, ParsedCommandLine& parsed,
              std::vector<std::string>& errors) {
  for (size_t i = 0; i < kOptions.size(); ++i) {
    const std::string name(kOptions[i].name);
    if (!results[i].present || kOptions[i].kind == Kind::kHelp) continue;
    const size_t n = results[i].values.size();
    if (kOptions[i].kind == Kind::kString && n == 0) {
      errors.push_back("Required argument missing for option: '" + name + "'.");
    } else if (n > 1) {
      errors.push_back("Option '" + name + "' expects a single argument but " + std::to_string(n) +
                       " were provided.");
    }
  }
  auto text = [&](size_t i) { return results[i].values.empty() ? "" : results[i].values[0]; };
  auto flag = [&](size_t i) {
    return results[i].present && (results[i].values.empty() || *DotnetParseBool(text(i)));
  };
  PricingGetOptions& o = parsed.options;
  o.currency = results[0].present ? std::optional<std::string>(text(0)) : std::nullopt;
  o.sku = text(1);
  o.service = text(2);
  o.region = text(3);
  o.service_family = text(4);
  o.price_type = text(5);
  o.include_savings_plan = flag(6);
  o.filter = text(7);
  o.refuse_foreign_next_page = flag(10);
}

bool EqualsIgnoringCase(std::string_view a, std::string_view b) {
  return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin(), [](char x, char y) {
           return std::tolower(static_cast<unsigned char>(x)) ==
                  std::tolower(static_cast<unsigned char>(y));
         });
}

}  // namespace

ParsedCommandLine ParsePricingGet(const std::vector<std::string>& args) {
  ParsedCommandLine parsed;
  // The CLI looks for --learn in the raw words before System.CommandLine sees them.
  for (const std::string& a : args) {
    if (EqualsIgnoringCase(a, "--learn")) {
      parsed.action = CommandLineAction::kLearn;
      return parsed;
    }
  }
  const Tokens tokens = Tokenizer(args).Run();
  if (tokens.exception) {
    parsed.action = CommandLineAction::kException;
    parsed.exception = *tokens.exception;
    return parsed;
  }
  std::vector<std::string> errors = tokens.errors;
  std::array<OptionResult, kOptions.size()> results;
  bool unmatched = false;
  size_t i = 0;
  while (i < tokens.list.size()) {
    const Token& t = tokens.list[i++];
    if (t.type == TokenType::kOption) {
      const size_t index = static_cast<size_t>(t.option);
      results[index].present = true;
      i = TakeValues(tokens, i, kOptions[index], results[index]);
    } else if (t.type == TokenType::kArgument) {
      unmatched = true;
      parsed.suggestions += Suggestions(t.value);
      errors.push_back("Unrecognized command or argument '" + t.value + "'.");
    }
  }
  if (unmatched) parsed.suggestions += "\n";
  Validate(results, parsed, errors);
  // Help is the primary action, and it clears every parse error.
  if (results[kHelpIndex].present) {
    parsed.action = CommandLineAction::kHelp;
    parsed.suggestions.clear();
    return parsed;
  }
  if (errors.empty()) return parsed;
  parsed.action = CommandLineAction::kParseError;
  for (const std::string& e : errors) parsed.errors += e + "\n";
  parsed.errors += "\n";
  return parsed;
}

std::optional<bool> DotnetParseBool(std::string_view text) {
  while (!text.empty() && (IsDotnetWhiteSpace(text.front()) || text.front() == '\0')) {
    text.remove_prefix(1);
  }
  while (!text.empty() && (IsDotnetWhiteSpace(text.back()) || text.back() == '\0')) {
    text.remove_suffix(1);
  }
  if (EqualsIgnoringCase(text, "true")) return true;
  if (EqualsIgnoringCase(text, "false")) return false;
  return std::nullopt;
}

int EditDistance(std::string_view a, std::string_view b) {
  std::vector<int> row(b.size() + 1), next(b.size() + 1);
  for (size_t j = 0; j <= b.size(); ++j) row[j] = static_cast<int>(j);
  for (size_t i = 1; i <= a.size(); ++i) {
    next[0] = static_cast<int>(i);
    for (size_t j = 1; j <= b.size(); ++j) {
      next[j] =
          std::min({row[j] + 1, next[j - 1] + 1, row[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1)});
    }
    std::swap(row, next);
  }
  return row[b.size()];
}

namespace {

// One code point from UTF-8 at `i` (advanced past it); U+FFFD for a malformed sequence.
uint32_t NextCodePoint(std::string_view s, size_t& i) {
  const auto byte = [&](size_t k) { return static_cast<unsigned char>(s[k]); };
  const unsigned char lead = byte(i++);
  if (lead < 0x80) return lead;
  const int extra = lead >= 0xF0 ? 3 : lead >= 0xE0 ? 2 : lead >= 0xC0 ? 1 : -1;
  if (extra < 0 || i + static_cast<size_t>(extra) > s.size()) return 0xFFFD;
  uint32_t cp = lead & (0x3F >> extra);
  for (int k = 0; k < extra; ++k) {
    if ((byte(i) & 0xC0) != 0x80) return 0xFFFD;
    cp = (cp << 6) | (byte(i++) & 0x3F);
  }
  return cp;
}

std::string Hex4(uint32_t unit) {
  static constexpr char kHex[] = "0123456789ABCDEF";
  std::string out = "\\u";
  for (int shift = 12; shift >= 0; shift -= 4) out.push_back(kHex[(unit >> shift) & 15]);
  return out;
}

}  // namespace

std::string JsonStringDefaultEncoder(std::string_view text) {
  std::string out = "\"";
  for (size_t i = 0; i < text.size();) {
    const uint32_t cp = NextCodePoint(text, i);
    const std::string_view html_sensitive = "\"&'<>+`";
    if (cp == '\\') {
      out += "\\\\";
    } else if (cp == '\n' || cp == '\r' || cp == '\t' || cp == '\b' || cp == '\f') {
      out += cp == '\n'   ? "\\n"
             : cp == '\r' ? "\\r"
             : cp == '\t' ? "\\t"
             : cp == '\b' ? "\\b"
                          : "\\f";
    } else if (cp >= 0x20 && cp < 0x7F &&
               html_sensitive.find(static_cast<char>(cp)) == std::string_view::npos) {
      out.push_back(static_cast<char>(cp));
    } else if (cp > 0xFFFF) {
      out += Hex4(0xD800 + ((cp - 0x10000) >> 10)) + Hex4(0xDC00 + ((cp - 0x10000) & 0x3FF));
    } else {
      out += Hex4(cp);
    }
  }
  return out + "\"";
}

}  // namespace azure_pricing::fakes::azmcp
