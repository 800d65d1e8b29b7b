# Installation and packaging: `cmake --install` puts bin/msdump, share/man/man1/msdump.1 and
# share/bash-completion/completions/msdump under the prefix; `cpack -G DEB` packages the same.
# The man page and the completion are generated from the built binary's --help
# (scripts/gen_cli_docs.py) and the man page's prose in docs/msdump.1.in.
include(GNUInstallDirs)
if(MSDUMP_NATIVE)
  message(WARNING "MSDUMP_NATIVE=ON: the installed binary and the .deb only run on CPUs like this one")
endif()

set(MSDUMP_MAN_PAGE ${CMAKE_BINARY_DIR}/msdump.1)
set(MSDUMP_COMPLETION ${CMAKE_BINARY_DIR}/msdump.bash-completion)
add_custom_command(
  OUTPUT ${MSDUMP_MAN_PAGE} ${MSDUMP_COMPLETION}
  COMMAND ${Python3_EXECUTABLE} ${CMAKE_CURRENT_SOURCE_DIR}/scripts/gen_cli_docs.py $<TARGET_FILE:msdump>
          --man-source ${CMAKE_CURRENT_SOURCE_DIR}/docs/msdump.1.in --man ${MSDUMP_MAN_PAGE}
          --completion ${MSDUMP_COMPLETION}
  DEPENDS msdump ${CMAKE_CURRENT_SOURCE_DIR}/scripts/gen_cli_docs.py ${CMAKE_CURRENT_SOURCE_DIR}/docs/msdump.1.in
  COMMENT "Generating the man page and bash completion from msdump --help")
add_custom_target(msdump_cli_docs ALL DEPENDS ${MSDUMP_MAN_PAGE} ${MSDUMP_COMPLETION})

install(TARGETS msdump RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
install(FILES ${MSDUMP_MAN_PAGE} DESTINATION ${CMAKE_INSTALL_MANDIR}/man1)
install(FILES ${MSDUMP_COMPLETION} DESTINATION ${CMAKE_INSTALL_DATADIR}/bash-completion/completions RENAME msdump)

set(CPACK_PACKAGE_NAME msdump)
set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION})
set(CPACK_PACKAGE_CONTACT "msdump maintainers")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "Converter and validator for msprobe (MindStudio Probe) dumps")
set(CPACK_PACKAGE_DESCRIPTION
    "msdump converts raw tensor captures and msprobe dumps into msprobe's dump.json, stack.json and construct.json, and verifies dumps against schemas, tensor files, captures or golden dumps for CI.")
set(CPACK_DEBIAN_PACKAGE_SECTION devel)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
# Depends: the shared libraries the installed binary links, as dpkg-shlibdeps finds them
# (runtime packages only: no -dev package, no test or reference tool).
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
set(CPACK_STRIP_FILES ON)
include(CPack)
