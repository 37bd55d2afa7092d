"""Dim Sum Derby (game id ``dim-sum-derby``): carts, a five-dish table, secret yen cards, Derby cards."""
