# Writes the manual page: OUT is what `EXE man` prints (the table of commands in
# explorer/cli/commands.c), replaced only when the command succeeds.
#
#   cmake -DEXE=path/to/warptune -DOUT=warptune.1 -P cmake/manpage.cmake
execute_process(COMMAND ${EXE} man OUTPUT_FILE ${OUT}.tmp RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  file(REMOVE ${OUT}.tmp)
  message(FATAL_ERROR "${EXE} man failed (${rc})")
endif()
file(RENAME ${OUT}.tmp ${OUT})
