#!/usr/bin/env python3
"""Regenerates the method tables of each class from NVIDIA open-gpu-doc class headers.

usage: generate_method_tables.py OPEN_GPU_DOC_CHECKOUT
For each class it writes two files from one parse of the header:
  methods_<class>.inc  rows {name, offset, count, stride} (method names for describe/dump and name lookups),
  methods_<class>.h    the same methods as named constexpr offsets (arrays as MethodArray) in namespace
                       kiln::maxwell::class_<class>, the bit fields of their data words (field::, as BitField) and the
                       named field values (value::).
Array lengths are not in the headers; they are taken as the distance to the next method that is not part of the
same array family.
For each QMD (queue meta data, the structure a compute launch points at) version it writes qmd_v<version>.h: the
fields MW(high:low) of the whole structure as QmdField, indexed fields MW((h+(i)*s):(l+(i)*s)) as QmdFieldArray,
and the named field values (value::).
"""
import pathlib
import re
import sys

CLASSES = {
    "b197": ("classes/3d/clb197.h", "NVB197_"),
    "c797": ("classes/3d/clc797.h", "NVC797_"),
    "b1c0": ("classes/compute/clb1c0.h", "NVB1C0_"),
    "c7c0": ("classes/compute/clc7c0.h", "NVC7C0_"),
    "b0b5": ("classes/dma-copy/clb0b5.h", "NVB0B5_"),
    "c7b5": ("classes/dma-copy/clc7b5.h", "NVC7B5_"),
    "a140": ("classes/inline-to-memory/cla140.h", "NVA140_"),
    "902d": ("classes/twod/cl902d.h", "NV902D_"),
    "b06f": ("classes/host/clb06f.h", "NVB06F_"),
    "c56f": ("classes/host/clc56f.h", "NVC56F_"),
}
# Methods of the Tegra host classes that B06F and C56F lack; they go into the class header only (the .inc stays
# the header's own table; classes.cpp appends these rows from the header's constants). kiln's driver words fence
# with them on both host classes (docs/maxwell.md), at offsets C56F leaves free.
TEGRA_SYNCPOINTS = ("classes/host/cla26f.h", "NVA26F_", ("SYNCPOINTA", "SYNCPOINTB"))
EXTRA_METHODS = {"b06f": TEGRA_SYNCPOINTS, "c56f": TEGRA_SYNCPOINTS}

# QMD versions: the Maxwell compute class launches 01_07, the Ampere one 03_00 (clc7c0qmd.h holds 02_03, 02_04
# and 03_00; the prefix selects one).
QMDS = {
    "01_07": ("classes/compute/clb1c0qmd.h", "NVB1C0_QMDV01_07_"),
    "03_00": ("classes/compute/clc7c0qmd.h", "NVC7C0_QMDV03_00_"),
}
QMD_FIELD = re.compile(r"^#define (\w+)\s+MW\((\d+):(\d+)\)\s*$")
QMD_ARRAY = re.compile(r"^#define (\w+)\(i\)\s+MW\(\((\d+)\+\(i\)\*(\d+)\):\((\d+)\+\(i\)\*(\d+)\)\)\s*$")
QMD_VALUE = re.compile(r"^#define (\w+)\s+(0x[0-9a-fA-F]+)\s*$")
SCALAR = re.compile(r"^#define (\w+)\s+\(?(0x[0-9a-fA-F]+)\)?\s*$")
ARRAY = re.compile(r"^#define (\w+)\((\w)\)\s+\((0x[0-9a-fA-F]+)\+\(\w\)\*(\d+)\)\s*$")
FIELD = re.compile(r"^#define (\w+)\s+(\d+):(\d+)\s*$")
COMMENT = re.compile(r"\s*//.*$")
ARRAY2 = re.compile(r"^#define (\w+)\(i,j\)\s+\((0x[0-9a-fA-F]+)\+\(i\)\*(\d+)\+\(j\)\*(\d+)\)\s*$")
CPP_KEYWORDS = set("""alignas alignof and and_eq asm auto bitand bitor bool break case catch char char8_t char16_t
char32_t class compl concept const consteval constexpr constinit const_cast continue co_await co_return co_yield
decltype default delete do double dynamic_cast else enum explicit export extern false float for friend goto if
inline int long mutable namespace new noexcept not not_eq nullptr operator or or_eq private protected public
register reinterpret_cast requires return short signed sizeof static static_assert static_cast struct switch
template this thread_local throw true try typedef typeid typename union unsigned using virtual void volatile
wchar_t while xor xor_eq""".split())


