# assetlib_bake(): bake a folder of source assets at build time, one build edge per source.
#
#   assetlib_bake(TARGET <name> SOURCE_DIR <dir> OUTPUT_DIR <dir>
#                 [CONFIG <baker.json>] [PRESET <name>] [CACHE_DIR <dir>])
#
# Makes the target <name> (part of ALL) that keeps OUTPUT_DIR what `asset-baker SOURCE_DIR -o
# OUTPUT_DIR` would make of it, file for file, and lets the build system schedule the work:
#   - one edge plans the whole tree (`asset-baker plan`: texture roles and output claims, from the
#     models and their .mtl files), writing one small plan file per source and rewriting only those
#     that change, so that a model edit that changes no texture role rebakes nothing else;
#   - one edge per source (`asset-baker bake-one`, with all its outputs) depends on the source, its
#     plan file, the baker.json in force and, through a depfile, every file its bake read (.mtl,
#     .bin): Ninja rebakes exactly what changed, in parallel with the code build;
#   - one edge writes the manifest (`asset-baker collect`), after all of them.
# Sources are found by extension with CONFIGURE_DEPENDS globs: adding or removing one re-runs the
# configure step on the next build, which re-plans and re-collects. Without CONFIG, a baker.json
# appearing in SOURCE_DIR or a folder above (or going) re-runs it too, and every source rebakes. Relative SOURCE_DIR and CONFIG are taken from the current source
# folder, OUTPUT_DIR and CACHE_DIR from the current binary folder. CACHE_DIR is the shared cache
# (`--cache-dir`; default: $ENV{ASSETLIB_CACHE_DIR} when the build runs, else none).
#
# ASSETLIB_BAKE_PLAN_CHUNK (default 1000) is how many plan files one custom command declares.
#
# The baker is ASSETLIB_BAKER when set (a path), else the asset-baker target of this build (the
# assetlib repository added with its tools), else the installed one (find_package(assetlib) of an
# install that has the tools), else asset-baker on the PATH.
include_guard(GLOBAL)

function(_assetlib_bake_find_baker out_command out_depends)
  if(ASSETLIB_BAKER)
    set(${out_command} "${ASSETLIB_BAKER}" PARENT_SCOPE)
    set(${out_depends} "${ASSETLIB_BAKER}" PARENT_SCOPE)
  elseif(TARGET asset-baker)
    set(${out_command} "$<TARGET_FILE:asset-baker>" PARENT_SCOPE)
    set(${out_depends} asset-baker PARENT_SCOPE)
  elseif(TARGET assetlib::asset-baker)
    set(${out_command} "$<TARGET_FILE:assetlib::asset-baker>" PARENT_SCOPE)
    set(${out_depends} "$<TARGET_FILE:assetlib::asset-baker>" PARENT_SCOPE)
  else()
    find_program(ASSETLIB_BAKER_PROGRAM asset-baker)
    if(NOT ASSETLIB_BAKER_PROGRAM)
      message(FATAL_ERROR "assetlib_bake: no asset-baker found; set ASSETLIB_BAKER to its path")
    endif()
    set(${out_command} "${ASSETLIB_BAKER_PROGRAM}" PARENT_SCOPE)
    set(${out_depends} "${ASSETLIB_BAKER_PROGRAM}" PARENT_SCOPE)
  endif()
endfunction()

# The baker.json a bake without CONFIG reads: the nearest in `dir` or a folder above, as
# asset-baker looks for it. Every folder on the way is watched (CONFIGURE_DEPENDS) for one to
# appear or go: the configure step then re-runs and names the new one as an input of every edge,
# newer than their stamps, so that all of them rebake (a depfile cannot name a file not there).
function(_assetlib_bake_find_config dir out_config)
  set(found "")
  while(TRUE)
    string(REGEX REPLACE "([][*?])" "[\\1]" pattern "${dir}/baker.json")
    file(GLOB candidate CONFIGURE_DEPENDS "${pattern}")
    if(candidate AND NOT IS_DIRECTORY "${dir}/baker.json")
      set(found "${dir}/baker.json")
      break()
    endif()
    get_filename_component(parent "${dir}" DIRECTORY)
    if(parent STREQUAL dir OR parent STREQUAL "")
      break()
    endif()
    set(dir "${parent}")
  endwhile()
  set(${out_config} "${found}" PARENT_SCOPE)
