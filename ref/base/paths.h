// Where a program a person started looks for things: programs on PATH, and paths given on the
// command line, which under `bazel run` mean the caller's directory, not the runfiles the
// program starts in.
#ifndef REF_BASE_PATHS_H_
#define REF_BASE_PATHS_H_

#include <string>

namespace azure_pricing::base {

// The first executable `name` in a PATH directory (/usr/bin:/bin without PATH); empty when none.
std::string FindOnPath(const std::string& name);

// `program` looked up on PATH as a shell would when it holds no slash; as given otherwise, or
// when nothing on PATH has that name.
std::string ResolveProgram(const std::string& program);

// The directory `bazel run` was started in; empty outside `bazel run`.
std::string CallerDirectory();

// A relative path made absolute against CallerDirectory(); anything else as given.
std::string CallerPath(const std::string& path);

}  // namespace azure_pricing::base

#endif  // REF_BASE_PATHS_H_
