#include "ref/sandbox/bwrap/image.h"

#include <unistd.h>

#include <filesystem>
#include <system_error>

#include "ref/base/files.h"
#include "ref/json/json.h"
#include "ref/sandbox/bwrap/bounded_process.h"
#include "ref/sandbox/bwrap/command_line.h"
#include "ref/status/status_macros.h"

namespace azure_pricing::sandbox::bwrap {
namespace {

namespace fs = std::filesystem;

// The wrapper the host's /bin/sh runs (the base layer has one; tools/image's container has no
// shell and uses a launcher program instead). Without it a fresh HOME per call would unpack
// 42 MB on every call.
std::string Wrapper() {
  return std::string("#!/bin/sh\n") + "DOTNET_BUNDLE_EXTRACT_BASE_DIR=" + kBundleExtractDir +
         "\nexport DOTNET_BUNDLE_EXTRACT_BASE_DIR\nexec " + kBundlePath + " \"$@\"\n";
}

// Just enough for programs that look up users or hosts; no host accounts, no secrets.
constexpr char kPasswd[] =
    "root:x:0:0:root:/nonexistent:/usr/sbin/nologin\n"
    "nobody:x:65534:65534:nobody:/nonexistent:/usr/sbin/nologin\n";
constexpr char kGroup[] = "root:x:0:\nnogroup:x:65534:\n";
constexpr char kHosts[] = "127.0.0.1 localhost\n::1 localhost\n";
constexpr char kNsswitch[] = "passwd: files\ngroup: files\nhosts: files\n";

Status Failed(const char* what) {
  return Status(Outcome::kFailed, kImageAssemblyFailed, what);
}

// A hard link when source and image share a file system (the CLI is 150 MB), else a copy.
bool Place(const std::string& source, const fs::path& to, fs::perms perms) {
  std::error_code ec;
  // Runfiles are symlinks into Bazel's output tree, which the sandbox cannot see: link the file.
  const fs::path from = fs::canonical(source, ec);
  if (ec) return false;
  fs::create_directories(to.parent_path(), ec);
  fs::create_hard_link(from, to, ec);
  if (ec) {
    ec.clear();
    fs::copy_file(from, to, ec);
    if (ec) return false;
  }
  fs::permissions(to, perms, fs::perm_options::add, ec);
  return !ec;
}

bool WriteText(const fs::path& path, const std::string& text, bool executable = false) {
  std::error_code ec;
  fs::create_directories(path.parent_path(), ec);
  if (!base::WriteFileAtomically(path.string(), text).ok()) return false;
  if (executable) fs::permissions(path, fs::perms::owner_all | fs::perms::group_exec |
                                            fs::perms::group_read | fs::perms::others_exec |
                                            fs::perms::others_read, ec);
  return !ec;
}

Status WriteEtc(const fs::path& out) {
  const fs::path etc = out / "etc";
  if (!WriteText(etc / "passwd", kPasswd) || !WriteText(etc / "group", kGroup) ||
      !WriteText(etc / "hosts", kHosts) || !WriteText(etc / "nsswitch.conf", kNsswitch)) {
    return Failed("cannot write the image's /etc");
  }
  // The dynamic loader finds the host's multiarch libraries (the base layer) through it.
  std::error_code ec;
  fs::copy_file("/etc/ld.so.cache", etc / "ld.so.cache", ec);
  if (ec) return Failed("cannot copy /etc/ld.so.cache into the image");
  return OkStatus();
}

// .NET unpacks owner-only (0700 directories); a backend that runs the program as a user other
// than the image's owner (not a user namespace mapping it to the owner) could not reach the
// files and would unpack again where it cannot write. Every user may read and traverse them.
bool ReadableByAll(const fs::path& dir) {
  std::error_code ec;
  const fs::perms all_read = fs::perms::group_read | fs::perms::others_read;
  const fs::perms all_exec = fs::perms::group_exec | fs::perms::others_exec;
  fs::permissions(dir, all_read | all_exec, fs::perm_options::add, ec);
  for (auto it = fs::recursive_directory_iterator(dir, ec); !ec && it != fs::end(it);
       it.increment(ec)) {
    const fs::file_status st = it->symlink_status(ec);
    if (ec || fs::is_symlink(st)) continue;
    const bool traversable = fs::is_directory(st) ||
                             (st.permissions() & fs::perms::owner_exec) != fs::perms::none;
    fs::permissions(it->path(), all_read | (traversable ? all_exec : fs::perms::none),
                    fs::perm_options::add, ec);
  }
  return !ec;
}

// Runs the bundle once so it unpacks into the image, then checks that it did.
Status Unpack(const fs::path& out) {
  const std::string home = (out / "unpack-home").string();
  std::error_code ec;
  fs::create_directories(home, ec);
  BoundedRun run{.argv = {(out.string() + kBundlePath), "pricing", "get", "--help"},
                 .env = {"HOME=" + home, "PATH=/usr/bin:/bin", "LANG=C.UTF-8",
                         "DOTNET_BUNDLE_EXTRACT_BASE_DIR=" + out.string() + kBundleExtractDir,
                         "AZURE_MCP_COLLECT_TELEMETRY=false",
                         "AZURE_MCP_COLLECT_TELEMETRY_MICROSOFT=false"},
                 .timeout_ms = 120'000,
                 .max_output_bytes = 1 << 20};
  const StatusOr<ExecResult> ran = RunBounded(run);
  fs::remove_all(home, ec);
  if (!ran.ok() || fs::is_empty(out.string() + kBundleExtractDir, ec) || ec) {
    return Failed("the azmcp bundle did not unpack (is it a .NET single-file bundle?)");
  }
  if (!ReadableByAll(out.string() + kBundleExtractDir)) {
    return Failed("cannot make the unpacked azmcp bundle readable by every user");
  }
  return OkStatus();
}

Status PlaceCli(const ImageSources& sources, const fs::path& out) {
  const fs::perms exec = fs::perms::owner_exec | fs::perms::group_exec | fs::perms::others_exec;
  if (!sources.dotnet_bundle) {
    return Place(sources.azmcp, out / "usr/local/bin/azmcp", exec)
               ? OkStatus()
               : Failed("cannot place azmcp in the image");
  }
  if (!Place(sources.azmcp, out.string() + kBundlePath, exec) ||
      !WriteText(out / "usr/local/bin/azmcp", Wrapper(), /*executable=*/true)) {
    return Failed("cannot place azmcp in the image");
  }
  return Unpack(out);
}

Status Fill(const ImageSources& sources, const fs::path& out) {
  const fs::perms exec = fs::perms::owner_exec | fs::perms::group_exec | fs::perms::others_exec;
  RETURN_IF_ERROR(PlaceCli(sources, out));
  if (!Place(sources.sandbox_init, out.string() + kInitPath, exec)) {
    return Failed("cannot place sandbox_init in the image");
  }
  if (!sources.probe.empty() && !Place(sources.probe, out.string() + kProbePath, exec)) {
    return Failed("cannot place the probe in the image");
  }
  RETURN_IF_ERROR(WriteEtc(out));
  std::string json = std::string("{\"cli\": ") + (sources.dotnet_bundle ? "\"real\"" : "\"fake\"");
  json += ", \"provenance\": ";
  json::AppendQuoted(json, sources.provenance);
  json += "}\n";
  if (!WriteText(out / "IMAGE.json", json)) return Failed("cannot write IMAGE.json");
  return OkStatus();
}

}  // namespace

Status AssembleImage(const ImageSources& sources, const std::string& out_dir) {
  std::error_code ec;
  if (fs::exists(out_dir, ec) || !fs::create_directories(out_dir, ec)) {
    return Failed("the image directory already exists or cannot be created");
  }
  Status filled = Fill(sources, out_dir);
  if (!filled.ok()) fs::remove_all(out_dir, ec);
  return filled;
}

}  // namespace azure_pricing::sandbox::bwrap
