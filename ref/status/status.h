// Errors are values. A Status carries a stable reason code and a fixed message; neither may
// ever contain CLI output or query arguments. The reason is a `Reason`, which only a string
// literal (or another compile-time char array) can make, so no runtime text can become one;
// each package declares its reasons once as named `Reason` constants (the tool's vocabulary is
// ref/pricing/reasons.h). Text that arrives at runtime (a protocol's error answer) is mapped
// onto a declared constant by a lookup, never wrapped.
#ifndef REF_STATUS_STATUS_H_
#define REF_STATUS_STATUS_H_

#include <cassert>
#include <cstddef>
#include <optional>
#include <ostream>
#include <string>
#include <string_view>
#include <utility>

namespace azure_pricing {

namespace status_internal {
// Not constexpr on purpose: calling it while a Reason is built at compile time is the error.
void ReasonCodeMustBeSnakeCase();
}  // namespace status_internal

// A reason code: lowercase ASCII letters, digits and '_', starting with a letter. Stable and
// machine-readable: "empty_value", "duplicate_key", ...
class Reason {
 public:
  // consteval: the argument must be a constant expression, so a std::string, a const char*
  // or a char array filled at runtime does not compile.
  template <std::size_t N>
  consteval Reason(const char (&code)[N]) : code_(code, N - 1) {  // NOLINT: implicit by design
    if (!IsSnakeCase(code_)) status_internal::ReasonCodeMustBeSnakeCase();
  }

  constexpr std::string_view code() const { return code_; }
  // Reading a reason as text is always safe; only text to Reason is closed.
  constexpr operator std::string_view() const { return code_; }  // NOLINT: reads as its code
  operator std::string() const { return std::string(code_); }    // NOLINT: reads as its code
  // NUL-terminated: every Reason is built from a char array.
  constexpr const char* c_str() const { return code_.data(); }

  friend constexpr bool operator==(Reason reason, std::string_view code) {
    return reason.code_ == code;
  }
  friend std::ostream& operator<<(std::ostream& os, Reason reason) { return os << reason.code_; }

 private:
  friend class Status;
  constexpr Reason() = default;  // only an OK Status has no reason

  static constexpr bool IsSnakeCase(std::string_view code) {
    if (code.empty() || code.front() < 'a' || code.front() > 'z') return false;
    for (char c : code) {
      if (!((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_')) return false;
    }
    return true;
  }

  std::string_view code_;
};

// Which way a call ended when it did not complete.
enum class Outcome {
  kCompleted,
  kRefused,  // the arguments, host options or sandbox were rejected before the CLI could run
  kFailed,   // the CLI ran (or was meant to) and its result was not accepted
  kBlocked,  // the host's policy middleware stopped the call before the tool body ran
};

std::string_view OutcomeName(Outcome outcome);

// An error is one of two kinds. A tool error ends a call of azure_pricing_get (or of a sandbox
// backend it relies on) and has one of the tool's outcomes. A program error is a program's,
// fake's or harness's own (a bad flag, a file not found, a server that did not start): no call
// of the tool ended, so it has no tool outcome. Make one with ProgramError().
class [[nodiscard]] Status {
 public:
  Status() = default;  // OK
  Status(Outcome outcome, Reason reason, std::string message)
      : outcome_(outcome), reason_(reason), message_(std::move(message)) {}

  bool ok() const { return reason_.code().empty(); }
  // The tool's outcome. A program error has none; it answers kFailed only so that code mapping
  // any error to an exit code or a wire answer stays total. Judge a tool's error only after
  // checking is_program_error() (StatusIs and ProgramErrorIs in status_matchers.h do).
  Outcome outcome() const { return ok() ? Outcome::kCompleted : outcome_; }
  bool is_program_error() const { return program_error_; }
  // Stable, machine-readable: "empty_value", "duplicate_key", ...; empty when OK.
  std::string_view reason() const { return reason_.code(); }
  // Fixed text for a person or a model; never contains input data.
  const std::string& message() const { return message_; }

 private:
  friend Status ProgramError(Reason reason, std::string message);

  Outcome outcome_ = Outcome::kCompleted;
  Reason reason_;
  std::string message_;
  bool program_error_ = false;
};

[[nodiscard]] inline Status OkStatus() { return Status(); }

// A program error (see Status): the reason and a fixed message, as for a tool error.
[[nodiscard]] inline Status ProgramError(Reason reason, std::string message) {
  Status status(Outcome::kFailed, reason, std::move(message));
  status.program_error_ = true;
  return status;
}

// A value or the Status explaining why there is none.
template <typename T>
class [[nodiscard]] StatusOr {
 public:
  StatusOr(T value) : value_(std::move(value)) {}  // NOLINT: implicit by design
  StatusOr(Status status) : status_(std::move(status)) { assert(!status_.ok()); }  // NOLINT

  bool ok() const { return value_.has_value(); }
  const Status& status() const& { return status_; }
  Status status() && { return std::move(status_); }
  const T& value() const& { return *value_; }
  T& value() & { return *value_; }
  T&& value() && { return std::move(*value_); }
  const T& operator*() const& { return *value_; }
  T& operator*() & { return *value_; }
  T&& operator*() && { return std::move(*value_); }
  const T* operator->() const { return &*value_; }
  T* operator->() { return &*value_; }

 private:
  Status status_;
  std::optional<T> value_;
};

}  // namespace azure_pricing

#endif  // REF_STATUS_STATUS_H_
