"""The ASGI entry point servers import (`api.asgi:app`); settings come from the environment."""

from kaiten.api.app import create_app
from kaiten.api.logging_setup import configure_logging
from kaiten.api.parent_death import die_with_parent
from kaiten.api.settings import Settings

die_with_parent()

settings = Settings.from_env()
configure_logging(settings.log_level)
app = create_app(settings=settings)
