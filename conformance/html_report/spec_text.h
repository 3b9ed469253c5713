// The specification's text cut into blocks, each into runs of text cited by the same set of
// requirement ids: what the report page marks. A requirement of the catalog quotes its sentence
// verbatim (conformance/requirements.json, "quote"), so the marks are found, never placed by hand.
#ifndef CONFORMANCE_HTML_REPORT_SPEC_TEXT_H_
#define CONFORMANCE_HTML_REPORT_SPEC_TEXT_H_

#include <string>
#include <string_view>
#include <vector>

namespace azure_pricing::conformance::html_report {

struct Quote {
  std::string id;
  std::string text;
};

struct Span {
  std::string text;
  std::vector<std::string> ids;  // the ids whose quote covers this text, in the catalog's order
};

struct Block {
  bool heading = false;  // a one-line block without a final full stop: a section's title
  std::vector<Span> spans;
};

struct AnnotatedSpec {
  std::vector<Block> blocks;
  std::vector<std::string> unplaced;  // ids whose quote the text does not hold
};

// Blocks are separated by blank lines. A quote marks every place the text holds it; quotes that
// overlap split the text where the set of covering ids changes.
AnnotatedSpec AnnotateSpec(std::string_view text, const std::vector<Quote>& quotes);

}  // namespace azure_pricing::conformance::html_report

#endif  // CONFORMANCE_HTML_REPORT_SPEC_TEXT_H_
