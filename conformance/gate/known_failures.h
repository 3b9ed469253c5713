// The cases an implementation is known to fail, and how, kept in a file that must stay true
// (protobuf's conformance failure lists): a listed case that now passes, fails differently, or
// names no case fails the gate, and the gate says how to rewrite the file.
//
//   {"implementation": "example 0.1", "profile_version": "2026-12-05.1",
//    "known_failures": [{"id": "arg-missing-filter", "level": "REQUIRED", "detail": "outcome: ..."}]}
//
// "level" is written for the reader (a RECOMMENDED failure never fails the gate, listed or not)
// and ignored when the list is read. "profile_version" (docs/profile.md's, absent in lists
// written before the profile had versions) lets the gate point a list written against an older
// profile to the change list since then.
#ifndef CONFORMANCE_GATE_KNOWN_FAILURES_H_
#define CONFORMANCE_GATE_KNOWN_FAILURES_H_

#include <functional>
#include <string>
#include <vector>

#include "conformance/gate/record.h"
#include "ref/status/status.h"

namespace azure_pricing::conformance {

// A program error (ProgramError()): the known-failures file cannot be read.
inline constexpr Reason kKnownFailuresUnreadable = "known_failures_unreadable";

struct KnownFailure {
  std::string id;
  std::string detail;  // exactly what the gate printed for the failure
};

struct KnownFailureList {
  std::string profile_version;  // empty when the file names none
  std::vector<KnownFailure> failures;
};

StatusOr<KnownFailureList> LoadKnownFailures(const std::string& path);

// Marks failed records that fail exactly as listed as Verdict::kKnown, and returns one line for
// each listed entry that does not hold (passes now, fails differently, no such check). Entries
// that `selected` (when given) rejects were left out of this run by --filter or --suite and are
// not held against it.
std::vector<std::string> ApplyKnownFailures(
    const std::vector<KnownFailure>& known, std::vector<GateRecord>& records,
    const std::function<bool(const std::string& id)>& selected = nullptr);

// The line to print when a list was written against another profile version than the run's;
// empty when they agree or the list names none (written before the profile had versions).
std::string ProfileMovedNotice(const std::string& list_version, const std::string& run_version);

// Whether `record` belongs in a written list: a failed or known check of the implementation (the
// gate's own findings, a list that does not hold or a file not written, are not checks).
bool ListedAsKnownFailure(const GateRecord& record);

// Writes every record ListedAsKnownFailure accepts as the new list.
Status WriteKnownFailures(const std::string& path, const std::string& implementation,
                          const std::string& profile_version,
                          const std::vector<GateRecord>& records);

}  // namespace azure_pricing::conformance

#endif  // CONFORMANCE_GATE_KNOWN_FAILURES_H_
