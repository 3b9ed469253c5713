// Assembles the directory tree a bubblewrap sandbox runs on (the "image"): the CLI at
// /usr/local/bin/azmcp, sandbox_init and the conformance probe in /usr/local/libexec, and a
// minimal /etc. The host's /usr is the read-only base layer beneath it (see README.md).
//
// A real azmcp is a .NET single-file bundle that unpacks 42 MB of native libraries on first
// run; a fresh HOME per call would pay that every call. The image unpacks them once, here, and
// /usr/local/bin/azmcp is a two-line wrapper that points the bundle at that read-only copy.
#ifndef REF_SANDBOX_BWRAP_IMAGE_H_
#define REF_SANDBOX_BWRAP_IMAGE_H_

#include <string>

#include "ref/status/status.h"

namespace azure_pricing::sandbox::bwrap {

// Reason (Outcome::kFailed) an image cannot be assembled.
inline constexpr Reason kImageAssemblyFailed = "image_assembly_failed";

struct ImageSources {
  std::string azmcp;          // the CLI: a real .NET bundle, or the fake
  bool dotnet_bundle = true;  // unpack it into the image (false for the fake)
  std::string sandbox_init;   // //ref/sandbox/bwrap:sandbox_init
  std::string probe;          // //conformance/backend/probe:sandbox_probe; empty leaves it out
  std::string provenance;     // one line: where the CLI came from (written to IMAGE.json)
};

// Creates `out_dir` (which must not exist yet) and fills it. Nothing is left on failure.
Status AssembleImage(const ImageSources& sources, const std::string& out_dir);

}  // namespace azure_pricing::sandbox::bwrap

#endif  // REF_SANDBOX_BWRAP_IMAGE_H_
