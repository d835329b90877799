#!/usr/bin/env python3
"""Seed corpus of fuzz_json (a CTest step, not a test): one file per seed,
the first byte selecting the reader (see fuzz_json.c), then JSON text that
the reader accepts, so mutations start from valid documents.

    gen_json_seeds.py CORPUS_DIR
"""
import json
import os
import sys

ACL = [
    {},
    {"err_msg_mode": "1"},
    {"max_opqueue_num": "1000"},
    {"StackSize": {"aicore_stack_size": 32768, "simt_stack_size": 1024}},
    {"defaultDevice": {"default_device": "0"}},
    {"simd_printf_fifo_size_per_core": 1024, "simt_printf_fifo_size": 2048},
    {"acl_graph": {"event_mode": "1"}},
    {"dump": {"dump_path": "dump_out", "dump_mode": "output",
              "dump_list": [{"model_name": "m", "layer": ["conv1", "relu1"]}]}},
    {"profiler": {"switch": "on", "output": "prof_out", "aicpu": "on", "msproftx": "on"}},
]
DUMP = [
    {"dump": {"dump_path": "d", "dump_mode": "all", "dump_data": "stats",
              "dump_list": [{"model_name": "m", "layer": ["a"]}, {"model_name": "n"}]}},
    {"dump": {"dump_path": "d", "dump_op_switch": "on", "dump_level": "op", "dump_step": "0|3-5"}},
    {"dump": {"dump_scene": "lite_exception"}},
    {"dump": {"dump_path": "d", "dump_debug": "on"}},
]
PROF = [
    {"switch": "on", "output": "p", "aic_metrics": "PipeUtilization", "runtime_api": "on"},
    {"switch": "off"},
    {"output": "p", "storage_limit": "200MB", "task_time": "l1"},
]
SINGLEOP = [
    [{"op": "Add",
      "input_desc": [{"format": "ND", "shape": [2, 3], "type": "float"},
                     {"format": "ND", "shape": [2, 3], "type": "float"}],
      "output_desc": [{"format": "ND", "shape": [2, 3], "type": "float"}]}],
    [{"op": "Cast",
      "input_desc": [{"format": "ND", "shape": [-1], "shape_range": [[1, 16]], "type": "float16"}],
      "output_desc": [{"format": "ND", "shape": [-1], "type": "float"}],
      "attr": [{"name": "dst_type", "type": "int", "value": 0}]}],
    [{"op": "MatMul", "name": "mm",
      "input_desc": [{"format": "ND", "shape": [4, 8], "type": "float"},
                     {"format": "ND", "shape": [8, 2], "type": "float", "is_const": True,
                      "const_value": [0.5] * 16}],
      "output_desc": [{"format": "ND", "shape": [4, 2], "type": "float"}],
      "attr": [{"name": "transpose_x1", "type": "bool", "value": False},
               {"name": "transpose_x2", "type": "bool", "value": False}]}],
]
META = [
    {"hash_to_weight_file": {"5f0c": "dir/weight_5f0c", "a81": "dir/net_weight_combined"},
     "hash_to_weight_offset": {"a81": 512}},
    {"hash_to_weight_file": {}, "hash_to_weight_offset": {}},
]
BINS = [
    {"value_bins": [{"value_bin_id": "b1", "value_bin_file": "f1.bin"},
                    {"value_bin_id": "b2", "value_bin_file": "f2.bin"}]},
    [[{"value_bin_id": "x", "value_bin_file": "y"}]],
]


def main():
    out = sys.argv[1]
    os.makedirs(out, exist_ok=True)
    k = 0
    for sel, docs in enumerate([ACL, DUMP, PROF, SINGLEOP, META, BINS]):
        for d in docs:
            with open(os.path.join(out, "json_%d_%d" % (sel, k)), "wb") as f:
                f.write(bytes([sel]) + json.dumps(d, indent=4).encode())
            k += 1


if __name__ == "__main__":
    main()
