#include "verify/capture_golden.h"

#include <fmt/format.h>

#include "convert/convert.h"
#include "core/temp_dir.h"
#include "dump/dump_paths.h"
#include "pyjson/dump_json_stream.h"

namespace msdump::verify {

DumpSettings read_dump_settings(const ByteSource& dump, Profile profile, SummaryMode mode) {
  DumpSettings s;
  s.profile = profile;
  s.summary_mode = mode;
  pyjson::DumpJsonStream stream(dump);
  pyjson::DumpEvent ev;
  while (true) {
    auto more = stream.next(ev);
    if (!more || !*more || ev.type != pyjson::DumpEvent::Type::member) break;
    if (!ev.value.is_string()) continue;
    if (ev.key == "level") s.level = level_from_string(ev.value.as_string());
    if (ev.key == "task") {
      const auto t = task_from_string(ev.value.as_string());
      if (t == Task::statistics || t == Task::tensor) s.task = t;
    }
  }
  return s;
}

Result<Golden> golden_from_capture(const std::string& capture, const DumpSettings& settings) {
  auto tmp = TempDir::create("msdump-verify");
  if (!tmp) return tmp.error();
  convert::ConvertOptions co;
  co.input = capture;
  co.output = (tmp->path() / "golden").string();
  co.level = settings.level;
  co.task = settings.task;
  co.profile = settings.profile;
  co.summary_mode = settings.summary_mode;
  auto r = convert::convert_one(co);
  if (!r) return r.error().with_context(fmt::format("converting the capture '{}'", capture));
  return Golden::load((tmp->path() / "golden" / dump::k_dump_json).string(),
                      fmt::format("capture '{}' as converted", capture));
}

}  // namespace msdump::verify
