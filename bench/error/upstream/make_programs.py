#!/usr/bin/env python3
"""Write FPGen's benchmark programs on the REAL upstream code, one
self-contained C file per program, for `fpsym error`.

FPGen (seed 002, Guo and Rubio-Gonzalez, ICSE 2020) measured its three
summation loops, nine Meschach routines and the GSL weighted statistics with
`float` inputs in [-100, 100] passed to the libraries' `double` code. Each
file written here exposes

    double prog(const float *x, ...)          (a scalar result), or
    void   prog(const float *a, ..., double *out)   (a vector/matrix result)

which converts its float arrays to the library's types and calls the
upstream routine, whose source is concatenated into the file:

- Meschach 1.2b: the routine and the Meschach functions it calls, copied
  verbatim from the upstream .c files (K&R C as shipped), after a prelude
  with matrix.h's types and macros; error() aborts, MEM_STAT_REG does
  nothing, and memory.c's v_get/v_resize/m_resize work on fixed static
  storage instead of the heap (the only code not taken from Meschach).
  Matrices and vectors of prog are local arrays wrapped in Meschach's
  VEC/MAT/PERM structs.
- GSL 2.7.1: the statistics source files (statistics/w*_source.c)
  instantiated for double exactly as GSL's statistics/w*.c do
  (#define BASE_DOUBLE, templates_on.h, the source, templates_off.h), with
  the prototypes of statistics/gsl_statistics_double.h. GSL accumulates in
  `long double`; --double-accumulators replaces `long double` by `double` in
  the GSL text, as FPGen did (seed footnote 11), and writes to
  programs-double-acc/ by default.
- The summations are FPGen's own code (not a library): the algorithms of
  bench/error/programs/sum_*.c with a float input array.

Also writes programs.json (the format of bench/error/programs/programs.json,
with the seed's Table 3 figures of the corresponding program copied from it).

    bash bench/error/upstream/fetch.sh
    python3 bench/error/upstream/make_programs.py [--double-accumulators] [--out DIR]
"""

import argparse
import json
import re
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[2]
UP = ROOT / "target/bench/upstream"
MES = UP / "meschach-1.2b"
GSL = UP / "gsl"
REWRITES = ROOT / "bench/error/programs"

MESCHACH_VERSION = "Meschach 1.2b (Debian meschach_1.2b.orig.tar.gz)"
GSL_VERSION = "GSL 2.7.1 (Debian gsl_2.7.1+dfsg.orig.tar.gz)"


# --------------------------------------------------------------------------
# Extracting a function definition from a C file
# --------------------------------------------------------------------------

def mask_comments(text):
    """The text with comments, string and character literals blanked out
    (same length, newlines kept), for scanning braces and parentheses."""
    out = list(text)
    i, n = 0, len(text)
    while i < n:
        c = text[i]
        if text.startswith("/*", i):
            j = text.find("*/", i + 2)
            j = n if j < 0 else j + 2
            for k in range(i, j):
                if out[k] != "\n":
                    out[k] = " "
            i = j
        elif text.startswith("//", i):
            j = text.find("\n", i)
            j = n if j < 0 else j
            for k in range(i, j):
                out[k] = " "
            i = j
        elif c in "\"'":
            j = i + 1
            while j < n and text[j] != c:
                j += 2 if text[j] == "\\" else 1
            for k in range(i + 1, min(j, n)):
                if out[k] != "\n":
                    out[k] = " "
            i = j + 1
        else:
            i += 1
    return "".join(out)


def match_close(masked, i, open_ch, close_ch):
    depth = 0
    for k in range(i, len(masked)):
        if masked[k] == open_ch:
            depth += 1
        elif masked[k] == close_ch:
            depth -= 1
            if depth == 0:
                return k
    raise ValueError(f"unbalanced {open_ch}{close_ch}")


def extract_function(path, name):
    """The definition of function `name` in `path` (ANSI or K&R), with the
    comment block right before it."""
    text = path.read_text(encoding="latin-1")
    masked = mask_comments(text)
    for m in re.finditer(r"^[A-Za-z_][^\n;{}()]*?\b" + re.escape(name) + r"\s*\(", masked, re.M):
        if re.match(r"\s*(extern|#)", masked[m.start():]):
            continue
        close = match_close(masked, m.end() - 1, "(", ")")
        rest = masked[close + 1:].lstrip()
        if not rest or rest[0] in ";,":
            continue  # a declaration
        body = masked.index("{", close)
        if ";" in masked[close + 1:body] and not re.search(r"\w", masked[close + 1:body].split(";")[0]):
            continue
        end = match_close(masked, body, "{", "}")
        start = m.start()
        # the comment block just before the definition (blank lines allowed)
        before = text[:start].rstrip()
        if before.endswith("*/"):
            cstart = text.rfind("/*", 0, len(before))
            if cstart >= 0 and "\n" not in masked[text.rfind("\n", 0, cstart) + 1:cstart].strip():
                start = cstart
        return text[start:end + 1] + "\n"
    raise SystemExit(f"{path}: no definition of {name}")


