"""``python -m rummykit``: the ``rummykit`` command, where the script is not on PATH."""

from .cli.main import main

if __name__ == "__main__":  # pragma: no cover
    main(prog_name="rummykit")
