# Turns every schemas/*.schema.json into a C++ string table so the binary runs standalone.
file(GLOB MSDUMP_SCHEMA_FILES CONFIGURE_DEPENDS ${CMAKE_CURRENT_SOURCE_DIR}/schemas/*.schema.json)
set(MSDUMP_EMBED_OUT ${CMAKE_CURRENT_BINARY_DIR}/generated/embedded_schemas.inc)
add_custom_command(
  OUTPUT ${MSDUMP_EMBED_OUT}
  COMMAND ${CMAKE_COMMAND} -DOUT=${MSDUMP_EMBED_OUT} -DDIR=${CMAKE_CURRENT_SOURCE_DIR}/schemas
          -P ${CMAKE_CURRENT_SOURCE_DIR}/cmake/embed_schemas_script.cmake
  DEPENDS ${MSDUMP_SCHEMA_FILES} ${CMAKE_CURRENT_SOURCE_DIR}/cmake/embed_schemas_script.cmake
  COMMENT "Embedding JSON schemas")
add_custom_target(msdump_embedded_schemas DEPENDS ${MSDUMP_EMBED_OUT})
list(APPEND MSDUMP_LIB_SOURCES ${MSDUMP_EMBED_OUT})
set_source_files_properties(${MSDUMP_EMBED_OUT} PROPERTIES HEADER_FILE_ONLY TRUE GENERATED TRUE)