# --------------------------------------------------------------------------
# Meschach
# --------------------------------------------------------------------------

# Upstream file of each Meschach function used, and its ANSI prototype
# (as in matrix.h / matrix2.h).
MESCHACH_FUNCS = {
    "__ip__": ("machine.c", "double __ip__(Real *dp1, Real *dp2, int len);"),
    "__mltadd__": ("machine.c", "void __mltadd__(Real *dp1, Real *dp2, double s, int len);"),
    "__zero__": ("machine.c", "void __zero__(Real *dp, int len);"),
    "v_zero": ("init.c", "VEC *v_zero(VEC *x);"),
    "m_zero": ("init.c", "MAT *m_zero(MAT *A);"),
    "_v_copy": ("copy.c", "VEC *_v_copy(VEC *in, VEC *out, u_int i0);"),
    "get_col": ("submat.c", "VEC *get_col(MAT *mat, u_int col, VEC *vec);"),
    "px_transp": ("pxop.c", "PERM *px_transp(PERM *px, u_int i1, u_int i2);"),
    "_in_prod": ("vecop.c", "double _in_prod(VEC *a, VEC *b, u_int i0);"),
    "v_sum": ("vecop.c", "double v_sum(VEC *x);"),
    "v_conv": ("vecop.c", "VEC *v_conv(VEC *x1, VEC *x2, VEC *out);"),
    "square": ("norm.c", "double square(double x);"),
    "_v_norm1": ("norm.c", "double _v_norm1(VEC *x, VEC *scale);"),
    "_v_norm2": ("norm.c", "double _v_norm2(VEC *x, VEC *scale);"),
    "mv_mlt": ("matop.c", "VEC *mv_mlt(MAT *A, VEC *b, VEC *out);"),
    "m_mlt": ("matop.c", "MAT *m_mlt(MAT *A, MAT *B, MAT *OUT);"),
    "LUfactor": ("lufactor.c", "MAT *LUfactor(MAT *A, PERM *pivot);"),
    "hhvec": ("hsehldr.c", "VEC *hhvec(VEC *vec, u_int i0, Real *beta, VEC *out, Real *newval);"),
    "hhtrcols": ("hsehldr.c", "MAT *hhtrcols(MAT *M, u_int i0, u_int j0, VEC *hh, double beta);"),
    "QRfactor": ("qrfactor.c", "MAT *QRfactor(MAT *A, VEC *diag);"),
}

MESCHACH_NOTICE = """\
/**************************************************************************
**
** Copyright (C) 1993 David E. Steward & Zbigniew Leyk, all rights reserved.
**
**			     Meschach Library
** 
** This Meschach Library is provided "as is" without any express 
** or implied warranty of any kind with respect to this software. 
** In particular the authors shall not be liable for any direct, 
** indirect, special, incidental or consequential damages arising 
** in any way from use of the software.
** 
** Everyone is granted permission to copy, modify and redistribute this
** Meschach Library, provided:
**  1.  All copies contain this copyright notice.
**  2.  All modified copies shall carry a notice stating who
**      made the last modification and the date of such modification.
**  3.  No charge is made for this software or works derived from it.  
**      This clause shall not be construed as constraining other software
**      distributed on the same medium as this software, nor is a
**      distribution fee considered a charge.
**
***************************************************************************/

/* Modification notice: the Meschach functions below are copied unchanged
   from Meschach 1.2b; this file was assembled, with the prelude replacing
   machine.h, matrix.h, err.h, meminfo.h and memory.c's allocation, by
   fpsym's bench/error/upstream/make_programs.py (fpsym project, 2026). */
"""

