"""The help page's foot says which search kernels run, and which build of the 7x6 search."""

import pytest

from c4tui.app.screens.help import kernels_line
from c4tui.engine.kernels import library


@pytest.mark.skipif(library.library() is None, reason="installed without C kernels")
def test_the_help_page_names_the_build_of_the_7x6_search():
    lib = library.library()
    assert lib is not None
    build = library.SEARCH_BUILDS[lib.c4_search_build()]
    assert kernels_line().strip() == f"Search kernels: compiled C (7x6 search: {build})."
