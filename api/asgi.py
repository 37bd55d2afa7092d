"""The ASGI entry point servers import (`api.asgi:app`); settings come from the environment."""

from api.app import create_app
from api.logging_setup import configure_logging
from api.settings import Settings

settings = Settings.from_env()
configure_logging(settings.log_level)
app = create_app(settings=settings)
