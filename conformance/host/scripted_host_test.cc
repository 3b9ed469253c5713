#include "conformance/host/scripted_host.h"

#include <string_view>

#include "conformance/host/config_keys.h"
#include "gtest/gtest.h"
#include "ref/pricing/reasons.h"
#include "ref/status/status_matchers.h"

namespace azure_pricing::conformance::host {
namespace {

constexpr char kArgs[] = R"({"sku":"Standard_D4s_v5"})";
constexpr char kEmpty[] =
    R"({"status":200,"message":"Success","results":{"prices":[]},"duration":1})";

TEST(ScriptedHostTest, DefaultsAreAWorkingHost) {
  ScriptedCall call;
  call.arguments = kArgs;
  call.scripts = {{.exec = {.stdout_bytes = kEmpty}}};
  auto report = RunScriptedCall(call);
  ASSERT_THAT(report, IsOk());
  EXPECT_EQ(report->outcome, Outcome::kCompleted);
  EXPECT_EQ(report->tools, 1u);
  EXPECT_EQ(report->sandbox_acquisitions, 1);
  EXPECT_EQ(report->sandbox_disposals, 1);
  ASSERT_TRUE(report->result_label.has_value());
  EXPECT_EQ(report->result_label->integrity, labels::Integrity::kUntrusted);
  ASSERT_EQ(report->warnings.size(), 1u);  // the experimental warning
  EXPECT_THAT(CallReportToJson(*report),
              testing::StartsWith(R"({"outcome":"completed","reason":null,)"));
}

TEST(ScriptedHostTest, ConfigurationErrorsNameThePart) {
  for (const auto& [host, backend, labels_json, middleware] :
       std::vector<std::tuple<std::string, std::string, std::string, std::string>>{
           {"[]", "{}", "{}", "tracker"},
           {R"({"imag":"x"})", "{}", "{}", "tracker"},
           {"{}", R"({"isolation":"Container"})", "{}", "tracker"},
           {"{}", "{}", R"({"conversation":{"integrity":"TRUSTED"}})", "tracker"},
           {"{}", "{}", "{}", "policy-enforcement"},
           {R"({"max_rows":1.5})", "{}", "{}", "tracker"},
           {"{not json", "{}", "{}", "tracker"},
           {"{}", R"({"name":"a","name":"b"})", "{}", "tracker"},
       }) {
    ScriptedCall call;
    call.arguments = kArgs;
    call.host = ConfigFromText(host);
    call.backend = ConfigFromText(backend);
    call.labels = ConfigFromText(labels_json);
    call.middleware = {middleware};
    auto report = RunScriptedCall(call);
    EXPECT_THAT(report, StatusIs(Outcome::kRefused, kInvalidConfiguration))
        << host << backend << labels_json << middleware;
  }
}

// A name outside its enum is answered with the names it may be, whichever enum it is.
TEST(ScriptedHostTest, EnumeratedValuesListWhatTheyMayBe) {
  ScriptedCall call;
  call.arguments = kArgs;
  call.backend = ConfigFromText(R"({"egress_modes":["allowlist","open"]})");
  EXPECT_THAT(RunScriptedCall(call),
              StatusIs(Outcome::kRefused, kInvalidConfiguration,
                       testing::EndsWith("egress_modes must be one of: closed, allowlist, "
                                         "unrestricted")));
  call.backend = ConfigFromText("{}");
  call.host = ConfigFromText(R"({"router":{"min_isolation":"vmm"}})");
  EXPECT_THAT(RunScriptedCall(call),
              StatusIs(Outcome::kRefused, kInvalidConfiguration,
                       testing::EndsWith("min_isolation must be one of: none, runtime, "
                                         "os_process, container, hardened_container, microvm, "
                                         "vm")));
  EXPECT_THAT(ConfigurationValuesHelp(),
              testing::HasSubstr("os_families: posix, windows\n"));
}

TEST(ScriptedHostTest, HelpListsEveryConfigurationKeyTheHostAccepts) {
  const std::string help = ConfigurationKeysHelp();
  for (const ConfigObject& object : kConfigObjects) {
    EXPECT_THAT(help, testing::HasSubstr("  " + std::string(object.path) + ":")) << object.path;
    for (std::string_view key : object.keys) {
      EXPECT_THAT(help, testing::HasSubstr(" " + std::string(key))) << object.path;
    }
  }
  EXPECT_THAT(help, testing::HasSubstr("  labels.arguments[]: integrity, confidentiality\n"));
}

TEST(ScriptedHostTest, BlockedCallsReportViolationsAndNoAcquisition) {
  ScriptedCall call;
  call.arguments = kArgs;
  call.host = ConfigFromText(R"({"outbound_max_confidentiality":"public","egress_integrity":"trusted"})");
  call.labels = ConfigFromText(R"({"arguments":[{"confidentiality":"private"}]})");
  call.middleware = {"tracker", "policy"};
  auto report = RunScriptedCall(call);
  ASSERT_THAT(report, IsOk());
  EXPECT_EQ(report->outcome, Outcome::kBlocked);
  EXPECT_EQ(report->reason, reasons::kPolicyViolation);
  EXPECT_EQ(report->violations, std::vector<std::string>{"max_allowed_confidentiality"});
  EXPECT_EQ(report->sandbox_acquisitions, 0);
}

TEST(ScriptedHostTest, AbsentRouterGivesNoTool) {
  ScriptedCall call;
  call.arguments = kArgs;
  call.host = ConfigFromText(R"({"router":{"present":false}})");
  auto report = RunScriptedCall(call);
  ASSERT_THAT(report, IsOk());
  EXPECT_EQ(report->tools, 0u);
  EXPECT_EQ(report->outcome, Outcome::kRefused);
  EXPECT_EQ(report->reason, kNoTool);
}

}  // namespace
}  // namespace azure_pricing::conformance::host
