#!/bin/sh
# listing.sh AS OBJDUMP SOURCE.s OUT.lst: assembles SOURCE with the Gekko extensions and writes objdump's
# -M750cl disassembly of it.
set -e
"$1" -mgekko "$3" -o "$4.o"
"$2" -d -M750cl "$4.o" > "$4"
