from desktop_dedup import interrupts

interrupts.defer()  # a Ctrl-C while the program loads is raised once it has (interrupts.py)

from desktop_dedup.cli import main  # noqa: E402

raise SystemExit(main())
