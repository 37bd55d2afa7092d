"""Sushi Go! (game id `sushi-go`): the original pick-and-pass game for 2 to 5 players.

See `game.py` for the rule decisions this implementation makes where the rules leave a choice.
"""
