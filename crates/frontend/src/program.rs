//! The build pipeline (clang, llvm-link, opt, llvm-dis), loading with
//! llvm-ir, and [`Program`]: the module with its debug locations, exact
//! special float constants and instruction texts.

use std::collections::{BTreeSet, HashMap};
use std::ffi::OsString;
use std::fmt;
use std::path::{Path, PathBuf};

use llvm_ir::{Constant, DebugLoc, Function, HasDebugLoc, Module};

use crate::debuginfo::{self, DebugInfo, ParamInfo, Variable};
use crate::embedded::{self, HEADERS, RUNTIME};
use crate::special::{walk_constant, walk_instruction, walk_terminator, Dropped, SpecialConst, SpecialFloat};
use crate::text::{self, TextFunction};
use crate::tools::Tool;
use crate::validate::{self, UnsupportedSite};
use crate::{CompileOptions, FrontendError};

/// The flags every C source (the program's and the runtime's) is compiled
/// with for analysis: the code-generation flags shared with the native
/// replay build ([`crate::NATIVE_FLAGS`]), then `-disable-O0-optnone` (so
/// that `opt -mem2reg` runs), IR output, and `-fno-discard-value-names`
/// (names only: a range for parameter `x` finds it by its IR name).
fn fixed_flags() -> Vec<&'static str> {
    let mut f = vec!["-fno-discard-value-names"];
    f.extend(crate::NATIVE_FLAGS);
    f.extend(["-Xclang", "-disable-O0-optnone", "-emit-llvm", "-c"]);
    f
}

/// A source location from the module's debug information.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Loc {
    /// The file name as clang recorded it (the path given on its command
    /// line: relative to [`Loc::directory`] unless absolute).
    pub file: String,
    /// The directory clang ran in, when recorded.
    pub directory: Option<String>,
    /// The line, from 1.
    pub line: u32,
    /// The column, from 1; 0 when unknown.
    pub column: u32,
}

impl Loc {
    /// The location llvm-ir read from an instruction's `!dbg`.
    pub fn from_debugloc(d: &DebugLoc) -> Loc {
        Loc {
            file: d.filename.clone(),
            directory: d.directory.clone(),
            line: d.line,
            column: d.col.unwrap_or(0),
        }
    }

    /// The file's path: [`Loc::file`] joined to [`Loc::directory`] when
    /// relative.
    pub fn path(&self) -> PathBuf {
        match &self.directory {
            Some(dir) if Path::new(&self.file).is_relative() => Path::new(dir).join(&self.file),
            _ => PathBuf::from(&self.file),
        }
    }
}

impl fmt::Display for Loc {
    /// `file:line:column` (`file:line` when the column is unknown).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}", self.file, self.line)?;
        if self.column != 0 {
            write!(f, ":{}", self.column)?;
        }
        Ok(())
    }
}

/// Special constants of one function: per block, per instruction (the
/// terminator last).
type FunctionSpecials = Vec<Vec<Vec<SpecialConst>>>;

/// A loaded, validated program.
///
/// Instructions are addressed as (function name, block index, instruction
/// index) into `module.functions[..].basic_blocks[block]`: index `i <
/// instrs.len()` is `instrs[i]`, index `instrs.len()` is the terminator.
///
/// llvm-ir keeps no value for `x86_fp80`, `fp128`, `half` and `bfloat`
/// constants (`Constant::Float(Float::X86_FP80)` etc. are unit variants, so
/// such constants even compare equal to each other); get their exact bits
/// from [`Program::special_const`] or [`Program::special_consts`]. It keeps
/// the low 64 bits of wider integer constants: get their values from
/// [`Program::int_const`].
pub struct Program {
    /// The linked module (after `opt -mem2reg`). Treat it as read-only: the
    /// special constant tables refer into it.
    pub module: Module,
    sources: Vec<PathBuf>,
    diagnostics: String,
    text: Vec<TextFunction>,
    func_index: HashMap<String, usize>,
    specials: Vec<FunctionSpecials>,
    global_specials: HashMap<String, Vec<SpecialConst>>,
    by_address: HashMap<usize, SpecialConst>,
    /// Wide integer constants' values by address (None: read as two
    /// different values in two places, so not known).
    wide_ints: HashMap<usize, Option<u128>>,
    runtime_functions: BTreeSet<String>,
    unsupported: Vec<UnsupportedSite>,
    debug: DebugInfo,
}

