"""The web server: FastAPI app factory, settings, API routes, pages and static files."""

from sheepshead.server.app import create_app
from sheepshead.server.settings import Settings

__all__ = ["Settings", "create_app"]
