"""Stage 2, expr: the expression language. Parse (Lark, LALR) -> resolve and type-check ->
Python source -> callable. Imports errors and loading (for the grammar file) only.

Evaluation never walks a parse tree: every expression is compiled once, at load time,
into a Python function ``f(S, me, L)`` (state, acting player, local bindings).
"""
from .parser import parse, ExprError, MAX_LENGTH, MAX_DEPTH
from .compiler import Names, Compiler, Compiled, compile_expression

__all__ = ["parse", "ExprError", "MAX_LENGTH", "MAX_DEPTH",
           "Names", "Compiler", "Compiled", "compile_expression"]
