# man.cmake - writes the man page paperball.1 from the program's own
# --help texts (paperball --help and each command's), so that the page
# says what the program does.
# Run as: cmake -DPB=<program> -DOUT=<page> -DVERSION=<x.y.z> -P man.cmake
execute_process(COMMAND ${PB} --help OUTPUT_VARIABLE main RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "paperball --help failed")
endif()
# The command names: the indented words under "Commands:".
string(REGEX MATCH "Commands:\n(.*)\n\n" block "${main}")
string(REGEX MATCHALL "\n  [a-z]+" names "\n${CMAKE_MATCH_1}")

function(troff_escape in outvar)
  string(REPLACE "\\" "\\e" t "${in}")
  string(REGEX REPLACE "\n([.'])" "\n\\\\&\\1" t "\n${t}")
  string(SUBSTRING "${t}" 1 -1 t)
  set(${outvar} "${t}" PARENT_SCOPE)
endfunction()

troff_escape("${main}" main_t)
string(CONCAT page ".TH PAPERBALL 1 \"\" \"paperball ${VERSION}\" \"User Commands\"\n"
         ".SH NAME\npaperball \\- solve, count and check pencil-and-paper football\n"
         ".SH SYNOPSIS\n.B paperball\n.I command\n[\\fIoptions\\fR]\n"
         ".SH DESCRIPTION\n.nf\n${main_t}.fi\n.SH COMMANDS\n")
foreach(n ${names})
  string(STRIP "${n}" n)
  execute_process(COMMAND ${PB} ${n} --help OUTPUT_VARIABLE h RESULT_VARIABLE rc)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "paperball ${n} --help failed")
  endif()
  # The exit status table is printed once, above.
  string(REGEX REPLACE "\nExit status:\n.*" "\n" h "${h}")
  troff_escape("${h}" h)
  string(APPEND page ".SS ${n}\n.nf\n${h}.fi\n")
endforeach()
string(APPEND page ".SH SEE ALSO\nThe documents in docs/ of the source: cli.md (the command line), rules.md,\n"
                   "notation.md, solver.md, enumerate.md.\n")
file(WRITE ${OUT} "${page}")
