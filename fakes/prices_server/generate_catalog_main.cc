// generate_catalog: writes a synthetic catalog as JSON Lines for prices_server --catalog.
#include <cstdint>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <string>

#include "fakes/prices_server/catalog_generator.h"
#include "ref/base/flags.h"
#include "ref/status/status.h"

namespace azure_pricing::fakes::prices {
namespace {

constexpr char kUsage[] =
    "usage: generate_catalog --out FILE [--items N] [--seed S]\n"
    "Writes N (default 10000) synthetic price items as JSON Lines, the same for the\n"
    "same seed: regional, Global and billing-zone rows, empty armSkuName meters,\n"
    "tiers, reservations, savings plans, DevTest and non-primary meters.\n";

// Reason codes of command-line problems beyond base::Flags'.
constexpr char kNotANumber[] = "not_a_number";
constexpr char kOutRequired[] = "out_required";

struct Options {
  bool help = false;
  uint64_t seed = 1;
  int64_t items = 10000;
  std::string out;
};

// Decimal digits only, at most 18 of them (no sign, no spaces, no overflow).
bool ReadNumber(const std::optional<std::string>& text, uint64_t& out) {
  if (!text) return true;
  if (text->empty() || text->size() > 18 ||
      text->find_first_not_of("0123456789") != std::string::npos) {
    return false;
  }
  out = std::stoull(*text);
  return true;
}

// The command line as Options; on failure `problem` is the line to show.
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
  uint64_t items = static_cast<uint64_t>(o.items);
  for (const auto& [flag, out] : {std::pair<const char*, uint64_t*>{"--seed", &o.seed},
                                  std::pair<const char*, uint64_t*>{"--items", &items}}) {
    if (!ReadNumber(flags->Value(flag), *out)) {
      *problem = std::string(flag) + " needs a number";
      return Status(Outcome::kRefused, kNotANumber, "the option needs a number");
    }
  }
  o.items = static_cast<int64_t>(items);
  o.out = flags->Value("--out").value_or("");
  if (o.out.empty()) {
    *problem = "--out FILE is required";
    return Status(Outcome::kRefused, kOutRequired, "--out FILE is required");
  }
  return o;
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
  std::ofstream file(options->out, std::ios::binary);
  if (!file) {
    std::cerr << "generate_catalog: cannot write --out " << options->out << "\n";
    return 1;
  }
  GenerateCatalog(options->seed, options->items,
                  [&](const std::string& line) { file << line << "\n"; });
  std::cerr << "generate_catalog: wrote " << options->items << " items to " << options->out << "\n";
  return file ? 0 : 1;
}

}  // namespace
}  // namespace azure_pricing::fakes::prices

int main(int argc, char** argv) { return azure_pricing::fakes::prices::Main(argc, argv); }
