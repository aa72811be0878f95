"""Every test session (the engine's tests/ and each game's games/<game>/tests/) keeps the
fields it fits and the transfers it measures in a folder of its own (sim.field.fitted_folder),
never the user's: a field fitted there would change what ``-s strong`` seats."""
import os

import pytest


@pytest.fixture(autouse=True, scope="session")
def own_fitted_fields(tmp_path_factory):
    before = os.environ.get("BALANCE_FIELDS")
    os.environ["BALANCE_FIELDS"] = str(tmp_path_factory.mktemp("fields"))
    yield
    if before is None:
        os.environ.pop("BALANCE_FIELDS", None)
    else:
        os.environ["BALANCE_FIELDS"] = before
