# Warnings are errors in this project's own code; third-party headers come from /usr/include and
# are system headers, so their warnings stay quiet.
function(assetlib_warnings target)
  target_compile_options(${target} PRIVATE -Wall -Wextra -Wpedantic -Wshadow -Wconversion
                                           -Wno-sign-conversion -Werror)
endfunction()
