#!/usr/bin/env python3
"""bench/cas/static.py: the static table of BENCHMARKS.md's "Contended
compare-exchange" section, no GPU needed. For each scope and ordering, the
memory operations and fences of a CAS loop and of a fetch_add in PTX and
in SASS: oxidec's examples/cas_contention (f_* kernels; PTX through ptxas
-O3) next to nvcc's twins in bench/cas/cas_ref.cu (r_* kernels).

usage: bench/cas/static.py OXIDEC.ptx OXIDEC.cubin NVCC.ptx NVCC.cubin

Prints a markdown table; "|" marks a loop's head (a backward branch's
target) and its backward branch. SASS through cuobjdump -sass (CUOBJDUMP,
default cuobjdump; CUDA 13's cubins are given the ELF ABI 7 header of
tools/sass-facts.py first, for an older cuobjdump)."""
import importlib.util
import os
import re
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
spec = importlib.util.spec_from_file_location('sass_facts', os.path.join(HERE, '../../tools/sass-facts.py'))
sass_facts = importlib.util.module_from_spec(spec)
spec.loader.exec_module(sass_facts)

PTX_OPS = re.compile(r'^(atom|fence|membar|red|ld\.(relaxed|acquire|volatile|global))')
SASS_OPS = re.compile(r'(ATOM|RED|MEMBAR|ERRBAR|CCTL|FENCE|LDG|^LD\.)')


def ptx_kernels(path):
    """kernel -> its memory operations and fences, '|' at each loop label"""
    out, name = {}, None
    for line in open(path):
        m = re.match(r'\.visible \.entry (\w+)\(', line)
        if m:
            name = m.group(1)
            out[name] = []
            continue
        if name is None:
            continue
        s = line.strip()
        if s == '}':
            name = None
        elif re.match(r'\$L__BB\d+_\d+:', s):
            out[name].append('|')
        elif PTX_OPS.match(s) and 'param' not in s:
            out[name].append(s.split()[0].rstrip(';'))
    return out


def sass_kernels(path):
    """kernel -> its atomics, fences and loads in SASS, '|' at a backward
    branch's target and after the branch"""
    tool = os.environ.get('CUOBJDUMP', 'cuobjdump')
    cubin, tmp = sass_facts.as_v7(path)
    try:
        text = subprocess.run([tool, '-sass', cubin], capture_output=True, text=True, check=True).stdout
    finally:
        if tmp:
            os.unlink(tmp)
    code, name = {}, None
    for line in text.splitlines():
        m = re.match(r'\s+Function : (\w+)', line)
        if m:
            name = m.group(1)
            code[name] = []
            continue
        m = re.match(r'\s+/\*([0-9a-f]{4,})\*/\s+(.*?)\s*;?\s*/\*', line)
        if m and name:
            code[name].append((int(m.group(1), 16), m.group(2).rstrip(' ;')))
    out = {}
    for k, ins in code.items():
        heads, back = set(), set()
        for a, i in ins:
            b = re.search(r'\bBRA (?:`\(\.L_x_\d+\) )?0x([0-9a-f]+)', i)
            if b and int(b.group(1), 16) < a:
                heads.add(int(b.group(1), 16))
                back.add(a)
        s = []
        for a, i in ins:
            if a in heads:
                s.append('|')
            if SASS_OPS.search(sass_facts.opcode(i)):
                s.append(re.sub(r'\s.*', '', re.sub(r'^(@!?P\w+)\s+', r'\1 ', i)) if not i.startswith('@')
                         else ' '.join(i.split()[:2]))
            if a in back:
                s.append('|')
        out[k] = s
    return out


def show(ops):
    s = ' '.join(ops)
    s = re.sub(r'(\| )+\|', '|', s).strip()
    return '`' + s + '`' if s else ''


ROWS = [('%s %s %s' % (s, o, f), 'f_%s_%s_%s' % (rs, o, f), 'r_%s_%s_%s' % (s, o, f))
        for s, rs in (('gpu', 'dev'), ('sys', 'sys'), ('cta', 'cta'))
        for o in ('relaxed', 'acquire', 'release', 'acqrel', 'seqcst') for f in ('cas', 'add')]
ROWS += [('gpu relaxed cas (atomicCAS)', 'cas_relaxed', 'r_atomic_cas'),
         ('gpu relaxed add (atomicAdd)', 'add_relaxed', 'r_atomic_add'),
         ('cta relaxed cas (atomicCAS_block)', 'f_cta_relaxed_cas', 'r_atomic_block_cas'),
         ('cta relaxed add (atomicAdd_block)', 'f_cta_relaxed_add', 'r_atomic_block_add'),
         ('sys relaxed cas (atomicCAS_system)', 'f_sys_relaxed_cas', 'r_atomic_system_cas'),
         ('sys relaxed add (atomicAdd_system)', 'f_sys_relaxed_add', 'r_atomic_system_add'),
         ('bench: gpu acqrel/relaxed cas', 'cas_acqrel', 'ref_cas_acqrel'),
         ('bench: sys acqrel/relaxed cas', 'sys_cas_acqrel', 'ref_sys_cas_acqrel')]


def main(argv):
    if len(argv) != 4:
        sys.stderr.write(__doc__.split('\n\n')[1] + '\n')
        return 2
    oxp, oxs, nvp, nvs = ptx_kernels(argv[0]), sass_kernels(argv[1]), ptx_kernels(argv[2]), sass_kernels(argv[3])
    print('| scope, ordering, form | side | PTX | SASS (atomics, fences, loads) |')
    print('|---|---|---|---|')
    for title, ox, nv in ROWS:
        print('| %s | oxidec | %s | %s |' % (title, show(oxp.get(ox, ['missing'])), show(oxs.get(ox, ['missing']))))
        print('| | nvcc | %s | %s |' % (show(nvp.get(nv, ['missing'])), show(nvs.get(nv, ['missing']))))
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))
