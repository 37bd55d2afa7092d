"""The REST contract as the OpenAPI document states it: every payload typed, every error listed."""
