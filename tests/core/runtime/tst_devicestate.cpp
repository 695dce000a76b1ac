// The device's settings around an evaluation without a GPU (core/runtime/worker/devicestate.h, the evaluator's
// deviceStateReport): a changed setting is named and flags the result, a moving reading (clocks, memory in use)
// never does, a reading missing on either side is not compared, and a reading survives its JSON round trip.
// Where no NVML is present the reader says why instead of failing.
#include "check.h"
#include "core/runtime/worker/devicestate.h"
#include "core/runtime/worker/judge.h"

using namespace kforge::runtime;
using Json = nlohmann::ordered_json;

namespace {

DeviceState reading()
{
    DeviceState s;
    s.nvml = true;
    s.appSmClockMhz = 1980;
    s.appMemClockMhz = 2619;
    s.computeMode = 0;
    s.powerLimitMw = 700000;
    s.persistingL2Bytes = 0;
    s.smClockMhz = 1980;
    s.memClockMhz = 2619;
    s.memoryUsedBytes = 1ull << 30;
    s.clockEventReasons = 0;
    return s;
}

void readingsMoveWithoutAFlag()
{
    DeviceState after = reading();
    after.smClockMhz = 1410; // boost moves the current clock by itself
    after.memoryUsedBytes = 5ull << 30;
    after.clockEventReasons = 4;
    KF_CHECK(settingsChanged(reading(), after).empty());
    Json result{{"verdict", "correct"}, {"flags", Json::array()}, {"warnings", Json::array()}};
    Judge::deviceStateReport(reading(), after, result);
    KF_CHECK(result["flags"].empty() && result["warnings"].empty());
    KF_CHECK(result["device_state"]["changed"].empty());
    KF_CHECK(result["device_state"]["after"]["sm_clock_mhz"] == 1410);
}

void settingsChangedAreNamedAndFlagged()
{
    DeviceState after = reading();
    after.appSmClockMhz = 1410;
    after.computeMode = 3;
    after.persistingL2Bytes = 37748736;
    const auto changed = settingsChanged(reading(), after);
    KF_CHECK_MSG(changed.size() == 3, std::to_string(changed.size()));
    KF_CHECK(changed.size() == 3 && changed[0] == "application SM clock 1980 -> 1410 MHz");
    KF_CHECK(changed.size() == 3 && changed[1] == "compute mode 0 -> 3");
    KF_CHECK(changed.size() == 3 && changed[2] == "persisting-L2 set-aside 0 -> 37748736 bytes");
    Json result{{"verdict", "correct"}, {"flags", Json::array({"side_stream_work"})}, {"warnings", Json::array()}};
    Judge::deviceStateReport(reading(), after, result);
    KF_CHECK(result["flags"] == Json::array({"side_stream_work", "device_state_changed"}));
    const std::string warning = result["warnings"].size() == 1 ? result["warnings"][0].get<std::string>() : "";
    KF_CHECK_MSG(warning.find("compute mode 0 -> 3") != std::string::npos
                     && warning.find("The judge changes none of them") != std::string::npos,
                 warning);
}

void missingReadingsAreNotCompared()
{
    DeviceState before = reading(), after = reading();
    before.powerLimitMw.reset(); // a driver that does not report it
    after.powerLimitMw = 300000;
    KF_CHECK(settingsChanged(before, after).empty());
    DeviceState none; // no NVML: nothing to compare, nothing flagged
    none.why = "NVML not found";
    KF_CHECK(settingsChanged(none, after).empty());
}

void roundTrip()
{
    const DeviceState s = reading();
    const DeviceState back = DeviceState::fromJson(Json::parse(s.toJson().dump()));
    KF_CHECK(back.toJson() == s.toJson());
    KF_CHECK(back.appSmClockMhz == 1980u && back.memoryUsedBytes == (1ull << 30));
}

void readerWithoutDevice()
{
    // No such bus id on any machine; without NVML (CI) the reason names the library instead.
    DeviceStateReader reader("ffff:ff:1f.7");
    const DeviceState s = reader.read();
    KF_CHECK(!s.nvml);
    KF_CHECK_MSG(s.why.find("NVML") != std::string::npos, s.why);
    std::printf("reader without a device: %s\n", s.why.c_str());
}

} // namespace

int main()
{
    readingsMoveWithoutAFlag();
    settingsChangedAreNamedAndFlagged();
    missingReadingsAreNotCompared();
    roundTrip();
    readerWithoutDevice();
    return kforge::runtime::test::finish("tst_devicestate");
}
