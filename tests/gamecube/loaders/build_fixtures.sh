#!/bin/sh
# build_fixtures.sh MAKE_DOL MAKE_REL MAKE_GCM OUT: the GameCube loader tests' fixtures, built from fixtures/ with
# the PowerPC cross tools (KILN_POWERPC_GCC, KILN_POWERPC_LD): the DOL (and its map) from a linked executable,
# modules a and b as RELs of versions 1, 2 and 3, a module whose branch cannot reach the DOL, an object calling
# an undefined function, and a disc image holding the modules.
set -eu
make_dol=$1 make_rel=$2 make_gcm=$3 out=$4
here=$(cd "$(dirname "$0")" && pwd)/fixtures
gcc=${KILN_POWERPC_GCC:-powerpc-linux-gnu-gcc}
ld=${KILN_POWERPC_LD:-powerpc-linux-gnu-ld}
cc="$gcc -O2 -mcpu=750 -mhard-float -ffreestanding -nostdlib -fno-pic -fno-asynchronous-unwind-tables -fno-common"
mkdir -p "$out"
cd "$out"
$cc -c "$here/crt0.S" -o crt0.o
$cc -c "$here/main.c" -o main.o
$ld --no-warn-rwx-segments -T "$here/dol.ld" crt0.o main.o -o main.elf
"$make_dol" main.elf main.dol --map main.map
# Modules use no small-data sections (-G 0): a REL has one .bss and no small-data base register.
$cc -G 0 -c "$here/module_a.c" -o module_a.o
$cc -G 0 -c "$here/module_b.c" -o module_b_c.o
$cc -c "$here/relocations.S" -o relocations.o
$ld -r module_b_c.o relocations.o -o module_b.o
$cc -c "$here/far_branch.S" -o far_branch.o
$cc -G 0 -c "$here/undefined.c" -o undefined.o
for version in 1 2 3; do
  mkdir -p "v$version"
  "$make_rel" --dol main.elf --version "$version" -o "v$version" module_a.o module_b.o
done
"$make_rel" --dol main.elf --first-id 9 -o . far_branch.o
rm -rf disc-root
mkdir -p disc-root/rels disc-root/data/deeper
cp v3/module_a.rel v3/module_b.rel disc-root/rels/
printf 'kiln disc fixture\n' > disc-root/readme.txt
printf 'nested' > disc-root/data/deeper/nested.bin
: > disc-root/data/empty.bin
"$make_gcm" disc.iso --dol main.dol --root disc-root --id GKLE01 --name "kiln loader fixture" --file-align 0x800