MESCHACH_PRELUDE = r"""
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* ---- machine.h (configure's defaults: double precision, no unrolling, VUNROLL
   and MUNROLL undefined; CHAR0ISDBL0 undefined, so __zero__ zeroes entry by
   entry instead of memset, the same result) */
#define Real double
#define LongReal double
#define MEM_COPY(from,to,size)	memmove((to),(from),(size))

/* ---- matrix.h: types and macros */
typedef unsigned int u_int;
typedef struct { u_int dim, max_dim; Real *ve; } VEC;
typedef struct { u_int m, n; u_int max_m, max_n, max_size; Real **me, *base; } MAT;
typedef struct { u_int size, max_size, *pe; } PERM;
#define	max(a,b)	((a) > (b) ? (a) : (b))
#define	min(a,b)	((a) > (b) ? (b) : (a))
#define	VNULL	((VEC *)NULL)
#define	MNULL	((MAT *)NULL)
#define	PNULL	((PERM *)NULL)
#define	v_copy(in,out)	_v_copy(in,out,0)
#define	in_prod(a,b)	_in_prod(a,b,0)
#define	v_norm1(x)	_v_norm1(x,VNULL)
#define	v_norm2(x)	_v_norm2(x,VNULL)

/* ---- err.h: any Meschach error aborts */
#define	error(err_num,fn_name)	abort()

/* ---- meminfo.h: no memory statistics */
#define	MEM_STAT_REG(var,type)	((void)0)

/* ---- prototypes (matrix.h, matrix2.h) */
VEC *v_resize(VEC *x, int new_dim);
MAT *m_resize(MAT *A, int new_m, int new_n);
@PROTOTYPES@

/* ---- memory.c's allocation on fixed static storage (not upstream code):
   v_get takes a zeroed vector from a static pool, v_resize is Meschach's
   without the heap (it aborts where Meschach would reallocate), m_resize
   only accepts the matrix's own size. */
#define	POOL_VECS	8
#define	POOL_REALS	64
static VEC pool_vec[POOL_VECS];
static Real pool_real[POOL_REALS];
static int pool_vecs, pool_reals;

static VEC *v_get(int dim)
{
	VEC *v;

	if ( dim < 0 || pool_vecs >= POOL_VECS || pool_reals + dim > POOL_REALS )
		abort();
	v = &pool_vec[pool_vecs++];
	v->dim = v->max_dim = dim;
	v->ve = &pool_real[pool_reals];
	pool_reals += dim;
	__zero__(v->ve,dim);
	return v;
}

VEC *v_resize(VEC *x, int new_dim)
{
	if ( new_dim < 0 )
		abort();
	if ( ! x )
		return v_get(new_dim);
	if ( new_dim == (int)x->dim )
		return x;
	if ( x->max_dim == 0 )
		return v_get(new_dim);
	if ( new_dim > (int)x->max_dim )
		abort();
	if ( new_dim > (int)x->dim )
		__zero__(&(x->ve[x->dim]),new_dim - x->dim);
	x->dim = new_dim;
	return x;
}

MAT *m_resize(MAT *A, int new_m, int new_n)
{
	if ( A && (int)A->m == new_m && (int)A->n == new_n )
		return A;
	abort();
}

/* VEC and MAT structs over caller-owned storage (prog's local arrays) */
@VEC_ON@static VEC *vec_on(VEC *v, Real *ve, u_int dim)
{
	v->dim = v->max_dim = dim;
	v->ve = ve;
	return v;
}
@END_VEC_ON@
@MAT_ON@static MAT *mat_on(MAT *A, Real **me, Real *base, u_int m, u_int n)
{
	u_int i;

	A->m = A->max_m = m;
	A->n = A->max_n = n;
	A->max_size = m * n;
	A->me = me;
	A->base = base;
	for ( i = 0; i < m; i++ )
		me[i] = &base[i * n];
	return A;
}
@END_MAT_ON@
"""


def meschach_source(funcs):
    """The upstream definitions of `funcs` (in this order), each headed by
    its file and name."""
    parts = []
    for f in funcs:
        file = MESCHACH_FUNCS[f][0]
        parts.append(f"/* ---- meschach-1.2b/{file}: {f} */\n" + extract_function(MES / file, f))
    return "\n".join(parts)