endfunction()

# The names of the files the edges keep for the sources in `list_var` (plan files, stamps,
# depfiles), in place: what build_file_name() in the baker (pipeline/depfile.h) makes of them.
# Every character a build file cannot hold in a path is written %XX: CMake refuses '#' in an
# OUTPUT, Ninja reads '$' as a variable and ends depfile paths at quotes, '&', '^' and backticks.
function(_assetlib_bake_build_file_names list_var)
  set(names ${${list_var}})
  list(TRANSFORM names REPLACE "%" "%25")  # first: the escape itself
  list(TRANSFORM names REPLACE "\"" "%22")
  list(TRANSFORM names REPLACE "#" "%23")
  list(TRANSFORM names REPLACE "[$]" "%24")
  list(TRANSFORM names REPLACE "&" "%26")
  list(TRANSFORM names REPLACE "'" "%27")
  list(TRANSFORM names REPLACE "[*]" "%2A")
  list(TRANSFORM names REPLACE ":" "%3A")
  list(TRANSFORM names REPLACE "<" "%3C")
  list(TRANSFORM names REPLACE ">" "%3E")
  list(TRANSFORM names REPLACE "[?]" "%3F")
  list(TRANSFORM names REPLACE "[\\]" "%5C")
  list(TRANSFORM names REPLACE "\\^" "%5E")
  list(TRANSFORM names REPLACE "`" "%60")
  list(TRANSFORM names REPLACE "[|]" "%7C")
  # Control characters, 0x01-0x1F and 0x7F.
  set(digits "0123456789ABCDEF")
  foreach(code RANGE 1 32)
    if(code EQUAL 32)
      set(code 127)
    endif()
    math(EXPR high "${code} / 16")
    math(EXPR low "${code} % 16")
    string(SUBSTRING "${digits}" ${high} 1 high)
    string(SUBSTRING "${digits}" ${low} 1 low)
    string(ASCII ${code} character)
    list(TRANSFORM names REPLACE "${character}" "%${high}${low}")
  endforeach()
  set(${list_var} ${names} PARENT_SCOPE)
endfunction()

