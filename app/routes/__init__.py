"""HTTP routes: HTML pages (lobby, waiting room, table, replay) and the JSON API."""
