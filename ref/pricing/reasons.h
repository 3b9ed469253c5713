// The tool's error vocabulary: every reason code a call of azure_pricing_get can end with,
// declared once, with the outcome it belongs to. Code everywhere uses these names; the gate
// lists which of them no conformance case reaches.
#ifndef REF_PRICING_REASONS_H_
#define REF_PRICING_REASONS_H_

#include <array>
#include <string_view>

#include "ref/sandbox/backend.h"
#include "ref/sandbox/router.h"
#include "ref/status/status.h"

namespace azure_pricing::reasons {

// Refused before any sandbox: the arguments.
inline constexpr char kArgumentsTooLarge[] = "arguments_too_large";
inline constexpr char kMalformedArguments[] = "malformed_arguments";
inline constexpr char kUnknownArgument[] = "unknown_argument";
inline constexpr char kWrongType[] = "wrong_type";
inline constexpr char kDuplicateArgument[] = "duplicate_argument";
inline constexpr char kEmptyValue[] = "empty_value";
inline constexpr char kInvalidUtf8[] = "invalid_utf8";
inline constexpr char kForbiddenCharacter[] = "forbidden_character";
inline constexpr char kValueTooLong[] = "value_too_long";
inline constexpr char kOptionLikeValue[] = "option_like_value";
inline constexpr char kUnbalancedFilter[] = "unbalanced_filter";
inline constexpr char kInvalidPriceType[] = "invalid_price_type";
inline constexpr char kInvalidServiceFamily[] = "invalid_service_family";
inline constexpr char kInvalidCurrency[] = "invalid_currency";
inline constexpr char kMissingFilter[] = "missing_filter";
inline constexpr char kServiceWithoutSku[] = "service_without_sku";
inline constexpr char kRegionCaseMismatch[] = "region_case_mismatch";
inline constexpr char kRegionWhitespace[] = "region_whitespace";

// Refused at attach or before the CLI runs: the host and its sandbox.
inline constexpr char kInvalidHostBounds[] = "invalid_host_bounds";
inline constexpr char kImageRequired[] = "image_required";
inline constexpr char kAgentIdRequired[] = "agent_id_required";
inline constexpr char kInvalidOutboundCap[] = "invalid_outbound_max_confidentiality";
inline constexpr char kBoundedExecMissing[] = "sandbox_bounded_exec_missing";

// Failed: the sandbox or the CLI's result.
inline constexpr char kExecFailed[] = "sandbox_exec_failed";
// The backend reports these two; the tool passes them on, and fails the same way itself when a
// result says it timed out or overflowed.
inline constexpr const char* kTimeout = sandbox::kExecTimeoutReason;
inline constexpr const char* kOutputLimit = sandbox::kExecOutputLimitReason;
inline constexpr char kStderrNotEmpty[] = "stderr_not_empty";
inline constexpr char kDuplicateKey[] = "duplicate_key";
inline constexpr char kNonFiniteNumber[] = "non_finite_number";
inline constexpr char kMalformedEnvelope[] = "malformed_envelope";
inline constexpr char kMalformedRow[] = "malformed_row";
inline constexpr char kCliFailed[] = "cli_failed";
inline constexpr char kUpstreamFilterRejected[] = "upstream_filter_rejected";
inline constexpr char kUpstreamNotFound[] = "upstream_not_found";
inline constexpr char kUpstreamValueUnknown[] = "upstream_value_unknown";

// Blocked by the host's policy middleware before the tool body ran.
inline constexpr char kPolicyViolation[] = "policy_violation";

struct ReasonCode {
  Outcome outcome;
  std::string_view code;
};

// Every reason a call of the tool can end with, including the router's and the backend's that
// the tool passes on unchanged. Each (outcome, code) pair appears once.
inline constexpr std::array kAll = {
    ReasonCode{Outcome::kRefused, kArgumentsTooLarge},
    ReasonCode{Outcome::kRefused, kMalformedArguments},
    ReasonCode{Outcome::kRefused, kUnknownArgument},
    ReasonCode{Outcome::kRefused, kWrongType},
    ReasonCode{Outcome::kRefused, kDuplicateArgument},
    ReasonCode{Outcome::kRefused, kEmptyValue},
    ReasonCode{Outcome::kRefused, kInvalidUtf8},
    ReasonCode{Outcome::kRefused, kForbiddenCharacter},
    ReasonCode{Outcome::kRefused, kValueTooLong},
    ReasonCode{Outcome::kRefused, kOptionLikeValue},
    ReasonCode{Outcome::kRefused, kUnbalancedFilter},
    ReasonCode{Outcome::kRefused, kInvalidPriceType},
    ReasonCode{Outcome::kRefused, kInvalidServiceFamily},
    ReasonCode{Outcome::kRefused, kInvalidCurrency},
    ReasonCode{Outcome::kRefused, kMissingFilter},
    ReasonCode{Outcome::kRefused, kServiceWithoutSku},
    ReasonCode{Outcome::kRefused, kRegionCaseMismatch},
    ReasonCode{Outcome::kRefused, kRegionWhitespace},
    ReasonCode{Outcome::kRefused, kInvalidHostBounds},
    ReasonCode{Outcome::kRefused, kImageRequired},
    ReasonCode{Outcome::kRefused, kAgentIdRequired},
    ReasonCode{Outcome::kRefused, kInvalidOutboundCap},
    ReasonCode{Outcome::kRefused, kBoundedExecMissing},
    ReasonCode{Outcome::kRefused, sandbox::kRouterDisabled},
    ReasonCode{Outcome::kRefused, sandbox::kNoBackend},
    ReasonCode{Outcome::kRefused, sandbox::kOsFamilyUnsupported},
    ReasonCode{Outcome::kRefused, sandbox::kBackendNotPermitted},
    ReasonCode{Outcome::kRefused, sandbox::kIsolationBelowSpec},
    ReasonCode{Outcome::kRefused, sandbox::kCapabilityDenied},
    ReasonCode{Outcome::kRefused, sandbox::kCapabilityNotSupported},
    ReasonCode{Outcome::kRefused, sandbox::kEgressMethodsNotSupported},
    ReasonCode{Outcome::kRefused, sandbox::kEgressNotEnforced},
    ReasonCode{Outcome::kRefused, sandbox::kEgressMethodNotCovered},
    ReasonCode{Outcome::kFailed, sandbox::kAcquireFailed},
    ReasonCode{Outcome::kFailed, sandbox::kDisposeFailed},
    ReasonCode{Outcome::kFailed, kExecFailed},
    ReasonCode{Outcome::kFailed, kTimeout},
    ReasonCode{Outcome::kFailed, kOutputLimit},
    ReasonCode{Outcome::kFailed, kStderrNotEmpty},
    ReasonCode{Outcome::kFailed, kInvalidUtf8},
    ReasonCode{Outcome::kFailed, kDuplicateKey},
    ReasonCode{Outcome::kFailed, kNonFiniteNumber},
    ReasonCode{Outcome::kFailed, kMalformedEnvelope},
    ReasonCode{Outcome::kFailed, kMalformedRow},
    ReasonCode{Outcome::kFailed, kCliFailed},
    ReasonCode{Outcome::kFailed, kUpstreamFilterRejected},
    ReasonCode{Outcome::kFailed, kUpstreamNotFound},
    ReasonCode{Outcome::kFailed, kUpstreamValueUnknown},
    ReasonCode{Outcome::kBlocked, kPolicyViolation},
};

}  // namespace azure_pricing::reasons

#endif  // REF_PRICING_REASONS_H_