# Each Meschach program: file stem, seed name, routine called, the
# Meschach functions it needs (callees before callers where possible),
# prog's prototype, params (name, role, elements used), outputs, prog body.
MESCHACH_PROGRAMS = [
    dict(stem="m_sum", name="sum", routine="v_sum", funcs=["v_sum"],
         params=[("x", "input", 4)], outputs=1,
         computes="v_sum(x): sum of the 4 entries",
         body="""\
double prog(const float *x)
{
	Real x_ve[4];
	VEC X;
	int i;

	for ( i = 0; i < 4; i++ )
		x_ve[i] = (double)x[i];
	return v_sum(vec_on(&X,x_ve,4));
}
"""),
    dict(stem="m_norm1", name="1-norm", routine="v_norm1 (_v_norm1(x,VNULL))", funcs=["_v_norm1"],
         params=[("x", "input", 4)], outputs=1,
         computes="v_norm1(x): sum of |x[i]|",
         body="""\
double prog(const float *x)
{
	Real x_ve[4];
	VEC X;
	int i;

	for ( i = 0; i < 4; i++ )
		x_ve[i] = (double)x[i];
	return v_norm1(vec_on(&X,x_ve,4));
}
"""),
    dict(stem="m_norm2", name="2-norm", routine="v_norm2 (_v_norm2(x,VNULL))", funcs=["square", "_v_norm2"],
         params=[("x", "input", 4)], outputs=1,
         computes="v_norm2(x): sqrt of the sum of squares (unscaled)",
         body="""\
double prog(const float *x)
{
	Real x_ve[4];
	VEC X;
	int i;

	for ( i = 0; i < 4; i++ )
		x_ve[i] = (double)x[i];
	return v_norm2(vec_on(&X,x_ve,4));
}
"""),
    dict(stem="m_dot", name="dot", routine="in_prod (_in_prod(a,b,0))", funcs=["__ip__", "_in_prod"],
         params=[("x", "input", 4), ("y", "input", 4)], outputs=1,
         computes="in_prod(x, y): the dot product",
         body="""\
double prog(const float *x, const float *y)
{
	Real x_ve[4], y_ve[4];
	VEC X, Y;
	int i;

	for ( i = 0; i < 4; i++ ) {
		x_ve[i] = (double)x[i];
		y_ve[i] = (double)y[i];
	}
	return in_prod(vec_on(&X,x_ve,4),vec_on(&Y,y_ve,4));
}
"""),
    dict(stem="m_conv", name="convolution", routine="v_conv", funcs=["__zero__", "__mltadd__", "v_zero", "v_conv"],
         params=[("x", "input", 4), ("y", "input", 4), ("out", "output", 7)], outputs=7, s3fp=3,
         computes="v_conv(x, y, out): out[k] = sum over i+j=k of x[i]*y[j], 7 entries",
         body="""\
void prog(const float *x, const float *y, double *out)
{
	Real x_ve[4], y_ve[4], o_ve[7];
	VEC X, Y, O;
	int i;

	for ( i = 0; i < 4; i++ ) {
		x_ve[i] = (double)x[i];
		y_ve[i] = (double)y[i];
	}
	v_conv(vec_on(&X,x_ve,4),vec_on(&Y,y_ve,4),vec_on(&O,o_ve,7));
	for ( i = 0; i < 7; i++ )
		out[i] = o_ve[i];
}
"""),
    dict(stem="m_mv", name="MV", routine="mv_mlt", funcs=["__ip__", "mv_mlt"],
         params=[("a", "input", 16), ("x", "input", 4), ("out", "output", 4)], outputs=4, s3fp=0,
         computes="mv_mlt(A, x, out): out = A x, A 4x4 row-major in a[16]",
         body="""\
void prog(const float *a, const float *x, double *out)
{
	Real a_base[16], *a_me[4], x_ve[4], o_ve[4];
	MAT A;
	VEC X, O;
	int i;

	for ( i = 0; i < 16; i++ )
		a_base[i] = (double)a[i];
	for ( i = 0; i < 4; i++ )
		x_ve[i] = (double)x[i];
	mv_mlt(mat_on(&A,a_me,a_base,4,4),vec_on(&X,x_ve,4),vec_on(&O,o_ve,4));
	for ( i = 0; i < 4; i++ )
		out[i] = o_ve[i];
}
"""),
    dict(stem="m_mm", name="MM", routine="m_mlt", funcs=["__zero__", "__mltadd__", "m_zero", "m_mlt"],
         params=[("a", "input", 16), ("b", "input", 16), ("out", "output", 16)], outputs=16, s3fp=0,
         computes="m_mlt(A, B, OUT): OUT = A B, 4x4 row-major",
         body="""\
void prog(const float *a, const float *b, double *out)
{
	Real a_base[16], *a_me[4], b_base[16], *b_me[4], o_base[16], *o_me[4];
	MAT A, B, O;
	int i;

	for ( i = 0; i < 16; i++ ) {
		a_base[i] = (double)a[i];
		b_base[i] = (double)b[i];
	}
	m_mlt(mat_on(&A,a_me,a_base,4,4),mat_on(&B,b_me,b_base,4,4),mat_on(&O,o_me,o_base,4,4));
	for ( i = 0; i < 16; i++ )
		out[i] = o_base[i];
}
"""),
    dict(stem="m_lu", name="LU", routine="LUfactor", funcs=["__zero__", "__mltadd__", "px_transp", "LUfactor"],
         params=[("a", "input", 16), ("out", "output", 16)], outputs=16, s3fp=15,
         computes="LUfactor(A, pivot): Gaussian elimination with scaled partial pivoting, in place; "
                  "out = the compact L\\U of P A (row-major), the pivot permutation is not output",
         body="""\
void prog(const float *a, double *out)
{
	Real a_base[16], *a_me[4];
	u_int pe[4];
	MAT A;
	PERM pivot;
	int i;

	for ( i = 0; i < 16; i++ )
		a_base[i] = (double)a[i];
	pivot.size = pivot.max_size = 4;
	pivot.pe = pe;
	LUfactor(mat_on(&A,a_me,a_base,4,4),&pivot);
	for ( i = 0; i < 16; i++ )
		out[i] = a_base[i];
}
"""),
    dict(stem="m_qr", name="QR", routine="QRfactor",
         funcs=["__zero__", "__ip__", "__mltadd__", "v_zero", "_v_copy", "_in_prod", "get_col", "hhvec",
                "hhtrcols", "QRfactor"],
         params=[("a", "input", 16), ("out", "output", 16)], outputs=16, s3fp=15,
         computes="QRfactor(A, diag): Householder QR in place, Meschach's compact form; "
                  "out = A afterwards (R on and above the diagonal, the Householder vectors below; "
                  "their leading entries, QRfactor's diag, are not output)",
         body="""\
void prog(const float *a, double *out)
{
	Real a_base[16], *a_me[4], d_ve[4];
	MAT A;
	VEC D;
	int i;

	for ( i = 0; i < 16; i++ )
		a_base[i] = (double)a[i];
	QRfactor(mat_on(&A,a_me,a_base,4,4),vec_on(&D,d_ve,4));
	for ( i = 0; i < 16; i++ )
		out[i] = a_base[i];
}
"""),
]


