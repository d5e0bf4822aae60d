import pytest

import damelab


@pytest.fixture(scope="session")
def international():
    return damelab.Variant.load("international")


@pytest.fixture(scope="session")
def frisian():
    return damelab.Variant.load("frisian")
