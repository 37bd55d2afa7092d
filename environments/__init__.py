"""The four games as research environments: PettingZoo (`pettingzoo_env`) and OpenSpiel (`openspiel_game`).

A driving adapter: it imports the domain and plays it through the engine protocol; nothing in
`domain/` or `services/` imports it. It needs the `[rl]` extras (pettingzoo, gymnasium, open-spiel).
`match.Match` drives one game for both libraries; `games/` holds each game's fixed action space and
observation encoding (documented in each module and in `docs/environments.md`).
"""