def meschach_program(p):
    funcs = list(p["funcs"])
    if "__zero__" not in funcs:
        funcs.insert(0, "__zero__")  # v_get/v_resize use it
    protos = "\n".join(MESCHACH_FUNCS[f][1] for f in funcs)
    prelude = MESCHACH_PRELUDE.replace("@PROTOTYPES@", protos)
    for helper in ("vec_on", "mat_on"):  # only the helpers prog uses
        tag = helper.upper()
        if helper in p["body"]:
            prelude = prelude.replace(f"@{tag}@", "").replace(f"@END_{tag}@\n", "")
        else:
            prelude = re.sub(f"@{tag}@.*?@END_{tag}@\n", "", prelude, flags=re.S)
    files = sorted({MESCHACH_FUNCS[f][0] for f in funcs})
    src = (MESCHACH_NOTICE + prelude + "\n/* ==== Meschach 1.2b, unchanged ==== */\n\n" + meschach_source(funcs)
           + "\n/* ==== FPGen's harness: float inputs, Meschach's double code ==== */\n\n" + p["body"])
    return src, [f"meschach-1.2b/{f}" for f in files], [f for f in funcs]


# --------------------------------------------------------------------------
# GSL
# --------------------------------------------------------------------------

GSL_NOTICE = """\
/* GSL 2.7.1's statistics code below (statistics/w..._source.c, templates_on.h,
   templates_off.h and prototypes from statistics/gsl_statistics_double.h)
   is Copyright (C) 1996-2007 Jim Davies, Brian Gough and others, under the
   GNU General Public License version 3 or later (see the notices below).
   Assembled by fpsym's bench/error/upstream/make_programs.py@DACC@. */
"""

GSL_SOURCES = {  # routine -> (source file, extra files needed for its calls)
    "wmean": ["wmean_source.c"],
    "wvariance": ["wmean_source.c", "wvariance_source.c"],
    "wabsdev": ["wmean_source.c", "wabsdev_source.c"],
    "wskew": ["wmean_source.c", "wvariance_source.c", "wskew_source.c"],
    "wkurtosis": ["wmean_source.c", "wvariance_source.c", "wkurtosis_source.c"],
}

