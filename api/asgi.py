"""The ASGI entry point servers import (`api.asgi:app`); settings come from the environment."""

from api.app import create_app

app = create_app()
