"""The expression language: parse (Lark, LALR) -> resolve and type-check -> Python source -> callable.

Evaluation never walks a parse tree: every expression is compiled once, at load time,
into a Python function ``f(S, me, L)`` (state, acting player, local bindings).
"""
from .parser import parse, ExprError, MAX_LENGTH, MAX_DEPTH
from .compiler import Names, Compiler, Compiled, compile_expression

__all__ = ["parse", "ExprError", "MAX_LENGTH", "MAX_DEPTH",
           "Names", "Compiler", "Compiled", "compile_expression"]