# stem, seed name, the program's call(s), computes, sources key, seed stem,
# GSL functions called by prog.
GSL_PROGRAMS = [
    ("wmean", "wmean", "gsl_stats_wmean", "wmean", "wmean",
     "return gsl_stats_wmean(wd,1,xd,1,N);",
     "weighted mean (running W += w; M += (x - M) (w / W), over w > 0)"),
    ("wvariance", "wvariance", "gsl_stats_wvariance", "wvariance", "wvariance",
     "return gsl_stats_wvariance(wd,1,xd,1,N);",
     "weighted variance with the bias factor (sum w)^2 / ((sum w)^2 - sum w^2)"),
    ("wvariance_m", "wvariance-m", "gsl_stats_wvariance_m", "wvariance", "wvariance",
     "const double wmean = gsl_stats_wmean(wd,1,xd,1,N);\n\treturn gsl_stats_wvariance_m(wd,1,xd,1,N,wmean);",
     "gsl_stats_wvariance_m about the weighted mean (gsl_stats_wmean)"),
    ("wsd", "wsd", "gsl_stats_wsd", "wvariance", "wsd",
     "return gsl_stats_wsd(wd,1,xd,1,N);",
     "weighted standard deviation: sqrt of wvariance"),
    ("wsd_m", "wsd-m", "gsl_stats_wsd_m", "wvariance", "wsd",
     "const double wmean = gsl_stats_wmean(wd,1,xd,1,N);\n\treturn gsl_stats_wsd_m(wd,1,xd,1,N,wmean);",
     "gsl_stats_wsd_m about the weighted mean (gsl_stats_wmean)"),
    ("wvariance_w", "wvariance-w", "gsl_stats_wvariance_with_fixed_mean", "wvariance", "wvariance_w",
     "const double wmean = gsl_stats_wmean(wd,1,xd,1,N);\n"
     "\treturn gsl_stats_wvariance_with_fixed_mean(wd,1,xd,1,N,wmean);",
     "weighted variance about a fixed mean (here the weighted mean), no bias factor"),
    ("wsd_w", "wsd-w", "gsl_stats_wsd_with_fixed_mean", "wvariance", "wsd_w",
     "const double wmean = gsl_stats_wmean(wd,1,xd,1,N);\n"
     "\treturn gsl_stats_wsd_with_fixed_mean(wd,1,xd,1,N,wmean);",
     "sqrt of wvariance-w"),
    ("wtss", "wtss", "gsl_stats_wtss", "wvariance", "wtss",
     "return gsl_stats_wtss(wd,1,xd,1,N);",
     "weighted total sum of squares about the weighted mean: sum w (x - mean)^2"),
    ("wtss_m", "wtss-m", "gsl_stats_wtss_m", "wvariance", "wtss",
     "const double wmean = gsl_stats_wmean(wd,1,xd,1,N);\n\treturn gsl_stats_wtss_m(wd,1,xd,1,N,wmean);",
     "gsl_stats_wtss_m about the weighted mean (gsl_stats_wmean)"),
    ("wabsdev", "wabsdev", "gsl_stats_wabsdev", "wabsdev", "wabsdev",
     "return gsl_stats_wabsdev(wd,1,xd,1,N);",
     "weighted absolute deviation from the weighted mean (running mean of |x - mean|)"),
    ("wabsdev_m", "wabsdev-m", "gsl_stats_wabsdev_m", "wabsdev", "wabsdev",
     "const double wmean = gsl_stats_wmean(wd,1,xd,1,N);\n\treturn gsl_stats_wabsdev_m(wd,1,xd,1,N,wmean);",
     "gsl_stats_wabsdev_m about the weighted mean (gsl_stats_wmean)"),
    ("wskew", "wskew", "gsl_stats_wskew", "wskew", "wskew",
     "return gsl_stats_wskew(wd,1,xd,1,N);",
     "weighted skewness: running weighted mean of ((x - mean) / sd)^3, sd = wsd_m"),
    ("wskew_m", "wskew-m", "gsl_stats_wskew_m_sd", "wskew", "wskew",
     "const double wmean = gsl_stats_wmean(wd,1,xd,1,N);\n"
     "\tconst double wsd = gsl_stats_wsd_m(wd,1,xd,1,N,wmean);\n"
     "\treturn gsl_stats_wskew_m_sd(wd,1,xd,1,N,wmean,wsd);",
     "gsl_stats_wskew_m_sd with the weighted mean and gsl_stats_wsd_m"),
    ("wkurtosis", "wkurtosis", "gsl_stats_wkurtosis", "wkurtosis", "wkurtosis",
     "return gsl_stats_wkurtosis(wd,1,xd,1,N);",
     "weighted kurtosis: running weighted mean of ((x - mean) / sd)^4, minus 3"),
    ("wkurtosis_m", "wkurtosis-m", "gsl_stats_wkurtosis_m_sd", "wkurtosis", "wkurtosis",
     "const double wmean = gsl_stats_wmean(wd,1,xd,1,N);\n"
     "\tconst double wsd = gsl_stats_wsd_m(wd,1,xd,1,N,wmean);\n"
     "\treturn gsl_stats_wkurtosis_m_sd(wd,1,xd,1,N,wmean,wsd);",
     "gsl_stats_wkurtosis_m_sd with the weighted mean and gsl_stats_wsd_m"),
]