impl fmt::Debug for Program {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Program")
            .field("module", &self.module.name)
            .field("functions", &self.module.functions.len())
            .field("sources", &self.sources)
            .field("runtime_functions", &self.runtime_functions)
            .finish_non_exhaustive()
    }
}

impl Program {
    /// Every use of a construct the executor does not support, in module
    /// order, with its location and text. They are not errors: a path that
    /// reaches one stops there.
    pub fn unsupported_sites(&self) -> &[UnsupportedSite] {
        &self.unsupported
    }

    /// The program is compiled for i386 (the ILP32 data model: 4-byte
    /// pointers and `long`), not x86-64.
    pub fn ilp32(&self) -> bool {
        self.module.target_triple.as_deref().is_some_and(is_i386)
    }

    /// The function definition named `name`.
    pub fn function(&self, name: &str) -> Option<&Function> {
        self.func_index.get(name).map(|&i| &self.module.functions[i])
    }

    /// The function declaration (no body: an external function) named `name`.
    pub fn declaration(&self, name: &str) -> Option<&llvm_ir::function::FunctionDeclaration> {
        self.module.func_declarations.iter().find(|d| d.name == name)
    }

    /// The user's inputs given to [`crate::build`] (`.c`, `.bc`, `.ll`), in
    /// order; empty after [`crate::load`].
    pub fn sources(&self) -> &[PathBuf] {
        &self.sources
    }

    /// Warnings clang and llvm-link printed while building (verbatim; empty
    /// if none). Errors are [`FrontendError`]s instead.
    pub fn diagnostics(&self) -> &str {
        &self.diagnostics
    }

    /// Whether the definition of `function` comes from fpsym's C runtime
    /// (rather than from the program, whose own definitions win).
    pub fn is_runtime_function(&self, function: &str) -> bool {
        self.runtime_functions.contains(function)
    }

    /// The names of the runtime functions linked in, sorted.
    pub fn runtime_functions(&self) -> impl Iterator<Item = &str> {
        self.runtime_functions.iter().map(String::as_str)
    }

    /// The source location of instruction `instr` of block `block` of
    /// `function` (the terminator is `instrs.len()`), if it has one.
    pub fn location(&self, function: &str, block: usize, instr: usize) -> Option<Loc> {
        let bb = self.function(function)?.basic_blocks.get(block)?;
        let dl = match instr.cmp(&bb.instrs.len()) {
            std::cmp::Ordering::Less => bb.instrs[instr].get_debug_loc(),
            std::cmp::Ordering::Equal => bb.term.get_debug_loc(),
            std::cmp::Ordering::Greater => return None,
        };
        dl.as_ref().map(Loc::from_debugloc)
    }

    /// The instruction as llvm-dis prints it (for messages).
    pub fn instruction_text(&self, function: &str, block: usize, instr: usize) -> Option<&str> {
        let i = *self.func_index.get(function)?;
        self.text[i].blocks.get(block)?.get(instr).map(String::as_str)
    }

    /// The `x86_fp80`, `fp128`, `half` and `bfloat` constants among the
    /// operands of instruction `instr` of block `block` of `function`, in
    /// textual order: operands as llvm-dis prints them (binary operations
    /// and compares: op0, op1; select: condition, true, false; store: value,
    /// pointer; call: callee, then arguments; phi: incoming values;
    /// insertvalue: aggregate, element), nested constants (aggregates,
    /// constant expressions) in the order they are printed. Empty when
    /// there are none or the instruction does not exist.
    pub fn special_consts(&self, function: &str, block: usize, instr: usize) -> &[SpecialConst] {
        self.func_index
            .get(function)
            .and_then(|&i| self.specials[i].get(block))
            .and_then(|b| b.get(instr))
            .map_or(&[], Vec::as_slice)
    }

    /// The special constants in the initializer of global variable `global`
    /// (numbered globals by their number), in textual order: array
    /// elements and struct fields in order.
    pub fn global_special_consts(&self, global: &str) -> &[SpecialConst] {
        self.global_specials.get(global).map_or(&[], Vec::as_slice)
    }

