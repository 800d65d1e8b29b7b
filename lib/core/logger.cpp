#include "core/logger.h"

#include <spdlog/sinks/ansicolor_sink.h>
#include <spdlog/spdlog.h>

namespace msdump {

spdlog::logger& logger() {
  static std::shared_ptr<spdlog::logger> instance = [] {
    if (auto existing = spdlog::get("msdump")) return existing;
    auto l = std::make_shared<spdlog::logger>("msdump", std::make_shared<spdlog::sinks::ansicolor_stderr_sink_mt>());
    l->set_pattern("msdump: %l: %v");
    l->set_level(spdlog::level::warn);
    spdlog::register_logger(l);
    return l;
  }();
  return *instance;
}

}  // namespace msdump
