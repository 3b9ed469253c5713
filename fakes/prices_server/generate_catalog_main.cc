// generate_catalog: writes a synthetic catalog as JSON Lines for prices_server --catalog.
#include <cstdint>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <string>

#include "fakes/prices_server/catalog_generator.h"

int main(int argc, char** argv) {
  uint64_t seed = 1;
  int64_t items = 10000;
  std::string out;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (a == "--help" || a == "-h") {
      std::cout
          << "usage: generate_catalog --out FILE [--items N] [--seed S]\n"
             "Writes N (default 10000) synthetic price items as JSON Lines, the same for the\n"
             "same seed: regional, Global and billing-zone rows, empty armSkuName meters,\n"
             "tiers, reservations, savings plans, DevTest and non-primary meters.\n";
      return 0;
    }
    if (i + 1 >= argc) {
      std::cerr << "generate_catalog: " << a << " needs a value\n";
      return 64;
    }
    const std::string v = argv[++i];
    try {
      if (a == "--seed") {
        seed = std::stoull(v);
      } else if (a == "--items") {
        items = std::stoll(v);
      } else if (a == "--out") {
        out = v;
      } else {
        std::cerr << "generate_catalog: unknown option " << a << "\n";
        return 64;
      }
    } catch (...) {
      std::cerr << "generate_catalog: " << a << " needs a number\n";
      return 64;
    }
  }
  if (out.empty() || items < 0) {
    std::cerr << "generate_catalog: --out FILE is required\n";
    return 64;
  }
  std::ofstream file(out, std::ios::binary);
  if (!file) {
    std::cerr << "generate_catalog: cannot write " << out << "\n";
    return 1;
  }
  azure_pricing::fakes::prices::GenerateCatalog(seed, items,
                                 [&](const std::string& line) { file << line << "\n"; });
  std::cerr << "generate_catalog: wrote " << items << " items to " << out << "\n";
  return file ? 0 : 1;
}
