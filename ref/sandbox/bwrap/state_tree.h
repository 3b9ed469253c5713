// A sandbox's state on the host: the directories bound at /tmp and HOME that one exec leaves
// for the next. The program inside may leave anything there (files made read-only, directories
// without search permission, symbolic links to anywhere), so measuring and removing never
// follow a link and restore what permissions they need: everything there is ours, since the
// sandbox's uid maps to the backend's.
#ifndef REF_SANDBOX_BWRAP_STATE_TREE_H_
#define REF_SANDBOX_BWRAP_STATE_TREE_H_

#include <cstdint>
#include <string>

#include "ref/status/status.h"

namespace azure_pricing::sandbox::bwrap {

// Reason (Outcome::kFailed) a state directory could not be made or removed.
inline constexpr Reason kStateTreeFailed = "state_tree_failed";

// Makes `path` and its `tmp` and `home` subdirectories, private to the backend's user.
Status MakeStateTree(const std::string& path);

// Removes `path` and everything under it; a missing `path` is already removed.
Status RemoveTree(const std::string& path);

// Removes everything under `path`, keeping `path` itself.
Status EmptyTree(const std::string& path);

// The disk space allocated under `path` (its entries, not `path` itself), links not followed.
// A directory the program closed to us is opened for the count and its mode restored after.
uint64_t TreeBytes(const std::string& path);

}  // namespace azure_pricing::sandbox::bwrap

#endif  // REF_SANDBOX_BWRAP_STATE_TREE_H_
