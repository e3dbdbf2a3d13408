#!/usr/bin/env python3
"""Critical-value queries of seed 001 (FPCS) as SMT-LIB QF_FP scripts.

The seed's figures were lost in extraction; the programs are written from its
text (see each docstring below) and are the natural programs it describes:

  heron(a, b, c): squared area s*(s-a)*(s-b)*(s-c), s = (a+b+c)/2, computed
      only when a <= b + c (line 5, valid triangle; a is the longest side);
      a in [5, 10], b, c in [0, 5].
  optimized heron: line 7 rewritten without cancellation (Kahan):
      ((a+(b+c)) * (c-(a-b)) * (c+(a-b)) * (a+(b-c))) / 16.
  slope(13, h) = ((13+h)^2 - (13-h)^2) / (2h), h in [1e-6, 1e-3]; the real
      answer is 26.
  polynomial(a, b, c) = (a*a + b + 1e-5) * c, a, c in [1e3, 1e4], b in [0, 1];
      real minimum 1000000000.01.

All arithmetic is binary32, round to nearest even; interval bounds are C float
literals (binary32) unless the name says `double` (the output promoted to
binary64 and compared with a double literal). Each query asks: is there an
input in the domain whose output lies in a suspicious interval [x_F, x_R) or
(x_R, x_F]? `:status` is given only where the answer is known independently
(a natively checked witness, or a proof in the file's comment).

Usage: gen_critical.py OUTDIR
"""
import os, sys

def f(x):
    x = str(x)
    if x.startswith("-"):
        return f"((_ to_fp 8 24) RNE (- {x[1:]}))"
    return f"((_ to_fp 8 24) RNE {x})"

def d(x):
    x = str(x)
    if x.startswith("-"):
        return f"((_ to_fp 11 53) RNE (- {x[1:]}))"
    return f"((_ to_fp 11 53) RNE {x})"

def dec(v):
    """An SMT-LIB decimal for a Python float given to 6 places."""
    t = f"{v:.6f}".rstrip("0")
    return t + "0" if t.endswith(".") else t

def add(a, b): return f"(fp.add RNE {a} {b})"
def sub(a, b): return f"(fp.sub RNE {a} {b})"
def mul(a, b): return f"(fp.mul RNE {a} {b})"
def div(a, b): return f"(fp.div RNE {a} {b})"

def header(name, vars_, ranges, note):
    out = ["(set-logic QF_FP)", f"(set-info :source |{name}: {note}|)"]
    for v in vars_:
        out.append(f"(declare-fun {v} () Float32)")
    for v, (lo, hi) in ranges.items():
        out.append(f"(assert (fp.leq {f(lo)} {v}))")
        out.append(f"(assert (fp.leq {v} {f(hi)}))")
    return out

def in_interval(x, lo, hi, lo_open, hi_open, conv=f):
    lo_op = "fp.lt" if lo_open else "fp.leq"
    hi_op = "fp.lt" if hi_open else "fp.leq"
    return [f"(assert ({lo_op} {conv(lo)} {x}))", f"(assert ({hi_op} {x} {conv(hi)}))"]

def heron(optimized):
    ranges = {"a": ("5.0", "10.0"), "b": ("0.0", "5.0"), "c": ("0.0", "5.0")}
    body = [f"(assert (fp.leq a {add('b', 'c')}))"]
    if optimized:
        t = div(mul(mul(mul(add("a", add("b", "c")), sub("c", sub("a", "b"))), add("c", sub("a", "b"))),
                    add("a", sub("b", "c"))), f("16.0"))
    else:
        body.append(f"(define-fun s () Float32 {div(add(add('a', 'b'), 'c'), f('2.0'))})")
        t = mul(mul(mul("s", sub("s", "a")), sub("s", "b")), sub("s", "c"))
    body.append(f"(define-fun squared_area () Float32 {t})")
    return ranges, body

def write(out, name, lines, status=None):
    if status:
        lines.insert(1, f"(set-info :status {status})")
    lines += ["(check-sat)", "(exit)"]
    with open(os.path.join(out, name + ".smt2"), "w") as fh:
        fh.write("\n".join(lines) + "\n")

