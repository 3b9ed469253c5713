// A strict pull reader over JSON text: the one tokenizer behind ParseStrict, also used directly
// where building a document would cost too much (the 5,000-row envelope). It enforces the same
// rules: UTF-8 up front, no repeated key in any object, no non-finite or out-of-range number,
// bounded depth. Errors are sticky: after the first, every call returns false.
#ifndef REF_JSON_READER_H_
#define REF_JSON_READER_H_

#include <string>
#include <string_view>
#include <unordered_set>
#include <vector>

#include "ref/json/json.h"

namespace azure_pricing::json {

class Reader {
 public:
  enum class Next { kObject, kArray, kString, kNumber, kBool, kNull, kEnd, kInvalid };

  // When UTF-8 is checked: over the whole text before anything is read, or string by string,
  // so that a caller learns which member held the bad bytes (bytes outside strings are then a
  // syntax error).
  enum class Utf8Check { kWholeText, kPerString };

  // `text` must outlive the reader.
  explicit Reader(std::string_view text, int max_depth = kDefaultMaxDepth,
                  Utf8Check utf8 = Utf8Check::kWholeText);

  bool ok() const { return error_ == ParseError::kNone; }
  ParseError error() const { return error_; }

  // The kind of the next value, after white space. kEnd at the end of the text.
  Next Peek();

  // Objects: BeginObject, then NextMember until it returns false (the closing brace was
  // consumed, or an error occurred: check ok()). Each member's value must be read or skipped
  // before the next NextMember call.
  bool BeginObject();
  bool NextMember(std::string& key);
  // The same without the reader's duplicate-key check, for a caller that checks duplicates
  // itself over a fixed set of keys (a bit per key is cheaper than comparing key strings).
  // `key` views the text when the key holds no escape, else `scratch`; valid until the next
  // call.
  bool NextMemberUnchecked(std::string_view& key, std::string& scratch);

  // Arrays: BeginArray, then NextItem until it returns false; read or skip each item.
  bool BeginArray();
  bool NextItem();

  bool ReadString(std::string& out);
  bool ReadNumber(double& out);
  bool ReadBool(bool& out);
  bool ReadNull();
  // Reads and checks any value (duplicate keys included) without keeping it.
  bool SkipValue();
  // Reads any value into a document.
  bool ReadValue(Value& out);
  // Only white space may remain.
  bool Finish();

 private:
  struct Frame {
    bool is_object = false;
    bool first = true;
    size_t key_count = 0;
    std::vector<std::string> keys;         // reused across sibling objects at this depth
    std::unordered_set<std::string> many;  // used once an object outgrows a linear scan
  };

  enum class Step { kEntry, kClosed, kError };

  bool Fail(ParseError e);
  // Consumes the open container's closing byte (popping it) or, after its first entry, the
  // comma before the next entry.
  Step NextEntry(bool in_object, char close);
  // Inline for the common case, a value or punctuation right away: every byte above a space is
  // not white space.
  void SkipWhitespace() {
    if (p_ != end_ && static_cast<unsigned char>(*p_) > ' ') return;
    SkipWhitespaceRun();
  }
  void SkipWhitespaceRun();
  bool Expect(char c);
  bool Begin(bool is_object, char open);
  bool ParseStringBody(std::string& out);
  bool ParseEscape(std::string& out);  // after a backslash inside a string
  bool ParseHex4(uint32_t& cp);
  bool RememberKey(const std::string& key);

  const char* p_;
  const char* end_;
  int max_depth_;
  bool check_strings_utf8_;
  ParseError error_ = ParseError::kNone;
  std::vector<Frame> frames_;  // frames_[0..depth_) are open
  size_t depth_ = 0;
};

}  // namespace azure_pricing::json

#endif  // REF_JSON_READER_H_
