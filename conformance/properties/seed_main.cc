#include "ref/base/main_guard.h"
// gtest main for property suites: fixes a RapidCheck seed before any property runs and prints
// it, so every run (and every failure) can be reproduced with RC_PARAMS="seed=N".
#include <gtest/gtest.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>

static int UnguardedMain(int argc, char** argv) {
  const char* params = std::getenv("RC_PARAMS");
  std::string value = params != nullptr ? params : "";
  if (value.find("seed=") == std::string::npos && value.find("reproduce=") == std::string::npos) {
    const auto seed = static_cast<unsigned long long>(
        std::chrono::steady_clock::now().time_since_epoch().count() & 0x7fffffffffffULL);
    value += (value.empty() ? "" : " ") + std::string("seed=") + std::to_string(seed);
    setenv("RC_PARAMS", value.c_str(), 1);
  }
  std::printf("rapidcheck: RC_PARAMS=\"%s\" (set it to reproduce this run)\n", value.c_str());
  testing::InitGoogleTest(&argc, argv);
  const int rc = RUN_ALL_TESTS();
  if (rc != 0) std::printf("rapidcheck: failed with RC_PARAMS=\"%s\"\n", value.c_str());
  return rc;
}

int main(int argc, char** argv) {
  return azure_pricing::base::GuardedMain("properties_seed", [&] { return UnguardedMain(argc, argv); });
}
