"""Exceptions raised for bad input. Each message names the offending value and what is allowed."""


class BalanceError(ValueError):
    """Base class: a request the toolkit cannot honour. The CLI prints these without traceback."""


class RulesError(BalanceError):
    """A rule variant option has a bad value (player count, legion table, unknown option...)."""


class StrategyError(BalanceError):
    """An unknown strategy name, or a strategy that returned an illegal action."""


class RunError(BalanceError):
    """A bad run request: non-positive number of games, bad seed, jobs or chunk size."""
