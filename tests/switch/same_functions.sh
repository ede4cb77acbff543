#!/bin/sh
# same_functions.sh KILN ELF ELF_BASE NSO NSO_BASE WORKDIR: recompiles the ELF and the NSO made from it and
# checks that analysis found the same functions (start and end, relative to each one's load base).
set -e
kiln=$1 elf=$2 elf_base=$3 nso=$4 nso_base=$5 work=$6
list() { # folder base -> "name start end" per function, module-relative, sorted
  grep -ho '^// [^ ]* \[0x[0-9a-f]*, 0x[0-9a-f]*)' "$1"/*.cpp | tr -d '[,)' |
    while read -r _ name start end; do case $name in sub_*) name=sub;; esac; printf '%s %#x %#x\n' "$name" $((start - $2)) $((end - $2)); done | sort
}
"$kiln" recompile --no-config "$elf" -o "$work/elf"
"$kiln" recompile --no-config "$nso" -o "$work/nso"
list "$work/elf" "$elf_base" > "$work/elf.functions"
list "$work/nso" "$nso_base" > "$work/nso.functions"
cat "$work/nso.functions"
test -s "$work/elf.functions"
diff "$work/elf.functions" "$work/nso.functions" && echo "same $(wc -l < "$work/nso.functions") functions"
