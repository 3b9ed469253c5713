// Return-on-error for Status and StatusOr, in the style of abseil's status_macros.h:
//   RETURN_IF_ERROR(CheckOptions(options));          // returns the Status if it is not OK
//   ASSIGN_OR_RETURN(Config c, Config::Parse(text));  // declares c, or returns the Status
//   ASSIGN_OR_RETURN(existing, Lookup(key));          // assigns to an existing variable
// Both return the error as it is, so they fit any function returning Status or StatusOr<U>.
// Where an error is replaced or amended before it is returned, write the `if` out instead.
#ifndef REF_STATUS_STATUS_MACROS_H_
#define REF_STATUS_STATUS_MACROS_H_

#include <utility>

#include "ref/status/status.h"

#define STATUS_MACROS_CONCAT_INNER_(a, b) a##b
#define STATUS_MACROS_CONCAT_(a, b) STATUS_MACROS_CONCAT_INNER_(a, b)

// `expr` is a Status; it is evaluated once.
#define RETURN_IF_ERROR(expr)                                      \
  do {                                                             \
    ::azure_pricing::Status status_macros_status_ = (expr);        \
    if (!status_macros_status_.ok()) return status_macros_status_; \
  } while (false)

// `rexpr` is a StatusOr<T>; it is evaluated once, and on success its value is moved into `lhs`
// (a declaration such as `auto x` or `const Config c`, or an lvalue). It expands to several
// statements, so it cannot be the unbraced body of an `if`; `lhs` may not contain an
// unparenthesised comma.
#define ASSIGN_OR_RETURN(lhs, rexpr) \
  STATUS_MACROS_ASSIGN_OR_RETURN_(STATUS_MACROS_CONCAT_(status_macros_or_, __LINE__), lhs, rexpr)

#define STATUS_MACROS_ASSIGN_OR_RETURN_(statusor, lhs, rexpr) \
  auto statusor = (rexpr);                                    \
  if (!statusor.ok()) return std::move(statusor).status();    \
  lhs = std::move(statusor).value()

#endif  // REF_STATUS_STATUS_MACROS_H_