def gsl_program(key, call, double_acc):
    sources = GSL_SOURCES[key]
    header = (GSL / "statistics/gsl_statistics_double.h").read_text()
    # every routine the sources define: their prototypes, verbatim
    defined = set()
    for s in sources:
        defined |= set(re.findall(r"FUNCTION\s*\(\s*gsl_stats\s*,\s*(\w+)\s*\)", (GSL / "statistics" / s).read_text()))
    protos = [ln for ln in header.splitlines()
              if (m := re.match(r"double gsl_stats_(\w+) \(", ln)) and m.group(1) in defined]
    on = (GSL / "templates_on.h").read_text()
    off = (GSL / "templates_off.h").read_text()
    parts = [GSL_NOTICE.replace("@DACC@", "; `long double` replaced by `double` in GSL's\n   text "
                                "(--double-accumulators, FPGen's footnote 11)" if double_acc else ""),
             "#include <math.h>\n#include <stddef.h>\n#include <stdlib.h>\n",
             "/* ---- gsl/statistics/gsl_statistics_double.h: the prototypes of the routines below */",
             "\n".join(protos) + "\n"]
    for s in sources:
        text = (GSL / "statistics" / s).read_text()
        if double_acc:
            text = text.replace("long double", "double")
        wrapper = s.replace("_source", "")
        parts.append(f"/* ==== gsl/statistics/{wrapper}: the BASE_DOUBLE instantiation of {s} ==== */\n"
                     "#define BASE_DOUBLE\n"
                     f"/* ---- gsl/templates_on.h */\n{on}\n/* ---- gsl/statistics/{s} */\n{text}\n"
                     f"/* ---- gsl/templates_off.h */\n{off}\n#undef  BASE_DOUBLE\n")
    parts.append(f"""/* ==== FPGen's harness: float inputs, GSL's double code ==== */

#define N 4

double prog(const float *w, const float *x)
{{
	double wd[N], xd[N];
	size_t i;

	for ( i = 0; i < N; i++ ) {{
		wd[i] = (double)w[i];
		xd[i] = (double)x[i];
	}}
	{call}
}}
""")
    return "\n".join(parts), [f"gsl/templates_on.h", f"gsl/templates_off.h",
                              "gsl/statistics/gsl_statistics_double.h"] + [f"gsl/statistics/{s}" for s in sources]


# --------------------------------------------------------------------------
# Summations (FPGen's own code)
# --------------------------------------------------------------------------

SUMS = [("sum_recursive", "Recursive Summation (32)"), ("sum_pairwise", "Pairwise Summation (32)"),
        ("sum_kahan", "Compensated Summation (32)")]


def summation_program(stem):
    text = (REWRITES / f"{stem}.c").read_text()
    code = text[text.index("*/") + 2:].lstrip("\n")
    if code.count("double prog(const double *x)") != 1:
        raise SystemExit(f"{stem}.c: prototype not found")
    return code.replace("double prog(const double *x)", "double prog(const float *x)")


# --------------------------------------------------------------------------

