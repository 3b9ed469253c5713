// The load stage of the case pipeline: a case file read and checked against case.schema.json,
// every case resolved into a ResolvedCase with every file it names read. A problem names the
// file, the case and the JSON path; a case with one fails with it and never runs.
#ifndef CONFORMANCE_CASES_LOAD_H_
#define CONFORMANCE_CASES_LOAD_H_

#include <string>

#include "conformance/cases/resolved_case.h"

namespace azure_pricing::conformance {

// Relative to the workspace root, which is where tests and `bazel run` start.
inline constexpr char kCaseSchema[] = "conformance/cases/case.schema.json";

// How much of each case to load: all of it, for running; or what it says of itself (id,
// requirements, expected outcome, wording), for the catalog's citations, which need none of the
// files its calls name.
enum class LoadDepth { kWhole, kDescription };

CaseFile LoadCaseFile(const std::string& path, LoadDepth depth = LoadDepth::kWhole);

}  // namespace azure_pricing::conformance

#endif  // CONFORMANCE_CASES_LOAD_H_
