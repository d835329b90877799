# Bounded fuzz run over seed files: fresh corpus from SEED_DIRS (files
# matching SEED_GLOB, default *), optionally a seed generator SEED_CMD
# writing into the corpus, then libFuzzer for SECONDS seconds with DIR as
# the working directory (the harnesses write scratch files there).
# -D FUZZER=<bin> DIR=<work dir> SECONDS=<n> [SEED_DIRS=<a;b>] [SEED_GLOB=<g>]
#    [SEED_CMD=<program>] [MAX_LEN=<bytes>] [RSS_MB=<mb>]
# Crash reproducers go to <DIR>-artifacts, which later runs keep.
# Lists arrive with '|' between items (a ';' would split the -D argument).
string(REPLACE "|" ";" SEED_DIRS "${SEED_DIRS}")
string(REPLACE "|" ";" SEED_CMD "${SEED_CMD}")
file(REMOVE_RECURSE ${DIR})
file(MAKE_DIRECTORY ${DIR}/corpus ${DIR}/work ${DIR}-artifacts)
if(NOT SEED_GLOB)
  set(SEED_GLOB "*")
endif()
set(k 0)
foreach(d ${SEED_DIRS})
  file(GLOB seeds LIST_DIRECTORIES false ${d}/${SEED_GLOB})
  foreach(s ${seeds})
    get_filename_component(name ${s} NAME)
    file(COPY_FILE ${s} ${DIR}/corpus/${k}_${name})
    math(EXPR k "${k} + 1")
  endforeach()
endforeach()
if(SEED_CMD)
  execute_process(COMMAND ${SEED_CMD} ${DIR}/corpus RESULT_VARIABLE rc)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "seed generation failed (${rc})")
  endif()
endif()
file(GLOB all ${DIR}/corpus/*)
list(LENGTH all n)
if(n EQUAL 0)
  message(FATAL_ERROR "no seeds for ${FUZZER}")
endif()
if(NOT RSS_MB)
  set(RSS_MB 2048)
endif()
set(extra)
if(MAX_LEN)
  set(extra -max_len=${MAX_LEN})
endif()
# a fixed seed: the same mutation sequence in every CI run; scripts/fuzz_campaign.sh sets $OA_FUZZ_SEED=0
# (libFuzzer then picks a random one)
set(seed 1)
if(DEFINED ENV{OA_FUZZ_SEED})
  set(seed $ENV{OA_FUZZ_SEED})
endif()
# $OA_FUZZ_RUNS: stop after that many executions as well (the long campaign's per-target goal)
set(runs)
if(DEFINED ENV{OA_FUZZ_RUNS})
  set(runs -runs=$ENV{OA_FUZZ_RUNS})
endif()
execute_process(COMMAND ${FUZZER} -seed=${seed} -max_total_time=${SECONDS} -timeout=20 -rss_limit_mb=${RSS_MB}
                        -artifact_prefix=${DIR}-artifacts/ -print_final_stats=1 ${runs} ${extra} ${DIR}/corpus
                WORKING_DIRECTORY ${DIR}/work
                RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "the fuzzer found a problem (exit ${rc}); reproducer in ${DIR}-artifacts")
endif()
