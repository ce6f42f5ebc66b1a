"""tests/golden/sig_vs_header.py SIG.json HEADER.h: the signature
(--emit=signature) and the header (--emit=header) of one module must
describe the same PTX parameters: per kernel, the signature's "ptx"
entries, in order, are the header's OXK_K_PARAMS rows X(index, "name",
"C type", "role", bytes), and its kernels are the header's. Also checks
what a wrapper relies on: indices 0..nparam-1 in order, a slice's pointer
then its u64 length, a dtype for every non-byval parameter. Prints what
differs; exit status 1 then. Standard library only."""
import json
import re
import sys


def header_rows(text):
    kernels = {}
    for m in re.finditer(r'#define OXK_(\w+)_PARAMS\(X\)((?:[ \t]*\\\n\tX\([^\n]*\))*)', text):
        rows = re.findall(r'X\((\d+), "([^"]*)", "([^"]*)", "([^"]*)", (\d+)\)', m.group(2))
        kernels[m.group(1)] = [(int(i), n, c, r, int(b)) for i, n, c, r, b in rows]
    return kernels


def check(sig, hdr):
    errs = []
    if sorted(k["entry"] for k in sig["kernels"]) != sorted(hdr):
        errs.append(f"kernels: signature {[k['entry'] for k in sig['kernels']]}, header {sorted(hdr)}")
    for k in sig["kernels"]:
        rows = [(p["index"], p["name"], p["ctype"], p["role"], p["bytes"]) for a in k["params"] for p in a["ptx"]]
        if rows != hdr.get(k["entry"]):
            errs.append(f"{k['entry']}: signature {rows} != header {hdr.get(k['entry'])}")
        if [r[0] for r in rows] != list(range(k["nparam"])):
            errs.append(f"{k['entry']}: indices {[r[0] for r in rows]}, nparam {k['nparam']}")
        for a in k["params"]:
            roles = [p["role"] for p in a["ptx"]]
            if a["kind"] == "slice" and (roles != ["pointer", "length"] or a["ptx"][1]["dtype"] != "uint64"):
                errs.append(f"{k['entry']}.{a['name']}: a slice as {roles}")
            for p in a["ptx"]:
                if (p["dtype"] is None) != (p["role"] == "byval"):
                    errs.append(f"{k['entry']}.{p['name']}: dtype {p['dtype']} for role {p['role']}")
    return errs


def main():
    with open(sys.argv[1], encoding="utf-8") as f:
        sig = json.load(f)
    with open(sys.argv[2], encoding="utf-8") as f:
        hdr = header_rows(f.read())
    errs = check(sig, hdr)
    for e in errs:
        print(e)
    return 1 if errs else 0


if __name__ == "__main__":
    sys.exit(main())
