#!/bin/sh
# tests/gpu/bench-regs.sh: reads ptxas -v output (stdin) and prints one line
# per kernel, "NAME REGISTERS SPILL_BYTES" (spill stores + spill loads),
# for bench/suite/bench.c's regs / spill columns.
awk '
/Compiling entry function/ { name = $0; sub(/.*function \047/, "", name); sub(/\047.*/, "", name); spill = 0 }
/bytes spill stores/ { spill = $5 + $9 }
/Used [0-9]+ registers/ && name != "" { print name, $5, spill; name = "" }
'
