# Writes OUT, the C table of the built-in themes, from the theme files
# named in THEMES (a ;-list of paths): each file's text, whole, as a C
# string, in the order given. Run by the build (CMakeLists.txt: one
# custom command), so tui/theme/theme_builtin.c compiles in exactly what
# themes/ ships and nothing is kept by hand.
#   cmake -DOUT=theme_builtin_data.h -DTHEMES="a.theme;b.theme" -P theme_builtin.cmake
set(body "/* Generated from the .theme files of themes/ by scripts/theme_builtin.cmake at build\n * time: do not edit. */\n")
string(APPEND body "static const builtin builtins[] = {\n")
foreach(path ${THEMES})
  get_filename_component(name ${path} NAME_WE)
  file(READ ${path} text)
  string(REPLACE "\\" "\\\\" text "${text}")
  string(REPLACE "\"" "\\\"" text "${text}")
  string(REPLACE "\n" "\\n\"\n     \"" text "${text}")
  string(APPEND body "    {\"${name}\",\n     \"${text}\"},\n")
endforeach()
string(APPEND body "};\n")
# Rewritten only when it changes, so a touched theme file that says the
# same does not rebuild the library.
if(EXISTS ${OUT})
  file(READ ${OUT} old)
endif()
if(NOT "${old}" STREQUAL "${body}")
  file(WRITE ${OUT} "${body}")
endif()
