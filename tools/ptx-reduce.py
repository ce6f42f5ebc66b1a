#!/usr/bin/env python3
"""tools/ptx-reduce.py: shrinks a PTX file that crashes ptxas, by delta
debugging (ddmin), to the smallest PTX that still crashes it the same way.

usage: tools/ptx-reduce.py [options] IN.ptx OUT.ptx

A candidate is kept when it is still "interesting":
  1. `ptxas -arch=ARCH CRASH_OPT cand.ptx` dies of SIGSEGV (or --signal);
  2. with --same-pc (default when gdb is there), gdb finds the fault at
     the same instruction address in ptxas as the input's (ptxas is not
     position independent, so the address names the bug: a candidate
     that crashes elsewhere is another bug, not a smaller copy of this
     one);
  3. `ptxas -arch=ARCH VALID_OPT cand.ptx` accepts it (exit 0), so every
     candidate is valid PTX and the crash is ptxas's, not a parse error.

Passes, repeated until none removes anything (OUT.ptx is rewritten after
every success, so an interrupted run leaves its best so far):
  strip    debug info (.loc, .file, .section, $L__tmp/$L__func labels)
           and comments, all at once
  items    top-level items: a function's definition together with its
           declaration, globals, declarations
  stubs    a function's body replaced by `ret;` (params kept), one at a
           time: keeps its callers valid where removing it would not
  blocks   basic blocks (a label to the next label)
  groups   brace groups inside bodies (call sequences `{ // callseq`)
  lines    single body lines (instructions, .reg/.local/.param lines)

Each pass is ddmin over its units: remove chunks of n units, n from half
of them down to one. -v prints each success.  The checks take the ptxas
of --ptxas, $PTXAS, else $CUDA_HOME/bin/ptxas (/usr/local/cuda)."""
import argparse
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile

FUNC_HEAD = re.compile(r'^(\.visible\s+|\.weak\s+|\.extern\s+)*\.(func|entry)\b')
FUNC_NAME = re.compile(r'\.(?:func|entry)\s+(?:\([^)]*\)\s*)?([A-Za-z_$%][\w$]*)')
LABEL = re.compile(r'^\s*([$\w]+):\s*$')
DEBUG_LINE = re.compile(r'^\s*(\.loc|\.file)\b|^\s*\$L__(tmp|func_begin|func_end)\w*:\s*$|^\s*//')


class Checker:
    """Runs ptxas on candidates; remembers the input's crash address."""

    def __init__(self, args):
        self.ptxas = args.ptxas
        self.arch = args.arch
        self.crash_opt = args.crash_opt
        self.valid_opt = args.valid_opt
        self.timeout = args.timeout
        self.signal = args.signal
        self.gdb = shutil.which('gdb') if args.same_pc else None
        self.pc = None
        self.tmp = tempfile.mkdtemp(prefix='ptx-reduce-')
        self.tests = 0

    def run(self, opt, path):
        cmd = [self.ptxas, '-arch=' + self.arch, opt, path, '-o', os.devnull]
        try:
            return subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                                  timeout=self.timeout).returncode
        except subprocess.TimeoutExpired:
            return None

    def fault_pc(self, path):
        """The address of the faulting instruction in ptxas, under gdb."""
        cmd = [self.gdb, '-batch', '-nx', '-ex', 'run', '-ex', 'p/x $pc', '--args',
               self.ptxas, '-arch=' + self.arch, self.crash_opt, path, '-o', os.devnull]
        try:
            out = subprocess.run(cmd, capture_output=True, text=True, timeout=self.timeout * 4).stdout
        except subprocess.TimeoutExpired:
            return None
        m = re.search(r'^\$1 = (0x[0-9a-f]+)', out, re.M)
        return m.group(1) if m else None

    def interesting(self, text):
        self.tests += 1
        path = os.path.join(self.tmp, 'cand.ptx')
        with open(path, 'w') as f:
            f.write(text)
        if self.run(self.crash_opt, path) != -self.signal:
            return False
        if self.gdb and self.pc is not None and self.fault_pc(path) != self.pc:
            return False
        return self.run(self.valid_opt, path) == 0

    def start(self, text):
        """Checks the input itself and records its crash address."""
        if not self.interesting(text):
            sys.exit('ptx-reduce: the input is not interesting (no crash at %s, or %s rejects it)'
                     % (self.crash_opt, self.valid_opt))
        if self.gdb:
            path = os.path.join(self.tmp, 'cand.ptx')
            self.pc = self.fault_pc(path)
            print('ptx-reduce: ptxas faults at %s' % self.pc, file=sys.stderr)


# ---------------------------------------------------------------- parsing

def top_items(lines):
    """Top-level items as (first, end, kind, name): a function definition
    ('def', through its closing '}'), a declaration ending in ';' ('decl'),
    a one-line global ('global'); header lines and blank lines are none."""
    items, i, n = [], 0, len(lines)
    while i < n:
        s = lines[i].strip()
        if FUNC_HEAD.match(s):
            j, depth, seen = i, 0, False
            while j < n:
                t = lines[j].split('//')[0]
                depth += t.count('{') - t.count('}')
                seen = seen or '{' in t
                if (seen and depth == 0) or (not seen and t.rstrip().endswith(';')):
                    break
                j += 1
            m = FUNC_NAME.search(' '.join(l.strip() for l in lines[i:j + 1]))
            items.append((i, j + 1, 'def' if seen else 'decl', m.group(1) if m else None))
            i = j + 1
        elif re.match(r'^(\.visible\s+|\.extern\s+|\.weak\s+)*\.(global|const|shared)\b', s):
            items.append((i, i + 1, 'global', None))
            i += 1
        else:
            i += 1
    return items


