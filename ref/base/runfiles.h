// Where a Bazel-built program finds the files it declared as data: under `bazel test`
// (TEST_SRCDIR), `bazel run` or a script (RUNFILES_DIR), or beside the binary (NAME.runfiles).
#ifndef REF_BASE_RUNFILES_H_
#define REF_BASE_RUNFILES_H_

#include <string>

namespace azure_pricing::base {

// The path of `workspace_relative` (e.g. "ref/sandbox/bwrap/sandbox_init") in the runfiles;
// the relative path itself when no runfiles tree is found (`bazel run` starts inside it).
std::string Runfile(const std::string& workspace_relative);

}  // namespace azure_pricing::base

#endif  // REF_BASE_RUNFILES_H_
