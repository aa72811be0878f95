"""The registered games. Adding a game = adding its package and one import of its spec here."""
from .parthian import spec as _parthian  # noqa: F401
from .sunzi import spec as _sunzi  # noqa: F401
from .goofspiel import spec as _goofspiel  # noqa: F401
from .samurai import spec as _samurai  # noqa: F401
from .shuojian import spec as _shuojian  # noqa: F401
