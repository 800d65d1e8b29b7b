#include "schema/schema_choice.h"

namespace msdump::schema {

std::string_view schema_name_for(Framework framework, Profile profile) {
  switch (framework) {
    case Framework::pytorch:
      return profile == Profile::legacy ? "dump-pytorch-legacy" : "dump-pytorch-current";
    case Framework::mindspore:
      return "dump-mindspore";
    case Framework::mindtorch:
      return "dump-mindtorch";
  }
  return "dump-pytorch-current";
}

}  // namespace msdump::schema
