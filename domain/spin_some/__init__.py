"""Sushi Go! Spin Some for Dim Sum: one player at a time, a spinning table of six steamer baskets."""
