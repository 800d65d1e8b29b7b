#pragma once
// lib/ logs only through this named logger; only cmd/main.cpp configures sinks and level.

namespace spdlog { class logger; }

namespace msdump {
spdlog::logger& logger();
}
