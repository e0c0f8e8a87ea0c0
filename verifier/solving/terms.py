"""The term builders the verifier's encoding calls, by what they make: `ge(a, b)` is `a >= b`, `and_(...)`
is `z3.And(...)`, and so on. Each is the fast version of a shortcut in `shortcuts`, where the plain z3
call it stands for sits beside it: the same terms, made in the same order, without the sort and context
checks z3's operators run on every argument. Every argument is a term of one context, or a Python int
where an integer is compared; anything else goes to z3's own operator, which makes the same term."""

from __future__ import annotations

from .shortcuts import Operand, Term
from .shortcuts import and_fast as and_
from .shortcuts import bool_val_fast as bool_val
from .shortcuts import bool_var_fast as bool_var
from .shortcuts import eq_fast as eq
from .shortcuts import ge_fast as ge
from .shortcuts import gt_fast as gt
from .shortcuts import if_fast as ite
from .shortcuts import implies_fast as implies
from .shortcuts import int_constant_fast as int_constant
from .shortcuts import int_value_fast as int_value
from .shortcuts import int_var_fast as int_var
from .shortcuts import le_fast as le
from .shortcuts import lt_fast as lt
from .shortcuts import minus_fast as minus
from .shortcuts import mod_fast as mod
from .shortcuts import ne_fast as ne
from .shortcuts import not_fast as not_
from .shortcuts import one_if_fast as one_if
from .shortcuts import or_fast as or_
from .shortcuts import plus_fast as plus
from .shortcuts import sum_fast as add
from .shortcuts import sum_nonzero_fast as sum_nonzero
from .shortcuts import times_fast as times

# `z3.And` and `z3.Or` of a list, under the names the state builders and claim queries read.
all_of = and_
any_of = or_

__all__ = ["Operand", "Term", "add", "all_of", "and_", "any_of", "bool_val", "bool_var", "eq", "ge", "gt", "implies",
           "int_constant", "int_value", "int_var", "ite", "le", "lt", "minus", "mod", "ne", "not_", "one_if", "or_",
           "plus", "sum_nonzero", "times"]