def bodies(lines):
    """Line ranges (first, end) of the statements inside each function
    body: after the line with the body's '{', before its closing '}'."""
    out = []
    for first, end, kind, _ in top_items(lines):
        if kind != 'def':
            continue
        k = first
        while '{' not in lines[k].split('//')[0]:
            k += 1
        out.append((k + 1, end - 1))
    return out


# ---------------------------------------------------------------- units

def units_items(lines):
    """A definition with its declarations; every other item alone."""
    by_name, units = {}, []
    for first, end, kind, name in top_items(lines):
        rng = list(range(first, end))
        if name is not None:
            if name not in by_name:
                by_name[name] = len(units)
                units.append([])
            units[by_name[name]].extend(rng)
        else:
            units.append(rng)
    return units


def units_blocks(lines):
    units = []
    for first, end in bodies(lines):
        cur = None
        for k in range(first, end):
            if LABEL.match(lines[k]):
                cur = [k]
                units.append(cur)
            elif cur is not None:
                cur.append(k)
    return units


def units_groups(lines):
    units = []
    for first, end in bodies(lines):
        stack = []
        for k in range(first, end):
            s = lines[k].split('//')[0].strip()
            if s == '{' or s.startswith('{'):
                stack.append(k)
            elif s == '}' and stack:
                units.append(list(range(stack.pop(), k + 1)))
    return units


def units_lines(lines):
    return [[k] for first, end in bodies(lines) for k in range(first, end) if lines[k].strip()]


# ---------------------------------------------------------------- ddmin

def without(lines, drop):
    return [l for k, l in enumerate(lines) if k not in drop]


def ddmin(lines, units_of, check, save, verbose, name):
    """Removes chunks of units while the result stays interesting."""
    units = units_of(lines)
    n = 2
    while units and n <= 2 * len(units):
        size = max(1, len(units) // n)
        removed, i = False, 0
        while i < len(units):
            chunk = units[i:i + size]
            drop = set(k for u in chunk for k in u)
            cand = without(lines, drop)
            if check.interesting(''.join(cand)):
                lines = cand
                save(lines)
                if verbose:
                    print('ptx-reduce: %s: -%d units, %d lines left' % (name, len(chunk), len(lines)),
                          file=sys.stderr)
                units = units_of(lines)
                removed = True
                continue
            i += size
        if size == 1 and not removed:
            break
        if not removed:
            n *= 2
    return lines


def strip_debug(lines, check, save, verbose):
    """Debug sections, .loc/.file lines, debug labels, comments: at once."""
    out, skip = [], 0
    for l in lines:
        s = l.strip()
        if skip or s.startswith('.section'):
            skip += s.count('{') - s.count('}')
            continue
        if DEBUG_LINE.match(l):
            continue
        out.append(re.sub(r'\s*//.*$', '', l.rstrip('\n')) + '\n' if '//' in l else l)
    if out != lines and check.interesting(''.join(out)):
        save(out)
        if verbose:
            print('ptx-reduce: strip: %d lines left' % len(out), file=sys.stderr)
        return out
    return lines


def stub_bodies(lines, check, save, verbose):
    """Each function's body replaced by `ret;`, one function at a time."""
    for idx in range(len(bodies(lines))):
        bs = bodies(lines)
        if idx >= len(bs):
            break
        first, end = bs[idx]
        if end - first <= 1:
            continue
        cand = lines[:first] + ['\tret;\n'] + lines[end:]
        if check.interesting(''.join(cand)):
            lines = cand
            save(lines)
            if verbose:
                print('ptx-reduce: stubs: body %d, %d lines left' % (idx, len(lines)), file=sys.stderr)
    return lines


def reduce(lines, check, save, verbose):
    lines = strip_debug(lines, check, save, verbose)
    while True:
        before = len(lines)
        lines = ddmin(lines, units_items, check, save, verbose, 'items')
        lines = stub_bodies(lines, check, save, verbose)
        lines = ddmin(lines, units_blocks, check, save, verbose, 'blocks')
        lines = ddmin(lines, units_groups, check, save, verbose, 'groups')
        lines = ddmin(lines, units_lines, check, save, verbose, 'lines')
        if len(lines) == before:
            return lines


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument('input')
    ap.add_argument('output')
    ap.add_argument('--ptxas', default=os.environ.get('PTXAS') or
                    os.path.join(os.environ.get('CUDA_HOME', '/usr/local/cuda'), 'bin', 'ptxas'))
    ap.add_argument('--arch', default='sm_90')
    ap.add_argument('--crash-opt', default='-O3', help='the level that crashes (default -O3)')
    ap.add_argument('--valid-opt', default='-O0', help='the level that must accept (default -O0)')
    ap.add_argument('--signal', type=int, default=signal.SIGSEGV, help='the fatal signal (default SIGSEGV)')
    ap.add_argument('--timeout', type=float, default=60, help='seconds per ptxas run')
    ap.add_argument('--same-pc', dest='same_pc', action='store_true', default=True)
    ap.add_argument('--any-pc', dest='same_pc', action='store_false',
                    help='accept a crash anywhere in ptxas')
    ap.add_argument('-v', '--verbose', action='store_true')
    args = ap.parse_args()
    with open(args.input) as f:
        lines = f.readlines()
    check = Checker(args)
    check.start(''.join(lines))

    def save(ls):
        with open(args.output, 'w') as f:
            f.write(''.join(ls))

    save(lines)
    lines = reduce(lines, check, save, args.verbose)
    shutil.rmtree(check.tmp, ignore_errors=True)
    print('ptx-reduce: %d lines, %d ptxas checks' % (len(lines), check.tests), file=sys.stderr)


if __name__ == '__main__':
    main()