def header_comment(stem, name, routine, proto, params, outputs, computes, sources, seed_prog, extra=""):
    seed = seed_prog["seed"]
    ins = ", ".join(f"{n}[{k}]" for n, r, k in params if r == "input")
    outs = "the return value" if outputs == 1 and not any(r == "output" for _, r, _ in params) \
        else f"out[0..{outputs})"
    lines = [
        f"{stem}.c -- FPGen (ICSE 2020) benchmark \"{name}\" on the upstream code.",
        "Generated by bench/error/upstream/make_programs.py: do not edit.",
        "",
        f"Routine:  {routine}",
        f"Sources:  {', '.join(sources)}",
        f"Function: {proto}",
        f"Inputs:   {ins}: float, FPGen's domain [-100, 100], converted to double",
        f"Output:   {outs}: {computes}",
        f"Seed Table 3 for \"{seed_prog['name']}\": FPGen {seed['fpgen']['rel_error']:.4e}, "
        f"Random {seed['random']['rel_error']:.4e}, S3FP {seed['s3fp']['rel_error']:.4e} (2 h).",
    ]
    if extra:
        lines += [""] + extra.splitlines()
    return "/*\n" + "".join(f" * {ln}".rstrip() + "\n" for ln in lines) + " */\n\n"


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--out", help="output directory (default target/bench/upstream/programs, "
                                  "or programs-double-acc with --double-accumulators)")
    ap.add_argument("--double-accumulators", action="store_true",
                    help="GSL: replace `long double` by `double` (FPGen's footnote 11)")
    a = ap.parse_args()
    for d in (MES, GSL):
        if not d.is_dir():
            sys.exit(f"{d}: missing; run bash bench/error/upstream/fetch.sh first")
    out = Path(a.out) if a.out else UP / ("programs-double-acc" if a.double_accumulators else "programs")
    out.mkdir(parents=True, exist_ok=True)
    spec = json.loads((REWRITES / "programs.json").read_text())
    seeds = {Path(p["file"]).stem: p for p in spec["programs"]}

    progs = []

    def add(stem, name, group, routine, proto, params, outputs, computes, src, sources, seed_stem,
            s3fp=None, upstream_funcs=None, extra=""):
        sp = seeds[seed_stem]
        path = out / f"{stem}.c"
        path.write_text(header_comment(stem, name, routine, proto, params, outputs, computes, sources, sp, extra)
                        + src)
        array_len = max(k for _, _, k in params)
        ret = not any(r == "output" for _, r, _ in params)
        try:
            rel = str(path.relative_to(ROOT))
        except ValueError:
            rel = str(path)
        ranges = " ".join(f"--range '{n}=[-100,100]'" for n, r, _ in params if r == "input")
        progs.append({
            "name": name,
            "file": rel,
            "function": "prog",
            "prototype": proto,
            "group": group,
            "upstream": {"routine": routine, "sources": sources, "functions": upstream_funcs or []},
            "params": [{"name": n, "role": r, "type": "float" if r == "input" else "double",
                        "elements": array_len, "used": k} for n, r, k in params],
            "array_len": array_len,
            "output": "ret" if ret else "out",
            "outputs": outputs,
            "s3fp_output_index": s3fp,
            "computes": computes,
            "seed_program": sp["name"],
            "seed_program_file": sp["file"],
            "seed_reference": sp["seed_reference"],
            "seed_reference_bits": sp["seed_reference_bits"],
            "seed_time_thresholds": sp["seed_time_thresholds"],
            "table2": sp["table2"],
            "seed": sp["seed"],
            "command": f"fpsym error {rel} --function prog --array-len {array_len} {ranges} "
                       f"--output {'ret' if ret else 'out'} --max-time 7200 -o out/upstream/{stem}",
        })

    for stem, name in SUMS:
        add(stem, name, "summation", "FPGen's own loop (bench/error/programs/" + stem + ".c, float input)",
            "double prog(const float *x)", [("x", "input", 32)], 1,
            seeds[stem]["computes"], summation_program(stem), [f"bench/error/programs/{stem}.c"], stem,
            extra="Not library code: the algorithm of bench/error/programs/" + stem + ".c\n"
                  "with a float input array (FPGen's inputs are floats).")

    for p in MESCHACH_PROGRAMS:
        src, sources, funcs = meschach_program(p)
        params = p["params"]
        ret = not any(r == "output" for _, r, _ in params)
        proto = p["body"].splitlines()[0]
        add(p["stem"], p["name"], "meschach", p["routine"], proto, params, p["outputs"], p["computes"], src,
            sources, p["stem"], s3fp=p.get("s3fp"), upstream_funcs=funcs)

    for stem, name, routine, key, seed_stem, call, computes in GSL_PROGRAMS:
        src, sources = gsl_program(key, call, a.double_accumulators)
        acc = "double (long double replaced, FPGen's footnote 11)" if a.double_accumulators \
            else "long double (as upstream)"
        add(stem, name, "gsl", routine, "double prog(const float *w, const float *x)",
            [("w", "input", 4), ("x", "input", 4)], 1, computes, src, sources, seed_stem,
            upstream_funcs=[routine], extra=f"Accumulators: {acc}.")

    doc = {
        "description": "FPGen's benchmark programs on the upstream code (Meschach 1.2b, GSL 2.7.1) and FPGen's "
                       "summation loops, float inputs as in FPGen; generated by "
                       "bench/error/upstream/make_programs.py. seed.* are the seed's Table 3 figures of the "
                       "corresponding program (seed_program), copied from bench/error/programs/programs.json.",
        "seed": spec["seed"],
        "relative_error": spec["relative_error"],
        "input_range": [-100, 100],
        "input_type": "float",
        "upstream": {"meschach": MESCHACH_VERSION, "gsl": GSL_VERSION,
                     "gsl_accumulators": "double" if a.double_accumulators else "long double"},
        "seed_budget_seconds": spec["seed_budget_seconds"],
        "seed_thresholds": spec["seed_thresholds"],
        "tools": spec["tools"],
        "programs": progs,
    }
    (out / "programs.json").write_text(json.dumps(doc, indent=1) + "\n")
    print(f"wrote {len(progs)} programs and programs.json to {out}")


if __name__ == "__main__":
    main()