def parse(path, prefix):
    """Returns (methods, arrays, fields): methods as [name, offset, count, stride, outer], the names of those
    defined as arrays, and fields as [name, low_bit, width, [(value_name, value), ...]]."""
    methods = []
    fields = []
    # The bit-range fields (NAME_FIELD hi:lo) defined since the last method; a value (NAME_FIELD_VALUE 0x...) is
    # named after one of them (the longest that prefixes it), not always the last one.
    method_fields = []
    for line in path.read_text().splitlines():
        line = COMMENT.sub("", line).rstrip()  # trailing // comments (clc56f.h's FB_FLUSH, MEM_OP_C fields)
        if m := FIELD.match(line):
            field = m.group(1)
            high, low = int(m.group(2)), int(m.group(3))
            short_field = field[len(prefix):]
            # Pushbuffer entry formats (DMA_*) are no method's fields; kiln decodes those in pushbuffer.cpp.
            if field.startswith(prefix) and not short_field.startswith("DMA_"):
                fields.append([field[len(prefix):], low, high - low + 1, []])
                method_fields.append(fields[-1])
            continue
        if m := ARRAY2.match(line):
            name, base, outer, inner = m.group(1), int(m.group(2), 16), int(m.group(3)), int(m.group(4))
            methods.append([name[len(prefix):], base, None, inner, outer])
            method_fields = []
        elif m := ARRAY.match(line):
            name, base, stride = m.group(1), int(m.group(3), 16), int(m.group(4))
            methods.append([name[len(prefix):], base, None, stride, None])
            method_fields = []
        elif m := SCALAR.match(line):
            name, value = m.group(1), int(m.group(2), 16)
            short = name[len(prefix):]
            # Field values share the #define form: they are named after a field of the method just before them.
            # (A test on method-name prefixes would drop methods such as SET_DA_PRIMITIVE_RESTART_INDEX.)
            owners = [f for f in method_fields if short.startswith(f[0] + "_")]
            if owners:
                owner = max(owners, key=lambda f: len(f[0]))
                owner[3].append((short[len(owner[0]) + 1:], value))
                continue
            if not name.startswith(prefix) or value % 4 or value >= 0x4000 or short.startswith("DMA_"):
                continue
            if short.startswith("GP_ENTRY"):
                continue
            methods.append([short, value, 1, 4, None])
            method_fields = []
    arrays = {m[0] for m in methods if m[2] is None}
    for method in methods:
        if method[2] is not None:
            continue
        name, base, stride, outer = method[0], method[1], method[3], method[4]
        if outer:  # two-dimensional: flatten into one array of stride `stride`
            # the headers give no outer count; stream-out layouts have 4 buffers
            method[2] = 4 * outer // stride
            continue
        siblings = [m[1] for m in methods if m[2] is None and m[3] == stride and abs(m[1] - base) < stride]
        family_start = min(siblings)
        later = [m[1] for m in methods if m[1] > base and m[1] not in siblings
                 and not (m[2] is None and m[3] == stride and abs(m[1] - base) < stride)]
        end = min(later) if later else 0x4000
        method[2] = max(1, (end - family_start + stride - 1) // stride)
    return sorted(methods, key=lambda m: m[1]), arrays, fields


def identifier(name, where):
    result = name.lower()
    if not re.fullmatch(r"[a-z_][a-z0-9_]*", result) or result in CPP_KEYWORDS:
        result += "_"
    if not re.fullmatch(r"[a-z_][a-z0-9_]*", result):
        sys.exit(f"{where}: {name!r} is no C++ identifier")
    return result


def unique(names, where):
    seen = set()
    for name in names:
        if name in seen:
            sys.exit(f"{where}: {name} is defined twice")
        seen.add(name)


def header(class_name, relative, methods, arrays, fields, extras):
    out = [f"// Generated by generate_method_tables.py from open-gpu-doc {relative}; do not edit.",
           "// Method byte offsets (arrays: element i at offset + i * stride), the bit fields of their data words",
           "// and the named field values.",
           "#pragma once",
           "#include \"runtime/gpu/maxwell/classes/method_layout.h\"",
           "",
           f"namespace kiln::maxwell::class_{class_name} {{",
           ""]
    names = []
    for name, base, count, stride, _ in methods:
        ident = identifier(name, relative)
        names.append(ident)
        if name not in arrays:
            out.append(f"inline constexpr uint32_t {ident} = 0x{base:04x};")
        else:
            out.append(f"inline constexpr MethodArray {ident}{{0x{base:04x}, {stride}}};")
    for extra_relative, name, base in extras:
        ident = identifier(name, extra_relative)
        names.append(ident)
        out.append(f"inline constexpr uint32_t {ident} = 0x{base:04x}; // {extra_relative}")
    unique(names, relative)
    out += ["", "namespace field {"]
    unique([identifier(f[0], relative) for f in fields], relative)
    for name, low, width, _ in fields:
        out.append(f"inline constexpr BitField {identifier(name, relative)}{{{low}, {width}}};")
    out += ["} // namespace field", "", "namespace value {"]
    value_names = []
    for name, _, _, values in fields:
        for value_name, value in values:
            ident = identifier(f"{name}_{value_name}", relative)
            value_names.append(ident)
            out.append(f"inline constexpr uint32_t {ident} = 0x{value:x};")
    unique(value_names, relative)
    out += ["} // namespace value", "", f"}} // namespace kiln::maxwell::class_{class_name}", ""]
    return "\n".join(out)


def parse_qmd(path, prefix):
    """Returns fields as [name, high, low, stride (None: not indexed), [(value_name, value), ...]]."""
    fields = []
    for line in path.read_text().splitlines():
        if m := QMD_ARRAY.match(line):
            if m.group(1).startswith(prefix):
                if m.group(3) != m.group(5):
                    sys.exit(f"{path}: {m.group(1)}: high and low bits step differently")
                fields.append([m.group(1)[len(prefix):], int(m.group(2)), int(m.group(4)), int(m.group(3)), []])
        elif m := QMD_FIELD.match(line):
            if m.group(1).startswith(prefix):
                fields.append([m.group(1)[len(prefix):], int(m.group(2)), int(m.group(3)), None, []])
        elif m := QMD_VALUE.match(line):
            name = m.group(1)
            if fields and name.startswith(prefix + fields[-1][0] + "_"):
                fields[-1][4].append((name[len(prefix) + len(fields[-1][0]) + 1:], int(m.group(2), 16)))
    return fields


def qmd_header(version, relative, fields):
    namespace = f"qmd_v{version}"
    out = [f"// Generated by generate_method_tables.py from open-gpu-doc {relative} (QMD version {version}); do not edit.",
           "// Fields MW(high:low) in bits of the whole structure (indexed ones: element i at high/low + i * stride)",
           "// and the named field values.",
           "#pragma once",
           "#include \"runtime/gpu/maxwell/classes/method_layout.h\"",
           "",
           f"namespace kiln::maxwell::{namespace} {{",
           ""]
    unique([identifier(f[0], relative) for f in fields], relative)
    for name, high, low, stride, _ in fields:
        if stride is None:
            out.append(f"inline constexpr QmdField {identifier(name, relative)}{{{high}, {low}}};")
        else:
            out.append(f"inline constexpr QmdFieldArray {identifier(name, relative)}{{{high}, {low}, {stride}}};")
    out += ["", "namespace value {"]
    value_names = []
    for name, _, _, _, values in fields:
        for value_name, value in values:
            ident = identifier(f"{name}_{value_name}", relative)
            value_names.append(ident)
            out.append(f"inline constexpr uint32_t {ident} = 0x{value:x};")
    unique(value_names, relative)
    out += ["} // namespace value", "", f"}} // namespace kiln::maxwell::{namespace}", ""]
    return "\n".join(out)


def main():
    root = pathlib.Path(sys.argv[1])
    out_dir = pathlib.Path(__file__).resolve().parent
    for class_name, (relative, prefix) in CLASSES.items():
        methods, arrays, fields = parse(root / relative, prefix)
        lines = [f"// Generated by generate_method_tables.py from open-gpu-doc {relative}; do not edit.",
                 "// {name, offset, count, stride}"]
        for name, base, count, stride, _ in methods:
            lines.append(f'{{"{name}", 0x{base:04x}, {count}, {stride}}},')
        (out_dir / f"methods_{class_name}.inc").write_text("\n".join(lines) + "\n")
        extras = []
        if class_name in EXTRA_METHODS:
            extra_relative, extra_prefix, wanted = EXTRA_METHODS[class_name]
            extra_methods, _, _ = parse(root / extra_relative, extra_prefix)
            extras = [(extra_relative, m[0], m[1]) for m in extra_methods if m[0] in wanted]
            if len(extras) != len(wanted):
                sys.exit(f"{extra_relative}: expected {wanted}")
            taken = {m[1] for m in methods}
            for _, name, base in extras:
                if base in taken:
                    sys.exit(f"{relative}: {extra_relative}'s {name} at 0x{base:04x} collides with a method of the class")
        (out_dir / f"methods_{class_name}.h").write_text(header(class_name, relative, methods, arrays, fields, extras))
    for version, (relative, prefix) in QMDS.items():
        (out_dir / f"qmd_v{version}.h").write_text(qmd_header(version, relative, parse_qmd(root / relative, prefix)))


if __name__ == "__main__":
    main()
