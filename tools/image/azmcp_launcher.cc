// azmcp_launcher: /usr/local/bin/azmcp in the container image. The image has no shell, so the
// bubblewrap image's two-line /bin/sh wrapper cannot run there; this does the same without one.
// It points the .NET bundle at the native libraries unpacked when the image was built, whatever
// DOTNET_BUNDLE_EXTRACT_BASE_DIR the caller set (the tool sets one under its fresh HOME, which
// would make every call unpack 42 MB again), and replaces itself with the bundle.
#include <unistd.h>

#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include "ref/sandbox/bwrap/command_line.h"

extern char** environ;

namespace {

namespace bwrap = azure_pricing::sandbox::bwrap;

constexpr char kExtractVariable[] = "DOTNET_BUNDLE_EXTRACT_BASE_DIR=";
// What a shell reports for a command it found but could not run.
constexpr int kCannotExecuteExit = 126;

}  // namespace

int main(int argc, char** argv) {
  const std::string extract = std::string(kExtractVariable) + bwrap::kBundleExtractDir;
  std::vector<char*> env;
  for (char** e = environ; *e != nullptr; ++e) {
    if (std::strncmp(*e, kExtractVariable, sizeof kExtractVariable - 1) != 0) env.push_back(*e);
  }
  env.push_back(const_cast<char*>(extract.c_str()));
  env.push_back(nullptr);
  std::vector<char*> args;
  args.push_back(const_cast<char*>(bwrap::kBundlePath));
  for (int i = 1; i < argc; ++i) args.push_back(argv[i]);
  args.push_back(nullptr);
  execve(bwrap::kBundlePath, args.data(), env.data());
  std::perror("azmcp_launcher: cannot run the azmcp bundle");
  return kCannotExecuteExit;
}