    /// The exact value of a special float constant of this module, given a
    /// reference into `self.module` (e.g. reached from an instruction's
    /// operand or a global's initializer, through aggregates and constant
    /// expressions). llvm-ir shares one `ConstantRef` per LLVM constant,
    /// and LLVM has one constant per (type, value), so the constant's
    /// address identifies its value. `None` for other constants and for
    /// constants not inside `self.module` (e.g. a clone of one).
    pub fn special_const(&self, constant: &Constant) -> Option<SpecialConst> {
        self.by_address.get(&(constant as *const Constant as usize)).copied()
    }

    /// The value of an integer constant of this module, zero-extended: its
    /// bits for widths up to 64, the value read from the text for widths
    /// 65 to 128 (llvm-ir keeps only the low 64 bits of those). `None` for
    /// other constants, for wider integers, and for a wide constant whose
    /// text could not be paired with llvm-ir's constant (the caller must
    /// then refuse it, never use the truncated value).
    pub fn int_const(&self, constant: &Constant) -> Option<u128> {
        match constant {
            Constant::Int { bits, value } if *bits <= 64 => Some(*value as u128),
            Constant::Int { .. } => self
                .wide_ints
                .get(&(constant as *const Constant as usize))
                .copied()
                .flatten(),
            _ => None,
        }
    }

    /// The parameters of `function` as C declares them (names, types with
    /// struct members and their bit offsets, the pointee of a pointer),
    /// from the debug information; None when `function` has none. These
    /// are C's parameters, not the IR's: a struct passed by value may be
    /// several IR parameters (`p.coerce0`, `p.coerce1`, one per eightbyte
    /// on x86-64 SysV) or a pointer (`byval`), and a returned struct adds a
    /// leading `sret` pointer.
    pub fn param_info(&self, function: &str) -> Option<Vec<ParamInfo>> {
        self.debug.params(function)
    }

    /// The C variable that `function` keeps in its `alloca` named `alloca`
    /// (from its `llvm.dbg.declare`), when the debug information has it.
    pub fn local_variable(&self, function: &str, alloca: &str) -> Option<Variable> {
        self.debug.local(function, alloca)
    }

    /// The C variable behind global variable `global`, when the debug
    /// information has it.
    pub fn global_variable(&self, global: &str) -> Option<Variable> {
        self.debug.global(global)
    }
}

fn io_err(path: &Path) -> impl FnOnce(std::io::Error) -> FrontendError + '_ {
    move |source| FrontendError::Io {
        path: path.to_path_buf(),
        source,
    }
}

/// `path` made absolute (against the current directory).
fn absolute(path: &Path) -> Result<PathBuf, FrontendError> {
    std::path::absolute(path).map_err(io_err(path))
}

/// Compiles one C file; clang's warnings are appended to `diagnostics`.
fn compile(input: &Path, output: &Path, extra: &[OsString], diagnostics: &mut String) -> Result<(), FrontendError> {
    let mut args: Vec<OsString> = fixed_flags().iter().map(OsString::from).collect();
    args.extend(extra.iter().cloned());
    args.push(input.into());
    args.push("-o".into());
    args.push(output.into());
    let out = Tool::Clang.run(&args, None)?;
    let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
    if !out.status.success() {
        return Err(FrontendError::Clang {
            input: input.to_path_buf(),
            status: out.status.code(),
            stderr,
        });
    }
    diagnostics.push_str(&stderr);
    Ok(())
}

/// The flags of `cflags` that choose the target (`-m32`, `-msse2`,
/// `-mfpmath=sse`, ...): the runtime is compiled for the program's.
fn target_flags(cflags: &[String]) -> Vec<OsString> {
    cflags
        .iter()
        .filter(|f| {
            matches!(f.as_str(), "-m32" | "-m64")
                || ["-msse", "-mno-sse", "-mfpmath", "--target", "-march"]
                    .iter()
                    .any(|p| f.starts_with(p))
        })
        .map(OsString::from)
        .collect()
}

