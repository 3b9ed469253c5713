// The tool's parameter schema (JSON Schema, draft 2020-12) as the model sees it.
#ifndef REF_PRICING_SCHEMA_H_
#define REF_PRICING_SCHEMA_H_

#include <string>

namespace azure_pricing {

inline constexpr char kToolName[] = "azure_pricing_get";

std::string ToolDescription();
std::string ParameterSchemaJson();

}  // namespace azure_pricing

#endif  // REF_PRICING_SCHEMA_H_
