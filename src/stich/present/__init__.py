"""What every front end shares: the languages and the choice of one, players' initials,
and cards named in words in a card style.

The command line (:mod:`stich.cli`), the server (:mod:`stich.server`) and the pages
(:mod:`stich.web`) import these from here, never from one another; this package sits
below all three and above the games, and loads no front end's libraries (no Typer, Rich,
FastAPI or Jinja2): :mod:`stich.present.languages`, :mod:`stich.present.initials`,
:mod:`stich.present.styles`.
"""