/// The runtime linked into one module in `dir`, compiled there (for the
/// target `target` chooses) unless `dir` already holds it for the same
/// sources, flags and clang.
fn runtime_bitcode(dir: &Path, target: &[OsString]) -> Result<PathBuf, FrontendError> {
    embedded::write_files(dir, RUNTIME)?;
    let runtime = dir.join("runtime.bc");
    let key_path = dir.join("runtime.key");
    let mut key = format!("{}\n{:?}\n{target:?}\n", Tool::Clang.find()?.display(), fixed_flags());
    for (name, contents) in RUNTIME {
        key.push_str(&format!("{name}\n{contents}\n"));
    }
    if runtime.is_file() && std::fs::read(&key_path).ok().as_deref() == Some(key.as_bytes()) {
        return Ok(runtime);
    }
    let _ = std::fs::remove_file(&key_path);
    let outputs: Vec<PathBuf> = RUNTIME
        .iter()
        .map(|(name, _)| dir.join(Path::new(name).with_extension("bc")))
        .collect();
    let results: Vec<Result<(), FrontendError>> = std::thread::scope(|scope| {
        let handles: Vec<_> = RUNTIME
            .iter()
            .zip(&outputs)
            .map(|((name, _), out)| {
                let src = dir.join(name);
                let mut extra: Vec<OsString> = vec!["-w".into()];
                extra.extend(target.iter().cloned());
                scope.spawn(move || compile(&src, out, &extra, &mut String::new()))
            })
            .collect();
        handles
            .into_iter()
            .map(|h| h.join().expect("runtime compile thread"))
            .collect()
    });
    results.into_iter().collect::<Result<Vec<()>, _>>()?;
    let mut args: Vec<OsString> = outputs.into_iter().map(OsString::from).collect();
    args.extend(["-o".into(), runtime.clone().into()]);
    Tool::Link.run_ok(&args, None)?;
    std::fs::write(&key_path, key).map_err(io_err(&key_path))?;
    Ok(runtime)
}

pub(crate) fn build(inputs: &[PathBuf], opts: &CompileOptions, workdir: &Path) -> Result<Program, FrontendError> {
    if inputs.is_empty() {
        return Err(FrontendError::NoInputs);
    }
    let workdir = absolute(workdir)?;
    let include = workdir.join("include");
    let obj = workdir.join("obj");
    std::fs::create_dir_all(&obj).map_err(io_err(&obj))?;
    embedded::write_files(&include, HEADERS)?;

    let mut user_flags: Vec<OsString> = Vec::new();
    for dir in &opts.include_dirs {
        user_flags.push("-I".into());
        user_flags.push(dir.into());
    }
    user_flags.push("-I".into());
    user_flags.push(include.clone().into());
    for d in &opts.defines {
        user_flags.push(format!("-D{d}").into());
    }
    user_flags.extend(opts.cflags.iter().map(OsString::from));

    let mut diagnostics = String::new();
    let mut modules: Vec<PathBuf> = Vec::new();
    for (n, input) in inputs.iter().enumerate() {
        let ext = input.extension().and_then(|e| e.to_str()).unwrap_or("");
        match ext {
            // Preprocessed C (`.i`, SV-COMP's form): clang compiles it as
            // cpp-output, like a `.c` file without the preprocessor.
            "c" | "i" => {
                let stem = input
                    .file_stem()
                    .map(|s| s.to_string_lossy().into_owned())
                    .unwrap_or_default();
                let out = obj.join(format!("{n}-{stem}.bc"));
                compile(input, &out, &user_flags, &mut diagnostics)?;
                modules.push(out);
            }
            "bc" | "ll" => {
                std::fs::metadata(input).map_err(io_err(input))?;
                modules.push(input.clone());
            }
            _ => return Err(FrontendError::UnsupportedInput { path: input.clone() }),
        }
    }

    let linked = obj.join("linked.bc");
    let mut args: Vec<OsString> = modules.iter().map(OsString::from).collect();
    args.extend(["-o".into(), linked.clone().into()]);
    diagnostics.push_str(&String::from_utf8_lossy(&Tool::Link.run_ok(&args, None)?.stderr));

    let mut runtime_dir = None;
    let to_optimize = if opts.runtime {
        let dir = workdir.join("fpsym-runtime");
        let runtime = runtime_bitcode(&dir, &target_flags(&opts.cflags))?;
        // Only what the program needs; a program's own (strong) definition
        // is kept over the runtime's weak one.
        let with_runtime = obj.join("with-runtime.bc");
        let args: Vec<OsString> = vec![
            "--only-needed".into(),
            linked.into(),
            runtime.into(),
            "-o".into(),
            with_runtime.clone().into(),
        ];
        diagnostics.push_str(&String::from_utf8_lossy(&Tool::Link.run_ok(&args, None)?.stderr));
        runtime_dir = Some(dir);
        with_runtime
    } else {
        linked
    };

    let program_bc = workdir.join("program.bc");
    let args: Vec<OsString> = vec![
        "-mem2reg".into(),
        to_optimize.into(),
        "-o".into(),
        program_bc.clone().into(),
    ];
    Tool::Opt.run_ok(&args, None)?;
    let out = Tool::Dis.run_ok(&[program_bc.as_os_str(), "-o".as_ref(), "-".as_ref()], None)?;
    let ir_text = String::from_utf8_lossy(&out.stdout).into_owned();
    let program_ll = workdir.join("program.ll");
    std::fs::write(&program_ll, &ir_text).map_err(io_err(&program_ll))?;

    finish(&workdir, inputs, &ir_text, diagnostics, runtime_dir)
}