function(assetlib_bake)
  cmake_parse_arguments(PARSE_ARGV 0 arg "" "TARGET;SOURCE_DIR;OUTPUT_DIR;CONFIG;PRESET;CACHE_DIR"
                        "")
  foreach(required IN ITEMS TARGET SOURCE_DIR OUTPUT_DIR)
    if(NOT arg_${required})
      message(FATAL_ERROR "assetlib_bake: ${required} is required")
    endif()
  endforeach()
  if(arg_UNPARSED_ARGUMENTS)
    message(FATAL_ERROR "assetlib_bake: unknown arguments ${arg_UNPARSED_ARGUMENTS}")
  endif()
  get_filename_component(src "${arg_SOURCE_DIR}" ABSOLUTE BASE_DIR "${CMAKE_CURRENT_SOURCE_DIR}")
  get_filename_component(out "${arg_OUTPUT_DIR}" ABSOLUTE BASE_DIR "${CMAKE_CURRENT_BINARY_DIR}")
  set(work "${CMAKE_CURRENT_BINARY_DIR}/${arg_TARGET}.assetlib-bake")
  _assetlib_bake_find_baker(baker baker_depends)

  set(options "")
  set(config_depends "")
  if(arg_CONFIG)
    get_filename_component(config "${arg_CONFIG}" ABSOLUTE BASE_DIR "${CMAKE_CURRENT_SOURCE_DIR}")
    list(APPEND options --config "${config}")
    set(config_depends "${config}")
  else()
    _assetlib_bake_find_config("${src}" config_depends)
  endif()
  if(arg_PRESET)
    list(APPEND options --preset "${arg_PRESET}")
  endif()
  set(cache_options "")
  if(arg_CACHE_DIR)
    get_filename_component(cache "${arg_CACHE_DIR}" ABSOLUTE BASE_DIR "${CMAKE_CURRENT_BINARY_DIR}")
    set(cache_options --cache-dir "${cache}")
  endif()

  # Every source by extension (docs/baker.md), leaving out an output folder inside the source
  # folder. Whole-list operations only: appending to a list one item at a time copies it each
  # time, which made configuring 100k sources quadratic.
  file(GLOB_RECURSE sources LIST_DIRECTORIES false CONFIGURE_DEPENDS RELATIVE "${src}" "${src}/*")
  file(RELATIVE_PATH out_inside "${src}" "${out}")
  if(NOT out_inside MATCHES "^\\.\\./" AND NOT out_inside STREQUAL "")
    string(REGEX REPLACE "([][+.*?()^$|\\])" "\\\\\\1" out_regex "${out_inside}")
    list(FILTER sources EXCLUDE REGEX "^${out_regex}/")
  endif()
  set(plan_inputs ${sources})
  list(FILTER plan_inputs INCLUDE REGEX "\\.([oO][bB][jJ]|[gG][lL][tT][fF]|[gG][lL][bB]|[mM][tT][lL])$")
  list(TRANSFORM plan_inputs PREPEND "${src}/")
  list(FILTER sources INCLUDE REGEX
       "\\.([pP][nN][gG]|[jJ][pP][eE]?[gG]|[tT][gG][aA]|[bB][mM][pP]|[pP][sS][dD]|[gG][iI][fF]|[hH][dD][rR]|[pP][iI][cC]|[pP][nN][mM]|[pP][pP][mM]|[pP][gG][mM]|[oO][bB][jJ]|[gG][lL][tT][fF]|[gG][lL][bB])$")

  # A name CMake cannot hold fails the configure step naming the file: a ';' splits it in two (so
  # neither half exists), a '\' is read as a folder, a '"' breaks the glob re-check that
  # CONFIGURE_DEPENDS writes. Left out, it would be missing from the folder with no word of why.
  # A symlink that is broken or leads out of the source folder is left out, as a whole bake
  # leaves it (with a warning).
  file(REAL_PATH "${src}" real_src)
  set(skipped_links "")
  foreach(file IN LISTS sources plan_inputs)
    set(path "${file}")
    if(NOT IS_ABSOLUTE "${path}")
      set(path "${src}/${file}")
    endif()
    if(IS_SYMLINK "${path}")
      file(REAL_PATH "${path}" real)
      string(FIND "${real}" "${real_src}/" at)
      if(NOT EXISTS "${path}" OR NOT at EQUAL 0)
        list(APPEND skipped_links "${file}")
        continue()
      endif()
    endif()
    if(path MATCHES "[\"\r\n]" OR NOT EXISTS "${path}")
      message(FATAL_ERROR "assetlib_bake: a file in ${src} (near '${file}') has a ';', '\\', "
                          "'\"' or a line end in its name, which a CMake build cannot hold: "
                          "rename it (asset-baker ${src} bakes it as it is)")
    endif()
  endforeach()
  if(skipped_links)
    list(REMOVE_ITEM sources ${skipped_links})
    list(REMOVE_ITEM plan_inputs ${skipped_links})
  endif()

  # The sources and the libraries, in a file rewritten only when the list changes: an input of the
  # plan and of the collect edge. Removing a source re-runs the configure step but changes no input
  # of theirs otherwise: the plan would keep a model naming a removed image, and the removed
  # source's outputs would stay listed until some other change.
  set(source_list_file "${work}/sources.txt")
  string(JOIN "\n" source_list ${sources} ${plan_inputs})
  set(previous_list "")
  if(EXISTS "${source_list_file}")
    file(READ "${source_list_file}" previous_list)
  endif()
  if(NOT previous_list STREQUAL source_list)
    file(WRITE "${source_list_file}" "${source_list}")
  endif()

  # Ninja reads the depfiles as the baker writes them, naming each edge's output as Ninja does
  # (relative to the top build folder): CMP0116's NEW behaviour would run a `cmake -E` process per
  # edge to rewrite each one, which costs more than baking a small texture. Other generators get
  # absolute names and CMake's rewriting.
  cmake_policy(PUSH)
  set(plan_target "")
  set(stamp_target "")
  if(CMAKE_GENERATOR MATCHES "Ninja")
    cmake_policy(SET CMP0116 OLD)
    file(RELATIVE_PATH work_in_build "${CMAKE_BINARY_DIR}" "${work}")
    set(plan_target --depfile-target "${work_in_build}/plan.stamp")
    set(stamp_target --depfile-target "${work_in_build}/stamps/")  # + the source and ".stamp"
  endif()

  # The plan: one file per source, rewritten only when it changes (Ninja's restat, which CMake
  # sets on custom commands, then skips the bakes of the unchanged ones). The files are declared
  # ASSETLIB_BAKE_PLAN_CHUNK at a time (default 1000): CMake's generator takes quadratic time in the
  # outputs of one command (two minutes for 100k). The first command plans; each other one only
  # follows it, and restat still tells Ninja which of its files the plan changed.
  set(build_names ${sources})
  _assetlib_bake_build_file_names(build_names)
  list(TRANSFORM build_names PREPEND "${work}/plans/" OUTPUT_VARIABLE plan_files)
  list(TRANSFORM plan_files APPEND ".plan")
  set(chunk_size 1000)
  if(ASSETLIB_BAKE_PLAN_CHUNK)
    set(chunk_size ${ASSETLIB_BAKE_PLAN_CHUNK})
  endif()
  list(LENGTH plan_files plan_count)
  list(SUBLIST plan_files 0 ${chunk_size} chunk_files)
  add_custom_command(
    OUTPUT "${work}/plan.stamp" ${chunk_files}
    COMMAND "${baker}" plan "${src}" --plan-dir "${work}/plans" -o "${out}" ${options}
            --depfile "${work}/plan.d" --stamp "${work}/plan.stamp" ${plan_target} -q
    DEPENDS ${plan_inputs} "${source_list_file}" ${config_depends} ${baker_depends}
    DEPFILE "${work}/plan.d"
    COMMENT "Planning ${arg_TARGET}: texture roles of ${src}"
    VERBATIM)
  set(begin ${chunk_size})
  while(begin LESS plan_count)
    list(SUBLIST plan_files ${begin} ${chunk_size} chunk_files)
    add_custom_command(
      OUTPUT "${work}/plan-${begin}.stamp" ${chunk_files}
      COMMAND "${CMAKE_COMMAND}" -E touch "${work}/plan-${begin}.stamp"
      DEPENDS "${work}/plan.stamp"
      COMMENT ""
      VERBATIM)
    math(EXPR begin "${begin} + ${chunk_size}")
  endwhile()

  list(TRANSFORM build_names PREPEND "${work}/stamps/" OUTPUT_VARIABLE stamps)
  list(TRANSFORM stamps APPEND ".stamp")
  foreach(file name IN ZIP_LISTS sources build_names)
    set(stamp "${work}/stamps/${name}.stamp")
    set(depfile_target "")
    if(stamp_target)
      set(depfile_target ${stamp_target}${name}.stamp)
    endif()
    add_custom_command(
      OUTPUT "${stamp}"
      COMMAND "${baker}" bake-one "${src}/${file}" --root "${src}" -o "${out}"
              --plan-dir "${work}/plans" --depfile "${work}/deps/${name}.d" --stamp "${stamp}"
              ${depfile_target} ${options} ${cache_options} -q
      DEPENDS "${src}/${file}" "${work}/plans/${name}.plan" ${config_depends} ${baker_depends}
      DEPFILE "${work}/deps/${name}.d"
      COMMENT "Baking ${file}"
      VERBATIM)
  endforeach()

  add_custom_command(
    OUTPUT "${out}/manifest.json"
    COMMAND "${baker}" collect "${src}" -o "${out}" ${options} ${cache_options} -q
    DEPENDS ${stamps} "${source_list_file}" ${config_depends} ${baker_depends}
    COMMENT "Collecting the manifest of ${out}"
    VERBATIM)
  add_custom_target(${arg_TARGET} ALL DEPENDS "${out}/manifest.json")
  cmake_policy(POP)
endfunction()
