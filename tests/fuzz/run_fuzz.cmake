# Bounded fuzz run: fresh seeds, then libFuzzer for SECONDS seconds.
# -D SEEDS=<seed generator> FUZZER=<libFuzzer binary> DIR=<work dir> SECONDS=<n>
# Crash reproducers go to <DIR>-artifacts, which later runs keep.
file(REMOVE_RECURSE ${DIR})
file(MAKE_DIRECTORY ${DIR}/corpus ${DIR}-artifacts)
execute_process(COMMAND ${SEEDS} ${DIR}/corpus RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "seed generation failed (${rc})")
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
execute_process(COMMAND ${FUZZER} -seed=${seed} -max_total_time=${SECONDS} -timeout=10 -rss_limit_mb=2048
                        -artifact_prefix=${DIR}-artifacts/ -print_final_stats=1 ${runs} ${DIR}/corpus
                RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "the fuzzer found a problem (exit ${rc}); reproducer in ${DIR}-artifacts")
endif()