/// Loads `workdir/program.bc` (with its text `workdir/program.ll`) as
/// [`build`] made it for `inputs`, the runtime's functions recognised from
/// `workdir/fpsym-runtime`.
pub(crate) fn reuse(inputs: &[PathBuf], workdir: &Path) -> Result<Program, FrontendError> {
    let workdir = absolute(workdir)?;
    let program_ll = workdir.join("program.ll");
    let ir_text = std::fs::read_to_string(&program_ll).map_err(io_err(&program_ll))?;
    let runtime_dir = Some(workdir.join("fpsym-runtime")).filter(|d| d.is_dir());
    finish(&workdir, inputs, &ir_text, String::new(), runtime_dir)
}

/// The program of `workdir/program.bc` (text `ir_text`) built from `inputs`.
fn finish(
    workdir: &Path,
    inputs: &[PathBuf],
    ir_text: &str,
    diagnostics: String,
    runtime_dir: Option<PathBuf>,
) -> Result<Program, FrontendError> {
    let module = load_module(&workdir.join("program.bc"), false)?;
    let mut program = assemble(module, ir_text)?;
    program.sources = inputs.to_vec();
    program.diagnostics = diagnostics;
    if let Some(dir) = runtime_dir {
        program.runtime_functions = program
            .module
            .functions
            .iter()
            .filter(|f| {
                f.debugloc
                    .as_ref()
                    .is_some_and(|d| Loc::from_debugloc(d).path().starts_with(&dir))
            })
            .map(|f| f.name.clone())
            .collect();
    }
    Ok(program)
}

pub(crate) fn load(path: &Path) -> Result<Program, FrontendError> {
    let is_text = path.extension().is_some_and(|e| e == "ll");
    std::fs::metadata(path).map_err(io_err(path))?;
    let ir_text = if is_text {
        let bc = Tool::As
            .run_ok(&[path.as_os_str(), "-o".as_ref(), "-".as_ref()], None)?
            .stdout;
        Tool::Dis.run_ok(&["-", "-o", "-"], Some(&bc))?.stdout
    } else {
        Tool::Dis
            .run_ok(&[path.as_os_str(), "-o".as_ref(), "-".as_ref()], None)?
            .stdout
    };
    let module = load_module(path, is_text)?;
    assemble(module, &String::from_utf8_lossy(&ir_text))
}

/// Loads a module with llvm-ir, turning its errors and panics into
/// [`FrontendError::Load`].
fn load_module(path: &Path, is_text: bool) -> Result<Module, FrontendError> {
    let result = std::panic::catch_unwind(|| {
        if is_text {
            Module::from_ir_path(path)
        } else {
            Module::from_bc_path(path)
        }
    });
    match result {
        Ok(Ok(m)) => Ok(m),
        Ok(Err(message)) => Err(FrontendError::Load {
            path: path.to_path_buf(),
            message,
        }),
        Err(panic) => {
            let message = panic
                .downcast_ref::<String>()
                .cloned()
                .or_else(|| panic.downcast_ref::<&str>().map(|s| s.to_string()))
                .unwrap_or_else(|| "llvm-ir panicked".to_string());
            Err(FrontendError::Load {
                path: path.to_path_buf(),
                message,
            })
        }
    }
}

