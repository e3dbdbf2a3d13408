; A select whose other operand was never written (a void function's
; result): the executor reads every operand and stops the path; so must the
; fast path (tests/run.rs, the_fast_path_changes_no_result).
@n = private constant [2 x i8] c"x\00"
declare void @klee_make_symbolic(i8*, i64, i8*)
define void @v() {
  ret void
}
define i32 @main() {
entry:
  %x = alloca i32
  %p = bitcast i32* %x to i8*
  call void @klee_make_symbolic(i8* %p, i64 4, i8* getelementptr ([2 x i8], [2 x i8]* @n, i64 0, i64 0))
  %r = call i32 bitcast (void ()* @v to i32 ()*)()
  %s = select i1 true, i32 7, i32 %r
  %xv = load i32, i32* %x
  %c = icmp eq i32 %xv, %s
  br i1 %c, label %a, label %b
a:
  ret i32 1
b:
  ret i32 0
}
