#!/usr/bin/env python3
"""tools/sass-facts.py: static SASS facts of kernels in a cubin, to compare
oxidec's machine code with nvcc's without a GPU (BENCHMARKS.md, "Static
SASS").

usage: tools/sass-facts.py [--cuobjdump PATH] [--dump] CUBIN FUNC...

For each FUNC: registers (cuobjdump -res-usage), instructions (NOPs and
the closing self-branch not counted), BPT.TRAP count, and per loop (the
range from a backward branch's target to the branch) its instructions
and the count of each opcode family, memory operations by width and path
(LDS.128, LDG.E.128.CONSTANT, ...). --dump prints the SASS, one
instruction per line, without the encodings.

CUDA 13's ptxas writes cubins of ELF ABI version 8 (OS/ABI 0x41, the SM
in bits 8-15 of e_flags); a cuobjdump older than 12.8 (Debian 12's 11.8)
refuses them ("Support for 'sm_4' has been removed"), so a copy of such a
cubin is given the version-7 header (OS/ABI 0x33, e_flags SM | 0x500 |
SM << 16) first: the instructions are the same bytes.  CUOBJDUMP or
--cuobjdump names the tool (default: cuobjdump)."""
import collections
import os
import re
import struct
import subprocess
import sys
import tempfile


def as_v7(path):
    data = bytearray(open(path, 'rb').read())
    if data[:4] != b'\x7fELF' or data[7] != 0x41 or data[8] != 8:
        return path, None
    sm = (struct.unpack_from('<I', data, 0x30)[0] >> 8) & 0xff
    data[7], data[8] = 0x33, 7
    struct.pack_into('<I', data, 0x30, sm | 0x500 | (sm << 16))
    fd, tmp = tempfile.mkstemp(suffix='.cubin')
    os.write(fd, data)
    os.close(fd)
    return tmp, tmp


def sass(tool, cubin, func):
    out = subprocess.run([tool, '-sass', '-fun', func, cubin], capture_output=True, text=True, check=True).stdout
    code = []
    for line in out.splitlines():
        m = re.match(r'\s+/\*([0-9a-f]{4,})\*/\s+(.*?)\s*;?\s*/\*', line)
        if m:
            code.append((int(m.group(1), 16), m.group(2).rstrip(' ;')))
    return code


def registers(cubin, func):
    """The register count of FUNC: bits 24-31 of the sh_info of its
    .text.FUNC section (ELF ABI 7), else the EIATTR_REGCOUNT (0x2f) entry
    of .nv.info for its symbol, the low bits of that sh_info (ABI 8)."""
    d = open(cubin, 'rb').read()
    shoff, = struct.unpack_from('<Q', d, 0x28)
    shentsize, shnum, shstrndx = struct.unpack_from('<HHH', d, 0x3a)
    sh = [struct.unpack_from('<IIQQQQIIQQ', d, shoff + i * shentsize) for i in range(shnum)]
    strtab = sh[shstrndx][4]
    name = lambda s: d[strtab + s[0]:d.index(b'\0', strtab + s[0])].decode()
    text = [s for s in sh if name(s) == '.text.' + func]
    if not text:
        return None
    info = text[0][7]
    if info >> 24:
        return info >> 24
    for s in sh:
        if name(s) != '.nv.info':
            continue
        p, end = s[4], s[4] + s[5]
        while p + 4 <= end:             # attributes: format, kind, then by format
            fmt, kind = d[p], d[p + 1]
            size = struct.unpack_from('<H', d, p + 2)[0] if fmt == 4 else 0
            if fmt == 4 and kind == 0x2f and size == 8:
                sym, regs = struct.unpack_from('<II', d, p + 4)
                if sym == info & 0xffffff:
                    return regs
            p += 4 + size if fmt == 4 else 4
    return None


def opcode(ins):
    return re.sub(r'^@!?U?P\w+\s+', '', ins).split()[0]


def counts(body):
    c = collections.Counter()
    for _, ins in body:
        op = opcode(ins)
        c[op.split('.')[0]] += 1
        if op.startswith(('LDS', 'LDG', 'STS', 'STG', 'LD.', 'ST.')):
            c[op] += 1
    return c


def facts(tool, cubin, func, dump):
    code = [(a, i) for a, i in sass(tool, cubin, func) if opcode(i) != 'NOP']
    if code and re.fullmatch(r'BRA 0x%x' % code[-1][0], code[-1][1]):
        code = code[:-1]       # the closing "BRA self"
    if dump:
        for a, i in code:
            print('%04x %s' % (a, i))
    c = counts(code)
    print('%s: %s registers, %d instructions, %d BPT.TRAP' %
          (func, registers(cubin, func), len(code), c['BPT']))
    for end, ins in code:
        m = re.search(r'\bBRA (?:`\(\.L_x_\d+\) )?0x([0-9a-f]+)', ins)
        if not m or int(m.group(1), 16) >= end:
            continue
        body = [(a, i) for a, i in code if int(m.group(1), 16) <= a <= end]
        lc = counts(body)
        print('  loop %#x..%#x: %d instructions; %s' % (body[0][0], end, len(body),
              ', '.join('%s %d' % kv for kv in sorted(lc.items(), key=lambda kv: (-kv[1], kv[0])))))


def main(argv):
    tool = os.environ.get('CUOBJDUMP', 'cuobjdump')
    dump = False
    while argv and argv[0].startswith('--'):
        if argv[0] == '--cuobjdump' and len(argv) > 1:
            tool, argv = argv[1], argv[2:]
        elif argv[0] == '--dump':
            dump, argv = True, argv[1:]
        else:
            break
    if len(argv) < 2:
        sys.stderr.write(__doc__.split('\n\n')[1] + '\n')
        return 2
    cubin, tmp = as_v7(argv[0])
    try:
        for func in argv[1:]:
            facts(tool, cubin, func, dump)
    finally:
        if tmp:
            os.unlink(tmp)
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))