/// An i386 target triple (`i386`, `i486`, `i586`, `i686`): the ILP32 data
/// model.
pub fn is_i386(triple: &str) -> bool {
    ["i386", "i486", "i586", "i686"].iter().any(|p| triple.starts_with(p))
}

/// The function is compiled for SSE2 (its `target-features` has `+sse2`).
fn has_sse2(f: &Function) -> bool {
    f.function_attributes.iter().any(|a| match a {
        llvm_ir::function::FunctionAttribute::StringAttribute { kind, value } => {
            kind == "target-features" && value.split(',').any(|x| x == "+sse2")
        }
        _ => false,
    })
}

fn internal(message: String) -> FrontendError {
    FrontendError::Internal { message }
}

/// Checks the target, lines the text up with the module, validates, and
/// recovers the special constants.
fn assemble(module: Module, ir_text: &str) -> Result<Program, FrontendError> {
    if let Some(triple) = &module.target_triple {
        if !triple.is_empty() && !triple.starts_with("x86_64") && !is_i386(triple) {
            return Err(FrontendError::Target { triple: triple.clone() });
        }
        if is_i386(triple) {
            // i386's default float arithmetic is x87's (64-bit significands
            // in registers), which fpsym does not model; with SSE2 it is
            // x86-64's (`--data-model ILP32` compiles so).
            if let Some(f) = module.functions.iter().find(|f| !has_sse2(f)) {
                return Err(FrontendError::X87 {
                    function: f.name.clone(),
                });
            }
        }
    }
    let text = text::parse_module(ir_text).map_err(internal)?;
    check_shape(&module, &text.functions)?;
    // Unsupported constructs are kept, not rejected: the executor stops a
    // path that reaches one (code that never runs must not stop a run).
    let unsupported: Vec<UnsupportedSite> = validate::validate(&module, &text.functions);

    let mut by_address: HashMap<usize, SpecialConst> = HashMap::new();
    let mut wide_ints: HashMap<usize, Option<u128>> = HashMap::new();
    let mut record = |found: Vec<(&llvm_ir::ConstantRef, Dropped)>,
                      consts: &[SpecialConst],
                      text: &str,
                      what: &dyn Fn() -> String|
     -> Result<(), FrontendError> {
        let (floats, ints): (Vec<_>, Vec<_>) = found.into_iter().partition(|(_, d)| matches!(d, Dropped::Float(_)));
        pair_wide_ints(&ints, text, &mut wide_ints);
        let found: Vec<(&llvm_ir::ConstantRef, SpecialFloat)> = floats
            .into_iter()
            .filter_map(|(c, d)| match d {
                Dropped::Float(t) => Some((c, t)),
                Dropped::WideInt(_) => None,
            })
            .collect();
        let kinds: Vec<SpecialFloat> = found.iter().map(|(_, t)| *t).collect();
        let text_kinds: Vec<SpecialFloat> = consts.iter().map(|c| c.ty).collect();
        if kinds != text_kinds {
            return Err(internal(format!(
                "{}: llvm-ir has special constants {kinds:?}, the text {text_kinds:?}",
                what()
            )));
        }
        for ((c, _), value) in found.iter().zip(consts) {
            let addr = c.as_ref() as *const Constant as usize;
            if let Some(old) = by_address.insert(addr, *value) {
                if old != *value {
                    return Err(internal(format!(
                        "{}: one constant read as {:#x} and {:#x}",
                        what(),
                        old.bits,
                        value.bits
                    )));
                }
            }
        }
        Ok(())
    };

    let mut specials = Vec::with_capacity(module.functions.len());
    for (func, tf) in module.functions.iter().zip(&text.functions) {
        let mut fs: FunctionSpecials = Vec::with_capacity(func.basic_blocks.len());
        for (b, (bb, tb)) in func.basic_blocks.iter().zip(&tf.blocks).enumerate() {
            let mut bs = Vec::with_capacity(tb.len());
            for (i, line) in tb.iter().enumerate() {
                let consts = text::scan_specials(line)
                    .map_err(|e| internal(format!("@{} block {b} instruction {i}: {e}", func.name)))?;
                let mut found = Vec::new();
                match bb.instrs.get(i) {
                    Some(inst) => walk_instruction(inst, &mut |c, t| found.push((c, t))),
                    None => walk_terminator(&bb.term, &mut |c, t| found.push((c, t))),
                }
                let what = || format!("@{} block {b} instruction {i} `{line}`", func.name);
                record(found, &consts, line, &what)?;
                bs.push(consts);
            }
            fs.push(bs);
        }
        specials.push(fs);
    }

    if text.globals.len() != module.global_vars.len() {
        return Err(internal(format!(
            "{} global variables in llvm-ir, {} in the text",
            module.global_vars.len(),
            text.globals.len()
        )));
    }
    let mut global_specials = HashMap::new();
    for (g, tg) in module.global_vars.iter().zip(&text.globals) {
        let name = name_string(&g.name);
        if name != tg.name {
            return Err(internal(format!("global @{name} is @{} in the text", tg.name)));
        }
        let consts = text::scan_specials(&tg.text).map_err(|e| internal(format!("global @{name}: {e}")))?;
        let mut found = Vec::new();
        if let Some(init) = &g.initializer {
            walk_constant(init, &mut |c, t| found.push((c, t)));
        }
        record(found, &consts, &tg.text, &|| format!("global @{name}"))?;
        if !consts.is_empty() {
            global_specials.insert(name, consts);
        }
    }

    let func_index = module
        .functions
        .iter()
        .enumerate()
        .map(|(i, f)| (f.name.clone(), i))
        .collect();
    Ok(Program {
        module,
        sources: Vec::new(),
        diagnostics: String::new(),
        text: text.functions,
        func_index,
        specials,
        global_specials,
        by_address,
        wide_ints,
        runtime_functions: BTreeSet::new(),
        unsupported,
        debug: debuginfo::parse(ir_text),
    })
}

