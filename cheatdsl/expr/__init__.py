"""Rule formulas: parsed by Lark, checked for names and types, evaluated by our own code."""

from .ast import Expr
from .context import ClaimFacts, FactUnavailable, FormulaContext, TableFacts
from .evaluate import Closure, compile_expression
from .parse import parse_expression
from .types import Scope, Type, check_expression

__all__ = ["ClaimFacts", "Closure", "Expr", "FactUnavailable", "FormulaContext", "TableFacts", "parse_expression",
           "Scope", "Type", "check_expression", "compile_expression"]
