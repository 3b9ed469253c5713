// generate_catalog: writes a synthetic catalog as JSON Lines for prices_server --catalog.
#include <cerrno>
#include <cstdint>
#include <cstdio>
#include <iostream>
#include <memory>
#include <optional>
#include <string>

#include "fakes/prices_server/catalog_generator.h"
#include "ref/base/flags.h"
#include "ref/base/main_guard.h"
#include "ref/base/paths.h"
#include "ref/status/status.h"

namespace azure_pricing::fakes::prices {
namespace {

constexpr char kUsage[] =
    "usage: generate_catalog --out FILE [--items N] [--seed S]\n"
    "Writes N (1 to 10000000, default 10000) synthetic price items as JSON Lines, the same\n"
    "for the same seed S (0 to 999999999999999999, default 1): regional, Global and\n"
    "billing-zone rows, empty armSkuName meters, tiers, reservations, savings plans, DevTest\n"
    "and non-primary meters. A bad value is reported before a missing --out (exit 64).\n";

// Reason codes of command-line problems beyond base::Flags'.
constexpr char kOutOfRange[] = "value_out_of_range";
constexpr char kOutRequired[] = "out_required";

// 10 million items is some 5 GB of JSON Lines, past any catalog a test or the bench loads.
constexpr uint64_t kMaxItems = 10'000'000;
constexpr uint64_t kMaxSeed = 999'999'999'999'999'999;

struct Options {
  bool help = false;
  uint64_t seed = 1;
  uint64_t items = 10000;
  std::string out;
};

// Decimal digits only, at most 18 of them (no sign, no spaces, no overflow), from min to max;
// false with `problem` set otherwise. Unset leaves `out` at its default.
bool ReadNumber(const base::Flags& flags, const char* flag, uint64_t min, uint64_t max,
                uint64_t& out, std::string* problem) {
  const std::optional<std::string> text = flags.Value(flag);
  if (!text) return true;
  const bool digits = !text->empty() && text->size() <= 18 &&
                      text->find_first_not_of("0123456789") == std::string::npos;
  if (!digits || std::stoull(*text) < min || std::stoull(*text) > max) {
    *problem = std::string(flag) + " must be a whole number from " + std::to_string(min) +
               " to " + std::to_string(max);
    return false;
  }
  out = std::stoull(*text);
  return true;
}

// The command line as Options; on failure `problem` is the line to show. Flags that do not parse
// come first (in argv order), then values that cannot work (in usage order), then a missing --out:
// a value is what the person typed wrong, --out may be what they have yet to add.
StatusOr<Options> ParseFlags(int argc, char** argv, std::string* problem) {
  const StatusOr<base::Flags> flags =
      base::Flags::ParseOrExplain(argc, argv,
                                  {{"--help", base::FlagKind::kSwitch},
                                   {"-h", base::FlagKind::kSwitch},
                                   {"--out", base::FlagKind::kValue},
                                   {"--items", base::FlagKind::kValue},
                                   {"--seed", base::FlagKind::kValue}},
                                  problem);
  if (!flags.ok()) return flags.status();
  Options o;
  o.help = flags->Has("--help") || flags->Has("-h");
  if (o.help) return o;
  if (!ReadNumber(*flags, "--items", 1, kMaxItems, o.items, problem) ||
      !ReadNumber(*flags, "--seed", 0, kMaxSeed, o.seed, problem)) {
    return ProgramError(kOutOfRange, "the value is not a number in range");
  }
  o.out = flags->Value("--out").value_or("");
  if (o.out.empty()) {
    *problem = "--out FILE is required";
    return ProgramError(kOutRequired, "--out FILE is required");
  }
  return o;
}

// Why `path` cannot be opened for writing, from errno.
const char* OpenProblem(int error) {
  if (error == ENOENT || error == ENOTDIR) return "no such directory";
  if (error == EISDIR) return "it is a directory, not a file";
  if (error == EACCES || error == EPERM || error == EROFS) return "permission denied";
  return "the file cannot be created";
}

int Main(int argc, char** argv) {
  std::string problem;
  const StatusOr<Options> options = ParseFlags(argc, argv, &problem);
  if (!options.ok()) {
    std::cerr << "generate_catalog: " << problem << "\n" << kUsage;
    return 64;
  }
  if (options->help) {
    std::cout << kUsage;
    return 0;
  }
  // Under `bazel run` a relative --out means the caller's directory, not the runfiles.
  const std::string path = base::CallerPath(options->out);
  const std::unique_ptr<FILE, int (*)(FILE*)> file(std::fopen(path.c_str(), "wb"), &std::fclose);
  if (file == nullptr) {
    std::cerr << "generate_catalog: cannot write --out " << options->out << ": "
              << OpenProblem(errno) << "\n";
    return 1;
  }
  bool written = true;
  const auto write = [&](const std::string& line) {
    written = written && std::fwrite(line.data(), 1, line.size(), file.get()) == line.size() &&
              std::fputc('\n', file.get()) != EOF;
  };
  GenerateCatalog(options->seed, static_cast<int64_t>(options->items), write);
  if (!written || std::fflush(file.get()) != 0) {
    std::cerr << "generate_catalog: cannot write --out " << options->out
              << ": writing failed (is the disk full?)\n";
    return 1;
  }
  std::cerr << "generate_catalog: wrote " << options->items << " items to " << options->out << "\n";
  return 0;
}

}  // namespace
}  // namespace azure_pricing::fakes::prices

int main(int argc, char** argv) {
  return azure_pricing::base::GuardedMain("generate_catalog", [&] { return azure_pricing::fakes::prices::Main(argc, argv); });
}
