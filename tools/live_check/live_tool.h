// What //tools:live_check and //tools:record share: the opt-in, the flags, the run on the stack.
#ifndef TOOLS_LIVE_CHECK_LIVE_TOOL_H_
#define TOOLS_LIVE_CHECK_LIVE_TOOL_H_

namespace azure_pricing::tools::live_check {

// Exit statuses, documented in both programs' usage.
inline constexpr int kExitPassed = 0;
inline constexpr int kExitFailed = 1;       // a check failed (live_check) or nothing was recorded
inline constexpr int kExitNotOptedIn = 2;   // no opt-in: nothing ran, no network touched
inline constexpr int kExitUsage = 64;
inline constexpr int kExitUnavailable = 69; // the stack could not start, or no real azmcp

enum class LiveTool { kLiveCheck, kRecord };

int LiveToolMain(int argc, char** argv, LiveTool tool);

}  // namespace azure_pricing::tools::live_check

#endif  // TOOLS_LIVE_CHECK_LIVE_TOOL_H_
