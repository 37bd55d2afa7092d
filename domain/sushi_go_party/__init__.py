"""Sushi Go Party! (game id `sushi-go-party`): 2-8 players, menus, every card of the party box."""