/// Pairs the wide integer constants llvm-ir found in one instruction or
/// initializer with the values read from its text, when their number,
/// widths and low 64 bits agree; otherwise records none of them (the
/// executor then refuses those constants rather than use a truncated
/// value).
fn pair_wide_ints(
    found: &[(&llvm_ir::ConstantRef, Dropped)],
    text: &str,
    wide_ints: &mut HashMap<usize, Option<u128>>,
) {
    if found.is_empty() {
        return;
    }
    let read = text::scan_wide_ints(text);
    let agrees = read.len() == found.len()
        && found.iter().zip(&read).all(|((c, d), (w, v))| match (c.as_ref(), d) {
            (Constant::Int { bits, value }, Dropped::WideInt(_)) => bits == w && *value == *v as u64,
            _ => false,
        });
    if agrees {
        for ((c, _), (_, v)) in found.iter().zip(read) {
            let known = wide_ints
                .entry(c.as_ref() as *const Constant as usize)
                .or_insert(Some(v));
            if *known != Some(v) {
                *known = None;
            }
        }
    }
}

fn name_string(name: &llvm_ir::Name) -> String {
    match name {
        llvm_ir::Name::Name(s) => s.to_string(),
        llvm_ir::Name::Number(n) => n.to_string(),
    }
}

/// The text's functions, blocks and instructions must line up one to one
/// with llvm-ir's.
fn check_shape(module: &Module, text: &[TextFunction]) -> Result<(), FrontendError> {
    if module.functions.len() != text.len() {
        return Err(internal(format!(
            "{} function definitions in llvm-ir, {} in the text",
            module.functions.len(),
            text.len()
        )));
    }
    for (f, tf) in module.functions.iter().zip(text) {
        if f.name != tf.name {
            return Err(internal(format!("function @{} is @{} in the text", f.name, tf.name)));
        }
        if f.basic_blocks.len() != tf.blocks.len() {
            return Err(internal(format!(
                "@{}: {} blocks in llvm-ir, {} in the text",
                f.name,
                f.basic_blocks.len(),
                tf.blocks.len()
            )));
        }
        for (b, (bb, tb)) in f.basic_blocks.iter().zip(&tf.blocks).enumerate() {
            if bb.instrs.len() + 1 != tb.len() {
                return Err(internal(format!(
                    "@{} block {b}: {} instructions and a terminator in llvm-ir, {} lines in the text",
                    f.name,
                    bb.instrs.len(),
                    tb.len()
                )));
            }
        }
    }
    Ok(())
}