def main():
    out = sys.argv[1] if len(sys.argv) > 1 else "critical"
    os.makedirs(out, exist_ok=True)
    n = 0
    for optimized in (False, True):
        prog = "heron_opt" if optimized else "heron"
        for eps, lo_bound, hi_bound in (("1e-5", "-0.00001", "156.25001"), ("1e-3", "-0.001", "156.251")):
            ranges, body = heron(optimized)
            # Lower suspicious interval [-1262.21, -eps).
            status = "sat" if eps == "1e-5" else None  # witnesses checked natively (cp_design.md 6.2, 6.3)
            lines = header(f"{prog}_low_{eps}", "abc", ranges, f"squared area in [-1262.21, {lo_bound})") + body
            lines += in_interval("squared_area", "-1262.21", lo_bound, False, True)
            write(out, f"{prog}_low_{eps}", lines, status); n += 1
            # Upper suspicious interval (156.25 + eps, 979.01].
            status = "sat" if (eps == "1e-5" and not optimized) else None
            lines = header(f"{prog}_high_{eps}", "abc", ranges, f"squared area in ({hi_bound}, 979.01]") + body
            lines += in_interval("squared_area", hi_bound, "979.01", True, False)
            write(out, f"{prog}_high_{eps}", lines, status); n += 1
    # The optimized heron's upper interval with a double bound: its largest
    # value 156.25001f = 156.2500152587890625 exceeds the double 156.25001.
    ranges, body = heron(True)
    lines = header("heron_opt_high_double", "abc", ranges, "(double) squared area in (156.25001, 979.01]") + body
    lines += [f"(define-fun r () Float64 ((_ to_fp 11 53) RNE squared_area))"]
    lines += in_interval("r", "156.25001", "979.01", True, False, conv=d)
    write(out, "heron_opt_high_double", lines); n += 1
    # slope: [0, 26 - eps) and (26 + eps, 25943].
    for eps in ("0.00001", "0.001", "1.0"):
        for side in ("low", "high"):
            lines = header(f"slope_{side}_{eps}", ["h"], {"h": ("0.000001", "0.001")}, "slope(13, h)")
            x0 = f("13.0")
            lines.append(f"(define-fun res () Float32 {div(sub(mul(add(x0, 'h'), add(x0, 'h')), mul(sub(x0, 'h'), sub(x0, 'h'))), mul(f('2.0'), 'h'))})")
            if side == "low":
                lines += in_interval("res", "0.0", dec(26 - float(eps)), False, True)
            else:
                lines += in_interval("res", dec(26 + float(eps)), "25943.0", True, False)
            write(out, f"slope_{side}_{eps}", lines, "sat"); n += 1  # exhaustive ground truth (cp_design.md 6.4)
    # polynomial: (a*a + b + 1e-5) * c below the real minimum 1000000000.01.
    ranges = {"a": ("1000.0", "10000.0"), "b": ("0.0", "1.0"), "c": ("1000.0", "10000.0")}
    poly = mul(add(add(mul("a", "a"), "b"), f("0.00001")), "c")
    lines = header("polynomial_double", "abc", ranges, "(double) result below 1000000000.01") + [f"(define-fun r () Float32 {poly})"]
    lines += [f"(assert (fp.lt ((_ to_fp 11 53) RNE r) {d('1000000000.01')}))"]
    write(out, "polynomial_double", lines, "sat"); n += 1  # a=1000, b=0, c=1000 gives exactly 1e9
    lines = header("polynomial_float", "abc", ranges, "result below 1000000000.01f (= 1e9 in binary32)") + [f"(define-fun r () Float32 {poly})"]
    lines += [f"(assert (fp.lt r {f('1000000000.01')}))"]
    # unsat by monotonicity: r >= ((1e6 + 0) + 1e-5f) * 1000 = 1e9 in binary32.
    write(out, "polynomial_float", lines, "unsat"); n += 1
    print(f"wrote {n} scripts to {out}")

if __name__ == "__main__":
    main()
