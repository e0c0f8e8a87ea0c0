"""`cheatdsl serve`: the browser practice table (seed 003) for any rulebook, with lessons, served locally.

    app = create_app(build_catalog([]))   # every shipped profile; a Starlette app, which uvicorn runs

`catalog` holds the rulebooks the server was started with, `session` one game or lesson on the
server, `present` what a seat may be shown of it, `lessons` the prepared lessons, `app` the JSON API
and the page under `static/`.
"""

from .app import create_app
from .catalog import Catalog, build_catalog

__all__ = ["Catalog", "build_catalog", "create_app"]
