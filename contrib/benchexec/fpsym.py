# BenchExec tool-info module for fpsym (https://github.com/sosy-lab/benchexec,
# doc/tool-integration.md). BenchExec looks for it as benchexec/tools/fpsym.py:
# copy (or link) this file there; scripts/bootstrap links it into the BenchExec
# of target/competition-venv.
#
# It runs `fpsym run` on an SV-COMP task with the task's property file and
# reads the verdict from the line `sv-comp: ...` fpsym prints. Only the
# unreach-call property is verified. The task's data model is passed on:
# LP64 compiles for x86-64, ILP32 for i386 with SSE2 float arithmetic
# (`--data-model ILP32`); other models are reported as unsupported.

import benchexec.result as result
import benchexec.tools.template


class Tool(benchexec.tools.template.BaseTool2):
    """fpsym: symbolic execution of C programs with exact IEEE-754 semantics."""

    # fpsym's own limit (--max-time, wall-clock) as a share of BenchExec's
    # limits: it does one thing at a time (the engine, or one solver process
    # while the engine waits), so its CPU time stays below its wall time
    # (measured on held-out tasks: 52-56 s of CPU in 60-63 s). Stopping
    # itself first keeps what it found; a run BenchExec kills says nothing.
    SHARE = 0.85

    def executable(self, tool_locator):
        return tool_locator.find_executable("fpsym")

    def name(self):
        return "fpsym"

    def version(self, executable):
        return self._version_from_tool(executable, line_prefix="fpsym")

    def cmdline(self, executable, options, task, rlimits):
        data_model = (task.options or {}).get("data_model", "LP64")
        if data_model not in ("LP64", "ILP32"):
            raise benchexec.tools.template.UnsupportedFeatureException(
                f"fpsym supports the LP64 and ILP32 data models, not {data_model}"
            )
        if len(task.input_files) != 1:
            raise benchexec.tools.template.UnsupportedFeatureException(
                "fpsym takes one program file per task"
            )
        cmd = [executable, "run", "--witness", "witness.yml", "--data-model", data_model]
        if task.property_file:
            cmd += ["--property", task.property_file]
        limits = [t for t in (rlimits.cputime, rlimits.walltime) if t]
        if limits and "--max-time" not in options:
            cmd += ["--max-time", f"{self.SHARE * min(limits):.0f}"]
        return cmd + list(options) + list(task.input_files)

    def determine_result(self, run):
        # The last `sv-comp:` line holds: fpsym prints it again when the
        # native check of a claim withdraws the claim.
        verdicts = [
            line[len("sv-comp: ") :].strip()
            for line in run.output
            if line.startswith("sv-comp: ")
        ]
        if verdicts:
            verdict = verdicts[-1]
            if verdict == "true":
                return result.RESULT_TRUE_PROP
            if verdict == "false(unreach-call)":
                return result.RESULT_FALSE_REACH
            if verdict == "unknown":
                return result.RESULT_UNKNOWN
            return f"{result.RESULT_ERROR}({verdict})"
        if run.was_timeout:
            return "TIMEOUT"
        # fpsym's exit codes: 2 an input it refuses (an unsupported construct,
        # a bad property file), 3 an internal error.
        if run.exit_code.value == 2:
            return f"{result.RESULT_ERROR}(input)"
        if run.exit_code.value == 3:
            return f"{result.RESULT_ERROR}(internal)"
        return result.RESULT_ERROR

    def get_value_from_output(self, output, identifier):
        # `paths: 3 completed, ...`, `tests: 3  findings: 1`, ...
        for line in output:
            if line.startswith(identifier):
                return line[len(identifier) :].strip()
        return None
