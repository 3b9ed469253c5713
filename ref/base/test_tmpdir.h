// The test's own temporary directory, for tests and their testonly helpers.
#ifndef REF_BASE_TEST_TMPDIR_H_
#define REF_BASE_TEST_TMPDIR_H_

#include <string>

namespace azure_pricing::base {

// Bazel's TEST_TMPDIR. A test binary run by hand, without it, gets a directory of its own under
// /tmp, made on first use and kept (a test's files are what one reads after a failure). Never
// empty: when no directory can be made, the process ends with a message on stderr.
const std::string& TestTmpDir();

}  // namespace azure_pricing::base

#endif  // REF_BASE_TEST_TMPDIR_H_
